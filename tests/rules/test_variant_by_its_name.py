"""A bundled variant's own name stands for its game and itself (`chicago` for `bridge:chicago`) when no
game has that name and only one game has a variant of it; a name several games' variants share is no game."""

from __future__ import annotations

import json
from collections.abc import Callable

from tests.conftest import Run


def test_chicago_is_bridge_chicago(cli: Callable[..., Run]) -> None:
    assert cli("new", "chicago", "ann", "bob", "cat", "dan").code == 0
    shown = json.loads(cli("standings", "--json").out)
    assert (shown["ruleset"], shown["variant"]) == ("bridge", "chicago")
    assert "bridge:chicago" in cli("rules", "show", "Chicago").out


def test_a_variant_name_several_games_have_is_no_game(cli: Callable[..., Run]) -> None:
    r = cli("new", "standard", "ann", "bob", "cat", "dan")   # several games have a variant of that name
    assert r.code == 2 and "unknown game 'standard'" in r.err
