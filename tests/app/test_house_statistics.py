"""A house ruleset (`rules derive`) adds statistics of its own and replaces the base's: a new id is
added, a statistic given a new kind is counted that way only (the base's count does not stay beside
a new sum), a new label keeps the base's formula and drops the base's translations of the old one."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from scorepad.rules.loader import load_text
from scorepad.rules.registry import resolved_text
from tests.conftest import Run


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SCOREPAD_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("SCOREPAD_CONFIG", str(tmp_path / "home" / "config.toml"))
    return tmp_path / "home"


HOUSE = '''
[stats.tricks_per_hand]
label = "tricks per hand"
mean = "tricks"

[stats.nils_made]
label = "nils made"
made = "tricks == 0"
of = "is_nil"

[stats.bags_taken]
label = "bags"
'''


def test_a_derived_ruleset_adds_and_replaces_statistics(cli: Callable[..., Run], home: Path) -> None:
    assert cli("rules", "derive", "spades", "club-spades", "--opt", "target=100").code == 0
    path = home / "rules" / "club-spades.toml"
    path.write_text(path.read_text(encoding="utf-8") + HOUSE, encoding="utf-8")
    assert cli("rules", "check", str(path)).code == 0
    rs = load_text(resolved_text(path)[0], str(path))
    assert [(s.id, s.name, s.kind, s.formula.source) for s in rs.statistics] == [
        ("nils_made", "nils made", "rate", "tricks == 0"), ("nils_failed", "nils failed", "count", "is_nil and tricks > 0"),
        ("bags_taken", "bags", "sum", "new_bags"), ("bids_made", "bids made", "rate", "made"),
        ("bags_per_hand", "bags per hand", "mean", "new_bags"), ("tricks_per_hand", "tricks per hand", "mean", "tricks")]
    # ann's nil made (1 of 1); she took 0 tricks, cat 6; NS bid 4, take 6: 2 bags. Over 100: the game ends.
    assert cli("new", "club-spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "bid=nil,3,4,3", "tricks=0,4,6,3").code == 0
    players = json.loads(cli("stats", "--json").out)["games"][0]["players"]
    got = {r["player"]: r["statistics"] for r in players}
    assert got["ann"] == {"nils_made": {"made": 1, "of": 1}, "nils_failed": 0, "bags_taken": 2,
                          "bids_made": {"made": 1, "of": 1}, "bags_per_hand": {"sum": 2, "hands": 1},
                          "tricks_per_hand": {"sum": 0, "hands": 1}}
    assert got["cat"]["nils_made"] == {"made": 0, "of": 0} and got["cat"]["tricks_per_hand"] == {"sum": 6, "hands": 1}
    # the base's Russian name of bags_taken was for its old label: the house label is shown instead
    out = cli("--lang", "ru", "stats").out
    assert "нолей не выполнено" in out and "bags" in out and "мешков взято" not in out


def test_a_variant_may_give_a_statistic_another_kind(tmp_path: Path) -> None:
    from scorepad.rules.bundled import bundled_dir

    text = (bundled_dir() / "spades.toml").read_text(encoding="utf-8")
    text += '\n[variants.short.stats.bags_taken]\nmean = "new_bags"\n'
    rs = load_text(text, "spades.toml", "short")
    bags = next(s for s in rs.statistics if s.id == "bags_taken")
    assert (bags.name, bags.kind, bags.per) == ("bags taken", "mean", "side")
