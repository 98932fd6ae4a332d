"""The config file is checked against its declared shape (scorepad.shape): every problem is said,
each naming the file and the key, in the language chosen, and the command stops with status 2."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from scorepad.app.config import validate
from tests.conftest import Run


def test_every_problem_names_the_file_and_the_key() -> None:
    data = {"db": 3, "rules_dirs": ["a", 2], "language": "fr", "aliases": {"a": 1}, "defaults": {"skid": 3},
            "serve": {"viewer": "short"}, "colour": "red"}
    assert validate(data, "c.toml") == [
        "c.toml: colour: unknown key (expected db, rules_dirs, language, defaults, aliases, serve)",
        "c.toml: db: must be a file path or a postgresql:// URL",
        "c.toml: rules_dirs: must be a list of directories",
        'c.toml: language: must be one of en, et, ru, uk, not "fr"',
        "c.toml: defaults: must be tables per game, like [defaults.skid] limit = 505",
        "c.toml: aliases: must map a short name to a player name",
        ("c.toml: serve: holds the tokens `scorepad serve --keep-tokens` keeps (viewer, scorer: 22 to 100 letters, "
        "digits, - or _)")]
    good = {"db": "x.db", "rules_dirs": ["a"], "language": "et", "aliases": {"a": "ann"},
            "defaults": {"skid": {"limit": 505}}, "serve": {"viewer": "v" * 22, "scorer": "s" * 30}}
    assert validate(good, "c.toml") == []


def test_a_bad_config_stops_a_command_in_the_language(cli: Callable[..., Run], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "config.toml"
    path.write_text('rules_dirs = "here"\n', encoding="utf-8")
    monkeypatch.setenv("SCOREPAD_CONFIG", str(path))
    r = cli("--lang", "et", "games")
    assert r.code == 2 and f"{path}: rules_dirs: " in r.err, r.err
    assert "must be a list" not in r.err, r.err    # said in Estonian
