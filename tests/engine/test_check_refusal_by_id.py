"""A [[check]]'s refusal keeps its check and its parts' values, so it is said in the language of the
call whichever texts the hand was scored with: a hand scored with the ruleset itself (its own,
English texts) is refused in Russian where Russian is shown, word for word as the Russian view says it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from scorepad.engine.assignments import split_assignments, whole_hand
from scorepad.engine.game import Game, initial_state, make_game
from scorepad.engine.scoring import apply_hand
from scorepad.errors import HandError
from scorepad.locale import set_language, shown
from scorepad.rules.registry import load
from scorepad.rules.translations import translate


@pytest.fixture
def russian() -> Iterator[None]:
    set_language("ru")
    yield
    set_language(None)


def refused(g: Game, args: Sequence[str]) -> HandError:
    state = initial_state(g)
    with pytest.raises(HandError) as exc:
        apply_hand(g, state, whole_hand(g, state, split_assignments(g, args)))
    return exc.value


CASES = [
    ("ace-clears", ["winner=anna", "loser=anna"], "anna не может в одной игре и выиграть, и проиграть"),
    ("ace-clears", ["place=1,1,2"],
     "каждое место занимает только один игрок (записаны места 1, 1, 2)"),
]


@pytest.mark.parametrize(("rid", "args", "russian_text"), CASES)
def test_a_refusal_scored_with_the_ruleset_itself_is_said_in_the_language_of_the_call(
        russian: Any, rid: str, args: list[str], russian_text: str) -> None:
    own = load(rid)
    players = ["anna", "boris", "kira"]
    exc = refused(make_game(own, players, None, {}), args)
    assert shown(exc.message) == russian_text
    assert [shown(p) for p in exc.problems] == [russian_text]
    viewed = refused(make_game(translate(own, "ru"), players, None, {}), args)
    assert shown(viewed.message) == shown(exc.message)   # the same words as the Russian view scores them


def test_a_refusal_stays_in_the_ruleset_s_own_words_where_no_language_is_asked_for() -> None:
    exc = refused(make_game(load("ace-clears"), ["anna", "boris"], None, {}), ["winner=anna", "loser=anna"])
    assert shown(exc.message) == str(exc.message) == "anna cannot both win and lose the same game"
