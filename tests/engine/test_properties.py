"""Property tests: random input to the card notation, the assignment parser, the formula language and
the whole CLI never gives a traceback; exit status is 0, 1 or 2; a refused command stores nothing.

Example counts are kept modest so the suite stays fast; raise them locally with
HYPOTHESIS_PROFILE=thorough (see the profile below).
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorepad.app.games import type_and_score
from scorepad.engine.game import make_game
from scorepad.errors import ScorepadError, UserError
from scorepad.rules import cards as cardlib
from scorepad.rules.expr import BUILTINS, compile_formula
from scorepad.rules.registry import load
from tests.conftest import Run, dump
from tests.speed import within

settings.register_profile("default", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# text a person might type, and text nobody should: digits, card letters in three alphabets,
# suit symbols, separators, quotes, format and SQL characters, emoji, right-to-left, NUL, surrogates
ALPHABET = st.sampled_from([
    *list("0123456789 ,;.=-+*/%_'\"{}[]()\\\t\nAJQKTSEÄВДКТjqkäSHDC♠♥♦♣♤♡xXnN"),
    "10", "nil", "pass", "blind", "ann", "bob", "тысяча", "😀", "שלום", "\x00", "\u202e",
])
TYPED = st.lists(ALPHABET, max_size=30).map("".join) | st.text(max_size=40)


# --------------------------------------------------------------------------- cards

@given(TYPED, st.sampled_from(sorted(cardlib.DECKS)))
def test_card_notation_parses_or_refuses(text: str, deck_name: str) -> None:
    deck = cardlib.deck_named(deck_name)
    try:
        cards = cardlib.parse_cards(text, deck)
    except UserError as exc:
        assert exc.message
        return
    for card in cards:
        assert card in deck
        assert cardlib.parse_card(card) == card  # canonical text parses to itself
    cardlib.check_copies([cards], deck)


@given(st.lists(st.sampled_from(["2", "10", "J", "Q", "K", "A", "JOKER"]), max_size=8),
       st.lists(st.sampled_from(["", "S", "H", "D", "C", "♠", "♥", "♦", "♣"]), min_size=8, max_size=8),
       st.sampled_from([" ", ",", ", ", ";", "  "]))
def test_card_notation_round_trip(ranks: list[str], suits: list[str], sep: str) -> None:
    typed = [r + ("" if r == "JOKER" else s) for r, s in zip(ranks, suits, strict=False)]
    cards = cardlib.parse_cards(sep.join(typed))
    assert cardlib.parse_cards(" ".join(cards)) == cards
    assert len(cards) == len(typed)


# --------------------------------------------------------------------------- assignments

GAMES = {
    "spades": ["ann", "bob", "cat", "dan"],
    "bridge": ["n", "e", "s", "w"],
    "hearts": ["ann", "bob", "cat", "dan"],
    "skid": ["ann", "bob", "cat"],
    "thousand": ["ann", "bob", "cat"],
    "marjas": ["ann", "bob", "cat", "dan"],
}


def _game(rid: str) -> Any:
    rs = load(rid)
    return make_game(rs, GAMES[rid], None, {})


_GAME_CACHE: dict[str, Any] = {}


def game_for(rid: str) -> Any:
    if rid not in _GAME_CACHE:
        _GAME_CACHE[rid] = _game(rid)
    return _GAME_CACHE[rid]


@st.composite
def assignments(draw: st.DrawFn, rid: str) -> list[str]:
    game = game_for(rid)
    fields = list(game.ruleset.fields)
    who = [*game.players, *(s.name for s in game.sides), *game.ruleset.seats, "", "zed", "a"]
    values = st.one_of(TYPED, st.integers(-20, 1000).map(str),
                       st.lists(st.integers(-3, 30).map(str) | st.sampled_from(["nil", "", "x", "blind"]),
                                min_size=1, max_size=6).map(",".join),
                       st.sampled_from(["4HX", "3NT", "7NTXX", "pass", "=", "+1", "-13", "QS 10H A", "yes", "нет"]))
    out = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.integers(0, 3))
        field = draw(st.sampled_from(fields) | TYPED)
        value = draw(values)
        if kind == 0:
            out.append(f"{field}={value}")
        elif kind == 1:
            out.append(f"{draw(st.sampled_from(who) | TYPED)}.{field}={value}")
        elif kind == 2:
            out.append(draw(TYPED))
        else:
            out.append(f"{field[: draw(st.integers(1, 4))]}={value}")
    return out


@pytest.mark.parametrize("rid", sorted(GAMES))
def test_assignments_score_or_refuse(rid: str) -> None:
    game = game_for(rid)
    from scorepad.engine.game import initial_state

    state = initial_state(game)

    @given(assignments(rid))
    def check(args: list[str]) -> None:
        start = time.perf_counter()
        try:
            _raw, hand, result = type_and_score(game, state, args)
        except UserError as exc:  # exit status 2 at the CLI
            assert exc.message and all(isinstance(p, str) for p in exc.problems)
        else:
            assert len(result.points) == len(game.sides)
            json.dumps(hand, ensure_ascii=False)  # what is stored must be JSON
        assert within(time.perf_counter() - start, 1.0)

    check()


# --------------------------------------------------------------------------- formulas

NAMES = ["x", "y", "xs", "t", "word", "none"]
ENV = {"x": 3, "y": -2.5, "xs": [1, 2, 3], "t": {"a": 1, "3": [4, 5]}, "word": "blind", "none": None}
FUNCS = sorted(BUILTINS)


def expressions() -> st.SearchStrategy[str]:
    leaves = st.one_of(st.sampled_from([*NAMES, "true", "false", "'a'", "'blind'", "__class__", "''"]),
                       st.integers(-10**16, 10**16).map(str), st.floats(allow_nan=True).map(repr))

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        binop = st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "//", "%", "**", "==", "<", ">=", "in",
                                                  "not in", "and", "or", "if x else", ".", "|", "<<", "@"]),
                          inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})")
        call = st.tuples(st.sampled_from([*FUNCS, "open", "__import__", "getattr"]),
                         st.lists(inner, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})")
        sub = st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]")
        lst = st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]")
        comp = st.tuples(inner, inner).map(lambda t: f"[{t[0]} for v in {t[1]} if v]")
        unary = st.tuples(st.sampled_from(["-", "not ", "+", "~"]), inner).map("".join)
        return st.one_of(binop, call, sub, lst, comp, unary)

    return st.recursive(leaves, extend, max_leaves=12) | TYPED


@given(expressions())
def test_formulas_compile_and_run_or_refuse(source: str) -> None:
    start = time.perf_counter()
    try:
        formula = compile_formula(source, "score[0].points", NAMES)
    except ScorepadError as exc:
        assert exc.message.startswith("score[0].points")
        return
    try:
        value = formula(dict(ENV))
    except ScorepadError as exc:
        assert exc.message.startswith("score[0].points")
    else:
        json.dumps(value)  # only plain values come out: numbers, words, lists, tables, none
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            assert abs(value) <= 10**15
    assert within(time.perf_counter() - start, 1.0)


# --------------------------------------------------------------------------- the whole CLI

SPADES_ARGS = st.lists(st.sampled_from(["bid=4,3,3,3", "tricks=5,3,3,2", "bid=3,3,3,3", "tricks=4,3,3,3",
                                         "ann.bid=nil", "bid=blind,3,3,3", "tricks=13,0,0,0"]) | TYPED,
                       max_size=4)


@st.composite
def commands(draw: st.DrawFn) -> list[str]:
    kind = draw(st.sampled_from(["hand", "hand", "hand", "edit", "undo", "new", "standings", "sheet", "use",
                                 "finish", "games", "season", "player", "rules", "verify", "junk"]))
    if kind == "hand":
        return ["hand", *draw(SPADES_ARGS), *draw(st.sampled_from([[], ["--json"], ["--game", "1"], ["--game", "x"]]))]
    if kind == "edit":
        return ["edit", draw(st.sampled_from(["1", "2", "0", "-1", "99", "x"])), *draw(SPADES_ARGS)]
    if kind == "undo":
        return ["undo", *draw(st.sampled_from([[], ["--game", "2"], ["--game", "zz"]]))]
    if kind == "new":
        return ["new", draw(st.sampled_from(["spades", "hearts", "skid", "nosuch", "spades:short", "spades:nosuch"])
                            | TYPED), *draw(st.lists(TYPED, max_size=5)),
                *draw(st.sampled_from([[], ["--opt", "target=300"], ["--opt", "x"], ["--team", "a=b"]]))]
    if kind in ("standings", "sheet"):
        return [kind, *draw(st.sampled_from([[], ["--json"], ["--game", "3"]]))]
    if kind == "use":
        return ["use", draw(st.sampled_from(["1", "2", "0", "x"]) | TYPED)]
    if kind == "season":
        return ["season", *draw(st.sampled_from([[], ["--format", "csv"], ["--format", "nope"],
                                                  ["--since", "2026-13-01"], ["use"]]))]
    if kind == "player":
        return ["player", draw(TYPED)]
    if kind == "rules":
        return ["rules", draw(st.sampled_from(["show", "list", "check"])), *draw(st.lists(TYPED, max_size=2))]
    if kind == "junk":
        return draw(st.lists(TYPED, max_size=4))
    return [kind]


def test_cli_random_commands(cli: Callable[..., Run], db: Path) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0

    @settings(max_examples=int(os.environ.get("SCOREPAD_CLI_EXAMPLES", "120")))
    @given(commands())
    def check(args: list[str]) -> None:
        assume(not any(a in ("rules",) for a in args[:1]) or "check" not in args[1:2] or
               all(not Path(a).exists() for a in args[2:]))
        before = dump(db)
        r = cli(*args)
        assert r.code in (0, 1, 2), (args, r.code, r.err)
        assert "Traceback" not in r.out + r.err, (args, r.err)
        assert "internal error" not in r.err, (args, r.err)
        if r.code == 2:
            assert dump(db) == before, f"refused {args} but the database changed"

    check()
    assert cli("verify").code == 0


# --------------------------------------------------------------------------- names

NASTY_NAMES = ["O'Brien", 'say "hi"', "a;DROP TABLE games;--", "Robert'); DROP TABLE hands;--", "😀🃏",
               "אבי", "محمد", "Zoë", "Юлия", "x%sy{0}", "back\\slash"]
# control characters and bidi overrides change what a terminal shows: refused (scorepad.names)
REFUSED_NAMES = ["\u202eevil\u202c", "tab\tname"]


def test_nasty_player_and_game_names_are_stored_and_shown_intact(cli: Callable[..., Run], db: Path) -> None:
    players = NASTY_NAMES[:4]
    game_name = "Friday's \"game\"; 🂡 שבת"
    r = cli("new", "hearts", *players, "--name", game_name, "--json")
    assert r.code == 0, r.err
    gid = json.loads(r.out)["game"]
    data = json.loads(cli("standings", "--json").out)
    assert [s["players"] for s in data["sides"]] == [[p] for p in players]
    assert data["name"] == game_name
    listed = json.loads(cli("games", "--json").out)
    assert listed[0]["name"] == game_name and listed[0]["players"] == players
    # a hand typed with those names (name.field=...) and the queen given by name
    r = cli("hand", f"{players[0]}.hearts=5", f"{players[1]}.hearts=4", f"{players[2]}.hearts=3",
            f"{players[3]}.hearts=1", f"queen={players[2]}")
    assert r.code == 0, r.err
    for p in players:
        assert p in r.out
    sheet = cli("sheet", "--json")
    assert sheet.code == 0
    text = cli("standings")
    assert all(p in text.out for p in players)
    con = sqlite3.connect(db)
    stored = json.loads(con.execute("SELECT players FROM games WHERE id = ?", (int(gid),)).fetchone()[0])
    assert stored == players and con.execute("SELECT count(*) FROM hands").fetchone()[0] == 1
    con.close()
    for name in NASTY_NAMES[4:]:  # every other nasty name as a player of a second game
        others = [name, "b", "c", "d"]
        r = cli("new", "hearts", *others, "--name", name, "--json")
        assert r.code == 0, (name, r.err)
        assert json.loads(r.out)["sides"][0]["players"] == [name.strip()]
        assert json.loads(r.out)["name"] == name
    for name in REFUSED_NAMES:
        r = cli("new", "hearts", name, "b", "c", "d")
        assert r.code == 2 and "control character" in r.err, (name, r.err)
    assert cli("verify").code == 0


NAME_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Cf", "Zl", "Zp")), min_size=1, max_size=20).filter(
    lambda s: s.strip() == s and s.strip() and not s.startswith("-") and "," not in s and "=" not in s)


def test_random_names_round_trip(cli: Callable[..., Run]) -> None:
    @settings(max_examples=40)
    @given(st.lists(NAME_TEXT, min_size=4, max_size=4, unique_by=str.lower), NAME_TEXT)
    def check(players: list[str], name: str) -> None:
        r = cli("new", "hearts", *players, "--name", name, "--json")
        if r.code != 0:  # e.g. two names equal once case-folded: refused, never a traceback
            assert r.code == 2 and "Traceback" not in r.err, r.err
            return
        data = json.loads(r.out)
        assert [s["players"][0] for s in data["sides"]] == players
        assert data["name"] == name
        shown = json.loads(cli("standings", "--json", "--game", data["game"]).out)
        assert [s["name"] for s in shown["sides"]] == players

    check()
