"""The suite holds on any machine: a user's own config, data directory and SCOREPAD_* settings never reach it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SCOREPAD_ENV, USER_ENV

ROOT = Path(__file__).parents[2]

# Tests whose numbers a user's default options, aliases or ruleset overrides would change.
SENSITIVE = ["tests/cli/test_cli.py", "tests/app/test_season.py", "tests/app/test_house_rules.py"]


def hostile_home(home: Path) -> dict[str, str]:
    """A home with everything a user may have set: option defaults, aliases, a database, rules overrides."""
    rules = home / "my-rules"
    rules.mkdir(parents=True)
    spades = (ROOT / "rulesets" / "spades.toml").read_text(encoding="utf-8")
    (rules / "spades.toml").write_text(spades.replace("default = 500", "default = 150"), encoding="utf-8")
    config_text = "\n".join([
        f'db = "{(home / "mine.db").as_posix()}"',
        f'rules_dirs = ["{rules.as_posix()}"]',
        'language = "et"',
        "[defaults.skid]", "limit = 505",
        "[defaults.spades]", "target = 200", "bag_penalty = 50",
        "[aliases]", 'ann = "zed"', 'a = "zed"', 'bob = "yuri"', "",
    ])
    env = {name: str(home) for name in USER_ENV}
    for sub in (home / ".config" / "scorepad", home / "xdg_config_home" / "scorepad"):
        sub.mkdir(parents=True, exist_ok=True)
        (sub / "config.toml").write_text(config_text, encoding="utf-8")
    env["XDG_CONFIG_HOME"] = str(home / "xdg_config_home")
    env.update(SCOREPAD_DB=str(home / "env.db"), SCOREPAD_RULES=str(rules), SCOREPAD_HOME=str(home),
               SCOREPAD_CONFIG=str(home / ".config" / "scorepad" / "config.toml"))
    return env


def test_fixture_hides_the_user(own_home: Path) -> None:
    from scorepad.app.config import config_path, load_config
    from scorepad.store import default_path

    for name in SCOREPAD_ENV:
        assert name not in os.environ
    assert config_path().is_relative_to(own_home) and load_config() == {}
    assert default_path().is_relative_to(own_home)


@pytest.mark.slow
def test_suite_passes_under_a_hostile_user_config(tmp_path: Path) -> None:
    home = tmp_path / "hostile"
    env = {**os.environ, **hostile_home(home)}
    # The hostile config really is what scorepad reads outside the tests ...
    shown = subprocess.run([sys.executable, "-m", "scorepad", "config", "get", "skid.limit"], env=env,
                           capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert shown.stdout.strip() == "505", shown.stderr
    # ... and the tests that it would change still pass, touching nothing in that home.
    before = sorted(p.name for p in home.rglob("*"))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *SENSITIVE],
                         env=env, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert sorted(p.name for p in home.rglob("*")) == before


def test_scorepad_home_holds_the_default_database(tmp_path: Path) -> None:
    """SCOREPAD_HOME is where scorepad keeps a user's own files: the default database too, not only the
    rules `rules new` writes and `play`'s history (the database went to the platform's directory)."""
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    env = {k: v for k, v in os.environ.items() if k not in SCOREPAD_ENV and k not in USER_ENV}
    env.update(HOME=str(elsewhere), SCOREPAD_HOME=str(home), SCOREPAD_CONFIG=str(tmp_path / "none.toml"))
    done = subprocess.run([sys.executable, "-m", "scorepad", "new", "spades", "ann", "bob", "cat", "dan", "-q"],
                          env=env, capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (home / "scorepad.db").exists()
    assert not (elsewhere / ".local" / "share" / "scorepad" / "scorepad.db").exists()
