"""A hand typed with the names and words of any language its ruleset knows, whatever language the
interface speaks; the seeds' own names of combinations; a word that could mean two things refused
with both readings."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from scorepad.engine.assignments import convert, split_assignments, type_hand
from scorepad.engine.game import Game, Hand, active_players, initial_state, make_game
from scorepad.errors import HandError, UserError
from scorepad.locale import set_language
from scorepad.rules.loader import load_text
from scorepad.rules.registry import load
from scorepad.rules.starter import STARTER
from scorepad.rules.translations import translate


@pytest.fixture
def interface() -> Iterator[Any]:
    """Set the interface language for a test (as --lang does), English again after it."""
    yield set_language
    set_language(None)


def game(ruleset: str, players: Sequence[str], lang: str | None = None, text: str | None = None) -> Game:
    """A game as a command in `lang` has it: the ruleset's texts in that language."""
    rs = load_text(text, "t.toml") if text is not None else load(ruleset)
    return make_game(translate(rs, lang), list(players), None, {})


def typed(g: Game, args: Sequence[str]) -> Hand:
    state = initial_state(g)
    raw = split_assignments(g, args, strict=True)
    return type_hand(g, raw, active_players(g, state), state)[0]


def value(g: Game, field: str, text: str, who: str | None = None) -> Any:
    return convert(g, g.ruleset.fields[field], text, who)[0]


# (ruleset, the interface language, players, typed in other languages, the same in English)
ACROSS = [
    ("marjas", None, "abcd", ["trumbitegija=pole", "matid=viik", "viimane=a"], ["trump=none", "matt=tie", "last=a"]),
    ("marjas", "ru", "abcd", ["козир=нема", "matid=нічия", "viimane=a"], ["trump=none", "matt=tie", "last=a"]),
    ("thousand", "ru", "abc", ["pakkuja=a", "pakkumine=110", "punktid=70,30,20", "a.trumbid=H", "b.trumbid=pole"],
     ["bidder=a", "bid=110", "points=70,30,20", "a.marriages=H", "b.marriages=-"]),
    ("thousand", "et", "abc", ["заказчик=a", "заявка=110", "очки=70,30,20", "a.марьяжи=Ч", "b.мар'яжі=нема"],
     ["bidder=a", "bid=110", "points=70,30,20", "a.marriages=Ч", "b.marriages=-"]),
    # one suit by its name, in each language and in English
    ("thousand", "ru", "abc", ["bidder=a", "bid=110", "points=70,30,20", "марьяжи=черви,нет,пики"],
     ["bidder=a", "bid=110", "points=70,30,20", "marriages=H,-,S"]),
    ("thousand", "uk", "abc", ["bidder=a", "bid=110", "points=70,30,20", "марʼяжі=чирва,нема,вини"],
     ["bidder=a", "bid=110", "points=70,30,20", "marriages=H,-,S"]),
    ("thousand", "et", "abc", ["bidder=a", "bid=110", "points=70,30,20", "trumbid=Ärtu,risti,-"],
     ["bidder=a", "bid=110", "points=70,30,20", "marriages=H,C,-"]),
    ("thousand", None, "abc", ["bidder=a", "bid=110", "points=70,30,20", "marriages=hearts,-,CS"],
     ["bidder=a", "bid=110", "points=70,30,20", "marriages=H,-,CS"]),
    ("spades", None, "abcd", ["заказ=3,ноль,4,2", "tihid=4,0,5,4"], ["bid=3,0,4,2", "tricks=4,0,5,4"]),
    # a word for a value a pattern field reads, parts and all (ровно: made exactly)
    ("bridge", "ru", "abcd", ["contract=4H", "by=N", "результат=ровно"], ["contract=4H", "by=N", "result=made"]),
    ("bridge", "et", "abcd", ["contract=4H", "by=N", "tulemus=täpselt"], ["contract=4H", "by=N", "result=MADE"]),
    ("canasta", "uk", "abcd", ["lõpetas=a", "как=обычно"], ["out=a", "out_kind=normal"]),
]


@pytest.mark.parametrize(("ruleset", "lang", "players", "native", "english"), ACROSS,
                         ids=[f"{r}-{lang or 'en'}-{i}" for i, (r, lang, *_) in enumerate(ACROSS)])
def test_names_and_words_of_every_language_whatever_the_interface(
        interface: Any, ruleset: str, lang: str | None, players: str, native: list[str], english: list[str]) -> None:
    interface(lang)
    g = game(ruleset, players, lang)
    assert typed(g, native) == typed(g, english)


def test_an_unknown_name_lists_the_names_in_the_interface_language_and_english(interface: Any) -> None:
    g = game("marjas", "abcd")
    with pytest.raises(HandError) as exc:
        split_assignments(g, ["zzz=1"])
    assert "(fields: trump, matt, last, extra)" in exc.value.message
    interface("et")
    g = game("marjas", "abcd", "et")
    with pytest.raises(HandError) as exc:
        split_assignments(g, ["zzz=1"])
    assert "trumbitegija/trump" in exc.value.message and "viimane/last" in exc.value.message
    assert "козырь" not in exc.value.message


TINY = STARTER.format(id="tiny", name="Tiny") + '''
[translations.et.fields.bid]
names = ["x"]
[translations.et.fields.trump]
words = { mast = "spades" }
[translations.ru.fields.tricks]
names = ["x"]
[translations.ru.fields.trump]
words = { mast = "clubs", "масть" = ["hearts", "diamonds"] }
'''


def test_a_name_two_languages_give_two_fields_is_refused_with_both() -> None:
    g = game("", "ab", text=TINY)
    with pytest.raises(HandError) as exc:
        split_assignments(g, ["x=1,2"])
    assert "'x' names more than one field: bid (et), tricks (ru)" in exc.value.message
    with pytest.raises(HandError, match="begins the names of more than one field"):
        split_assignments(game("thousand", "abc"), ["b=a"])


def test_a_word_two_languages_read_differently_is_refused_with_both() -> None:
    g = game("", "ab", text=TINY)
    with pytest.raises(UserError) as exc:
        value(g, "trump", "mast")
    assert "spades (et)" in exc.value.message and "clubs (ru)" in exc.value.message
    with pytest.raises(UserError) as exc:
        value(g, "trump", "Масть")
    assert "hearts (ru)" in exc.value.message and "diamonds (ru)" in exc.value.message
    assert value(g, "trump", "hearts") == "hearts"


@pytest.mark.parametrize(("ruleset", "players", "field", "text", "codes"), [
    ("piquet", "ab", "announced", "терция квинта трио", ["tierce", "quint", "trio"]),
    ("piquet", "ab", "announced", "терція, 2xтріо", ["tierce", "trio", "trio"]),
    ("bezique", "ab", "melds", "PAAR SUUDLUS KUNINGAD", ["marriage", "bezique", "4K"]),
    ("bezique", "ab", "melds", "trumbi perekond topeltsuudlus", ["sequence", "double"]),
    ("joker-poker", "ab", "lines", "paar maja kaks paari", ["pair", "full", "2p"]),
    ("pinochle", "ab", "melds", "марьяж, козырный марьяж, 4 туза, 2xмарьяж", ["marriage", "tm", "4A", "marriage",
                                                                            "marriage"]),
    ("pinochle", "ab", "melds", "2хмарьяж пинокль", ["marriage", "marriage", "pinochle"]),   # a Cyrillic х
])
def test_the_seeds_own_names_of_combinations(ruleset: str, players: str, field: str, text: str,
                                             codes: list[str]) -> None:
    assert value(game(ruleset, players), field, text, "a") == codes


def test_a_combination_named_in_three_or_more_words() -> None:
    """The longest run of words the field holds as one name is one combination, counted as one."""
    text = load("pinochle").text.replace('"пинокль" = "pinochle",', '"пинокль" = "pinochle", '
                                         '"валет бубны и дама пик" = "pinochle", "туз десятка король" = "run",')
    g = game("", "ab", text=text)
    assert value(g, "melds", "валет бубны и дама пик, марьяж", "a") == ["pinochle", "marriage"]
    assert value(g, "melds", "2xвалет бубны и дама пик туз десятка король", "a") == ["pinochle", "pinochle", "run"]
    assert value(g, "melds", "туз десятка король козырный марьяж", "a") == ["run", "tm"]


def test_a_combination_s_name_of_two_meanings_is_refused_with_both() -> None:
    """Russian кварта is a sequence of four (4) and a set of four (14) in Piquet's seed."""
    g = game("piquet", "ab", "ru")
    with pytest.raises(UserError) as exc:
        value(g, "announced", "кварта", "a")
    assert "quart" in exc.value.message and "quatorze" in exc.value.message
    with pytest.raises(UserError) as exc:
        value(g, "announced", "терция кварта", "a")
    assert "quart" in exc.value.message and "quatorze" in exc.value.message
    # two words that are one combination and two as well
    with pytest.raises(UserError, match="reads two ways, as sf or as straight flush"):
        value(game("joker-poker", "ab"), "lines", "стрит флеш", "a")
    assert value(game("joker-poker", "ab"), "lines", "стрит, флеш", "a") == ["straight", "flush"]


@pytest.mark.parametrize(("text", "kind"), [
    ("тремя", "black3"), ("три", "black3"), ("четырьмя", "black4"), ("сброс", "pickup"), ("kolmega", "black3"),
    ("neli", "black4"), ("viskepakiga", "pickup"), ("трьома", "black3"), ("чотири", "black4"), ("перший", "pickup"),
])
def test_canasta_s_going_out_in_words(text: str, kind: str) -> None:
    assert value(game("canasta", "abcd"), "out_kind", text) == kind


@pytest.mark.parametrize("text", ["pole", "mitte keegi", "Mitte_keegi", "mitte-keegi", "eikeegi"])
def test_canasta_s_nobody_went_out_in_estonian(text: str) -> None:
    assert value(game("canasta", "abcd", "et"), "out", text) == "none"


def test_canasta_s_keegi_alone_is_somebody_not_nobody() -> None:
    """Estonian keegi alone is "somebody" (nobody is mitte keegi): it names no side and is refused."""
    g = game("canasta", "abcd", "et")
    assert g.ruleset.reading.word("out", "keegi") == ()
    with pytest.raises(UserError, match="'keegi'"):
        value(g, "out", "keegi")


@pytest.mark.parametrize("text", ["выиграл", "выиграла", "сошёлся", "сошелся", "все"])
def test_klondike_s_won_is_typed_by_a_player_of_either_gender(text: str) -> None:
    """A woman who won types выиграла as a man types выиграл; the seed's own word, the patience came out
    (pasjanss õnnestunud), is сошёлся as in Ukrainian (зійшовся)."""
    assert value(game("seitse", "ab", "ru"), "cards", text, "a") == 52


def test_klondike_s_russian_texts_name_no_gendered_winner() -> None:
    rs = game("seitse", "ab", "ru").ruleset
    texts = [rs.fields["cards"].help, rs.description, *rs.notes]
    assert not [t for t in texts if "выиграл " in t or "выиграл," in t or "выиграл)" in t]
    assert "сошёлся" in rs.fields["cards"].help


def test_pitch_s_game_point_is_the_gejm_of_its_family_in_russian(interface: Any) -> None:
    """The Game point is гейм in Russian in Pitch as in All Fours and California Jack (игра is the game
    itself); игра is still read, as players typed it before."""
    from scorepad.engine.scoring import apply_hand

    names = {r: load(r).reading.names_in("game", "ru")[0] for r in ("pitch", "all-fours", "california-jack")}
    assert set(names.values()) == {"гейм"}, names
    interface("ru")
    g = game("pitch", "abc", "ru")
    assert [s.label for s in g.ruleset.scores if s.id == "game"] == ["гейм"]
    base = ["питчер=a", "объявление=1", "старший=a", "младший=b", "валет=нет"]
    assert typed(g, [*base, "гейм=c"]) == typed(g, [*base, "игра=c"]) == typed(g, [*base, "game=c"])
    hand = typed(g, [*base, "гейм=c"]) | {"game_count": [10, 20, 5]}
    with pytest.raises(HandError) as exc:
        apply_hand(g, initial_state(g), hand)
    assert exc.value.message.startswith("гейм=c не совпадает со счётом 10, 20, 5")


@pytest.mark.parametrize("text", ["тёмный ноль", "темный ноль", "Тёмный", "тёмный-ноль", "темний нуль", "pime 0"])
def test_blind_nil_in_words(text: str) -> None:
    assert value(game("spades", "abcd"), "bid", text, "a") == "blind"
    assert value(game("spades", "abcd", "ru"), "bid", text, "a") == "blind"


def test_the_words_offered_are_written_as_the_ruleset_writes_them(interface: Any) -> None:
    """A word is compared with ё as е and in any case, but offered as written: «тёмный ноль», not
    «темный ноль»; and a value is shown by that word."""
    from scorepad.engine.assignments import value_shown, words_shown

    interface("ru")
    rs = game("spades", "abcd", "ru").ruleset
    offered = words_shown(rs, rs.fields["bid"])
    assert "тёмный ноль" in offered and "темный ноль" not in offered
    g = game("spades", "abcd", "ru")
    assert value(g, "bid", "темный ноль") == value(g, "bid", "ТЁМНЫЙ НОЛЬ") == value(g, "bid", "тёмный ноль")
    assert value_shown(rs, rs.fields["bid"], "blind") == "слепой"


def test_refusals_name_fields_by_the_words_of_the_language_shown(interface: Any) -> None:
    """A refusal names a field as players of the language shown type it, not by its id."""
    interface("ru")
    with pytest.raises(HandError) as exc:
        typed(game("skid", "abc", "ru"), ["jack=yes"])
    assert "валет не относится к этой раздаче" in exc.value.message and "jack" not in exc.value.message
    interface("et")
    with pytest.raises(HandError) as exc:
        typed(game("tablanette", "ab", "et"), ["a.tablanette=10", "a.tablanette_cards=10H 4S"])
    assert "a.tablanette_punktid on sisestatud kui 10, kuid tablanette_kaardid annab 14" in exc.value.message


def test_a_check_s_message_shows_a_field_s_value_in_the_language_shown(interface: Any) -> None:
    """`game={game}` in a Russian message shows the value as Russian players type it (ничья, not tie)."""
    from scorepad.engine.scoring import apply_hand

    interface("ru")
    g = game("all-fours", "ab", "ru")
    hand = typed(g, ["старший=a", "младший=b", "валет=a", "гейм=ничья"]) | {"game_count": [10, 5]}
    with pytest.raises(HandError) as exc:
        apply_hand(g, initial_state(g), hand)
    assert "гейм=ничья не совпадает с очками 10, 5" in exc.value.message
    interface(None)
    with pytest.raises(HandError) as exc:
        apply_hand(g, initial_state(g), hand)
    assert "=tie " in exc.value.message


def test_a_word_field_s_values_are_offered_in_the_language_shown(interface: Any) -> None:
    """Canasta's out_kind declares values and no words of its own: Russian offers the Russian words."""
    from scorepad.engine.assignments import describe_field

    interface("ru")
    g = game("canasta", "abcd", "ru")
    shown = describe_field(g, g.ruleset.fields["out_kind"])
    assert "обычно" in shown and "black3" not in shown
    interface(None)
    g = game("canasta", "abcd")
    assert describe_field(g, g.ruleset.fields["out_kind"]).startswith("normal/black3/black4/pickup")


def test_a_combination_field_s_example_is_in_the_language_shown(interface: Any) -> None:
    from scorepad.engine.assignments import describe_field

    interface("ru")
    g = game("pinochle", "ab", "ru")
    assert "марьяж козырный марьяж пинокль 4 валета 2xмарьяж" in describe_field(g, g.ruleset.fields["melds"])
    interface(None)
    g = game("pinochle", "ab")
    assert "marriage m tm royal 2xmarriage" in describe_field(g, g.ruleset.fields["melds"])


@pytest.mark.parametrize(("lang", "normal", "pickup"), [("ru", "обычно", "первый"), ("uk", "звичайно", "перший"),
                                                         ("et", "tavaline", "esimene")])
def test_a_choice_field_s_values_are_said_in_the_language(interface: Any, lang: str, normal: str,
                                                          pickup: str) -> None:
    """Canasta's `out_kind` (a field of values, its words given by the translation): the prompt's default and
    the summary say `обычно`, not `normal`, and the word said reads back as the same value."""
    from scorepad.engine.assignments import value_shown

    interface(lang)
    g = game("canasta", ["a", "b", "c", "d"], lang)
    out_kind = g.ruleset.fields["out_kind"]
    assert value_shown(g.ruleset, out_kind, "normal") == normal
    assert value_shown(g.ruleset, out_kind, "pickup") == pickup
    assert convert(g, out_kind, pickup, None, initial_state(g))[0] == "pickup"


@pytest.mark.parametrize(("lang", "typed_as"), [("uk", "хрести,піки"), ("uk", "хрести піки"), ("ru", "трефы+пики"),
                                                ("et", "risti/poti"), ("uk", "трефи,вини")])
def test_thousand_marriages_as_a_list_of_suit_words(interface: Any, lang: str, typed_as: str) -> None:
    """1000's marriages of one player typed as the language's suit names, as its help offers: the same
    hand as the suit letters CS (clubs 100 + spades 80)."""
    interface(lang)
    g = game("thousand", ["ann", "bob", "cat"], lang)
    by_words = typed(g, ["bidder=cat", "bid=120", "points=10,10,100", f"cat.marriages={typed_as}"])
    by_letters = typed(g, ["bidder=cat", "bid=120", "points=10,10,100", "cat.marriages=CS"])
    assert by_words == by_letters


def test_a_list_with_a_word_the_field_does_not_know_is_still_refused(interface: Any) -> None:
    interface("uk")
    g = game("thousand", ["ann", "bob", "cat"], "uk")
    with pytest.raises(UserError, match="хрести,дупа"):
        typed(g, ["bidder=cat", "bid=120", "points=10,10,100", "cat.marriages=хрести,дупа"])


@pytest.mark.parametrize(("lang", "seat", "side"), [("en", "S", "NS"), ("en", "W", "EW"), ("ru", "Ю", "NS"),
                                                    ("ru", "З", "EW"), ("uk", "З", "EW"), ("et", "O", "EW")])
def test_a_seat_typed_for_the_declarer_is_read_as_its_side(interface: Any, lang: str, seat: str, side: str) -> None:
    """Bridge's declarer is a side: a seat letter (of any language the ruleset gives seats) is looked at and
    read as the side of the player sitting there, never kept as the letter."""
    interface(None if lang == "en" else lang)
    g = game("bridge", ["ann", "bob", "cid", "dan"], None if lang == "en" else lang)
    assert typed(g, ["contract=2H", f"by={seat}", "tricks=8"])["by"] == side
