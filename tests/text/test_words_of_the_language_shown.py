"""What a player of another language reads names the combinations and values in that language's words:
a refused combination lists the combinations as they are typed there, `rules show` offers the language's
words before the others, and a condition quotes a value by the language's word for it. English is
unchanged."""

from __future__ import annotations

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
    ("pinochle", "melds", "ru", ("(марьяж, козырный марьяж, пинокль, 4 валета, 4 дамы, 4 короля, 4 туза, run, "
                                 "валет бубны, 2jd, двойной пинокль, 8 валетов, 8 дам, 8 королей, 8 тузов, девятка; "
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
        "double 8J 8Q 8K 8A dix; or their points)")


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
