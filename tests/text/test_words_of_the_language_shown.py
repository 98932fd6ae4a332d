"""What a player of another language reads names the combinations and values in that language's words:
a refused combination lists the combinations as they are typed there, `rules show` offers the language's
words before the others and names the combinations as the refusal does, and a condition quotes a value by
the language's word for it. English is unchanged."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from scorepad.engine.assignments import convert, describe_field
from scorepad.engine.game import Game, make_game
from scorepad.errors import UserError
from scorepad.locale import set_language
from scorepad.rules.loader import load_text
from scorepad.rules.prose import formula_words
from scorepad.rules.registry import bundled_dir, load
from scorepad.rules.translations import translate
from scorepad.rules.vocabulary import Vocabulary
from tests.conftest import Run


@pytest.fixture
def interface() -> Iterator[Callable[[str | None], None]]:
    """Set the interface language for a test (as --lang does), English again after it."""
    yield set_language
    set_language(None)


def game(ruleset: str, lang: str | None = None) -> Game:
    return make_game(translate(load(ruleset), lang), ["a", "b"], None, {})


def refusal(g: Game, field: str, text: str) -> str:
    with pytest.raises(UserError) as exc:
        convert(g, g.ruleset.fields[field], text, "a")
    return exc.value.message


# (ruleset, field, language, what the refusal lists)
REFUSALS = [
    ("pinochle", "melds", "ru", ("(марьяж, козырный марьяж, пинокль, 4 валета, 4 дамы, 4 короля, 4 туза, секвенция, "
                                 "валет бубны, 2 валета бубны, двойной пинокль, 8 валетов, 8 дам, 8 королей, 8 тузов, "
                                 "девятка, двойная секвенция; "
                                 "или их очки)")),
    ("bezique", "melds", "uk", ("(марʼяж, козирний марʼяж, безик, 4 валети, 4 дами, 4 королі, 4 тузи, секвенція, "
                                "подвійний безик; або їхні очки)")),
    ("bezique", "melds", "et", ("(paar, trumbipaar, suudlus, poissmehed, emandad, kuningad, ässad, perekond, "
                                "topeltsuudlus; või nende punktid)")),
    # кварта is both quart and quatorze, refused when typed: those two are offered by their codes
    ("piquet", "announced", "ru", "(терция, quart, квинта, секстет, септет, октава, трио, quatorze; или их очки)"),
]


@pytest.mark.parametrize(("ruleset", "field", "lang", "listed"), REFUSALS, ids=[f"{r[0]}-{r[2]}" for r in REFUSALS])
def test_a_refused_combination_lists_the_combinations_as_the_language_names_them(
        interface: Any, ruleset: str, field: str, lang: str, listed: str) -> None:
    interface(lang)
    message = refusal(game(ruleset, lang), field, "zzz")
    assert message.endswith(listed), message
    assert "codes" not in message and "коды" not in message


def test_english_lists_the_codes_of_the_combinations(interface: Any) -> None:
    interface(None)
    assert refusal(game("pinochle"), "melds", "zzz") == (
        "a.melds: 'zzz' is not a combination (codes: marriage m tm royal pinochle p 4J 4Q 4K 4A run flush jd 2jd "
        "double 8J 8Q 8K 8A dix 2run; or their points)")


def test_a_combination_s_example_holds_no_word_of_two_combinations(interface: Any) -> None:
    """Piquet's кварта is refused when typed (quart or quatorze?): the example does not offer it."""
    interface("ru")
    g = game("piquet", "ru")
    assert "например терция квинта секстет септет 2xтерция" in describe_field(g, g.ruleset.fields["announced"])


@pytest.mark.parametrize(("lang", "line"), [
    ("ru", "старший (также high=): игрок (имя, однозначное начало имени или место); нет, -, none — "),
    ("uk", "старший (також high=): гравець (ім'я, однозначний початок імені або місце); нема, ніхто, -, none — "),
    ("et", "suurim (ka high=): mängija (nimi, selle ühene algus või koht); pole, -, none — "),
    (None, "high: a player (name, unique prefix or seat); none, - — "),
])
def test_rules_show_offers_the_words_of_the_language_shown_first(cli: Callable[..., Run], lang: str | None,
                                                                  line: str) -> None:
    r = cli(*(["--lang", lang] if lang else []), "rules", "show", "all-fours")
    assert r.code == 0, r.err
    assert f"\n  {line}" in r.out


def test_rules_show_keeps_every_word_english_last(cli: Callable[..., Run]) -> None:
    """Marjas' own words hold Estonian ei and viik: all are still listed, after the language's own."""
    out = cli("--lang", "ru", "rules", "show", "marjas").out
    assert "сторона (её название или один из её игроков); нет, -, none, ei, no — " in out
    assert "сторона (её название или один из её игроков); ничья, =, tie, viik — " in out
    assert "a side (its name, or one of its players); none, -, ei, no — " in cli("rules", "show", "marjas").out


@pytest.mark.parametrize(("lang", "said"), [
    ("et", "kui „matid“ ei ole 'viik' ja „matipunkt“ ei ole 1"),
    ("ru", "если «матты» не 'ничья' и «очко за матты» не 1"),
    ("uk", "якщо «матти» не 'нічия' і «очко за матти» не 1"),
    (None, "when matt is not 'tie' and matt value is not 1"),
])
def test_a_condition_quotes_a_value_in_the_language_shown(cli: Callable[..., Run], lang: str | None,
                                                           said: str) -> None:
    out = cli(*(["--lang", lang] if lang else []), "rules", "show", "marjas").out
    assert said in out
    if lang:
        assert "'tie'" not in out


def test_a_value_named_by_another_word_of_the_field_is_quoted_in_the_language(interface: Any) -> None:
    """A translated word may name the value by another of the field's words (`viik = "="`, = being tie)."""
    own = (bundled_dir() / "marjas.toml").read_text(encoding="utf-8").split("\n[translations.", 1)[0]
    rs = load_text(own + '\n[translations.et.fields.matt]\nnames = ["matid"]\nwords = { viik = "=" }\n', "m.toml")
    interface("et")
    vocab = Vocabulary(rs, {})
    assert vocab.value_word("matt", "tie") == "viik"
    assert formula_words("matt != 'tie'", vocab=vocab) == "„matid“ ei ole 'viik'"


# (ruleset, language, the combinations `rules show` lists under the field, each once, with its points)
COMBINATIONS_SHOWN = [
    ("pinochle", "ru", ("комбинации (марьяж 20, козырный марьяж 40, пинокль 40, 4 валета 40, 4 дамы 60, 4 короля 80, "
                        "4 туза 100, секвенция 150, валет бубны 40, 2 валета бубны 400, двойной пинокль 400, "
                        "8 валетов 400, 8 дам 400, "
                        "8 королей 800, 8 тузов 1000, девятка 10, двойная секвенция 300), ")),
    ("pinochle", "uk", ("комбінації (марʼяж 20, козирний марʼяж 40, пінокль 40, 4 валети 40, 4 дами 60, 4 королі 80, "
                        "4 тузи 100, секвенція 150, бубновий валет 40, 2 бубнові валети 400, подвійний пінокль 400, "
                        "8 валетів 400, 8 дам 400, "
                        "8 королів 800, 8 тузів 1000, девʼятка 10, подвійна секвенція 300), ")),
    ("pinochle", "et", ("kombinatsioonid (paar 20, trumbipaar 40, pinochle 40, poissmehed 40, emandad 60, kuningad 80, "
                        "ässad 100, perekond 150, ruutu soldat 40, kaks ruutu soldatit 400, topeltpinochle 400, "
                        "kaheksa soldatit 400, kaheksa emandat 400, kaheksa kuningat 800, kaheksa ässa 1000, "
                        "trumbiüheksa 10, topeltperekond 300), ")),
    ("bezique", "ru", ("комбинации (марьяж 20, козырный марьяж 40, безик 40, 4 валета 40, 4 дамы 60, 4 короля 80, "
                       "4 туза 100, секвенция 250, двойной безик 500), ")),
    ("bezique", "uk", ("комбінації (марʼяж 20, козирний марʼяж 40, безик 40, 4 валети 40, 4 дами 60, 4 королі 80, "
                       "4 тузи 100, секвенція 250, подвійний безик 500), ")),
    ("bezique", "et", ("kombinatsioonid (paar 20, trumbipaar 40, suudlus 40, poissmehed 40, emandad 60, kuningad 80, "
                       "ässad 100, perekond 250, topeltsuudlus 500), ")),
]


@pytest.mark.parametrize(("ruleset", "lang", "listed"), COMBINATIONS_SHOWN,
                         ids=[f"{r[0]}-{r[1]}" for r in COMBINATIONS_SHOWN])
def test_rules_show_names_the_combinations_in_the_language_shown(cli: Callable[..., Run], ruleset: str, lang: str,
                                                                 listed: str) -> None:
    """Each combination once, by the ruleset's name for it there (its code when it has none), as a refused
    combination lists them; the codes of one combination (marriage, m) are not listed one by one."""
    r = cli("--lang", lang, "rules", "show", ruleset)
    assert r.code == 0, r.err
    assert f"\n      {listed}" in r.out


def test_rules_show_lists_the_codes_of_the_combinations_in_english_and_json(cli: Callable[..., Run]) -> None:
    """English lists every code, as typed; the JSON keeps the ruleset's codes whatever the language."""
    out = cli("rules", "show", "bezique").out
    assert ("\n      combinations (marriage 20, m 20, royal 40, tm 40, bezique 40, b 40, 4J 40, 4Q 60, 4K 80, "
            "4A 100, sequence 250, seq 250, double 500), ") in out
    for lang in ("ru", None):
        shown = json.loads(cli(*(["--lang", lang] if lang else []), "rules", "show", "bezique", "--json").out)
        melds = next(f for f in shown["fields"] if f["name"] == "melds")
        assert [c["code"] for c in melds["combos"]][:4] == ["marriage", "m", "royal", "tm"]
        assert "combos_said" not in melds
