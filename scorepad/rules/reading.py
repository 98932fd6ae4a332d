"""What players type for a ruleset's fields, read in every language the ruleset knows.

A ruleset's own field names and value words are English; each `[translations.<lang>]` table adds
the names and words of its language. All of them are read whatever language the interface speaks:
players at one table speak different languages, and a hand typed in one is read again in another
(an edit, a rename, a bid written down). A name or word that two languages, or two fields, give
different meanings is never guessed: every reading is kept, and the reader refuses it naming them.

Built once per loaded ruleset (`Ruleset.reading`), so reading a hand costs dictionary look-ups.
`word_meaning` is also the check `rules check` makes of a translated word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from scorepad.locale import N_, Said
from scorepad.locale import NO_WORDS as NO
from scorepad.locale import YES_WORDS as YES


class FieldWords(Protocol):
    """What a reading takes of a field (rules.model.FieldDef): the model builds its reading from here,
    so this module names only what it reads of it."""

    @property
    def type(self) -> str: ...
    @property
    def words(self) -> Mapping[str, Any]: ...
    @property
    def values(self) -> Sequence[str]: ...
    @property
    def synonyms(self) -> Mapping[str, str]: ...
    @property
    def combos(self) -> Mapping[str, Any]: ...


class Readable(Protocol):
    """What a reading takes of a loaded ruleset (rules.model.Ruleset)."""

    @property
    def fields(self) -> Mapping[str, FieldWords]: ...
    @property
    def data(self) -> Mapping[str, Any]: ...
    @property
    def variant(self) -> str | None: ...

OWN = "en"   # the language of a ruleset's own names and words
# a typed word: no = . , / { } [ ] or quotes; words of a value may be separated by single spaces (тёмный ноль)
WORD_RE = re.compile(r"^[^\s=.,/{}\[\]\"']+(?: [^\s=.,/{}\[\]\"']+)*$")
_FOLD = str.maketrans({"'": "\u02bc", "\u2019": "\u02bc", "ё": "е"})
_BETWEEN = re.compile(r"(?<=\w)[\s_-]+(?=\w)")


def key(text: str) -> str:
    """How a typed name or word is compared: case aside, ё as е, any apostrophe as the letter ʼ
    (мар'яжі is марʼяжі), and a space, _ or - between two words as one space (тёмный ноль,
    blind-nil, на_руках)."""
    return _BETWEEN.sub(" ", text.strip().casefold().translate(_FOLD))


@dataclass(frozen=True)
class Meaning:
    """One thing a typed word stands for in a field: the field's value itself (`value`), or a
    combination's code of a combinations field (`combo`); with the languages that say so."""

    kind: str
    value: Any
    langs: tuple[str, ...]


@dataclass(frozen=True)
class Reading:
    """The names and words of one ruleset in all its languages."""

    names: dict[str, dict[str, tuple[str, ...]]]        # key -> field -> the languages that give the name
    native: dict[str, dict[str, tuple[str, ...]]]       # field -> language -> its names there, as written
    # field -> (the field as the file writes it, (language, its words table) ...): read into `words`
    # when a word of the field is first typed, so a hand pays only for the fields it types words in
    sources: dict[str, tuple[Mapping[str, Any], tuple[tuple[str, Any], ...]]] = field(
        default_factory=dict, repr=False, compare=False)
    built: dict[str, dict[str, tuple[Meaning, ...]]] = field(default_factory=dict, repr=False, compare=False)

    def fields(self, typed: str, lang: str = OWN) -> tuple[str, ...]:
        """The fields a typed name may mean: every field that has it as a name (one, or a clash to
        refuse); else those it begins a name of, the own and `lang`'s names first, so that `p` stays
        the English points when another language names a field pakkumine."""
        k = key(typed)
        if not k:
            return ()
        if k in self.names:
            return tuple(self.names[k])
        found: dict[str, None] = {}
        for langs in ({OWN, lang}, None):
            for name, fields in self.names.items():
                if name.startswith(k):
                    found.update((f, None) for f, ls in fields.items() if langs is None or langs & set(ls))
            if found:
                break
        return tuple(found)

    def word(self, field: str, typed: str) -> tuple[Meaning, ...]:
        """What a typed word stands for in a field (nothing when it is no word of the field)."""
        words = self.words(field)
        return words.get(key(typed), ()) if words else ()

    def words(self, field: str) -> dict[str, tuple[Meaning, ...]]:
        """A field's words by key, each with every meaning the ruleset and its languages give it."""
        words = self.built.get(field)
        if words is None:
            spec, tables = self.sources.get(field, ({}, ()))
            words = self.built[field] = _field_words(_Takes.of(spec), tables)
        return words

    def written(self, field: str, lang: str) -> list[str]:
        """A field's words in one language as its ruleset writes them (ё and capitals kept), each
        once, in the file's order: what the prompt offers (`words` holds them as they are compared)."""
        known = self.words(field)
        out: dict[str, str] = {}
        for table_lang, table in self.sources.get(field, ({}, ()))[1]:
            if table_lang == lang and isinstance(table, Mapping):
                for word in table:
                    k = key(str(word))
                    if k in known:
                        out.setdefault(k, str(word).strip())
        return list(out.values())

    def shown(self, field: str, value: Any, lang: str) -> str | None:
        """A field's value as players of `lang` type it (`pole` for none), or None where that language
        has no word of its own for it."""
        if not isinstance(value, str):
            return None
        for word in self.written(field, lang):
            if any(lang in m.langs and m.kind == "value" and m.value == value for m in self.word(field, word)):
                return word
        return None

    def names_in(self, field: str, lang: str) -> tuple[str, ...]:
        """A field's names in one language, as the ruleset writes them."""
        return self.native.get(field, {}).get(lang, ())


def word_meaning(spec: Mapping[str, Any], word: str, target: Any) -> tuple[str, Any]:
    """What a translated input word stands for in a field (`spec`, the field as the file writes it):
    ("word", value) for the field's words table, ("synonym", value) for a word field's values,
    ("combo", CODE) for a combination, ("choice", meanings) for a word the language uses for two
    things (a list: `кварта = ["quart", "quatorze"]`), refused with both when typed. Raises
    ValueError with a sentence."""
    return _word_meaning(_Takes.of(spec), word, target)


@dataclass(frozen=True)
class _Takes:
    """What a field takes, from the file's table (any shape): its type, words, values, synonyms and
    combination codes, each word by its key."""

    type: str
    words: dict[str, Any]
    values: tuple[str, ...]
    synonyms: dict[str, str]
    codes: frozenset[str]

    @staticmethod
    def of(spec: Mapping[str, Any]) -> _Takes:
        raw_words, raw_values, raw_synonyms, raw_combos = (spec.get(k) for k in ("words", "values", "synonyms",
                                                                                  "combos"))
        return _Takes(
            type=str(spec.get("type", "int")),
            words={key(str(k)): v for k, v in raw_words.items()} if isinstance(raw_words, Mapping) else {},
            values=tuple(str(v).lower() for v in raw_values) if isinstance(raw_values, (list, tuple)) else (),
            synonyms={key(str(k)): str(v).lower() for k, v in raw_synonyms.items()}
            if isinstance(raw_synonyms, Mapping) else {},
            codes=frozenset(str(c).upper() for c in raw_combos) if isinstance(raw_combos, Mapping) else frozenset())


def _word_meaning(takes: _Takes, word: str, target: Any) -> tuple[str, Any]:
    low = key(word)
    if not low or not WORD_RE.match(low) or len(low) > 40:
        raise ValueError(Said(N_("a word cannot be empty or hold = . , / or quotes (words may be separated by one space)")))
    if isinstance(target, list):
        meanings = tuple(dict.fromkeys(_meaning(takes, t) for t in target))
        if len(meanings) < 2:
            raise ValueError(Said(N_("a list names the two or more things a word may mean")))
        return "choice", meanings
    meaning = _meaning(takes, target)
    existing = _existing(takes, low)
    if existing is not None and existing[1] != meaning[1]:
        raise ValueError(Said(N_("already means {value} in this field"), value=repr(existing[1])))
    return meaning


def _meaning(takes: _Takes, target: Any) -> tuple[str, Any]:
    """What one target of a translated word is in the field, or ValueError."""
    if isinstance(target, str):
        found = _existing(takes, key(target))
        if found is not None:
            return found
    elif takes.type in ("int", "number") and not isinstance(target, bool) and isinstance(target, (int, float)):
        return "word", target
    raise ValueError(Said(N_("stands for {target}, which is not a word or value this field takes"), target=repr(target)))


def _existing(takes: _Takes, low: str) -> tuple[str, Any] | None:
    """What a word (by its key) means in the field before any translation, if anything."""
    if low in takes.words:
        return "word", takes.words[low]
    if takes.type == "word" and takes.synonyms.get(low, low) in takes.values:
        return "synonym", takes.synonyms.get(low, low)
    if takes.type == "bool" and low in YES | NO:
        return "word", low in YES
    if takes.type == "combos" and low.upper() in takes.codes:
        return "combo", low.upper()
    return None


# --------------------------------------------------------------------------- building

def build_reading(rs: Readable) -> Reading:
    """The reading of a loaded ruleset: its own names and words, and those of every language its
    `[translations]` give (a variant's own translated fields too). What does not fit is left out:
    a game's pinned ruleset is read before its translations are checked."""
    names: dict[str, dict[str, list[str]]] = {}
    native: dict[str, dict[str, tuple[str, ...]]] = {}
    tables: dict[str, list[tuple[str, Any]]] = {fname: [] for fname in rs.fields}
    for fname in rs.fields:
        names.setdefault(key(fname), {}).setdefault(fname, []).append(OWN)
    for lang, ftables in _languages(rs):
        for fname, tr in _field_tables(ftables):
            if fname not in tables:
                continue      # a field only another variant has
            written = tuple(str(n).strip() for n in _list(tr.get("names")) if _name_ok(n))
            if written:
                native.setdefault(fname, {})[lang] = native.get(fname, {}).get(lang, ()) + written
            for name in written:
                names.setdefault(key(name), {}).setdefault(fname, []).append(lang)
            if tr.get("words") is not None:
                tables[fname].append((lang, tr.get("words")))
    return Reading(
        names={k: {f: tuple(dict.fromkeys(ls)) for f, ls in fields.items()} for k, fields in names.items()},
        native=native,
        sources={fname: (_spec(rs, fname, fdef), tuple(tables[fname])) for fname, fdef in rs.fields.items()})


def _field_words(takes: _Takes, tables: Iterable[tuple[str, Any]]) -> dict[str, tuple[Meaning, ...]]:
    """A field's own words and those of each language, every word with all it may mean."""
    seen: dict[str, dict[tuple[str, str, Any], list[str]]] = {}
    _own_words(takes, seen)
    for lang, table in tables:
        _language_words(takes, table, lang, seen)
    return {w: tuple(Meaning(kind, value, tuple(dict.fromkeys(ls))) for (kind, _t, value), ls in meanings.items())
            for w, meanings in seen.items()}


def _languages(rs: Readable) -> Iterable[tuple[str, list[Any]]]:
    """Each language's field tables: its own, and the chosen variant's."""
    table = rs.data.get("translations")
    if not isinstance(table, Mapping):
        return
    for lang, tr in table.items():
        if not isinstance(tr, Mapping):
            continue
        tables = [tr.get("fields")]
        variants = tr.get("variants")
        if rs.variant and isinstance(variants, Mapping) and isinstance(variants.get(rs.variant), Mapping):
            tables.append(variants[rs.variant].get("fields"))
        yield str(lang), tables


def _field_tables(tables: list[Any]) -> Iterable[tuple[str, Mapping[str, Any]]]:
    for table in tables:
        if isinstance(table, Mapping):
            yield from ((str(f), spec) for f, spec in table.items() if isinstance(spec, Mapping))


def _name_ok(name: Any) -> bool:
    return isinstance(name, str) and bool(name.strip()) and WORD_RE.match(name.strip()) is not None \
        and " " not in name.strip()


def _add(seen: dict[tuple[str, str, Any], list[str]], kind: str, value: Any, lang: str) -> None:
    # the type is part of what a word means: True is not 1
    seen.setdefault((kind, type(value).__name__, value), []).append(lang)


def _spec(rs: Readable, fname: str, fdef: FieldWords) -> Mapping[str, Any]:
    """A field as the file writes it (the variant applied): its own words, before any language's.
    (A translated copy of the ruleset holds its language's words in the FieldDef; the file does not.)"""
    tables = rs.data.get("fields")
    spec = tables.get(fname) if isinstance(tables, Mapping) else None
    if isinstance(spec, Mapping):
        return spec
    return {"type": fdef.type, "words": fdef.words, "values": list(fdef.values), "synonyms": fdef.synonyms,
            "combos": {c.code: None for c in fdef.combos.values()}}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _own_words(takes: _Takes, into: dict[str, dict[tuple[str, str, Any], list[str]]]) -> None:
    """A field's own words, and a word field's values and synonyms."""
    for word, value in takes.words.items():
        _add(into.setdefault(word, {}), "value", value, OWN)
    if takes.type == "word":
        for value in takes.values:
            _add(into.setdefault(key(value), {}), "value", value, OWN)
        for word, value in takes.synonyms.items():
            _add(into.setdefault(word, {}), "value", value, OWN)


def _language_words(takes: _Takes, table: Any, lang: str,
                    into: dict[str, dict[tuple[str, str, Any], list[str]]]) -> None:
    """The words one language gives a field, each with what it stands for."""
    if not isinstance(table, Mapping):
        return
    for word, target in table.items():
        try:
            kind, value = _word_meaning(takes, str(word), target)
        except ValueError:
            continue      # a word the field does not take (a pinned ruleset's unchecked table)
        seen = into.setdefault(key(str(word)), {})
        for k, v in (value if kind == "choice" else ((kind, value),)):
            _add(seen, "combo" if k == "combo" else "value", v, lang)
