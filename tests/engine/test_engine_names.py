"""The names a player's and a side's formulas see (X, others_X, team_X, all_X of player and side values,
lets included) are what the engine before gave (tests/data/engine_golden.json, see tests/engine_golden.py),
on a partnership game whose formulas read all of them."""

from __future__ import annotations

from scorepad.engine import game as engine
from tests import engine_golden


def test_every_kind_of_name_reads_as_before() -> None:
    got = engine_golden.record_names(engine)
    assert got == engine_golden.read()["names"]
    assert any(line[0].startswith("player probe") for _, _, breakdown, _ in got for side in breakdown for line in side)
