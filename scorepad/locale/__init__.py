"""Program text in the user's language: the one `_()` / `ngettext()` entry point over gettext catalogs.

The catalogs are the .po files in scorepad/locale/<lang>/LC_MESSAGES/ (managed with Babel, see
docs/translating.md), compiled to .mo files that ship in the package and are read with the standard
library's gettext, only when a language other than English is chosen. Until then `_()` returns its
argument: a command in English reads no catalog.

What the engine says (events stored with a hand, refusals) is a `Said`: a message id with its
arguments that reads as the English sentence wherever a string is wanted, and `shown()` puts it in
the chosen language where it is printed, by its id.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "et", "ru", "uk")

# What a player types for yes and for no, in every language scorepad speaks (whatever the one shown)
YES_WORDS = frozenset({"yes", "y", "true", "1", "jah", "j", "да", "д", "так", "т", "+", "on"})
NO_WORDS = frozenset({"no", "n", "false", "0", "ei", "e", "нет", "н", "ні", "-", "off"})
DOMAIN = "scorepad"
LOCALE_DIR = Path(__file__).parent


# The language of this call: (code, catalog, the code asked for), the catalog a gettext.GNUTranslations or
# None for English; the code asked for None when a call asked for no language (the rulesets' own texts).
# A context variable, not a global: each thread and each asyncio task of a server starts from the
# context it was given, so two people are answered in two languages at once.
_LANGUAGE: ContextVar[tuple[str, Any, str | None]] = ContextVar("scorepad_language", default=("en", None, None))


def _(message: str) -> str:
    """The message in the chosen language (the English text is the message id)."""
    catalog = _LANGUAGE.get()[1]
    return message if catalog is None else str(catalog.gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for `n` (Russian and Ukrainian have three: 1, 2-4, 5-20 ...)."""
    catalog = _LANGUAGE.get()[1]
    if catalog is None:
        return singular if n == 1 else plural
    return str(catalog.ngettext(singular, plural, n))


def N_(message: str) -> str:
    """Marks a message for extraction where it is translated later (a table of sentences)."""
    return message


class Said(str):
    """A sentence kept as its message id and arguments; as a string it is the English sentence.

    Stored events and JSON hold the English (the same in every language); `shown()` translates the
    id where the sentence is printed. A list argument is a list of names, joined with "and".
    """

    msgid: str
    args: dict[str, Any]

    def __new__(cls, msgid: str, **args: Any) -> Said:
        # names joined as "a and b and c": the English stored with hands before a Said kept its id
        english = {k: " and ".join(map(str, v)) if isinstance(v, (list, tuple)) else v for k, v in args.items()}
        self = super().__new__(cls, msgid.format(**english))
        self.msgid, self.args = msgid, args
        return self

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, Any]]:
        return (self.msgid,), self.args


class Grouped(int):
    """A count with its thousands grouped as the language shown writes them: 50,000 in English, 50 000
    (a no-break space) in Estonian, Russian and Ukrainian, where a comma is the decimal mark. An
    argument of a `Said`, it is grouped again in the language `shown()` prints it in."""

    def __format__(self, spec: str) -> str:
        text = f"{int(self):,}"
        return text if _LANGUAGE.get()[1] is None else text.replace(",", "\u00a0")


def _joined(items: list[str], conjunction: str) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + conjunction + items[-1]


def shown(text: str) -> str:
    """A sentence in the chosen language: a `Said` by its id (its `Said` arguments too), a ruleset's
    sentence kept by id (the engine's refusal of a check) by its `said_in_language`; other text as it is."""
    said = getattr(text, "said_in_language", None)
    if said is not None:
        return str(said())
    if _LANGUAGE.get()[1] is None or not isinstance(text, Said):
        return str(text)
    conjunction = _(" and ")
    args = {k: _joined([shown(v) for v in value], conjunction) if isinstance(value, (list, tuple))
            else shown(value) if isinstance(value, str) else value
            for k, value in text.args.items()}
    try:
        return _(text.msgid).format(**args)
    except (KeyError, IndexError, ValueError):
        return str(text)


def current() -> str:
    return str(_LANGUAGE.get()[0])


def texts_language() -> str | None:
    """The language a ruleset's own words are shown in: None for the words its file writes (a call that
    asked for no language: JSON, which stays neutral, prints them), else the language of the call
    (English names a bundled ruleset by its English name: "Durak (Fool)", not "Durak")."""
    return _LANGUAGE.get()[2]


def set_language(code: str | None) -> None:
    """Speak `code` from here on in this context (None or "en": the English texts, no catalog read).
    A command sets it once; a server's request uses `speaking`, which ends with the request."""
    _LANGUAGE.set(_language(code))


@contextmanager
def speaking(code: str | None) -> Iterator[None]:
    """`code` inside the block only, in this context (a request answered in its reader's language)."""
    token = _LANGUAGE.set(_language(code))
    try:
        yield
    finally:
        _LANGUAGE.reset(token)


def _language(code: str | None) -> tuple[str, Any, str | None]:
    if not code or code == "en" or code not in LANGUAGES:
        return "en", None, "en" if code else None
    return code, _catalog(code), code


@cache
def _catalog(code: str) -> Any:
    """The catalog of a language, read by the standard library's gettext; None when there is none.
    (A reader of our own that decoded only the messages shown saved about 1.5 ms a command: less than
    the 10 ms that would justify a copy of gettext.)"""
    import gettext  # start-up: ~1.5 ms; English needs no catalog

    path = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        with path.open("rb") as fh:
            return gettext.GNUTranslations(fh)
    except OSError:
        return None


@contextmanager
def neutral() -> Iterator[None]:
    """English program text inside the block (what is stored, and JSON output)."""
    with speaking("en"):
        yield


def from_locale(env: Mapping[str, str]) -> str | None:
    """The language of the POSIX locale: LC_ALL, then LC_MESSAGES, then LANG (`ru_RU.UTF-8` -> `ru`)."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].lower()
            return None if code in ("c", "posix") else code
    return None


def choose(flag: str | None, config: str | None, env: Mapping[str, str] | None = None) -> tuple[str, str | None, str]:
    """The language of this invocation, a warning when the chosen code is not one scorepad speaks, and
    where the choice came from. In the order of every setting (scorepad.app.settings): `--lang`, then
    SCOREPAD_LANG, then the config's `language`, then the locale; else English."""
    env = os.environ if env is None else env
    for where, value in (("--lang", flag), ("SCOREPAD_LANG", env.get("SCOREPAD_LANG")),
                         ("config", config), ("the locale", from_locale(env))):
        if not value:
            continue
        code = value.strip().lower().replace("-", "_").split("_")[0]
        if code in LANGUAGES:
            return code, None, where
        if where == "the locale":
            return "en", None, "default"   # a locale scorepad has no catalog for is English, quietly
        shown = "the config's language" if where == "config" else where
        return "en", (f"warning: {shown} asks for language {value!r}, which scorepad does not speak "
                      f"({', '.join(LANGUAGES)}); using English"), where
    return "en", None, "default"
