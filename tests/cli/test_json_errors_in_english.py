"""A command with --json (and `rules check` or `season` with --format json) says its errors in English,
its usage errors too: the output for a script is the same in every language (docs/translating.md)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.conftest import Run


@pytest.mark.parametrize("lang", ["et", "ru", "uk"])
def test_a_command_with_json_says_its_errors_in_english(cli: Callable[..., Run], lang: str) -> None:
    """docs/translating.md: the output of --json is the same in every language, and so are its errors."""
    assert cli("new", "skid", "ann", "bob").code == 0
    missing = "there is no game called 'nosuch'; `scorepad games` lists them"
    for args in (["standings", "--game", "nosuch"], ["sheet", "--game", "nosuch"], ["log", "--game", "nosuch"],
                 ["hand", "--game", "nosuch", "out=ann"], ["rematch", "--game", "nosuch"]):
        r = cli("--lang", lang, *args, "--json")
        assert r.code == 2 and r.err == f"error: {missing}\n", r.err
        shown = cli("--lang", lang, *args)
        assert shown.code == 2 and missing not in shown.err, shown.err   # without --json: the language shown
    for args, said in ((["rules", "show", "nosuch", "--json"], "error: unknown game 'nosuch'"),
                       (["new", "nosuch", "a", "b", "--json"], "error: unknown game 'nosuch'"),
                       (["player", "nobody", "--json"], "error: no games with a player called 'nobody'"),
                       (["games", "--json", "--season"], "Error: Option '--season' requires an argument."),
                       (["games", "--json", "extra"], "Error: Got unexpected extra argument(s) (extra)"),
                       (["season", "--format", "json", "--since", "x"], "error: --since 'x': write a date as")):
        r = cli("--lang", lang, *args)
        assert r.code == 2 and said in r.err, r.err
