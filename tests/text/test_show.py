"""`rules show` reads as prose for a player; `--formulas` adds the sources for a ruleset writer."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from scorepad.rules.prose import formula_words
from scorepad.rules.registry import load
from tests.conftest import Run

RULESETS = sorted(p.stem for p in (Path(__file__).parents[2] / "rulesets").glob("*.toml"))


@pytest.mark.parametrize("rid", RULESETS)
def test_rules_show_is_prose(cli: Callable[..., Run], rid: str) -> None:
    r = cli("rules", "show", rid)
    assert r.code == 0, r.err
    assert "{" not in r.out and "}" not in r.out
    assert not re.search(r"decision \d", r.out, re.IGNORECASE)
    assert not re.search(r"\((S|A)\d+\)|\b[A-Z]{2}-\d\b|digest", r.out)   # the digests and their numbered points
    assert "Derived values:" not in r.out
    formulas = cli("rules", "show", rid, "--formulas").out
    rs = load(rid, [])
    sources = [s.points.source for s in rs.scores] + [c.ok.source for c in rs.checks if c.total_of is None]
    sources += [let.formula.source for let in (*rs.hand_lets, *rs.player_lets, *rs.side_lets)]
    assert sources and all(src in formulas for src in sources), "--formulas shows every score, check and let formula"
    code = [src for src in sources if re.search(r"[a-z_]\(|==|[<>]| if ", src)]
    assert not any(src in r.out for src in code), "without --formulas no formula source is shown"


def test_placeholders_are_explained(cli: Callable[..., Run]) -> None:
    out = cli("rules", "show", "spades").out
    assert "A player may bid blind nil only when the team is at least 200 behind" in out
    assert "abs(" not in out and "10 * contract" not in out
    out = cli("rules", "show", "canasta").out
    assert "The red threes add up to N, but the pack has 4" in out      # a number of the hand: a letter
    assert "card points are multiples of 5\n" in out            # the aside "(melded 35, hand 5)" is left out
    formulas = cli("rules", "show", "spades", "--formulas").out
    assert "10 * contract if made else -10 * contract" in formulas
    assert "message = {me} may bid blind nil" in formulas


def test_formula_words() -> None:
    assert formula_words("sum(all_tricks)") == "the total of everyone's tricks"
    assert formula_words("max(others_score) - score") == "the highest of the others' score - score"
    assert formula_words("a + 7 * (b + c)") == "a + (7 × (b + c))"
    assert formula_words("out != none") == "out is given"
