"""One bound for numbers everywhere (±10^15): a typed value, an option, or a score past it is refused
where it enters, with exit status 2, so that what scorepad stores it can always export and import."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run

UNBOUNDED = """format = 1
[game]
id = "tally"
name = "Tally"
description = "Each player's points, typed."
[players]
min = 2
max = 4
[options.bonus]
default = 0
help = "added to every hand"
[fields.pts]
scope = "player"
type = "int"
help = "points"
[player]
got = "pts + bonus"
[[score]]
id = "pts"
per = "player"
label = "points"
points = "got"
[end]
when = "false"
winner = "highest"
description = "never"
"""


@pytest.fixture
def tally(tmp_path: Path, cli: Callable[..., Run]) -> Path:
    path = tmp_path / "tally.toml"
    path.write_text(UNBOUNDED, encoding="utf-8")
    r = cli("rules", "check", str(path))
    assert r.code == 0, r.err + r.out
    return path


def test_a_typed_value_of_more_than_15_digits_is_refused(tally: Path, cli: Callable[..., Run]) -> None:
    assert cli("new", str(tally), "ann", "bob").code == 0
    r = cli("hand", "pts=" + "9" * 40 + ",1")
    assert r.code == 2 and "at most 15 digits" in r.err, r.err
    assert cli("hand", f"pts={10**15},1").code == 0          # the bound itself is a number scorepad holds
    r = cli("hand", f"pts={10**15},1")                        # the total would pass it
    assert r.code == 2 and "at most 15 digits" in r.err, r.err
    assert cli("verify").code == 0


def test_an_option_of_more_than_15_digits_is_refused(tally: Path, cli: Callable[..., Run], tmp_path: Path) -> None:
    r = cli("new", str(tally), "ann", "bob", "--opt", "bonus=" + "1" * 20)
    assert r.code == 2 and "at most 15 digits" in r.err, r.err
    assert cli("new", str(tally), "ann", "bob", "--opt", "bonus=5").code == 0
    assert cli("hand", "pts=3,4").code == 0
    out = tmp_path / "all.json"
    assert cli("export", "--output", str(out)).code == 0


def test_a_count_typed_with_a_plus_sign_is_refused() -> None:
    """Bridge's tricks are a count (0-13): `+1` there is an overtrick typed at the wrong question, not one
    trick."""
    from scorepad.engine.assignments import convert
    from scorepad.engine.game import make_game
    from scorepad.errors import UserError
    from scorepad.rules.registry import load

    bridge = make_game(load("bridge"), ["n", "e", "s", "w"], None, {})
    with pytest.raises(UserError) as caught:
        convert(bridge, bridge.ruleset.fields["tricks"], "+1", None)
    assert "without a sign" in caught.value.message
    assert convert(bridge, bridge.ruleset.fields["tricks"], "1", None)[0] == 1
