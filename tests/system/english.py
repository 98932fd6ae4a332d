"""Finds English sentence words in text shown in another language.

The English vocabulary is the program's own: every word of the message template (scorepad.pot) and of
the bundled rulesets' English texts. What may stay in any language is taken out of it: what a player
types (field, option, value, variant and game ids, commands, card codes, options of the CLI) and the
words the language's own catalog and ruleset translations use (Estonian writes "trump" and "pass" too).
A word of the output left in the vocabulary is English that leaked.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parents[2]
RULESETS = ROOT / "rulesets"
LOCALE = ROOT / "scorepad" / "locale"
WORD = re.compile(r"[A-Za-z](?:[A-Za-z]|'(?=[A-Za-z])){2,}")
TOKEN = re.compile(r"[\w.+'-]+")


def _catalog(path: Path) -> list[tuple[str, str]]:
    """(English, translation) of every entry of a .po file (plural forms joined)."""
    from babel.messages.pofile import read_po

    with path.open("rb") as fh:
        catalog = read_po(fh)
    out = []
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, (list, tuple)) else (m.id,)
        strs = m.string if isinstance(m.string, (list, tuple)) else (m.string,)
        out.append((" ".join(ids), " ".join(s for s in strs if s)))
    return out


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _texts(v)
    elif isinstance(value, list):
        for v in value:
            yield from _texts(v)


def _ids(data: dict[str, Any]) -> Iterator[str]:
    """Everything a player or a script types for this ruleset: ids, values, words, names."""
    game = data.get("game", {})
    yield game.get("id", "")
    yield from game.get("aliases", [])
    sections = [data, *data.get("variants", {}).values()]
    yield from data.get("variants", {})
    for section in sections:
        # options are not here: `rules show` and the reminder lines name them and their values in the language
        for group in ("fields", "tables", "let", "counters"):
            block = section.get(group, {})
            if isinstance(block, dict):
                for name, spec in block.items():
                    yield name
                    if isinstance(spec, dict):
                        for key in ("values", "words", "codes", "combos", "default"):
                            yield from _typed(spec.get(key))
            elif isinstance(block, list):
                for entry in block:
                    if isinstance(entry, dict):
                        yield from _typed(entry.get("name"))
        for group in ("check", "score", "rule", "let", "counter"):
            entries = section.get(group, [])
            for entry in entries if isinstance(entries, list) else []:
                if not isinstance(entry, dict):
                    continue
                yield from _typed(entry.get("id"))
                yield from _typed(entry.get("name"))
    for lang in data.get("translations", {}).values():
        for spec in lang.get("fields", {}).values():
            yield from spec.get("names", [])
            yield from _typed(spec.get("words"))


def _typed(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _typed(v)
    elif isinstance(value, list):
        for v in value:
            yield from _typed(v)


def _words(texts: Iterable[str]) -> set[str]:
    return {w.lower() for t in texts for w in WORD.findall(t)}


@cache
def _rulesets() -> list[dict[str, Any]]:
    return [tomllib.loads(p.read_text(encoding="utf-8")) for p in sorted(RULESETS.glob("*.toml"))]


# Typed in every language: commands of `play` and the CLI, option names, answers, card codes, units.
TYPED = {
    "scorepad", "play", "hand", "bid", "undo", "redo", "edit", "sheet", "standings", "rules", "finish", "rematch",
    "use", "new", "help", "quit", "json", "quiet", "lang", "opt", "team", "game", "key", "expect", "field", "value",
    "yes", "no", "none", "nil", "blind", "pass", "all", "season", "export", "import", "log", "verify", "config",
    "sqlite", "postgresql", "postgres", "toml", "csv", "html", "utf", "ctrl", "enter", "tab", "scorepad's",
    "copy", "delete", "abandon", "rename", "backup", "rescore", "player", "games", "serve", "db", "init", "schema",
    "derive", "list", "show", "check", "test", "get", "set", "language", "club", "shell", "markdown", "text",
    "pip", "install", "host", "port", "scorer",   # `pip install 'scorepad[serve]'`, serve's own options
    # names of games the rule texts compare with, the same in every language
    "sheepshead", "binokel", "skat", "belote", "whist", "tabulate", "tomli", "migrate", "grant", "revoke",
}


# Words the language writes as English does (card-table words of the glossary and the seeds).
SHARED = {"et": {"trump", "trumbi", "pass", "robber", "jokker", "mast", "bridge", "gin", "kasiino", "marjas", "number"},
          "ru": set(), "uk": set()}


@cache
def vocabulary(lang: str) -> frozenset[str]:
    """English words that must not be seen in `lang`."""
    english = _words(e for e, _t in _catalog(LOCALE / lang / "LC_MESSAGES" / "scorepad.po"))
    for data in _rulesets():
        untranslated = {k: v for k, v in data.items() if k != "translations"}
        english |= _words(_texts(untranslated))
    typed = {w.lower() for data in _rulesets() for i in _ids(data) for w in WORD.findall(str(i))} | TYPED
    # a word of a translation that its English does not have is a language's own (Estonian "trump"); the
    # English texts quote the seeds' own words too (Estonian "Kasiino", "punktide")
    native = SHARED.get(lang, set()) | _words(t for data in _rulesets() for code, table in
                                              data.get("translations", {}).items() for t in _texts(table))
    for code in ("et", "ru", "uk"):
        native |= {w for e, t in _catalog(LOCALE / code / "LC_MESSAGES" / "scorepad.po") for w in _words([t]) - _words([e])}
    return frozenset(english - typed - native)


def english_in(text: str, lang: str, allowed: Iterable[str] = ()) -> list[str]:
    """The English words of `text` (not ids, names or what is typed): [] when it is all in `lang`."""
    vocab = vocabulary(lang)
    skip = {a.lower() for a in allowed}
    found = []
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    text = re.sub(r"\S*[/\\]\S*|\S+\.(?:md|json|toml|db|html|csv)\b", " ", text)   # paths and file names
    for token in TOKEN.findall(text):
        if ("_" in token or "=" in token or token.startswith("-") or (token.isupper() and len(token) > 1)
                or re.search(r"\w\.\w", token)):
            continue                   # an id, an option or a key as typed (alias.X), a placeholder (FILE, URL)
        for word in WORD.findall(token):
            low = word.lower()
            if low in vocab and low not in skip:
                found.append(word)
    return found
