"""The user's config and data directories: platformdirs' answer, without importing it on Linux.

platformdirs (with the tempfile and shutil it imports) costs a few milliseconds of every start,
and every command needs the config file's place, most the database's. On Linux its answer is the
XDG rule below; where that rule does not settle it (another system, Android, no absolute HOME)
platformdirs is asked. A test compares both under a range of environments.
"""

from __future__ import annotations

import os
import sys

_XDG = {"config": ("XDG_CONFIG_HOME", "~/.config"), "data": ("XDG_DATA_HOME", "~/.local/share"),
        "cache": ("XDG_CACHE_HOME", "~/.cache")}


def user_dir(kind: str, app: str = "scorepad") -> str:
    """platformdirs.user_config_dir(app, appauthor=False) for "config", user_data_dir for "data",
    user_cache_dir for "cache"."""
    variable, fallback = _XDG[kind]
    if sys.platform == "linux" and "ANDROID_DATA" not in os.environ:
        xdg = os.environ.get(variable, "")
        if os.path.isabs(xdg):
            return os.path.join(xdg, app)
        home = os.environ.get("HOME")
        if home and os.path.isabs(home):
            return os.path.join(os.path.expanduser(fallback), app)
    import platformdirs  # start-up: platformdirs ~15 ms; not needed when --db or SCOREPAD_DB names the database

    if kind == "config":
        return platformdirs.user_config_dir(app, appauthor=False)
    if kind == "cache":
        return platformdirs.user_cache_dir(app, appauthor=False)
    return platformdirs.user_data_dir(app, appauthor=False)


def user_data_dir() -> str:
    """scorepad's own files of this user (the default database, rules written by `rules new`, `play`'s
    history): SCOREPAD_HOME when set, else the platform's data directory."""
    return os.environ.get("SCOREPAD_HOME") or user_dir("data")
