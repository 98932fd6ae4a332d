"""An option's name and its word values in the language: `[translations.LANG.options.ID] name, values`.

Checked by `rules check` (an unknown option or value is named with its file, line and column), shown by
`rules show` and the standings' reminder lines, and read back by `--opt` in any language the ruleset carries.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from scorepad.errors import RulesetError
from scorepad.rules.loader import load_text
from scorepad.rules.translations import translate
from tests.conftest import Run
from tests.rules.test_translation import MARJAS

RU = '''
[translations.ru.options.matt_carry]
name = "перенос маттов"
values = { grow = "растёт", two = "два" }
'''


def test_translate_gives_the_option_its_name_and_value_words() -> None:
    rs = load_text(MARJAS + RU, "m.toml")
    ru = translate(rs, "ru").options["matt_carry"]
    assert ru.shown_name() == "перенос маттов" and ru.shown_value("two") == "два"
    assert ru.shown_value(3) == 3 and ru.name == "matt_carry"      # the id and what is stored stay
    assert rs.options["matt_carry"].shown_name() == "matt_carry"    # the original is untouched


@pytest.mark.parametrize(("extra", "key", "words"), [
    ('[translations.ru.options.matt_carry]\nvalues = { three = "три" }\n',
     "translations.ru.options.matt_carry.values.three", "no value 'three' (its values: grow, two)"),
    ('[translations.ru.options.matt_carry]\nvalues = { grow = "два", two = "два" }\n',
     "translations.ru.options.matt_carry.values.two", "already the word for 'grow'"),
    ('[translations.ru.options.matt_carry]\nvalues = ["два"]\n',
     "translations.ru.options.matt_carry.values", "must be a table"),
    ('[translations.ru.options.matt_carry]\nname = 3\n', "translations.ru.options.matt_carry.name", "must be text"),
    ('[translations.ru.options.no_such]\nname = "x"\n', "translations.ru.options.no_such", "no option 'no_such'"),
])
def test_the_loader_refuses_a_bad_option_translation(extra: str, key: str, words: str) -> None:
    with pytest.raises(RulesetError) as exc:
        load_text(MARJAS + "\n" + extra, "m.toml")
    assert any(f"m.toml: {key}" in p and words in p for p in exc.value.problems), exc.value.problems


def test_rules_check_names_the_line_of_an_unknown_value(cli: Callable[..., Run], tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    text = MARJAS + '\n[translations.ru.options.matt_carry]\nvalues = { three = "три" }\n'
    bad.write_text(text, encoding="utf-8")
    line = text.splitlines().index('values = { three = "три" }') + 1
    r = cli("rules", "check", str(bad))
    assert r.code == 2
    assert f"{bad}:{line}:" in r.err and "translations.ru.options.matt_carry.values.three" in r.err, r.err


def test_rules_show_and_standings_say_the_option_in_the_language(cli: Callable[..., Run]) -> None:
    assert cli("new", "thousand", "a", "b", "c", "--opt", "marriage_order=standard").code == 0
    show = cli("--lang", "ru", "rules", "show", "thousand").out
    assert "порядок марьяжей (marriage_order=) = как в источнике (одно из: как в источнике, обычный)" in show, show
    assert "marriage_order = standard" not in show
    standings = cli("--lang", "ru", "standings").out
    assert "standard" not in standings and "порядок марьяжей" in standings, standings
    assert "standard" in cli("--lang", "en", "standings").out     # English keeps its own words


def test_opt_reads_a_value_word_of_any_language(cli: Callable[..., Run]) -> None:
    assert cli("new", "thousand", "a", "b", "c", "--opt", "marriage_order=обычный").code == 0
    assert "(option marriage_order = standard)" in cli("standings").out
    r = cli("new", "thousand", "a", "b", "c", "--opt", "marriage_order=никакой")
    assert r.code == 2 and "must be one of" in r.err
