"""Where scorepad's settings come from: one resolver, one order, one value passed down.

Every setting is resolved once per command (or per server) in the same order: a command-line flag
beats the environment, which beats the config file, which beats the default. `SCOREPAD_HOME` holds
the config file, the default database, the user rules directory and `play`'s history, unless a more
specific variable says otherwise (`SCOREPAD_CONFIG`, `SCOREPAD_DB`, ...). Each value keeps where it
came from, for `scorepad config list`.

Rules directories add up rather than replace each other: all are searched, and of two rulesets with
the same id the one from the stronger source is taken. The list is ordered weakest first (the user
rules directory, the config's, SCOREPAD_RULES', --rules-dir's), as the registry reads it: a later
directory overrides an earlier one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any, NamedTuple

from scorepad.locale import choose
from scorepad.store.sqlite import user_data_dir


class Setting(NamedTuple):
    """A value and where it came from: a flag (`--db`), a variable (`SCOREPAD_DB`), `config`, `default`."""

    value: Any
    source: str


class Settings:
    """The settings of one command: each worked out on first use (the home directory's platform
    answer costs an import that a command given --db never pays), then kept."""

    def __init__(self, *, db: str | None, rules_dirs: Sequence[str], lang: str | None, env: Mapping[str, str],
                 config_path: Setting, config: Mapping[str, Any]) -> None:
        self._flags = (db, tuple(rules_dirs))
        self._env = env
        self._config = config
        self.config_path = config_path
        code, self.warning, source = choose(lang, config.get("language"), env)
        self.language = Setting(code, source)

    @cached_property
    def home(self) -> Setting:
        return home_of(self._env)

    @cached_property
    def db(self) -> Setting:
        return _db(self._flags[0], self._env, self._config, lambda: self.home)

    @cached_property
    def rules_dirs(self) -> Setting:
        return _rules_dirs(self._flags[1], self._env, self._config, lambda: self.home)

    def rule_dir_list(self) -> list[str]:
        return list(self.rules_dirs.value)

    def write_rules_dir(self) -> Path:
        """Where `rules derive` and `rules new` write: the first directory of the strongest source given
        (--rules-dir, SCOREPAD_RULES, the config), else the user rules directory."""
        for dirs in (self._flags[1], _env_rules_dirs(self._env), self._config.get("rules_dirs") or []):
            if dirs:
                return Path(dirs[0])
        return Path(self.home.value) / "rules"

    def where_each_came_from(self) -> list[tuple[str, str, str]]:
        """(setting, value, source) for `config list`: a database URL's password is the caller's to mask."""
        dirs = ", ".join(self.rules_dirs.value)
        return [("home", str(self.home.value), self.home.source),
                ("config", str(self.config_path.value), self.config_path.source),
                ("db", str(self.db.value), self.db.source),
                ("rules_dirs", dirs, self.rules_dirs.source),
                ("language", str(self.language.value), self.language.source)]


def platform_config_dir() -> str:
    import platformdirs  # start-up: ~7 ms; not needed when SCOREPAD_CONFIG or SCOREPAD_HOME names the place

    return str(platformdirs.user_config_dir("scorepad", appauthor=False))


def home_of(env: Mapping[str, str]) -> Setting:
    home = env.get("SCOREPAD_HOME")
    return Setting(home, "SCOREPAD_HOME") if home else Setting(user_data_dir(env), "default")


def config_path_of(env: Mapping[str, str]) -> Setting:
    """SCOREPAD_CONFIG, else config.toml in SCOREPAD_HOME, else in the platform's config directory."""
    if env.get("SCOREPAD_CONFIG"):
        return Setting(Path(env["SCOREPAD_CONFIG"]), "SCOREPAD_CONFIG")
    if env.get("SCOREPAD_HOME"):
        return Setting(Path(env["SCOREPAD_HOME"]) / "config.toml", "SCOREPAD_HOME")
    return Setting(Path(platform_config_dir()) / "config.toml", "default")


def resolve(*, db: str | None = None, rules_dirs: Sequence[str] = (), lang: str | None = None,
            env: Mapping[str, str] | None = None,
            read_config: Callable[[Path], Mapping[str, Any]] | None = None) -> Settings:
    """The settings of one command: the flags given, the environment, the config file (read with
    `read_config`; none read when it is None), the defaults."""
    env = os.environ if env is None else env
    config_path = config_path_of(env)
    config = read_config(config_path.value) if read_config is not None else {}
    return Settings(db=db, rules_dirs=rules_dirs, lang=lang, env=env, config_path=config_path, config=config)


def _db(flag: str | None, env: Mapping[str, str], config: Mapping[str, Any],
        home: Callable[[], Setting]) -> Setting:
    if flag:
        return Setting(flag, "--db")
    if env.get("SCOREPAD_DB"):
        return Setting(env["SCOREPAD_DB"], "SCOREPAD_DB")
    if config.get("db"):
        return Setting(str(config["db"]), "config")
    return Setting(str(Path(home().value) / "scorepad.db"), "default" if home().source == "default" else "SCOREPAD_HOME")


def _rules_dirs(flags: Sequence[str], env: Mapping[str, str], config: Mapping[str, Any],
                home: Callable[[], Setting]) -> Setting:
    from_env = _env_rules_dirs(env)
    dirs = [str(Path(home().value) / "rules"), *config.get("rules_dirs", []), *from_env, *flags]
    sources = [name for name, given in (("--rules-dir", flags), ("SCOREPAD_RULES", from_env),
                                        ("config", config.get("rules_dirs"))) if given]
    return Setting(tuple(dirs), " > ".join([*sources, "default"]))


def _env_rules_dirs(env: Mapping[str, str]) -> list[str]:
    """SCOREPAD_RULES' directories, in the order given."""
    return [d for d in env.get("SCOREPAD_RULES", "").split(os.pathsep) if d]
