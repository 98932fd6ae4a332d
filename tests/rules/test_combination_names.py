"""Every combination of Pinochle, Piquet and Joker Poker has a name in each language the ruleset carries
(et, ru, uk): `rules show` and a refused combination list it by that name, never by its English code,
and typing the name gives the combination. The one exception is the word the players themselves use
for two things: Piquet's кварта (quart or quatorze) is refused when typed, so those two keep their codes
in Russian and Ukrainian. Joker Poker's Ukrainian spells the straight one way in every text."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from typing import Any

import pytest

from scorepad.engine.assignments import convert
from scorepad.engine.game import make_game
from scorepad.errors import UserError
from scorepad.locale import set_language
from scorepad.rules.registry import bundled_dir, load
from scorepad.rules.translations import translate
from scorepad.text.describe import details

FIELDS = {"pinochle": "melds", "piquet": "announced", "joker-poker": "lines"}
# the combinations a language names by a word that has two meanings there (refused when typed)
TWO_MEANINGS = {("piquet", "ru"): {"quart", "quatorze"}, ("piquet", "uk"): {"quart", "quatorze"}}


@pytest.fixture
def interface() -> Iterator[Any]:
    yield set_language
    set_language(None)


def named(ruleset: str, lang: str) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """A combination field's combinations (its codes for one combination together, by the first) and the
    words of `lang` that name each one and nothing else."""
    rs = load(ruleset)
    fdef = rs.fields[FIELDS[ruleset]]
    same: dict[tuple[str, str, str], list[str]] = {}
    for combo in fdef.combos.values():
        same.setdefault((combo.field, combo.adds, combo.points.source), []).append(combo.code)
    combos = {codes[0]: codes for codes in same.values()}
    names: dict[str, list[str]] = {}
    for word in rs.reading.written(fdef.name, lang):
        meanings = rs.reading.word(fdef.name, word)
        if len(meanings) == 1 and meanings[0].kind == "combo" and lang in meanings[0].langs:
            first = next(c for c, codes in combos.items() if str(meanings[0].value) in {x.upper() for x in codes})
            names.setdefault(first, []).append(word)
    return combos, names


@pytest.mark.parametrize("lang", ["et", "ru", "uk"])
@pytest.mark.parametrize("ruleset", sorted(FIELDS))
def test_every_combination_has_a_name_in_the_language(ruleset: str, lang: str) -> None:
    combos, names = named(ruleset, lang)
    unnamed = {c for c in combos if c not in names}
    assert unnamed == TWO_MEANINGS.get((ruleset, lang), set()), (ruleset, lang, unnamed)


@pytest.mark.parametrize("lang", ["et", "ru", "uk"])
@pytest.mark.parametrize("ruleset", sorted(FIELDS))
def test_rules_show_lists_every_combination_by_its_name(interface: Any, ruleset: str, lang: str) -> None:
    """Each combination once, by its first name in the language (the code only for кварта's two)."""
    interface(lang)
    combos, names = named(ruleset, lang)
    field = next(f for f in details(translate(load(ruleset), lang), lang)["fields"] if f["name"] == FIELDS[ruleset])
    assert [s["said"] for s in field["combos_said"]] == [names[c][0] if c in names else c for c in combos]


def value(ruleset: str, lang: str, text: str) -> Any:
    g = make_game(translate(load(ruleset), lang), ["a", "b"], None, {})
    return convert(g, g.ruleset.fields[FIELDS[ruleset]], text, "a")[0]


# (ruleset, language, typed, the combinations read): the names players of the language use
TYPED = [
    ("pinochle", "et", "pinochle, suudlus, ruutu soldat", ["pinochle", "pinochle", "jd"]),
    ("pinochle", "et", "kaks ruutu soldatit topeltsuudlus", ["2jd", "double"]),
    ("pinochle", "et", "kaheksa soldatit, kaheksa emandat, kaheksa kuningat, kaheksa ässa", ["8J", "8Q", "8K", "8A"]),
    ("pinochle", "et", "2xruutu soldat poissmehed", ["jd", "jd", "4J"]),
    ("pinochle", "ru", "секвенция, козырная секвенция, 2 валета бубны", ["run", "run", "2jd"]),
    ("pinochle", "ru", "два валета бубны 2xвалет бубны", ["2jd", "jd", "jd"]),
    ("pinochle", "uk", "секвенція козирна секвенція бубновий валет", ["run", "run", "jd"]),
    ("pinochle", "uk", "2 бубнові валети, два бубнові валети", ["2jd", "2jd"]),
    ("piquet", "et", "terts kvart kvint sekst septim oktav", ["tierce", "quart", "quint", "sixieme", "septieme",
                                                            "huitieme"]),
    ("piquet", "et", "kvint terts nelik kolmik", ["quint", "tierce", "quatorze", "trio"]),
    ("joker-poker", "et", "kuninglik mastirida, mastirida, rida", ["royal", "sf", "straight"]),
    ("joker-poker", "uk", "стрит стріт стрит-флеш стріт-флеш роял-флеш", ["straight", "straight", "sf", "sf", "royal"]),
]


@pytest.mark.parametrize(("ruleset", "lang", "text", "codes"), TYPED, ids=[f"{r}-{lang}" for r, lang, *_ in TYPED])
def test_a_combination_typed_by_its_name(interface: Any, ruleset: str, lang: str, text: str,
                                         codes: list[str]) -> None:
    interface(lang)
    assert value(ruleset, lang, text) == codes


def test_piquet_s_kvart_is_the_sequence_and_kvarta_still_refused(interface: Any) -> None:
    """Estonian kvart is only a sequence of four (a set of four is nelik); кварта stays refused."""
    interface("et")
    assert value("piquet", "et", "kvart") == ["quart"]
    for lang in ("et", "ru", "uk"):
        with pytest.raises(UserError) as exc:
            value("piquet", lang, "кварта")
        assert "quart" in exc.value.message and "quatorze" in exc.value.message


def _texts(table: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str]]:
    if isinstance(table, dict):
        for k, v in table.items():
            yield from _texts(v, (*path, str(k)))
    elif isinstance(table, list):
        for v in table:
            yield from _texts(v, path)
    elif isinstance(table, str):
        yield path, table


def test_joker_poker_ukrainian_spells_the_straight_one_way(interface: Any) -> None:
    """The texts, the score lines, a field's first name and the combinations shown all write стрит;
    стріт is still read when typed (a later name, a word)."""
    uk = tomllib.loads((bundled_dir() / "joker-poker.toml").read_text(encoding="utf-8"))["translations"]["uk"]
    for path, text in _texts(uk):
        if path[-1] != "names" and "words" not in path:
            assert "стріт" not in text.casefold(), (path, text)
    assert uk["fields"]["straight"]["names"][0] == "стрит"
    assert uk["fields"]["straight_flush"]["names"][0] == "стрит-флеш"
    interface("uk")
    field = next(f for f in details(translate(load("joker-poker"), "uk"), "uk")["fields"] if f["name"] == "lines")
    said = [s["said"] for s in field["combos_said"]]
    assert "стрит" in said and "стрит-флеш" in said and not any("стріт" in s for s in said)
