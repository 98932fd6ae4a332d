"""What typing a hand says, in the language shown: the refusal of a total that does not add up, the
values worked out (the stored ids kept beside them), and a name's beginning that fits two players
or two sides."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from scorepad.engine.assignments import RawHand, resolve_who, split_assignments, type_hand
from scorepad.engine.game import Game, Hand, active_players, initial_state, make_game
from scorepad.engine.scoring import apply_hand
from scorepad.errors import HandError, UserError
from scorepad.locale import set_language, shown
from scorepad.rules.loader import load_text
from scorepad.rules.registry import load
from scorepad.rules.translations import translate


@pytest.fixture
def interface() -> Iterator[Any]:
    """Set the interface language for a test (as --lang does), English again after it."""
    yield set_language
    set_language(None)


def game(ruleset: str, players: Sequence[str], lang: str | None = None, teams: dict[str, list[str]] | None = None,
         variant: str | None = None) -> Game:
    """A game as a command in `lang` has it: the ruleset's texts in that language."""
    return make_game(translate(load(ruleset, variant=variant), lang), list(players), teams, {})


def typed(g: Game, args: Sequence[str]) -> tuple[RawHand, Hand]:
    state = initial_state(g)
    raw = split_assignments(g, args, strict=True)
    hand, missing = type_hand(g, raw, active_players(g, state), state)
    assert not missing
    return raw, hand


def refusal(g: Game, args: Sequence[str]) -> str:
    """The refusal of a hand as the CLI prints it."""
    with pytest.raises(HandError) as exc:
        apply_hand(g, initial_state(g), typed(g, args)[1])
    return shown(exc.value.message)


# ---------------------------------------------------------------- a total that does not add up

TOTALS = [
    ("spades", "abcd", ["bid=4,3,3,3", "tricks=4,0,4,6"], {
        None: "the tricks must add up to 13, they add up to 14",
        "et": "tihid — kokku peab tulema 13, aga tuleb 14",
        "ru": "взятки — в сумме должно быть 13, а получается 14",
        "uk": "взятки — разом має бути 13, а виходить 14"}),
    ("hearts", "abcd", ["hearts=5,5,5,5", "queen=a"], {
        None: "the hearts must add up to 13, they add up to 20",
        "et": "ärtud — kokku peab tulema 13, aga tuleb 20",
        "ru": "черви — в сумме должно быть 13, а получается 20",
        "uk": "черви — разом має бути 13, а виходить 20"}),
    ("thousand", "abc", ["bidder=a", "bid=100", "points=50,50,50"], {
        None: "the points must add up to 120, they add up to 150",
        "et": "punktid — kokku peab tulema 120, aga tuleb 150",
        "ru": "очки — в сумме должно быть 120, а получается 150",
        "uk": "очки — разом має бути 120, а виходить 150"}),
    ("pinochle", "ab", ["card_points=130,100", "last=a"], {   # a name of two words: no underscore shown
        None: "the card points must add up to 240, they add up to 230",
        "ru": "очки карт — в сумме должно быть 240, а получается 230"}),
]


@pytest.mark.parametrize(("ruleset", "players", "args", "said"), TOTALS, ids=[t[0] for t in TOTALS])
def test_a_total_that_does_not_add_up_is_refused_in_the_language_shown(
        interface: Any, ruleset: str, players: str, args: list[str], said: dict[str | None, str]) -> None:
    for lang, sentence in said.items():
        interface(lang)
        assert refusal(game(ruleset, players, lang), args) == sentence


def test_a_total_refused_while_a_language_is_shown_is_english_with_english_texts(interface: Any) -> None:
    """A game whose ruleset is in English (a command with --json) says the ruleset's own sentence."""
    interface(None)
    g = game("spades", "abcd", "ru")
    assert refusal(g, ["bid=4,3,3,3", "tricks=4,0,4,6"]) == "the tricks must add up to 13, they add up to 14"


def test_a_total_of_a_field_the_language_has_no_name_for_is_said_by_its_id(interface: Any) -> None:
    text = """
format = 1
[game]
id = "tens"
name = "Tens"
[players]
min = 2
max = 2
sides = "individual"
[fields.trick_count]
type = "int"
scope = "player"
min = 0
max = 10
total = "10"
[[score]]
id = "tricks"
per = "player"
label = "tricks"
points = "trick_count"
"""
    interface("uk")
    g = make_game(load_text(text, "tens.toml"), ["a", "b"], None, {})
    assert refusal(g, ["trick_count=5,6"]) == "trick count — разом має бути 10, а виходить 11"


# ---------------------------------------------------------------- the values worked out

def test_worked_out_values_name_fields_as_the_language_shown_and_keep_the_ids(interface: Any) -> None:
    interface("ru")
    g = game("spades", ["аня", "боря", "катя", "даня"], "ru")
    raw, hand = typed(g, ["а.заказ=4", "б.заказ=нил", "к.заказ=3", "д.заказ=3", "взятки=4,0,4"])
    assert hand["tricks"] == [4, 0, 4, 5]
    assert raw.worked_out_shown == ["даня.взятки=5"]
    assert raw.worked_out == ["даня.tricks=5"]      # what the prompt matches, and JSON shows
    interface("et")
    g = game("hearts", "abcd", "et")
    raw, _hand = typed(g, ["ärtud=5,4,3", "emand=a"])
    assert (raw.worked_out_shown, raw.worked_out) == (["d.ärtud=1"], ["d.hearts=1"])
    interface(None)
    g = game("hearts", "abcd")
    raw, _hand = typed(g, ["hearts=5,4,3", "queen=a"])
    assert raw.worked_out_shown == raw.worked_out == ["d.hearts=1"]


def test_a_worked_out_yes_or_no_is_the_word_of_the_language_shown(interface: Any) -> None:
    """A value that follows from the others (default_from) in the words players of the language type."""
    text = """
format = 1
[game]
id = "contract"
name = "Contract"
[players]
min = 2
max = 2
sides = "individual"
[fields.tricks]
type = "int"
scope = "hand"
min = 0
max = 13
[fields.made]
type = "bool"
scope = "hand"
default_from = "tricks >= 7"
[[score]]
id = "made"
per = "player"
label = "made"
points = "10 if made else 0"
[translations.ru.fields.tricks]
names = ["взятки"]
[translations.ru.fields.made]
names = ["выполнен"]
"""
    interface("ru")
    g = make_game(translate(load_text(text, "contract.toml"), "ru"), ["a", "b"], None, {})
    raw, hand = typed(g, ["взятки=8"])
    assert hand["made"] is True
    assert (raw.worked_out, raw.worked_out_shown) == (["made=yes"], ["выполнен=да"])


# ---------------------------------------------------------------- a beginning that fits two

def test_a_beginning_that_fits_two_players_names_them(interface: Any) -> None:
    g = game("hearts", ["ann", "anna", "bo", "bob"])
    with pytest.raises(UserError) as exc:
        resolve_who(g, "an", "player")
    assert exc.value.message == "'an' fits more than one player (ann, anna); type more of the name"
    with pytest.raises(UserError) as exc:
        resolve_who(g, "b", "player")
    assert exc.value.message == "'b' fits more than one player (bo, bob); type more of the name"
    assert [resolve_who(g, t, "player") for t in ("ann", "anna", "annA", "bo", "bob")] == [0, 1, 1, 2, 3]
    with pytest.raises(UserError) as exc:
        resolve_who(g, "cy", "player")
    assert exc.value.message == "'cy' is not a player (ann, anna, bo, bob)"
    with pytest.raises(HandError) as exc:
        typed(g, ["hearts=5,4,3,1", "queen=an"])
    assert exc.value.message == "'an' fits more than one player (ann, anna); type more of the name"
    interface("ru")
    with pytest.raises(UserError) as exc:
        resolve_who(game("hearts", ["ann", "anna", "bo", "bob"], "ru"), "an", "player")
    assert shown(exc.value.message) == "'an' подходит нескольким игрокам (ann, anna); введите больше букв"


def test_a_beginning_that_fits_two_sides_names_them() -> None:
    g = game("spades", ["ann", "bob", "anna", "cy"], teams={"us": ["ann", "bob"], "them": ["anna", "cy"]})
    with pytest.raises(UserError) as exc:
        resolve_who(g, "an", "side")
    assert exc.value.message == "'an' fits more than one side (us, them); type more of the name"
    g = game("spades", ["ann", "bob", "anna", "cy"], teams={"us": ["ann", "anna"], "them": ["bob", "cy"]})
    assert resolve_who(g, "an", "side") == 0        # two partners' names begin so: their side
    g = game("spades", ["ann", "bob", "cy", "dan"], teams={"north": ["ann", "cy"], "nope": ["bob", "dan"]})
    with pytest.raises(UserError) as exc:
        resolve_who(g, "no", "side")
    assert exc.value.message == "'no' fits more than one side (north, nope); type more of the name"
    with pytest.raises(UserError) as exc:
        resolve_who(g, "zed", "side")
    assert exc.value.message == "'zed' is not a side (north, nope)"


# ---------------------------------------------------------------- the other refusals of typing

def test_a_list_of_the_wrong_length_and_a_late_field_are_named_as_the_language_shown(interface: Any) -> None:
    from scorepad.engine.assignments import type_bids

    interface("ru")
    g = game("spades", "abcd", "ru")
    with pytest.raises(HandError) as exc:
        split_assignments(g, ["взятки=4,0"], strict=True)
    assert exc.value.message.startswith("взятки — нужно 4 значения") and "tricks" not in exc.value.message
    state = initial_state(g)
    with pytest.raises(HandError) as exc:
        type_bids(g, split_assignments(g, ["заказ=4,3,3,3", "взятки=4,0,4,5"]), active_players(g, state), state)
    assert exc.value.message.startswith("взятки: ") and "tricks" not in exc.value.message
    g = game("bridge", "nesw", "ru")
    with pytest.raises(HandError) as exc:
        split_assignments(g, ["n.контракт=4H"], strict=True)
    assert "контракт=4H" in exc.value.message and "contract" not in exc.value.message
