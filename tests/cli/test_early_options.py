"""The options Typer needs before it parses the command line (--lang for help texts, --db/--game for
`hand --help`, --json or --format json for the words of a usage error) are read in one place:
scorepad/cli/early.py, called once by the entry point."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from scorepad.cli.early import Early
from tests.conftest import Run

PACKAGE = Path(__file__).resolve().parents[2] / "scorepad"


def test_the_last_value_before_a_double_dash_wins() -> None:
    early = Early(["--lang=et", "--db", "a.db", "--lang", "ru", "games", "--format=json", "--", "--db", "b", "--json"])
    assert (early.lang, early.db, early.game, early.json) == ("ru", "a.db", None, True)
    assert not Early(["games", "--", "--json"]).json and not Early(["season", "--format", "csv"]).json
    assert Early(["season", "--format", "json"]).json and Early(["games", "--json"]).json
    assert Early(["--db", "x.db", "hand", "--game=2", "-h"]).hand_help and Early(["--db", "x.db", "hand", "--game=2"]).game == "2"
    assert not Early(["hand", "--", "--help"]).hand_help and not Early(["games", "--help"]).hand_help
    assert Early(["--show-completion"]).completion_script and not Early(["games"]).completion_script
    assert Early(["--lang"]).lang is None    # no value: Typer says so, in the language otherwise chosen


def test_a_usage_error_is_in_the_language_unless_for_a_script(cli: Callable[..., Run]) -> None:
    english = "Error: Got unexpected extra argument(s) (extra)"
    for args in (["--lang=et", "games", "extra"], ["--lang", "en", "--lang", "et", "games", "extra"],
                 ["--lang", "et", "games", "extra", "--", "--json"]):
        r = cli(*args)
        assert r.code == 2 and "extra" in r.err and english not in r.err, (args, r.err)
    for args in (["--lang=et", "games", "--json", "extra"], ["--lang", "et", "season", "--format=json", "--since"]):
        r = cli(*args)
        assert r.code == 2 and r.err.splitlines()[-1].startswith("Error: "), (args, r.err)


def test_only_the_parsers_and_the_entry_point_read_the_argument_list() -> None:
    readers = {str(path.relative_to(PACKAGE)): len(re.findall(r"\bsys\.argv\b", path.read_text(encoding="utf-8")))
               for path in PACKAGE.rglob("*.py") if "sys.argv" in path.read_text(encoding="utf-8")}
    assert readers == {"cli/app.py": 1, "cli/quick.py": 2, "cli/quickgen.py": 1}, readers
