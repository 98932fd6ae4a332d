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
    "copy", "delete", "abandon", "rename", "backup", "rescore", "player", "games", "stats", "serve", "db", "init", "schema",
    "derive", "list", "show", "check", "test", "get", "set", "language", "club", "shell", "markdown", "text",
    "pip", "install", "host", "port", "scorer",   # `pip install 'scorepad[serve]'`, serve's own options
    "true", "false",   # TOML's own literals, written as such in a ruleset file (`rules check` names them)
    # names of games the rule texts compare with, the same in every language
    "sheepshead", "binokel", "skat", "belote", "whist", "tabulate", "tomli", "migrate", "grant", "revoke",
}


# Words the language writes as English does (card-table words of the glossary and the seeds).
SHARED = {"et": {"trump", "trumbi", "pass", "robber", "jokker", "mast", "bridge", "gin", "kasiino", "marjas", "number",
                 "variant",          # Estonian for a variant of a game, as `rules show` calls them
                 "nord", "ost"},     # the Estonian bridge seats N and O, named as the Estonian texts name them
          "ru": set(), "uk": set()}

# Names and source words that stay as written in every language, each with its reason.
ALLOWED = {
    "nikki", "katz",   # Nikki Katz, the author of Tablanette's source, named in its notes
    "must",            # Lambapea's outcome `must` (every trick): the Estonian source's own word, kept as the
                       # game's term beside its gloss (ru `must (все взятки)`), as Vähim and rätsep are
    # sources named in the notes: authors, books, sites, card makers
    "hoyle", "foster", "parlett", "penguin", "book", "britannica", "bicycle", "wiki", "pagat",
    # games and terms named as their players name them: Cribbage's "his heels", "lurch", "muggins" and the
    # American Cribbage Congress; gin's "Oklahoma", "blitz", "schneider"; Piquet's "carte blanche";
    # Calabrasella's Italian relative Terziglio;
    "his", "lurch", "muggins", "congress", "oklahoma", "blitz", "schneider", "carte", "terziglio",
    "omnibus", "rum",  # Omnibus Hearts and 500 Rum, the games the notes compare with
    # words of the Estonian (and one Finnish) rule texts the notes quote in the original, with a gloss
    "eelmisedki", "hea", "jagab", "kaotab", "kogub", "kokku", "koos", "korttipelit", "lesega", "liiga", "lisan",
    "lisapunktid", "loetakse", "nullib", "poolavatud", "pulka", "punkti", "punktide", "sama",
}


@cache
def vocabulary(lang: str, strict: bool = True) -> frozenset[str]:
    """English words that must not be seen in `lang`.

    A word the English texts have is excused when a player types it (ids, values, words: `typed`), when
    the language writes it as English does (SHARED), or when a translation has it that its English does
    not (Estonian "robber", the seeds' own words the English quotes). Strict (the default): only the
    translations of `lang` itself count, each ruleset's against its own English, so an English word left
    in a translation ("rubber", "standard") is not excused by being there; not strict: the word in any
    language's translation excuses it (the older, looser reading)."""
    english = _words(e for e, _t in _catalog(LOCALE / lang / "LC_MESSAGES" / "scorepad.po"))
    for data in _rulesets():
        english |= _words(_texts(_untranslated(data)))
    typed = {w.lower() for data in _rulesets() for i in _ids(data) for w in WORD.findall(str(i))} | TYPED
    native = set(SHARED.get(lang, set()))
    codes = (lang,) if strict else ("et", "ru", "uk")
    for data in _rulesets():
        own = _words(_texts(_untranslated(data))) if strict else set()
        for code in codes:
            native |= _words(_texts(data.get("translations", {}).get(code, {}))) - own
    for code in codes:
        native |= {w for e, t in _catalog(LOCALE / code / "LC_MESSAGES" / "scorepad.po") for w in _words([t]) - _words([e])}
    return frozenset(english - typed - native - ALLOWED)


def _untranslated(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "translations"}


def english_in(text: str, lang: str, allowed: Iterable[str] = (), strict: bool = True) -> list[str]:
    """The English words of `text` (not ids, names or what is typed): [] when it is all in `lang`."""
    vocab = vocabulary(lang, strict)
    skip = {a.lower() for a in allowed}
    found = []
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    text = re.sub(r"\S*[/\\]\S*|\S+\.(?:md|json|toml|db|html|csv)\b", " ", text)   # paths and file names
    text = re.sub(r"[\w.+-]+=[\w.+-]*", " ", text)   # typed as it is typed: --opt scoring=titles, (losses=)
    for token in TOKEN.findall(text):
        if ("_" in token or "=" in token or token.startswith("-") or (token.isupper() and len(token) > 1)
                or re.search(r"\w\.\w", token) or re.search(r"[^\W\d_A-Za-z]", token)):
            continue                   # an id, an option or a key as typed (alias.X), a placeholder (FILE, URL),
                                       # or a word with a letter English has not (võlgu, rätsep, Vähim)
        for word in WORD.findall(token):
            low = word.lower()
            if low in vocab and low not in skip:
                found.append(word)
    return found
