"""`rules check` in et, ru and uk says every problem of a ruleset in that language: the rarer problems of
the sections (fields, formulas, players, cards, rules, display, the cost of formulas), the problems of a
`[translations.<lang>]` table, and click's usage errors. English reads as before, and the JSON of
`rules check --format json` keeps the English problems."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run
from tests.system.english import english_in

HOSTILE = Path(__file__).resolve().parents[1] / "hostile"
LANGS = ["et", "ru", "uk"]

# Hostile rulesets whose problems are sentences of the program (others quote Python's or the TOML
# parser's own words about the text, e.g. "invalid syntax", which stay as those libraries write them).
HOSTILE_FILES = ["attr_class", "builtins_name", "cost_counter_list", "cost_message_part", "cost_rule_when",
                 "cost_display_side", "cost_many_cheap_formulas", "deep_unary", "double_for", "eval_call",
                 "format_version", "fstring", "huge_card_value", "huge_constant", "huge_float_table",
                 "huge_list_table", "huge_product", "inf_nan", "lambda", "let_self_recursion", "long_sum",
                 "message_attr", "message_conversion", "message_dunder_subscript", "message_huge", "nested_comprehension",
                 "power_tower", "regex_backreference", "regex_many_stars", "regex_nested_quantifier", "subscript_dunder_get",
                 "unary_minus_word", "walrus", "variant_recursion", "state_recursion"]

SECTIONS = """
format = 1
[game]
id = "broken"
name = "Broken"
[players]
min = 4
max = 3
sides = "partnership"
partnerships = [[1, 2], [2, 3]]
side_names = ["a"]
[cards]
ranks = ["7", "8", "X"]
values = { ZZ = 1, Q = "ten" }
[options.target]
default = 100
[tables]
small = { a = 1 }
[fields.tricks]
scope = "player"
type = "int"
default = "many"
total = 13
[fields.bid]
type = "word"
values = ["pass", "play"]
default = "double"
bidding = true
applies_if = "tricks > 0"
[fields.made]
type = "bool"
default = 3
[fields.shape]
type = "pattern"
pattern = "(a)+"
[fields.kind]
type = "pattern"
pattern = "(?P<x>a)"
parts = ["x", "y"]
resolve = { y = "team" }
[fields.flag]
type = "int"
default = 1
default_from = "tricks"
combos = { a = 1 }
[fields.melds]
type = "combos"
[fields.melds.combos]
"x y" = 1
m = "m"
n = { field = "nosuch", points = 1 }
o = { field = "made", points = 2 }
p = { field = "flag", adds = "all" }
q = { field = "flag" }
[[check]]
ok = "tricks[0:1] == 1"
message = "sliced {"
[[check]]
ok = "max(x for x in all_tricks for y in all_tricks)"
message = "two fors"
[[check]]
ok = "tricks is 1"
message = "is"
[[check]]
ok = "if_(1, 2)"
message = "if"
[[check]]
ok = "sum(*all_tricks) > 0"
message = "star"
[[check]]
ok = "round(x=1) > 0"
message = "keywords"
[[check]]
ok = "'{}' > 1 ** 99"
message = "power"
[[check]]
ok = "{1, 2} == tricks"
message = "set"
[[score]]
points = "1"
to = ["nosuch"]
[state.side]
pts = 0
[[rule]]
per = "hand"
mark = "gone"
set = { nosuch = 1 }
[[rule]]
per = "game"
mark = "out"
[end]
rest_of_deal = "void"
[display]
sheet_below = "nosuch"
info = ["one", "two"]
info_when = ["target > 0"]
"""

TRANSLATIONS = """
format = 1
[game]
id = "worded"
name = "Worded"
notes = ["one"]
[players]
min = 2
max = 4
[options.target]
default = 100
help = "points to reach ({target})"
[fields.won]
type = "bool"
help = "who won"
[[check]]
id = "c"
ok = "won != none"
message = "say who won"
[[score]]
id = "s"
label = "points"
points = "10 if won else 0"
[[rule]]
id = "r"
message = "{target} reached"
[state.side]
count = 0
[display.side]
count = "count if count > 0 else 'nobody'"
[variants.short]
name = "Short"
[translations.ET]
name = "x"
[translations.xx]
nosuch = "x"
name = 3
notes = ["a", "b"]
options = { target = { help = "punktid" }, nosuch = { help = "x" }, worse = 3 }
checks = { nosuch = "x" }
scores = { s = 5 }
rules = { nosuch = { label = "x" }, r = { message = "{target} {won}" }, also = 1 }
display = { nosuch = "x", count = 1 }
display_words = { nobody = "", somebody = "x" }
variants = { nosuch = {}, short = 2 }
[translations.xx.fields]
nosuch = { help = "x" }
won = { names = ["a b", "won"], words = { "a,b" = "yes", "jah" = "maybe", "yes" = false, "two" = ["yes"] }, help = 3, other = 1 }
[translations.yy]
fields = 3
[translations.zz]
fields = { won = { names = 3, words = 3 } }
"""


# keys of the ruleset format that a sentence names as they are written in the file
KEYS = {"default", "default_from", "combos", "rest", "total", "help", "names", "words", "label", "message", "info",
        "values", "type"}


def _messages(err: str) -> list[str]:
    """The sentences of `rules check` without their place (file:line:column: key:) and without the lists
    of names a sentence ends with (a formula's known names, the counters of a rule ...)."""
    out = []
    for line in err.splitlines():
        if not line.strip() or line.startswith(" "):
            continue   # a formula quoted under its problem, with a caret
        line = re.sub(r"^\S+:\d+:\d+: (?:[\w.\[\]{}'\"-]+: )?", "", line)
        line = re.sub(r"'[^']*'|\"[^\"]*\"|\[\[?[\w.]+\]\]?", "", line)       # values quoted, [sections]
        line = re.sub(r"\b[\w'-]+(?:, [\w'{}-]+)+", "", line)               # lists of names
        out.append(line)
    return out


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _assert_in_language(r: Run, lang: str, least: int) -> None:
    messages = _messages(r.err)
    assert r.code == 2 and len(messages) >= least, r.err
    leaks = {m: english_in(m, lang, allowed=KEYS) for m in messages}
    assert not {m: w for m, w in leaks.items() if w}, r.err


@pytest.mark.parametrize("lang", LANGS)
def test_the_problems_of_sections_and_formulas_read_in_the_language(cli: Callable[..., Run], tmp_path: Path,
                                                                     lang: str) -> None:
    path = _write(tmp_path, "broken", SECTIONS)
    _assert_in_language(cli("--lang", lang, "rules", "check", path), lang, 30)


@pytest.mark.parametrize("lang", LANGS)
def test_the_problems_of_hostile_rulesets_read_in_the_language(cli: Callable[..., Run], lang: str) -> None:
    paths = [str(HOSTILE / f"{name}.toml") for name in HOSTILE_FILES]
    _assert_in_language(cli("--lang", lang, "rules", "check", *paths), lang, len(paths))


@pytest.mark.parametrize("lang", LANGS)
def test_the_problems_of_a_translations_table_read_in_the_language(cli: Callable[..., Run], tmp_path: Path,
                                                                    lang: str) -> None:
    path = _write(tmp_path, "worded", TRANSLATIONS)
    _assert_in_language(cli("--lang", lang, "rules", "check", path), lang, 25)


def test_the_same_problems_in_english_read_as_before(cli: Callable[..., Run], tmp_path: Path) -> None:
    err = cli("rules", "check", _write(tmp_path, "broken", SECTIONS)).err
    for said in ("players.max: is smaller than players.min", "fields.tricks.default: must be a whole number, not 'many'",
                 "fields.bid.default: must be one of its values (pass, play), not 'double'",
                 "slices are not allowed", "end.rest_of_deal: applies only with end.first_to",
                 "display.info_when: has 1 conditions for 2 info lines; give one per line ('' = always)"):
        assert said in err, err
    err = cli("rules", "check", _write(tmp_path, "worded", TRANSLATIONS)).err
    for said in ("translations.xx.options.nosuch: the ruleset has no option 'nosuch'",
                 "translations.xx.notes: has 2 lines, but the original has 1 (same count and order)",
                 ("translations.xx.rules.r.message: uses the placeholders {target}, {won}, but the original uses "
                  "{target}"), "translations.xx.variants.short: must be a table",
                 ("translations.xx.fields.won.words.jah: stands for 'maybe', which is not a word or value this field "
                  "takes")):
        assert said in err, err


def test_json_keeps_the_problems_in_english(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = _write(tmp_path, "worded", TRANSLATIONS)
    english = json.loads(cli("rules", "check", "--format", "json", path).out)
    assert json.loads(cli("--lang", "uk", "rules", "check", "--format", "json", path).out) == english


@pytest.mark.parametrize(("lang", "words"), [
    ("et", ["Ootamatu lisaargument (extra)", "Ootamatud lisaargumendid (x y)", "Võti '--game' vajab väärtust.",
            "Võti '--json' ei võta väärtust.", "'abc' pole täisarv"]),
    ("ru", ["Лишний аргумент (extra)", "Лишние аргументы (x y)", "Параметру '--game' нужно значение.",
            "Параметр '--json' не принимает значения.", "'abc' — не целое число"]),
    ("uk", ["Зайвий аргумент (extra)", "Зайві аргументи (x y)", "Параметру '--game' потрібне значення.",
            "Параметр '--json' не приймає значення.", "'abc' — не ціле число"]),
])
def test_more_click_usage_errors_read_in_the_language(cli: Callable[..., Run], lang: str, words: list[str]) -> None:
    runs = [cli("--lang", lang, *args) for args in (["games", "extra"], ["rules", "list", "x", "y"],
                                                   ["standings", "--game"], ["games", "--json=1"], ["edit", "abc"])]
    for r, said in zip(runs, words, strict=True):
        assert r.code == 2 and said in r.err, r.err
        assert not english_in(r.err.splitlines()[-1], lang), r.err


def test_more_click_usage_errors_in_english(cli: Callable[..., Run]) -> None:
    for args, said in ((["games", "extra"], "Error: Got unexpected extra argument(s) (extra)"),
                       (["standings", "--game"], "Error: Option '--game' requires an argument."),
                       (["games", "--json=1"], "Error: Option '--json' does not take a value."),
                       (["edit", "abc"], "Invalid value for 'N': 'abc' is not a whole number")):
        r = cli(*args)
        assert r.code == 2 and said in r.err, r.err


FAILING = """
format = 1
[game]
id = "failing"
name = "Failing"
[players]
min = 2
max = 2
[fields.x]
type = "int"
[tables]
t = { a = 1 }
[[score]]
points = "10 // x + t['q' if x == 2 else 'a'] + [1][x - 1]"
"""


@pytest.mark.parametrize(("lang", "said"), [
    ("en", ["division by zero", "no entry 'q' in the table (entries: a)", "position 4 is outside the list of 1"]),
    ("et", ["nulliga jagamine", "tabelis pole kirjet 'q' (kirjed: a)", "koht 4 on väljaspool loendit pikkusega 1"]),
    ("ru", ["деление на ноль", "в таблице нет записи 'q' (записи: a)", "позиция 4 вне списка длиной 1"]),
    ("uk", ["ділення на нуль", "у таблиці немає запису 'q' (записи: a)", "позиція 4 поза списком довжиною 1"]),
])
def test_a_formula_failing_in_a_hand_reads_in_the_language(cli: Callable[..., Run], tmp_path: Path, lang: str,
                                                            said: list[str]) -> None:
    assert cli("new", _write(tmp_path, "failing", FAILING), "ann", "bob").code == 0
    for x, words in zip((0, 2, 5), said, strict=True):
        r = cli("--lang", lang, "hand", f"x={x}")
        assert r.code == 2 and words in r.err, r.err
        assert lang == "en" or not english_in(_messages(r.err)[0].split(": ", 1)[1], lang), r.err
