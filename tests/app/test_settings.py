"""One order for every setting: a flag beats the environment, which beats the config file, which beats the
default; SCOREPAD_HOME holds the config, the data and the rules unless a more specific variable says
otherwise; `config list` says where each setting came from."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scorepad.app.settings import resolve
from tests.conftest import Run


def config(**values: Any) -> Callable[[Path], dict[str, Any]]:
    return lambda _path: dict(values)


def test_the_database_flag_env_config_default(tmp_path: Path) -> None:
    env = {"SCOREPAD_DB": "env.db", "SCOREPAD_HOME": str(tmp_path)}
    assert resolve(db="flag.db", env=env, read_config=config(db="config.db")).db == ("flag.db", "--db")
    assert resolve(env=env, read_config=config(db="config.db")).db == ("env.db", "SCOREPAD_DB")
    env.pop("SCOREPAD_DB")
    assert resolve(env=env, read_config=config(db="config.db")).db == ("config.db", "config")
    assert resolve(env=env, read_config=config()).db == (str(tmp_path / "scorepad.db"), "SCOREPAD_HOME")


def test_the_language_flag_env_config_locale() -> None:
    env = {"SCOREPAD_LANG": "ru", "LANG": "uk_UA.UTF-8"}
    assert resolve(lang="et", env=env, read_config=config(language="en")).language == ("et", "--lang")
    assert resolve(env=env, read_config=config(language="et")).language == ("ru", "SCOREPAD_LANG")
    env.pop("SCOREPAD_LANG")
    assert resolve(env=env, read_config=config(language="et")).language == ("et", "config")
    assert resolve(env=env, read_config=config()).language == ("uk", "the locale")
    assert resolve(env={}, read_config=config()).language == ("en", "default")


def test_the_rules_directories_strongest_last(tmp_path: Path) -> None:
    env = {"SCOREPAD_RULES": "env1" + __import__("os").pathsep + "env2", "SCOREPAD_HOME": str(tmp_path)}
    chosen = resolve(rules_dirs=["flag"], env=env, read_config=config(rules_dirs=["conf"]))
    assert chosen.rule_dir_list() == [str(tmp_path / "rules"), "conf", "env1", "env2", "flag"]
    assert chosen.write_rules_dir() == Path("flag")
    assert resolve(env=env, read_config=config(rules_dirs=["conf"])).write_rules_dir() == Path("env1")
    assert resolve(env={"SCOREPAD_HOME": str(tmp_path)}, read_config=config()).write_rules_dir() == tmp_path / "rules"


def test_home_holds_the_config_unless_a_variable_names_it(tmp_path: Path) -> None:
    assert resolve(env={"SCOREPAD_HOME": str(tmp_path)}).config_path == (tmp_path / "config.toml", "SCOREPAD_HOME")
    assert resolve(env={"SCOREPAD_HOME": str(tmp_path), "SCOREPAD_CONFIG": "/x/c.toml"}).config_path == \
        (Path("/x/c.toml"), "SCOREPAD_CONFIG")


SPADES_TARGET = """
[game]
id = "spades"
name = "Spades ({which})"
"""


def own_spades(directory: Path, which: str, bundled: Path) -> None:
    """A copy of the bundled Spades whose name says which directory it came from."""
    directory.mkdir(parents=True, exist_ok=True)
    text = bundled.read_text(encoding="utf-8").replace('name = "Spades"', f'name = "Spades ({which})"', 1)
    (directory / "spades.toml").write_text(text, encoding="utf-8")


def test_a_ruleset_in_rules_dir_beats_the_same_id_in_scorepad_rules(cli: Callable[..., Run], tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    bundled = Path(__file__).resolve().parents[2] / "rulesets" / "spades.toml"
    assert 'name = "Spades"' in bundled.read_text(encoding="utf-8")
    own_spades(tmp_path / "from_flag", "flag", bundled)
    own_spades(tmp_path / "from_env", "env", bundled)
    monkeypatch.setenv("SCOREPAD_RULES", str(tmp_path / "from_env"))
    assert "Spades (env)" in cli("rules", "show", "spades").out
    assert "Spades (flag)" in cli("--rules-dir", str(tmp_path / "from_flag"), "rules", "show", "spades").out


def test_scorepad_home_moves_the_config_file(cli: Callable[..., Run], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "sp-home"
    monkeypatch.setenv("SCOREPAD_HOME", str(home))
    assert cli("config", "set", "language", "et").code == 0
    assert (home / "config.toml").is_file()
    monkeypatch.setenv("SCOREPAD_LANG", "ru")   # the environment beats the config
    listed = cli("config", "list").out
    assert f"# {home / 'config.toml'}" in listed
    assert "language = ru   (SCOREPAD_LANG)" in listed and "home = " + str(home) in listed
    assert "db = " in listed and "(SCOREPAD_DB)" in listed   # the test's own database
