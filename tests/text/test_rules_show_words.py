"""`rules show` reads as sentences in every language: no bracketed formula, no id of the ruleset
inside a sentence, no Python True/False, and the values in force filled in (Skid's limit).

What scorepad writes is told apart from what the ruleset wrote by showing each ruleset with its own
texts (description, notes, help, labels, the words of its messages) replaced by a neutral word: what
is left is the program's prose, and every id in it must sit in a place where it is typed:

- the name opening a field's line (the language's own name first when the translation gives one);
- a `NAME=` form (`(also out=)`, `name.cards=...`, `cards=v1,v2,...`);
- the name opening an option's line under "Options (--opt NAME=VALUE)", and `--opt NAME=VALUE`.

In English an id reads as its words (`last_trick` → "last trick"), so there only an id as typed
(with `_`) is out of place; in Estonian, Russian and Ukrainian any id is.
"""

from __future__ import annotations

import ast
import copy
import re
from dataclasses import replace

import pytest

from scorepad.engine.game import make_game
from scorepad.locale import set_language
from scorepad.rules.model import Ruleset
from scorepad.rules.registry import load
from scorepad.rules.translations import translate
from scorepad.text.describe import details, details_text
from tests.rules.test_rules_words import rulesets

pytestmark = pytest.mark.slow  # rules show of every bundled ruleset in every language: `python -m pytest -m slow` (CI runs it)

LANGUAGES = ("en", "et", "ru", "uk")
WORD = re.compile(r"[^\W\d_]+")
PLACEHOLDER = re.compile(r"(\{[^{}]+\})")


def ids(rs: Ruleset) -> set[str]:
    """The names a ruleset's formulas use for its fields, derived values, counters, options and tables."""
    out = set(rs.fields) | set(rs.options) | set(rs.tables) | set(rs.side_state) | set(rs.game_state)
    out |= {let.name for let in (*rs.hand_lets, *rs.player_lets, *rs.side_lets)}
    out |= {f"{name}_{part}" for name, f in rs.fields.items() if f.type == "pattern" for part in f.parts}
    return out


def _neutral(text: str) -> str:
    """A ruleset's own text with its words replaced: punctuation, numbers and placeholders stay."""
    return "".join(part if PLACEHOLDER.fullmatch(part) else WORD.sub("w", part) for part in PLACEHOLDER.split(text))


def program_only(rs: Ruleset) -> Ruleset:
    """The ruleset with every text of its own neutral, so what `rules show` prints besides is scorepad's."""
    out = copy.copy(rs)
    out.description, out.notes, out.display_info, out.variants = "", (), (), {k: "w" for k in rs.variants}
    out.fields = {k: replace(f, help="") for k, f in rs.fields.items()}
    out.options = {k: replace(o, help="") for k, o in rs.options.items()}
    out.scores = tuple(replace(s, label="w") for s in rs.scores)
    out.checks = tuple(replace(c, message=_neutral(c.message)) for c in rs.checks)
    out.rules = tuple(replace(r, message=_neutral(r.message),
                              label=_neutral(r.message) if r.label == r.message else
                              r.label if r.label == r.id else "w") for r in rs.rules)
    out.end = replace(rs.end, description="")
    return out


def shown(rs: Ruleset, lang: str, **kwargs: object) -> str:
    set_language(lang)
    tr = translate(rs, None if lang == "en" else lang)
    return details_text(details(tr, None if lang == "en" else lang, **kwargs))  # type: ignore[arg-type]


def program_text(rs: Ruleset, lang: str) -> str:
    set_language(lang)
    tr = program_only(translate(rs, None if lang == "en" else lang))
    return details_text(details(tr, None if lang == "en" else lang))


def out_of_place(text: str, names: set[str], lang: str, codes: frozenset[str] = frozenset()) -> list[str]:
    """The ids in `text` outside the places where they are typed (see the module's docstring); `codes`:
    the codes of combinations, typed before their points ("royal 20")."""
    from scorepad.locale import _

    fields, options = _("After each hand, type:"), _("Options (--opt NAME=VALUE):")
    problems = []
    section = ""
    for line in text.split("\n\n", 1)[-1].splitlines():     # after the game's names
        if line and not line.startswith(" "):
            section = line
        if section in (fields, options) and re.match(r"  \S", line):
            continue     # a field's or option's own line: its name, how it is typed and its values
        rest = re.sub(r"--opt \S+|scorepad \w+", "", line)     # options and commands as typed
        rest = re.sub(r"[\w.]+=", "=", rest)                     # NAME= and name.NAME= forms
        rest = re.sub(r"(?<![\w-])(\w+)(?= -?\d)", lambda m: "" if m.group(1).lower() in codes else m.group(1), rest)
        for name in names:
            if lang == "en" and "_" not in name:
                continue
            if re.search(rf"(?<![\w'.-]){re.escape(name)}(?![\w'-])", rest):
                problems.append(f"{name!r} in {line.strip()!r}")
    return problems


def bracketed_formulas(text: str, names: set[str]) -> list[str]:
    """`[...]` holding a formula: an id, an `_` or a call."""
    return [m.group(0) for m in re.finditer(r"\[([^\[\]]*)\]", text)
            if "_" in m.group(1) or "(" in m.group(1) or any(re.search(rf"\b{re.escape(n)}\b", m.group(1))
                                                              for n in names if len(n) > 2)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_id_or_formula_in_the_sentences(lang: str) -> None:
    problems = []
    for name in rulesets():
        rs = load(name)
        names = ids(rs)
        text = program_text(rs, lang)
        codes = frozenset(c.code.lower() for f in rs.fields.values() for c in f.combos.values())
        problems += [f"{name}: {p}" for p in out_of_place(text, names, lang, codes)]
        problems += [f"{name}: bracketed formula {b}" for b in bracketed_formulas(text, names)]
    assert not problems, "\n".join(problems[:60])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_python_booleans(lang: str) -> None:
    found = [name for name in rulesets() if re.search(r"\b(True|False)\b", shown(load(name), lang))]
    assert not found


def test_the_check_finds_what_it_looks_for() -> None:
    """The checks above can fail: a formula in brackets and an id in a sentence are found."""
    assert bracketed_formulas("a [sum(all_n_cards)] b [default 0] [optional]", {"n_cards"}) == ["[sum(all_n_cards)]"]
    lines = "Skid\n\nAfter each hand, type:\n  out (also вийшов=): x\n      only when out is given"
    set_language(None)
    assert out_of_place(lines, {"out"}, "uk") == ["'out' in 'only when out is given'"]
    assert out_of_place(lines, {"went_out"}, "en") == []
    assert out_of_place("Skid\n\nScoring:\n  якщо не went_out", {"went_out"}, "en") == [
        "'went_out' in 'якщо не went_out'"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_skid_names_the_limit_in_force(lang: str) -> None:
    """Skid's limit is an option: a game started with --opt limit=505 reads 505 wherever the rules
    name the limit, and `rules show` without a game the default, 125."""
    set_language(lang)
    rs = translate(load("skid"), None if lang == "en" else lang)
    game = make_game(rs, ["ann", "bob", "cat"], options={"limit": "505"})
    d = details(rs, None if lang == "en" else lang, game=game)
    said = [x["says"] for key in ("thresholds", "checks", "scoring") for x in d[key] if x["says"]]
    assert any("505" in s for s in said) and not any("125" in s for s in said), said
    assert not any("[" in s or "score" in s for s in said), said
    assert re.search(r"^  (limit|\S+ \(limit=\)) = 505 ", details_text(d), re.MULTILINE)   # its name in the language
    default = details(rs, None if lang == "en" else lang)
    assert any("125" in x["says"] for x in default["thresholds"] if x["says"])


def test_formula_placeholders_read_as_words() -> None:
    """A check's placeholder is a letter the sentence explains, a player who opens it a noun."""
    text = shown(load("skid"), "en")
    assert "N plain queens (Q), but besides the queen of spades (QS) there are only 3" in text
    assert "Player A went out, so A holds no cards" in text
    assert "after each hand: a player goes past 125 with N and is out" in text
    uk = shown(load("skid"), "uk")
    assert not bracketed_formulas(uk, ids(load("skid"))) and "[гравець]" not in uk
    assert "Д♠ 50" in uk and "QS 50" not in uk            # the cards in the language's notation


def test_a_condition_names_fields_in_the_language() -> None:
    text = shown(load("skid"), "uk")
    assert "went_out" not in text and "якщо не out" not in text
    scoring = text.split("\n\n")
    assert any("«вийшов»" in block or "“вийшов”" in block for block in scoring)


def test_an_option_in_force_settles_a_condition() -> None:
    """asshole: with scoring=titles the titles line applies always, the points line not at all."""
    rs = load("asshole")
    text = shown(rs, "en")
    assert "President (per side)\n" in text
    assert "title (per side): not with the options in force (--opt scoring=titles)" in text


def test_english_keeps_the_words_of_its_ids() -> None:
    d = details(load("marjas"))
    assert [s["says"] for s in d["scoring"] if s["says"]] == [
        "2 points when trump is this side", "when matt is this side", "1 point when last is this side"]


def test_parse_of_every_neutral_message() -> None:
    """The neutral messages keep their placeholders, so the program's part is what the test sees."""
    for name in rulesets():
        rs = load(name)
        for c in rs.checks:
            assert PLACEHOLDER.findall(_neutral(c.message)) == PLACEHOLDER.findall(c.message)
            for p in PLACEHOLDER.findall(c.message):
                ast.parse(p[1:-1].strip(), mode="eval")


def test_an_option_in_force_switches_a_field_off() -> None:
    """king: with order=fixed the deal follows the deal number, so `deal` is listed as never typed."""
    rs = load("king")
    text = shown(rs, "en")
    assert "deal: tricks/hearts" in text
    assert "not with the options in force (--opt order=fixed)" in text.split("tricks (each player")[0]
    dealer = shown(rs, "en", game=make_game(rs, ["a", "b", "c", "d"], options={"order": "dealer"}))
    assert "--opt order=" not in dealer.split("tricks (each player")[0]
