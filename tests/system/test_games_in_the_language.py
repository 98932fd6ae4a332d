"""Whole games typed in Estonian, Russian and Ukrainian: every hand, a refusal, the standings, the sheet,
`rules show`, the log, an undo and the finish of bridge, Lambapea, Tablanette, Marjas, Skid, Canasta and
Thousand, each output searched for English words of the program's and the rulesets' own texts
(tests/system/english.py). Ids, names, numbers and card codes may stay; the words a table types do too."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run
from tests.system.english import english_in
from tests.system.test_evening_languages import play_evening

LANGS = ["et", "ru", "uk"]
PLAYERS = ["ann", "bob", "cid", "dan", "cat"]   # cat: a name in the example of `new`

# Each game: the players (or new's arguments), the hands as typed, a hand refused, whether `finish` ends it.
GAMES: dict[str, tuple[list[str], list[list[str]], list[str], bool]] = {
    "bridge": (["ann", "bob", "cid", "dan"],
               [["contract=2HX", "by=S", "tricks=8"], ["contract=3NT", "by=E", "tricks=7"],
                ["contract=1S", "by=E", "tricks=7"]],
               ["contract=2H", "by=S", "tricks=14"], True),
    "lambapea": (["ann", "bob", "cid"],
                 [["soloist=bob", "soloist_points=61"], ["soloist=cid", "soloist_points=10", "soloist_tricks=0"],
                  ["soloist=ann", "soloist_points=25"], ["soloist=ann", "soloist_points=120",
                                                          "soloist_tricks=all"]],
                 ["soloist=cid", "soloist_points=23", "soloist_tricks=0"], True),
    "tablanette": (["ann", "bob"],
                   [["tablanette=42,16", "cards=28,24", "honours=10,10", "d10=ann", "c2=ann"]],
                   ["tablanette=42,16", "cards=28,24", "honours=10,9", "d10=ann", "c2=ann"], True),
    "marjas": (["ann", "bob", "cid", "dan"],
               [["trump=ann", "ann.extra=1", "bob.extra=1", "matt=ann", "last=bob"],
                ["trump=none", "matt=tie", "last=dan"]],
               ["trump=ann", "extra=9,0", "matt=ann", "last=ann"], True),
    "skid": (["ann", "bob", "cid"],
             [["out=ann", "bob.cards=KH 7C AD", "cid.cards=QS 6S"],
              ["bridge=cid", "reshuffles=2", "ann.cards=QD KC", "bob.cards=AS 6H 7D", "cid.cards=10H"]],
             ["out=ann", "bob.cards=JS", "cid.cards=JS"], True),
    "canasta": (["ann", "bob", "cid", "dan"],
                [["melded=220,50", "natural=1,0", "mixed=1,0", "red3=1,1,1,0", "out=ann", "hand=55,85"]],
                ["melded=220,50", "natural=1,0", "mixed=1,0", "red3=1,1,1,0", "out=ann", "hand=55,85",
                 "bob.red3=9"], True),
    "thousand": (["ann", "bob", "cid"],
                 [["bidder=cid", "bid=200", "points=10,10,100", "marriages=-,H,CS"],
                  ["bidder=cid", "bid=250", "points=20,10,90", "marriages=-,D,C/H", "nines=y,n,n"]],
                 ["bidder=cid", "bid=100", "points=30,30,59"], True),
}


def outputs(cli: Callable[..., Run], lang: str, game: str) -> dict[str, str]:
    """Everything a table sees of one game typed in `lang`: each command's output, by what was typed."""
    players, hands, refused, finish = GAMES[game]
    said: dict[str, str] = {}

    def run(*args: str, ok: bool = True) -> None:
        r = cli("--lang", lang, *args)
        assert (r.code == 0) == ok, (args, r.out, r.err)
        said[" ".join(args)] = r.out + r.err

    run("new", game, *players)
    for hand in hands:
        run("hand", *hand)
        run("standings")
    run("hand", *refused, ok=False)
    run("undo")
    run("redo")
    run("sheet")
    run("rules", "show", game)
    if finish:
        run("finish")
    run("standings")
    run("sheet")
    run("log")
    return said


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_typed_in_the_language_leaves_no_english(cli: Callable[..., Run], db: object, lang: str,
                                                               game: str) -> None:
    leaks = {what: found for what, text in outputs(cli, lang, game).items()
             if (found := english_in(text, lang, PLAYERS))}
    shown = "\n".join(f"`{what}`: {found}" for what, found in leaks.items())
    assert not leaks, f"English words in {game} ({lang}):\n{shown}"


# At the table (`play`): an edit asked field by field shows the hand's new breakdown, and `finish` its
# rules' breakdown and events, in the language (both spoke the ruleset's English before).
AT_THE_TABLE = {
    "et": ["new marjas ann bob cid dan", "trump=ann ann.extra=1 bob.extra=1 matt=ann last=bob",
           "edit 1", "", "", "", "2", "", "",   # trump, matt, last kept; ann's side 2 auxiliary trumps; Record
           "quit"],
    "ru": ["new bridge ann bob cid dan", "contract=2HX by=S tricks=8", "contract=1S by=E tricks=7",
           "finish", "да", "нет", "quit"],
    "uk": ["new skid ann bob cid", "out=ann bob.cards=KH 7C AD cid.cards=QS 6S",
           "edit 1", "", "", "", "", "", "", "quit"],   # ann went out: her cards follow, not asked
}


@pytest.mark.parametrize("lang", sorted(AT_THE_TABLE))
def test_edit_and_finish_at_the_table_speak_the_language(lang: str, tmp_path: Path) -> None:
    text = play_evening(lang, AT_THE_TABLE[lang], tmp_path)
    found = english_in(text, lang, PLAYERS)
    assert not found, f"English words {found} in:\n{text}"


def test_a_game_s_name_in_the_language_is_not_its_english_name() -> None:
    """`Пики`, not `Пики (Spades)`: the game's name in the language, as the standings' title shows it."""
    from scorepad.rules.registry import load
    from scorepad.rules.translations import translate

    assert translate(load("spades"), "ru").name == "Пики"
