"""A ruleset that would cost too much to load, compile or score is refused at load, with the reason;
the largest that passes stays within what a table can wait for (bench/worst_ruleset.py measures it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from scorepad.errors import RulesetError
from scorepad.rules.registry import load
from tests.conftest import Run
from tests.rules.worst_rulesets import long_list, many_lets


def test_fifteen_hundred_lets_for_twelve_players_are_refused(tmp_path: Path, cli: Callable[..., Run]) -> None:
    path = tmp_path / "many.toml"
    path.write_text(many_lets(1500), encoding="utf-8")
    r = cli("rules", "check", str(path))
    assert r.code == 2 and "18,0" in r.out + r.err and "at most 1,500 formulas" in r.out + r.err
    with pytest.raises(RulesetError) as refused:
        load(str(path))
    assert any("at most 1,500 formulas" in line for line in refused.value.problems)
    assert cli("new", str(path), "a", "b").code == 2


def test_the_largest_rulesets_within_the_bounds_pass(tmp_path: Path, cli: Callable[..., Run]) -> None:
    for name, text in (("runs.toml", many_lets(119)), ("steps.toml", long_list(370))):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        r = cli("rules", "check", str(path))
        assert r.code == 0, r.out + r.err


def test_a_list_gone_through_past_the_step_bound_is_refused(tmp_path: Path, cli: Callable[..., Run]) -> None:
    path = tmp_path / "steps.toml"
    path.write_text(long_list(400), encoding="utf-8")
    r = cli("rules", "check", str(path))
    assert r.code == 2 and "more than the 50,000 allowed" in r.out + r.err


def test_counts_in_a_refusal_are_grouped_as_the_language_writes_them(tmp_path: Path, cli: Callable[..., Run]) -> None:
    """A comma is the decimal mark in Estonian, Russian and Ukrainian: 50,000 would read as fifty."""
    path = tmp_path / "steps.toml"
    path.write_text(long_list(400), encoding="utf-8")
    for lang in ("ru", "uk", "et"):
        r = cli("--lang", lang, "rules", "check", str(path))
        said = r.out + r.err
        assert r.code == 2 and "50\u00a0000" in said and "50,000" not in said, said
