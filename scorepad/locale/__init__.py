"""Program text in the user's language: the one `_()` / `ngettext()` entry point over gettext catalogs.

The catalogs are the .po files in scorepad/locale/<lang>/LC_MESSAGES/ (managed with Babel, see
docs/translating.md), compiled to .mo files that ship in the package and are read with the standard
library's gettext, only when a language other than English is chosen. Until then `_()` returns its
argument: a command in English reads no catalog. The engine never imports this package; its few
sentences of program text are translated where they are shown (scorepad/locale/engine_text.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "et", "ru", "uk")

# What a player types for yes and for no, in every language scorepad speaks (whatever the one shown)
YES_WORDS = frozenset({"yes", "y", "true", "1", "jah", "j", "да", "д", "так", "т", "+", "on"})
NO_WORDS = frozenset({"no", "n", "false", "0", "ei", "e", "нет", "н", "ні", "-", "off"})
DOMAIN = "scorepad"
LOCALE_DIR = Path(__file__).parent


class _State:
    code = "en"
    catalog: Any = None   # a gettext.GNUTranslations, or None for English


_STATE = _State()


def _(message: str) -> str:
    """The message in the chosen language (the English text is the message id)."""
    catalog = _STATE.catalog
    return message if catalog is None else str(catalog.gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for `n` (Russian and Ukrainian have three: 1, 2-4, 5-20 ...)."""
    catalog = _STATE.catalog
    if catalog is None:
        return singular if n == 1 else plural
    return str(catalog.ngettext(singular, plural, n))


def N_(message: str) -> str:
    """Marks a message for extraction where it is translated later (a table of sentences)."""
    return message


def current() -> str:
    return _STATE.code


def set_language(code: str | None) -> None:
    """Use the catalog of `code` (None or "en": the English texts, no catalog read)."""
    if not code or code == "en" or code not in LANGUAGES:
        _STATE.code, _STATE.catalog = "en", None
        return
    _STATE.code, _STATE.catalog = code, _catalog(code)


def _catalog(code: str) -> Any:
    """The catalog of a language, read by the standard library's gettext; None when there is none.
    (A reader of our own that decoded only the messages shown saved about 1.5 ms a command: less than
    the 10 ms that would justify a copy of gettext.)"""
    import gettext

    path = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        with path.open("rb") as fh:
            return gettext.GNUTranslations(fh)
    except OSError:
        return None


@contextmanager
def neutral() -> Iterator[None]:
    """English program text inside the block (what is stored, and JSON output)."""
    saved = _STATE.code, _STATE.catalog
    _STATE.code, _STATE.catalog = "en", None
    try:
        yield
    finally:
        _STATE.code, _STATE.catalog = saved


def from_locale(env: Mapping[str, str]) -> str | None:
    """The language of the POSIX locale: LC_ALL, then LC_MESSAGES, then LANG (`ru_RU.UTF-8` -> `ru`)."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].lower()
            return None if code in ("c", "posix") else code
    return None


def choose(flag: str | None, config: str | None, env: Mapping[str, str] | None = None) -> tuple[str, str | None]:
    """The language of this invocation and a warning when the chosen code is not one scorepad speaks.

    In order: `--lang`, the config's `language`, SCOREPAD_LANG, the locale; else English.
    """
    env = os.environ if env is None else env
    for where, value in (("--lang", flag), ("the config's language", config),
                         ("SCOREPAD_LANG", env.get("SCOREPAD_LANG")), ("the locale", from_locale(env))):
        if not value:
            continue
        code = value.strip().lower().replace("-", "_").split("_")[0]
        if code in LANGUAGES:
            return code, None
        if where == "the locale":
            return "en", None   # a locale scorepad has no catalog for is English, quietly
        return "en", (f"warning: {where} asks for language {value!r}, which scorepad does not speak "
                      f"({', '.join(LANGUAGES)}); using English")
    return "en", None
