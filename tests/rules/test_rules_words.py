"""`rules show` in Estonian, Russian and Ukrainian: the prose scorepad writes around a ruleset's own
texts (formulas read aloud, score lines, rule actions, field notes, the end) has no English words left
outside the ruleset's ids and values, for every bundled ruleset and variant."""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import pytest

from scorepad.locale import _, neutral, set_language
from scorepad.rules.expr import Formula
from scorepad.rules.model import Ruleset
from scorepad.rules.registry import entries, load
from scorepad.rules.translations import translate
from scorepad.text.describe import _field_notes, details

pytestmark = pytest.mark.slow  # the words of every bundled ruleset in every language: `python -m pytest -m slow` (CI runs it)

# English words scorepad itself puts into the prose (connectives, comparisons, the words for the
# functions and prefixes of formulas, score lines, rule actions and field notes).
ENGLISH = {
    "a", "add", "agree", "and", "are", "at", "be", "becomes", "by", "card", "cards", "code", "combinations",
    "compared", "e.g", "every", "everyone's", "for", "given", "higher", "highest", "hold", "in", "is", "least",
    "left", "less", "loses", "lower", "lowest", "marked", "may", "more", "most", "no", "not", "number", "of",
    "on", "or", "others'", "out", "player", "plays", "point", "points", "side", "standing", "team's", "than",
    "the", "this", "to", "total", "typed", "value", "when", "whether", "wins", "with", "works", "yes",
}
WORD = re.compile(r"[\w'.]*[\w']")
QUOTED = re.compile(r"'[^']*'|--opt \S+")     # a value as typed, an option as typed
BRACKETED = re.compile(r"\[([^\[\]]*)\]")


def _formulas(obj: Any, seen: set[int]) -> Iterator[Formula]:
    """Every formula a loaded ruleset holds, wherever it sits."""
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, Formula):
        yield obj
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from _formulas(getattr(obj, f.name), seen)
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _formulas(v, seen)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _formulas(v, seen)


def _words_of(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(map(str, value)) | {w for v in value.values() for w in _words_of(v)}
    if isinstance(value, (list, tuple)):
        return {w for v in value for w in _words_of(v)}
    return set(WORD.findall(str(value)))


def ids(rs: Ruleset) -> set[str]:
    """The ruleset's own names and values: what a player types or the formulas name."""
    out: set[str] = {"none", "scorepad", "mod", "bid", "opt"}   # a value, the program, an operator, commands
    for f in _formulas(rs, set()):
        for node in ast.walk(ast.parse(f.source.strip(), mode="eval")):
            if isinstance(node, ast.Name):
                out |= {node.id, re.sub(r"^(all|others|team)_", "", node.id)}
            elif isinstance(node, ast.Attribute):
                out.add(node.attr)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                out |= set(WORD.findall(node.value))
    for fdef in rs.fields.values():
        out |= {fdef.name, *fdef.values, *map(str, fdef.words)}
        out |= {w for c in fdef.combos.values() for w in (c.code, c.field)}
    for o in rs.options.values():
        out |= {o.name} | _words_of(list(o.values or ())) | _words_of(o.default)
    out |= _words_of(rs.tables) | set(rs.seats) | set(rs.side_state) | set(rs.game_state)
    return out


def program_prose(rs: Ruleset, lang: str) -> list[str]:
    """The texts of `rules show` that scorepad writes (not the ruleset's own labels and messages)."""
    d = details(translate(rs, lang), lang)
    texts = [s["says"] for s in d["scoring"]]
    by_id = {r.id: r for r in rs.rules}
    for t in d["thresholds"]:
        r = by_id[t["id"]]
        if r.label in (r.message, r.id) and not r.message:
            texts.append(t["says"] or "")
        else:
            texts += BRACKETED.findall(t["says"] or "")
    for c in d["checks"]:
        texts += BRACKETED.findall(c["says"] or "")
    for f in d["fields"]:
        texts += _field_notes(f)
        if f["type"] == "combos":
            texts.append(f["legal"])
    if d["end"]["when_words"]:
        texts.append(d["end"]["when_words"])
    return [t for t in texts if t]


def english_left(text: str, known: set[str], lang: str = "en") -> list[str]:
    """English words outside the ruleset's ids and values; in Russian and Ukrainian any word in Latin
    letters (Estonian "on" is "is", not the English word)."""
    words = [w for w in WORD.findall(QUOTED.sub("", text))
             if w not in known and re.search(r"[A-Za-z]", w) and not re.search(r"\d", w)]
    if lang in ("ru", "uk"):
        return words
    return [w for w in words if w.lower() in ENGLISH - ({"on"} if lang == "et" else set())]


def rulesets() -> list[str]:
    out = []
    for entry in sorted(entries([]).values(), key=lambda e: str(e.path)):
        rs = load(str(entry.path))
        out += [rs.id, *(f"{rs.id}:{v}" for v in rs.variants)]
    return out


@pytest.fixture()
def language() -> Iterator[None]:
    with neutral():
        yield
    set_language(None)


@pytest.mark.parametrize("lang", ["et", "ru", "uk"])
def test_rules_show_prose_has_no_english_words(lang: str, language: None) -> None:
    problems = []
    for name in rulesets():
        rs = load(name)
        known = ids(rs)
        set_language(lang)
        for text in program_prose(rs, lang):
            left = english_left(text, known, lang)
            if left:
                problems.append(f"{name}: {left}: {text}")
        set_language(None)
    assert not problems, "\n".join(problems[:40])


def test_the_english_prose_is_what_the_list_looks_for(language: None) -> None:
    """The check above can fail: in English the same texts are full of the listed words."""
    found = set()
    for name in rulesets():
        rs = load(name)
        known = ids(rs)
        for text in program_prose(rs, "en"):
            found |= set(english_left(text, known))
    assert {"when", "is", "not", "points", "and", "or", "total", "everyone's", "becomes", "add"} <= found


@pytest.mark.parametrize(("lang", "says"), [
    ("et", ["2 punkti, kui {trumbitegija} on see pool", "kui {matid} on see pool", "1 punkt, kui {viimane} on see pool"]),
    ("ru", ["2 очка, если {козырь} — эта сторона", "если {матты} — эта сторона", "1 очко, если {последняя} — эта сторона"]),
    ("uk", ["2 очки, якщо {козир} — ця сторона", "якщо {матти} — ця сторона", "1 очко, якщо {остання} — ця сторона"]),
])
def test_marjas_score_lines(lang: str, says: list[str], language: None) -> None:
    """The fields by the names their translation gives them (quoted), the counter by its display label,
    a value by the word players of the language type for it."""
    set_language(lang)

    def named(text: str) -> str:
        return re.sub(r"\{([^{}]+)\}", lambda m: _("“{name}”").format(name=m.group(1)), text)

    d = details(translate(load("marjas"), lang), lang)
    assert [s["says"] for s in d["scoring"] if s["says"]] == [named(s) for s in says]
    extra = next(f for f in d["fields"] if f["name"] == "extra")
    assert extra["applies_when"] == named({"et": "{trumbitegija} ei ole 'pole'", "ru": "{козырь} не 'нет'",
                                           "uk": "{козир} не 'нема'"}[lang])
    counter = next(t["says"] for t in d["thresholds"] if t["id"] == "matt_paid")
    assert counter == named({"et": "kui {matid} ei ole 'viik' ja {matipunkt} ei ole 1: {matipunkt} saab väärtuseks 1",
                             "ru": "если {матты} не 'ничья' и {очко за матты} не 1: {очко за матты} принимает значение 1",
                             "uk": "якщо {матти} не 'нічия' і {очко за матти} не 1: {очко за матти} набуває значення 1",
                             }[lang])


def test_english_rules_show_reads_as_before(language: None) -> None:
    d = details(load("marjas"))
    assert [s["says"] for s in d["scoring"] if s["says"]] == [
        "2 points when trump is this side", "when matt is this side", "1 point when last is this side"]


def test_the_player_inside_a_sentence_is_a_letter(language: None) -> None:
    """`{me}` opening a message reads as a word; when it comes again, where the language would inflect
    it ("у {me}"), it is a letter, introduced where the sentence opens ("гравець А")."""
    set_language("uk")
    d = details(translate(load("skid"), "uk"), "uk")
    says = [c["says"] for c in d["checks"]]
    letter = _("A B C D E F").split()[0]
    assert f"{_('player {name}').format(name=letter)} виходить, тож {letter} не має карт на руках" in says
    assert not any("[" in s for s in says if s)
    set_language(None)
    d = details(load("skid"))
    assert "player A went out, so A holds no cards" in [c["says"] for c in d["checks"]]
