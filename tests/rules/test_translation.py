"""Translations inside a ruleset file: the loader's checks, translate(), native input words and aliases."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from scorepad.errors import RulesetError
from scorepad.rules.loader import load_text
from scorepad.rules.registry import bundled_dir
from scorepad.rules.translations import translate, translation_problems
from tests.conftest import Run

# the bundled Marjas without its own Estonian tables: these tests bring their own
MARJAS = (bundled_dir() / "marjas.toml").read_text(encoding="utf-8").split("\n[translations.", 1)[0]

ET = '''
[translations.et]
name = "Marjas"
description = "Neli mängijat kahes paaris."
end = "võidab pool, kes jõuab täpselt 12 punktini"
[translations.et.fields.trump]
help = "pool, kes tegi trumbi (K+Q paar), või ei"
names = ["trumbid", "trump"]
words = { pole = "none" }
[translations.et.fields.matt]
names = ["matid"]
[translations.et.fields.extra]
names = ["lisatrumbid"]
[translations.et.checks]
four_marriages = "trump ja {sum(all_extra)} lisatrumpi teevad {sum(all_extra) + 1} paari, aga maste on ainult 4"
[translations.et.scores]
trump = "trump"
last = "viimane tihi"
[translations.et.rules.over_twelve]
label = "üle 12: tagasi 7"
message = "üle 12 ({score}): {me} langeb 7 peale"
[translations.et.rules.twelve]
message = "{me} jõuab täpselt 12 punktini"
[translations.et.display]
"matt point" = "matipunkt"
[translations.et.variants.kolme]
name = "Kolme marjas"
'''


def marjas_et(extra: str = "") -> str:
    return MARJAS + ET + extra


def test_translate_replaces_texts_and_falls_back_per_string() -> None:
    rs = load_text(marjas_et(), "m.toml")
    et = translate(rs, "et")
    assert et.end.description.startswith("võidab")
    assert [s.label for s in et.scores] == ["trump", "auxiliary trumps", "matt point", "viimane tihi"]
    assert et.fields["trump"].help.startswith("pool")
    assert et.fields["last"].help == rs.fields["last"].help          # not translated: the original
    assert et.options["matt_carry"].help == rs.options["matt_carry"].help
    over = next(r for r in et.rules if r.id == "over_twelve")
    assert over.label == "üle 12: tagasi 7"
    # the placeholders are in another order than in the original: the parts follow the text
    assert [p.source for p in over.message_parts] == ["score", "me"]
    assert list(et.display_next) == ["matipunkt"]
    assert et.field_aliases == {"trumbid": "trump", "trump": "trump", "matid": "matt", "lisatrumbid": "extra"}
    # the original is untouched, and an unknown language is the original
    assert rs.end.description.startswith("the first side")
    assert translate(rs, "ru") is rs and translate(rs, None) is rs
    kolme = translate(load_text(marjas_et(), "m.toml", "kolme"), "et")
    assert kolme.variants["kolme"] == "Kolme marjas" and kolme.variants["kahe"] == "Kahe marjas (two players)"


def test_a_language_is_one_view_of_the_ruleset_built_once() -> None:
    """Showing a game in a language many times (a command, a server's requests) shares one view of its
    ruleset; its formulas are the ruleset's own objects, and a view asked for another language (or for
    English) answers with the ruleset's texts, never with its own as the fallback."""
    rs = load_text(marjas_et(), "m.toml")
    et = translate(rs, "et")
    assert translate(rs, "et") is et and et is not rs
    assert all(a.points is b.points for a, b in zip(et.scores, rs.scores, strict=True))
    assert translate(et, None) is rs and translate(et, "et") is et
    assert rs.views == {"et": et} and et.views == {}


@pytest.mark.parametrize(("extra", "key", "words"), [
    ('[translations.et.rules.twelve]\nmessage = "{me} {score}"\n',
     "translations.et.rules.twelve.message", "placeholders"),
    ('[translations.et.checks]\nno_such_check = "x"\n', "translations.et.checks.no_such_check", "no [[check]]"),
    ('[translations.et.rules.nope]\nlabel = "x"\n', "translations.et.rules.nope", "no [[rule]]"),
    ('[translations.et.fields.nope]\nhelp = "x"\n', "translations.et.fields.nope", "no field"),
    ('[translations.et.fields.last]\nnames = ["matt"]\n', "translations.et.fields.last.names", "already the name"),
    ('[translations.et.fields.last]\nnames = ["viimane"]\n[translations.et.fields.matt]\nnames = ["Viimane"]\n',
     "translations.et.fields.matt.names", "already the name of field 'last'"),
    ('[translations.et.fields.matt]\nwords = { viik2 = "none" }\n', "translations.et.fields.matt.words.viik2",
     "not a word"),
    ('[translations.et.fields.trump]\nwords = { ei = "tie" }\n', "translations.et.fields.trump.words.ei", "not a word"),
    ('[translations.et.fields.trump]\nhelpp = "x"\n', "translations.et.fields.trump.helpp", "unknown key"),
    ('[translations.et]\nnotes = ["one"]\n', "translations.et.notes", "same count"),
    ('[translations.xx_y]\nname = "x"\n', "translations.xx_y", "language"),
])
def test_the_loader_refuses_bad_translations(extra: str, key: str, words: str) -> None:
    with pytest.raises(RulesetError) as exc:
        load_text(MARJAS + "\n" + extra, "m.toml")
    assert any(f"m.toml: {key}" in p and words in p for p in exc.value.problems), exc.value.problems


def test_a_word_may_not_change_an_existing_meaning() -> None:
    data = {"fields": {"matt": {"type": "side", "words": {"tie": "tie", "ei": "none"}}},
            "translations": {"et": {"fields": {"matt": {"words": {"ei": "tie"}}}}}}
    assert any("already means 'none'" in m for _, m in translation_problems(data))
    yesno = {"fields": {"jack": {"type": "bool"}},
             "translations": {"uk": {"fields": {"jack": {"words": {"так": "no", "є": "yes"}}}}}}
    assert [k for k, _ in translation_problems(yesno)] == ["translations.uk.fields.jack.words.так"]


def test_a_variant_may_not_carry_translations() -> None:
    with pytest.raises(RulesetError) as exc:
        load_text(MARJAS + '\n[variants.kolme.translations.et]\nname = "x"\n', "m.toml")
    assert any("variants.kolme.translations" in p for p in exc.value.problems)


@pytest.fixture
def rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("SCOREPAD_HOME", str(home))
    monkeypatch.setenv("SCOREPAD_CONFIG", str(home / "config.toml"))
    monkeypatch.delenv("SCOREPAD_LANG", raising=False)
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    d = tmp_path / "rules"
    d.mkdir()
    (d / "marjas.toml").write_text(marjas_et(), encoding="utf-8")
    return d


def test_native_field_names_and_words_in_hand_input(cli: Callable[..., Run], rules: Path) -> None:
    assert cli("--rules-dir", str(rules), "config", "set", "language", "et").code == 0
    assert cli("--rules-dir", str(rules), "new", "marjas", "ann", "bob", "cat", "dan").code == 0
    r = cli("--rules-dir", str(rules), "hand", "trumbid=pole", "matid=ann", "last=bob")
    assert r.code == 0, r.err
    # ann's side (ann+cat) has the matt point 1; bob's side the last trick 1
    assert "viimane tihi" in r.out
    # English names and words keep working in every language
    r = cli("--rules-dir", str(rules), "hand", "trump=none", "matt=ann", "last=bob", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert "last trick" in json.dumps(data) and "viimane" not in json.dumps(data)      # JSON is language-neutral
    # a refused hand speaks the language, with the check's placeholders filled
    r = cli("--rules-dir", str(rules), "hand", "trump=ann", "matt=ann", "last=bob", "lisatrumbid=3,2")
    assert r.code == 2 and "trump ja 5 lisatrumpi teevad 6 paari, aga maste on ainult 4" in r.err, r.err
    # the stored hands keep the ruleset's own texts
    sheet = json.loads(cli("--rules-dir", str(rules), "sheet", "--json").out)
    assert "viimane tihi" not in json.dumps(sheet)


def test_rules_show_documents_the_aliases(cli: Callable[..., Run], rules: Path) -> None:
    assert cli("--rules-dir", str(rules), "config", "set", "language", "et").code == 0
    out = cli("--rules-dir", str(rules), "rules", "show", "marjas").out
    assert "trumbid (ka trump=)" in out and "pole" in out and "pool, kes tegi trumbi" in out   # its own name first
    assert "võidab pool" in out
    neutral = json.loads(cli("--rules-dir", str(rules), "rules", "show", "marjas", "--json").out)
    assert neutral["end"]["description"].startswith("the first side")


def test_rules_check_names_the_file_and_key(cli: Callable[..., Run], tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(MARJAS + '\n[translations.ru.rules.twelve]\nmessage = "{они} набрали ровно 12"\n', encoding="utf-8")
    r = cli("rules", "check", str(bad))
    assert r.code == 2
    assert r.err.startswith(f"{bad}:")   # with the line and column of the key
    assert ": translations.ru.rules.twelve.message: uses the placeholders {они}, but the original uses {me}" in r.err


def test_the_docs_example_plays_in_estonian(cli: Callable[..., Run], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    text = (Path(__file__).parents[2] / "docs" / "rulesets.md").read_text(encoding="utf-8")
    example = text[text.index("## A complete small example"):]
    toml = re.search(r"```toml\n(.*?)```", example, re.S)
    assert toml is not None
    path = tmp_path / "little-hearts.toml"
    path.write_text(toml.group(1), encoding="utf-8")
    monkeypatch.setenv("SCOREPAD_CONFIG", str(tmp_path / "config.toml"))
    assert cli("config", "set", "language", "et").code == 0
    assert cli("new", str(path), "ann", "bob", "cat", "dan").code == 0
    r = cli("hand", "ärtud=5,4,3,1", "emand=ann")
    assert r.code == 0 and "ärtud ja emand" in r.out, r.out + r.err
    r = cli("hand", "ärtud=5,4,3,2", "emand=ann")
    assert r.code == 2 and "ärtusid on kokku 14, mitte 13" in r.err
    scores = [s["score"] for s in json.loads(cli("standings", "--json").out)["sides"]]
    assert scores == [18, 4, 3, 1]


def test_info_lines_follow_the_options_in_force(cli: Callable[..., Run]) -> None:
    """Canasta's reminder of a side without a canasta says what the option in force says."""
    assert cli("new", "canasta", "a", "b", "c", "d", "--opt", "no_canasta=classic").code == 0
    out = cli("standings").out
    assert "melded cards still count plus" in out and "all count minus" not in out
    assert "все одно в плюс" not in cli("--lang", "ru", "standings").out
    assert "всё равно в плюс" in cli("--lang", "ru", "standings").out
    assert cli("new", "canasta", "a", "b", "c", "d").code == 0
    out = cli("standings").out
    assert "all count minus" in out and "still count plus" not in out


def test_info_when_needs_one_condition_per_line(tmp_path: Path, cli: Callable[..., Run]) -> None:
    text = (Path(__file__).parents[2] / "rulesets" / "canasta.toml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('info_when = ["", "", ', 'info_when = ["", '), encoding="utf-8")
    r = cli("rules", "check", str(bad))
    assert r.code == 2 and "display.info_when" in r.err and "give one per line" in r.err


def test_display_words_show_what_a_display_formula_writes_in_the_language() -> None:
    """Bridge's `'both' if ... else 'neither'` shows Russian words in Russian, its own words in English."""
    from scorepad.engine.game import initial_state, make_game, next_hand_info
    from scorepad.rules.registry import load

    rs = load("bridge")
    game = make_game(translate(rs, "ru"), ["a", "b", "c", "d"])
    assert next_hand_info(game, initial_state(game))["в зоне"] == "никто"
    game = make_game(rs, ["a", "b", "c", "d"])
    assert next_hand_info(game, initial_state(game))["vulnerable"] == "neither"


def test_a_display_word_no_display_formula_writes_is_refused() -> None:
    text = (bundled_dir() / "bridge.toml").read_text(encoding="utf-8") + '\n[translations.de.display_words]\nnobody = "x"\n'
    with pytest.raises(RulesetError) as exc:
        load_text(text, "b.toml")
    assert ("translations.de.display_words.nobody: no display formula or message placeholder shows the word "
            "'nobody' (they show: both, neither)") in str(exc.value)


def test_a_display_word_read_from_a_table_is_translated() -> None:
    """King's `[display.next] deal = schedule[hand_no]` shows a word of a table: a translation gives it,
    and the table's other words (the keys are numbers, not shown) are the only ones it may give."""
    from scorepad.engine.game import initial_state, make_game, next_hand_info
    from scorepad.rules.registry import load

    rs = load("king")
    game = make_game(translate(rs, "ru"), ["a", "b", "c", "d"])
    assert next_hand_info(game, initial_state(game))["раздача"] == "взятки"
    game = make_game(rs, ["a", "b", "c", "d"])
    assert next_hand_info(game, initial_state(game))["deal"] == "tricks"
    text = (bundled_dir() / "king.toml").read_text(encoding="utf-8") + '\n[translations.de.display_words]\n"7" = "x"\n'
    with pytest.raises(RulesetError) as exc:
        load_text(text, "k.toml")
    assert "translations.de.display_words.7: no display formula or message placeholder shows the word '7'" \
        in str(exc.value)
