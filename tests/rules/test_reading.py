"""What players type, read in every language a ruleset translates: names, words, and what two of them
may mean."""

from __future__ import annotations

import tomllib

import pytest

from scorepad.errors import RulesetError
from scorepad.rules.loader import load_text
from scorepad.rules.reading import key
from scorepad.rules.registry import bundled_dir, load
from scorepad.rules.starter import STARTER
from scorepad.rules.translations import translate, translation_problems

TINY = STARTER.format(id="tiny", name="Tiny")


def test_a_name_of_any_language_finds_its_field() -> None:
    reading = load("thousand").reading
    for typed, field in (("bidder", "bidder"), ("pakkuja", "bidder"), ("заказчик", "bidder"), ("заявник", "bidder"),
                         ("заказ", "bid"), ("заявка", "bid"), ("pakkumine", "bid"), ("мар'яжі", "marriages"),
                         ("МАРЬЯЖИ", "marriages"), ("üheksad", "nines")):
        assert reading.fields(typed) == (field,), typed
    # a beginning is read among the own and the interface language's names first
    assert reading.fields("p") == ("points",)
    assert set(reading.fields("p", "et")) == {"points", "bidder", "bid"}
    assert reading.fields("b") == ("bidder", "bid")
    assert reading.fields("zzz") == ()


def test_a_translated_copy_reads_every_language_too() -> None:
    rs = load("marjas")
    for lang in ("et", "ru", "uk", None):
        reading = translate(rs, lang).reading
        assert reading.fields("trumbitegija") == ("trump",) and reading.fields("козир") == ("trump",)
        assert [m.value for m in reading.word("trump", "pole")] == ["none"]
        assert [m.value for m in reading.word("matt", "нічия")] == ["tie"]


def test_how_words_are_compared() -> None:
    assert key("Тёмный-ноль") == key("темный  ноль") == key("ТЕМНЫЙ_НОЛЬ") == "темный ноль"
    assert key("мар'яжі") == key("мар’яжі") == key("марʼяжі")
    assert key("-") == "-" and key("=") == "="
    words = load("spades").reading.words("bid")
    assert {m.value for w in ("тёмный ноль", "темный ноль", "темний нуль", "pime 0") for m in words[key(w)]} == {"blind"}


def test_every_bundled_name_and_word_means_one_thing_but_what_the_file_says_means_two() -> None:
    """A name or word two languages give different meanings would be refused when typed: the bundled
    rulesets have none, except a word the players themselves use for two things."""
    twice = []
    for path in sorted(bundled_dir().glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for variant in (None, *data.get("variants", {})):
            reading = load(path.stem, (), variant).reading
            twice += [(path.stem, name) for name, fields in reading.names.items() if len(fields) > 1]
            twice += [(path.stem, word) for f in reading.sources for word, m in reading.words(f).items()
                      if len(m) > 1]
    assert set(twice) == {("piquet", "кварта")}


def test_a_word_for_two_things_is_a_list() -> None:
    text = TINY + '\n[translations.ru.fields.trump]\nwords = { "масть" = ["hearts", "diamonds"] }\n'
    reading = load_text(text, "tiny.toml").reading
    assert [m.value for m in reading.word("trump", "масть")] == ["hearts", "diamonds"]
    data = tomllib.loads(TINY + '\n[translations.ru.fields.trump]\nwords = { "масть" = ["hearts"] }\n')
    assert any("two or more" in message for _, message in translation_problems(data))
    with pytest.raises(RulesetError):
        load_text(TINY + '\n[translations.ru.fields.trump]\nwords = { "масть" = ["hearts", "nope"] }\n', "t.toml")


def test_two_languages_may_give_one_name_two_fields() -> None:
    """Each language on its own is consistent; together they clash, and both readings are kept."""
    text = TINY + ('\n[translations.et.fields.bid]\nnames = ["x"]\n[translations.et.fields.trump]\nwords = { mast = '
                   '"spades" }\n[translations.ru.fields.tricks]\nnames = ["x"]\n[translations.ru.fields.trump]\n'
                   'words = { mast = "clubs" }\n')
    reading = load_text(text, "tiny.toml").reading
    assert reading.names["x"] == {"bid": ("et",), "tricks": ("ru",)}
    assert {(m.value, m.langs) for m in reading.word("trump", "MAST")} == {("spades", ("et",)), ("clubs", ("ru",))}


def test_a_combination_s_name_and_a_word_with_spaces() -> None:
    data = tomllib.loads((bundled_dir() / "pinochle.toml").read_text(encoding="utf-8"))
    assert not [p for p in translation_problems(data) if ".melds." in p[0]]
    reading = load("pinochle").reading
    assert [(m.kind, m.value) for m in reading.word("melds", "козырный марьяж")] == [("combo", "TM")]
    with pytest.raises(RulesetError):   # a word may hold spaces, but must stand for what the field takes
        load_text(TINY + '\n[translations.ru.fields.bid]\nwords = { "тёмный ноль" = "blind" }\n', "t.toml")
