"""`scorepad hand bid=4, 3, 3, 3`: the shell splits the list at its spaces; the pieces that continue
a list are read as `play` and the prompt read the same line."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from scorepad.engine.assignments import (
    assignment_words,
    canonical_names,
    list_continued,
    split_assignments,
    type_hand,
)
from scorepad.engine.game import Game, Hand, active_players, initial_state, make_game
from scorepad.errors import HandError
from scorepad.rules.registry import load


def spades() -> Game:
    return make_game(load("spades"), ["ann", "bob", "cat", "dan"], None, {})


def typed(g: Game, args: Sequence[str]) -> Hand:
    state = initial_state(g)
    return type_hand(g, split_assignments(g, args, strict=True), active_players(g, state), state)[0]


WHOLE = ["bid=4,3,3,3", "tricks=5,3,3,2"]


@pytest.mark.parametrize("args", [
    ["bid=4,", "3,", "3,", "3", "tricks=5,3,3,2"],          # `bid=4, 3, 3, 3` split by the shell
    ["bid=4", ",3", ",3", ",3", "tricks=5,", "3,", "3,", "2"],
    ["bid=4", ",", "3,3,3", "tricks=5,3,3,2"],
    ["bid=4,3,", "3,3", "tricks=5,3,3,2"],
])
def test_the_pieces_of_a_list_the_shell_split_are_one_assignment(args: list[str]) -> None:
    g = spades()
    assert typed(g, args) == typed(g, WHOLE)


def test_the_argument_form_reads_a_line_as_play_does() -> None:
    g = spades()
    line = "bid=4, 3, 3, 3 tricks=5,3,3,2"
    assert typed(g, line.split()) == typed(g, assignment_words(line)) == typed(g, WHOLE)


def test_the_text_kept_holds_the_list_as_one_assignment() -> None:
    """What is stored with the hand (and a bid written down) is one assignment per list, each read
    alone by a rename and the same again by the import and verify replay."""
    g = spades()
    raw = split_assignments(g, ["bid=4,", "3,", "3,", "3", "tricks=5", ",3", ",3", ",2"], strict=True)
    assert raw.typed == ["bid=4, 3, 3, 3", "tricks=5 ,3 ,3 ,2"]
    assert split_assignments(g, raw.typed).values == split_assignments(g, WHOLE).values
    assert canonical_names(g, ["заказ=4,", "3,", "3,", "3"]) == ["bid=4, 3, 3, 3"]


def test_list_continued_joins_only_what_continues_a_list() -> None:
    assert list_continued(["bid=4,", "3,", "3,", "3"]) == ["bid=4, 3, 3, 3"]
    assert list_continued(["bid=4", ",3,3,3"]) == ["bid=4 ,3,3,3"]
    assert list_continued(["bid=4", "3"]) == ["bid=4", "3"]              # no comma: not a list going on
    assert list_continued(["3,", "3"]) == ["3,", "3"]                    # nothing before it to continue
    assert list_continued(["bid=4,", "tricks=5"]) == ["bid=4,", "tricks=5"]


@pytest.mark.parametrize(("args", "refused"), [
    (["bid=4,3,3,3", "tricks=5,3,3,2", "3"], "'3' is not an assignment; write field=value (fields: bid, blind_bid, tricks)"),
    (["3,", "bid=4,3,3,3", "tricks=5,3,3,2"], "'3,' is not an assignment; write field=value (fields: bid, blind_bid, tricks)"),
    (["bid=4", "3", "tricks=5,3,3,2"], "bid needs 4 values, one per player in order (ann, bob, cat, dan); got 1"),
])
def test_a_piece_that_is_no_assignment_is_still_refused(args: list[str], refused: str) -> None:
    with pytest.raises(HandError) as exc:
        typed(spades(), args)
    assert exc.value.message == refused
    assert "'3' is not an assignment; write field=value (fields: bid, blind_bid, tricks)" in exc.value.problems or \
        "'3,' is not an assignment; write field=value (fields: bid, blind_bid, tricks)" in exc.value.problems
