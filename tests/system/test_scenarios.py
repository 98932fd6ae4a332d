"""Every scenario file under tests/scenarios plays to the numbers it expects."""

from pathlib import Path

import pytest

from scorepad.app.scenario import run_scenario

SCENARIOS = sorted((Path(__file__).parents[1] / "scenarios").rglob("*.toml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[f"{p.parent.name}/{p.stem}" for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    mismatches = run_scenario(path)
    assert not mismatches, "\n".join(str(m) for m in mismatches)
