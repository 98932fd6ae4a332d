"""The [fields] keys that say how values relate: applies_if, total, bidding, default_from.

Library level (the functions the prompt calls) and one CLI transcript per refusal; the numbers come
from the rules of the games (13 tricks in Spades, 10 Sitaratas deals of one card first, ...).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from scorepad.engine.assignments import (
    RawHand,
    bid_checks,
    check_bids,
    check_field_names,
    field_applies,
    fill_total,
    split_assignments,
    type_bids,
    type_hand,
)
from scorepad.engine.game import Game, initial_state, make_game
from scorepad.errors import HandError, RulesetError
from scorepad.rules.loader import load_text
from scorepad.rules.registry import load
from tests.conftest import Run, dump


def game(ruleset: str, players: list[str], variant: str | None = None) -> Game:
    return make_game(load(ruleset, (), variant), players)


def typed(g: Game, *args: str) -> tuple[dict[str, object], RawHand]:
    raw = split_assignments(g, list(args))
    hand, missing = type_hand(g, raw, [True] * len(g.players), initial_state(g))
    assert not missing, missing
    return hand, raw


# ------------------------------------------------------------------ total

def test_the_last_value_follows_from_the_total_in_every_form() -> None:
    g = game("spades", ["n", "e", "s", "w"])
    for args in (["bid=4,3,3,3", "tricks=5,3,3"], ["bid=4,3,3,3", "n.tricks=5", "e.tricks=3", "s.tricks=3"],
                 ["bid=4,3,3,3", "tricks=5,3,,3"]):
        hand, raw = typed(g, *args)
        assert sum(hand["tricks"]) == 13
    hand, raw = typed(g, "bid=4,3,3,3", "tricks=5,3,3")
    assert hand["tricks"] == [5, 3, 3, 2]
    assert raw.worked_out == ["w.tricks=2"]
    hand, raw = typed(g, "bid=4,3,3,3", "tricks=5,3,,3")
    assert hand["tricks"] == [5, 3, 2, 3]


def test_a_total_that_cannot_be_reached_is_refused_with_the_numbers() -> None:
    g = game("spades", ["n", "e", "s", "w"])
    with pytest.raises(HandError) as exc:
        typed(g, "bid=4,3,3,3", "tricks=5,5,5")
    assert "w.tricks would have to be -2 for the tricks to add up to 13" in exc.value.message
    raw = split_assignments(g, ["bid=4,3,3,3", "tricks=5,3,3,3"])
    hand, _ = type_hand(g, raw, [True] * 4, initial_state(g))
    from scorepad.engine.scoring import apply_hand

    with pytest.raises(HandError) as exc:
        apply_hand(g, initial_state(g), hand)
    assert exc.value.message == "the tricks must add up to 13, they add up to 14"


def test_two_values_left_out_are_both_missing() -> None:
    g = game("spades", ["n", "e", "s", "w"])
    raw = split_assignments(g, ["bid=4,3,3,3", "n.tricks=5", "e.tricks=3"])
    _, missing = type_hand(g, raw, [True] * 4, initial_state(g))
    assert [(m.field, m.who) for m in missing] == [("tricks", 2), ("tricks", 3)]


def test_fill_total_library_function() -> None:
    g = game("spades", ["n", "e", "s", "w"])
    fdef = g.ruleset.fields["tricks"]
    assert fill_total(g, fdef, [5, 3, 3, None], [True] * 4, {}) == [5, 3, 3, 2]
    assert fill_total(g, fdef, [5, None, 3, None], [True] * 4, {}) is None
    assert fill_total(g, fdef, [9, 9, None, 0], [True] * 4, {}) is None          # would be -5
    assert fill_total(g, g.ruleset.fields["bid"], [1, 2, 3, None], [True] * 4, {}) is None   # no total
    # Sitaratas: the total is the cards of this deal, from the schedule and hand_no
    s = game("sitaratas", ["a", "b", "c"])
    tricks = s.ruleset.fields["tricks"]
    assert fill_total(s, tricks, [1, 0, None], [True] * 3, {"hand_no": 5}) == [1, 0, 2]   # 3 cards in deal 5


def test_a_total_that_is_none_means_no_total_for_this_hand() -> None:
    g = game("bezique", ["a", "b", "c"])
    raw = split_assignments(g, ["brisques=4,4", "c.brisques=4"])
    hand, _ = type_hand(g, raw, [True] * 3, initial_state(g))
    assert hand["brisques"] == [4, 4, 4]          # three players: no fixed total, nothing is filled in


# ------------------------------------------------------------------ applies_if

def test_a_field_that_does_not_apply_is_not_missing_and_takes_its_default() -> None:
    g = game("bridge", ["N", "E", "S", "W"])
    hand, _ = typed(g, "contract=pass")
    assert hand["by"] is None and hand["tricks"] is None and hand["honors"] is None
    raw = split_assignments(g, ["contract=4H"])
    _, missing = type_hand(g, raw, [True] * 4, initial_state(g))
    assert {m.field for m in missing} == {"by", "tricks"}


def test_a_value_typed_for_a_field_that_does_not_apply_is_refused(cli: Callable[..., Run], db: Path) -> None:
    assert cli("new", "skid", "a", "b", "c").code == 0
    before = dump(db)
    r = cli("hand", "bridge=a", "jack=yes", "a.cards=K", "b.cards=9H", "c.cards=AS")
    assert r.code == 2
    assert "jack does not apply to this hand: it is typed only when out is given" in r.err
    assert dump(db) == before


def test_field_applies_library_function() -> None:
    g = game("skid", ["a", "b", "c"])
    jack = g.ruleset.fields["jack"]
    assert field_applies(g, jack, {"out": "a"}) is True
    assert field_applies(g, jack, {"out": None, "bridge": "b"}) is False
    assert field_applies(g, g.ruleset.fields["reshuffles"], {}) is True
    lp = game("lambapea", ["a", "b", "c"])
    st = lp.ruleset.fields["soloist_tricks"]
    assert field_applies(lp, st, {"soloist": "a", "soloist_points": 70}) is False
    assert field_applies(lp, st, {"soloist": "a", "soloist_points": 120}) is True
    assert field_applies(lp, st, {"soloist": "a", "soloist_points": 20}) is True
    assert field_applies(lp, st, {"soloist": "a"}) is True          # not known yet: ask
    assert field_applies(lp, lp.ruleset.fields["tricks"], {"soloist": "pass"}) is True
    assert field_applies(lp, lp.ruleset.fields["tricks"], {"soloist": "b"}) is False


# ------------------------------------------------------------------ checks a prompt re-asks

def test_check_field_names_follows_lets() -> None:
    g = game("spades", ["n", "e", "s", "w"])
    by_id = {c.id: c for c in g.ruleset.checks}
    assert check_field_names(g, by_id["tricks_total"]) == {"tricks"}
    b = game("bridge", ["N", "E", "S", "W"])
    checks = {c.id: c for c in b.ruleset.checks}
    # result_range uses the let `taken` (tricks or contract level + result) and `played` (contract)
    assert check_field_names(b, checks["result_range"]) == {"contract", "tricks", "result"}


# ------------------------------------------------------------------ bidding

def test_bid_time_checks_and_typing_bids() -> None:
    g = game("sitaratas", ["a", "b", "c"])
    assert {c.id for c in bid_checks(g)} == {"dealer_bid"}
    state = initial_state(g)
    # a bid over the cards dealt is refused by the bid field itself (its max is the deal's size), as it is typed
    with pytest.raises(HandError, match=r"a\.bid must be 0-1, not 2"):
        type_bids(g, split_assignments(g, ["bid=2,0,0"]), [True] * 3, state)
    raw = split_assignments(g, ["bid=1,0,0"])
    hand, missing = type_bids(g, raw, [True] * 3, state)
    assert missing == []
    # deal 1 has one card each: bids adding up to 1 are refused, naming the dealer (a deals first)
    problems = check_bids(g, state, hand)
    assert problems == ["the bids add up to 1, the number of tricks; the dealer (a) bids last and may not bid 1"]
    hand, _ = type_bids(g, split_assignments(g, ["bid=1,1,0"]), [True] * 3, state)
    assert check_bids(g, state, hand) == []
    with pytest.raises(HandError) as exc:
        type_bids(g, split_assignments(g, ["bid=1,1,0", "tricks=1,0,0"]), [True] * 3, state)
    assert "tricks is typed after the play" in exc.value.message
    _, missing = type_bids(g, split_assignments(g, ["a.bid=1"]), [True] * 3, state)
    assert [(m.field, m.who) for m in missing] == [("bid", 1), ("bid", 2)]


def test_bidding_fields_of_the_bundled_bidding_games() -> None:
    expect = {"spades": {"bid", "blind_bid"}, "bridge": {"contract", "by"}, "thousand": {"bidder", "bid"},
              "sitaratas": {"bid"}, "euchre": {"makers", "alone"}, "pitch": {"pitcher", "bid"}}
    for rid, names in expect.items():
        assert {n for n, f in load(rid).fields.items() if f.bidding} == names, rid
    t = game("thousand", ["a", "b", "c"])
    assert [c.id for c in bid_checks(t)] == ["bid_standard"]


# ------------------------------------------------------------------ the loader

BASE = """
format = 1
[game]
id = "t"
name = "T"
[players]
min = 2
max = 4
"""


@pytest.mark.parametrize(("fields", "words"), [
    ('[fields.x]\ntotal = 13\n', "only a number field of each player or side"),
    ('[fields.x]\nscope = "player"\ntype = "bool"\ntotal = 1\n', "only a number field"),
    ('[fields.x]\nscope = "player"\ntotal = "sum(all_x)"\n', "uses the field x itself"),
    ('[fields.x]\napplies_if = "y > 0"\n[fields.y]\napplies_if = "x > 0"\n', "depend on each other"),
    ('[fields.x]\nbidding = true\napplies_if = "y > 0"\n[fields.y]\ntype = "int"\n', "a bidding field cannot depend on y"),
    ('[fields.x]\nbidding = "yes"\n', "must be true or false"),
    ('[fields.x]\napplies_if = "nosuch > 1"\n', "unknown name 'nosuch'"),
    ('[fields.x]\ndefault = 1\ndefault_from = "2"\n', "a default or a default_from, not both"),
])
def test_loader_refuses_bad_field_relations(fields: str, words: str) -> None:
    with pytest.raises(RulesetError) as exc:
        load_text(BASE + fields, "t.toml")
    assert any(words in p for p in exc.value.problems), exc.value.problems


def test_a_variant_removes_a_total_by_its_check_id() -> None:
    text = BASE + ('[fields.x]\nscope = "player"\ntotal = 13\n'
                   '[variants.free]\nname = "free"\nremove = ["x_total"]\n')
    assert load_text(text, "t.toml").fields["x"].total is not None
    assert load_text(text, "t.toml", "free").fields["x"].total is None
    assert not any(c.total_of for c in load_text(text, "t.toml", "free").checks)


def test_rules_show_says_it_in_words(cli: Callable[..., Run]) -> None:
    out = cli("rules", "show", "spades").out
    assert "written down with the bids, before the play" in out
    assert "add up to 13; leave one out and scorepad works it out" in out
    assert "{13}" not in out
    out = cli("rules", "show", "skid").out
    assert "only when out is given; otherwise it is not typed" in out


# ------------------------------------------------------------------ default_from and combinations

COMBOS = BASE + """
[fields.melds]
scope = "player"
type = "combos"
[fields.melds.combos]
m = { field = "marriages", points = 20 }
tm = { field = "royals", points = 40 }
quint = { field = "seq", points = 15, adds = "points" }
[fields.marriages]
scope = "player"
default = 0
[fields.royals]
scope = "player"
default = 0
[fields.seq]
scope = "player"
default = 0
"""


def test_combination_lists_in_every_notation() -> None:
    g = make_game(load_text(COMBOS, "t.toml"), ["ann", "bob"])
    hand, _ = typed(g, "ann.melds=2xM 40 quint", "bob.melds=mx2 TM")
    assert hand["marriages"] == [2, 2] and hand["royals"] == [1, 1] and hand["seq"] == [15, 0]
    assert hand["melds"][0] == ["m", "m", "tm", "quint"]
    hand, _ = typed(g, "melds=20 20, -")
    assert hand["marriages"] == [2, 0]
    hand, _ = typed(g, "ann.marriages=3")          # the per-combination fields alone still work
    assert hand["marriages"] == [3, 0]
    for args, words in ((["ann.melds=m 33"], "'33' is not a combination"),
                        (["ann.melds=m", "ann.marriages=2"], "ann.marriages is typed as 2, but ann.melds gives 1"),
                        (["ann.melds=" + " ".join(["m"] * 61)], "more than 60")):
        with pytest.raises(HandError) as exc:
            typed(g, *args)
        assert words in exc.value.message


@pytest.mark.parametrize(("extra", "words"), [
    ('[fields.c]\nscope = "player"\ntype = "combos"\n', "needs a table of combinations"),
    ('[fields.c]\nscope = "player"\ntype = "combos"\ncombos = { a = { field = "nosuch", points = 1 } }\n',
     "'nosuch' is not a field"),
    ('[fields.c]\ntype = "combos"\ncombos = { a = { field = "marriages", points = 1 } }\n',
     "must be a number field of the same scope (hand)"),
    ('[fields.c]\nscope = "player"\ntype = "combos"\ncombos = { "40" = { field = "marriages", points = 1 } }\n',
     "not a number"),
    ('[fields.c]\nscope = "player"\ntype = "combos"\ncombos = { a = { field = "marriages", points = 1, adds = "x" } }\n',
     "must be count"),
    ('[fields.c]\nscope = "player"\ntype = "combos"\ncombos = { a = { field = "marriages" } }\n',
     "every combination has points"),
    ('[fields.c]\nscope = "player"\ncombos = { a = { field = "marriages", points = 1 } }\n',
     "belong to a field of type combos"),
])
def test_loader_refuses_bad_combinations(extra: str, words: str) -> None:
    with pytest.raises(RulesetError) as exc:
        load_text(COMBOS + extra, "t.toml")
    assert any(words in p for p in exc.value.problems), exc.value.problems


def test_default_from_follows_only_from_what_was_typed() -> None:
    g = game("canasta", ["n", "e", "s", "w"])
    raw = split_assignments(g, ["n.melded_cards=K K K K K K K", "hand=0,0", "out=n", "natural=1,0"])
    hand, missing = type_hand(g, raw, [True] * 4, initial_state(g))
    assert hand["melded"][0] == 70
    assert [(m.field, m.who) for m in missing] == [("melded", 1)]   # EW typed nothing to count from
    assert raw.worked_out == ["n+s.melded=70"]
    p = game("pope-joan", ["a", "b", "c"])
    hand, _ = typed(p, "final=yes", "ace=a", "king=a", "queen=b", "jack=c", "pope=c", "left=0,1,2")
    assert hand["pope_held"] == "c"
    hand, _ = typed(p, "turn_up=5S", "pope=c", "left=0,1,2")
    assert hand["pope_held"] is None                # none: nothing follows in an ordinary round


def test_two_fields_worked_out_from_each_other() -> None:
    g = game("calabrasella", ["a", "b", "c"])
    for args in (["soloist=a", "soloist_points=20"], ["soloist=a", "pair_points=15"],
                 ["soloist=a", "soloist_points=20", "pair_points=15"]):
        hand, _ = typed(g, *args)
        assert (hand["soloist_points"], hand["pair_points"]) == (20, 15), args
    with pytest.raises(HandError) as exc:
        typed(g, "soloist=a", "soloist_points=20", "pair_points=14")
    assert "pair_points is typed as 14, but soloist_points gives 15" in exc.value.message
    raw = split_assignments(g, ["soloist=a"])
    _, missing = type_hand(g, raw, [True] * 3, initial_state(g))
    assert [m.field for m in missing] == ["soloist_points", "pair_points"]
