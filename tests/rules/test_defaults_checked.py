"""A default of the wrong kind is refused by `rules check`, at its line, not later by `rules test`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.conftest import Run

BUNDLED = Path(__file__).parents[2] / "rulesets"


def test_a_field_default_of_the_wrong_kind_is_refused_at_its_line(cli: Callable[..., Run], tmp_path: Path) -> None:
    text = (BUNDLED / "spades.toml").read_text(encoding="utf-8")
    text = text.replace('[fields.tricks]\nscope = "player"\ntype = "int"\n',
                        '[fields.tricks]\nscope = "player"\ntype = "int"\ndefault = "five"\n', 1)
    line = text.splitlines().index('default = "five"') + 1
    path = tmp_path / "spades.toml"
    path.write_text(text, encoding="utf-8")
    r = cli("rules", "check", str(path))
    assert r.code == 2
    assert f"spades.toml:{line}:" in r.err + r.out and "fields.tricks.default: must be a whole number" in r.err + r.out


def test_an_option_default_that_is_not_a_number_within_a_range_is_refused(cli: Callable[..., Run],
                                                                          tmp_path: Path) -> None:
    text = (BUNDLED / "sitaratas.toml").read_text(encoding="utf-8")
    assert "[options.exact_bonus]\ndefault = 5\nmin = 0\n" in text
    path = tmp_path / "sitaratas.toml"
    path.write_text(text.replace("[options.exact_bonus]\ndefault = 5\n", '[options.exact_bonus]\ndefault = "five"\n'),
                    encoding="utf-8")
    r = cli("rules", "check", str(path))
    assert r.code == 2 and "options.exact_bonus.default: must be a number" in r.err + r.out


def test_every_bundled_ruleset_keeps_passing(cli: Callable[..., Run]) -> None:
    r = cli("rules", "check", *map(str, sorted(BUNDLED.glob("*.toml"))))
    assert r.code == 0, r.err
