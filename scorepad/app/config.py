"""The user's config file (config.toml in the user config directory), read strictly, written with tomli-w.

It holds the default database, extra rules directories, the preferred language, default options
per game (`skid.limit = 505`) and player name aliases (`a` → `ann`). Unknown keys are refused so
a typo never silently does nothing.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorepad.errors import UserError
from scorepad.locale import N_, Said, _, shown
from scorepad.names import utf8_text
from scorepad.store.sqlite import user_data_dir as data_dir
from scorepad.text.output import write_atomic

if TYPE_CHECKING:
    from scorepad.shape import Shape

LANGUAGES = ("en", "et", "ru", "uk")
TOKEN = r"[A-Za-z0-9_-]{22,100}"


def config_path() -> Path:
    """SCOREPAD_CONFIG, else config.toml in SCOREPAD_HOME, else in the platform's config directory."""
    from scorepad.app.settings import config_path_of  # the one rule of where settings live

    return Path(config_path_of(os.environ).value)


def user_data_dir() -> Path:
    """scorepad's own files of this user: SCOREPAD_HOME, else the platform's data directory."""
    return Path(data_dir())


def load_config(path: Path | None = None) -> dict[str, Any]:
    path = path or config_path()
    if not path.exists():
        return {}
    import tomllib  # here, not at the top: without a config file a command needs no TOML parser

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UserError(_("{path}: cannot read the config file ({exc})").format(path=path, exc=exc)) from None
    problems = validate(data, str(path))
    if problems:
        raise UserError(problems[0], problems)
    return data


def config_shape() -> Shape:
    """The config file's declared shape (built when a config file is read: start-up needs no shapes)."""
    from scorepad.shape import Anything, Choice, ListOf, Record, TableOf, Text  # start-up: only a config file needs it

    return Record({
        "db": Text(message=Said(N_("must be a file path or a postgresql:// URL"))),
        "rules_dirs": ListOf(Text(), message=Said(N_("must be a list of directories"))),
        "language": Choice(values=LANGUAGES),
        "defaults": TableOf(Anything(table=True),
                            message=Said(N_("must be tables per game, like [defaults.skid] limit = 505"))),
        "aliases": TableOf(Text(), message=Said(N_("must map a short name to a player name"))),
        "serve": Record({"viewer": Text(pattern=TOKEN), "scorer": Text(pattern=TOKEN)}, frozenset({"viewer", "scorer"}),
                        message=Said(N_("holds the tokens `scorepad serve --keep-tokens` keeps (viewer, scorer: "
                                        "22 to 100 letters, digits, - or _)"))),
    }, frozenset({"db", "rules_dirs", "language", "defaults", "aliases", "serve"}))


def validate(data: dict[str, Any], source: str) -> list[str]:
    """One sentence per problem of the config file, each naming the file and the key."""
    found: list[str] = []
    config_shape().check(data, "", found)
    return [f"{source}: {shown(said)}" for said in found]


def save_config(data: dict[str, Any], path: Path | None = None) -> Path:
    """Write the config atomically, readable by its owner alone (0600): its `db` may hold a password."""
    import tomli_w  # start-up: only writing needs tomli_w (~1 ms)

    path = path or config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, tomli_w.dumps(data), mode=0o600)
    return path


def set_value(data: dict[str, Any], key: str, value: str) -> dict[str, Any]:
    """`db`, `rules_dirs` (os.pathsep-separated), `language`, `alias.SHORT`, or `GAME.OPTION`."""
    utf8_text(key, _("the config key"))
    utf8_text(value, key)   # the file is UTF-8 text
    out = {k: (dict(v) if isinstance(v, dict) else v) for k, v in data.items()}
    if key == "db":
        out["db"] = value
    elif key == "rules_dirs":
        out["rules_dirs"] = [d for d in value.split(os.pathsep) if d]
    elif key == "language":
        if value not in LANGUAGES:
            raise UserError(_("language must be one of {value}").format(value=', '.join(LANGUAGES)))
        out["language"] = value
    elif key.startswith(("alias.", "aliases.")):
        short = key.split(".", 1)[1]
        if not short:
            raise UserError(_('write alias.SHORT NAME, e.g. `scorepad config set alias.a ann`'))
        out.setdefault("aliases", {})[short] = value
    elif "." in key:
        game, option = key.split(".", 1)
        from scorepad.rules.registry import load  # start-up: only `config set GAME.OPTION` loads rulesets

        rs = load(game)
        if option not in rs.options:
            raise UserError(_("{name} has no option {option} (options: {value})").format(
                                name=rs.name, option=repr(option), value=', '.join(rs.options) or 'none'))
        from scorepad.engine.game import resolve_options  # start-up: only `config set GAME.OPTION` needs it

        typed = resolve_options(rs, {option: value})[option]
        defaults = {k: dict(v) for k, v in out.get("defaults", {}).items()}
        defaults.setdefault(rs.id, {})[option] = typed
        out["defaults"] = defaults
    else:
        raise UserError(_("unknown config key {key} (db, rules_dirs, language, alias.SHORT, GAME.OPTION)").format(
                            key=repr(key)))
    return out


def flat(data: dict[str, Any]) -> dict[str, Any]:
    """The config as `key = value` lines, the way `config get` and `config set` name them."""
    out: dict[str, Any] = {}
    for key in ("db", "rules_dirs", "language"):
        if key in data:
            out[key] = os.pathsep.join(data[key]) if key == "rules_dirs" else data[key]
    for short, name in data.get("aliases", {}).items():
        out[f"alias.{short}"] = name
    for game, opts in data.get("defaults", {}).items():
        for option, value in opts.items():
            out[f"{game}.{option}"] = value
    return out

