"""Cards typed in any of the players' notations, and the hand's output showing how each was read."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Run, dump


def test_cyrillic_cards_scored_and_read_back(cli: Callable[..., Run]) -> None:
    cli("new", "skid", "ann", "Богдан", "cat")
    # Skid: Q♠ 50, 10 10, A 15 (the digest's card values); multiplier x1 without reshuffles
    r = cli("hand", "out=ann", "Богдан.cards=ДП 10Ч", "cat.cards=дама червей, туз бубен")
    assert r.code == 0, r.err
    assert "Богдан: ДП 10Ч read as Q♠ 10♥ = 60" in r.out
    assert "cat: дама червей, туз бубен read as Q♥ A♦ = 25" in r.out
    data = json.loads(cli("standings", "--json").out)
    assert [s["score"] for s in data["sides"]] == [0, 60, 25]


def test_latin_t_is_a_ten_and_shown_as_one(cli: Callable[..., Run]) -> None:
    cli("new", "skid", "ann", "bob", "cat")
    data = json.loads(cli("hand", "out=ann", "bob.cards=T", "cat.cards=Т", "--json").out)
    assert data["cards_read"] == ["bob: T read as 10 = 10", "cat: Т read as A = 15"]
    assert [s["points"] for s in data["sides"]] == [0, 10, 15]


def test_mixed_alphabets_refused_nothing_stored(cli: Callable[..., Run], db: Path) -> None:
    cli("new", "skid", "ann", "bob", "cat")
    before = dump(db)
    r = cli("hand", "out=ann", "bob.cards=TБ", "cat.cards=7")
    assert r.code == 2 and "mixes alphabets" in r.err and "Traceback" not in r.err
    assert dump(db) == before


def test_card_groups_per_player_with_slash(cli: Callable[..., Run], db: Path) -> None:
    cli("new", "skid", "ann", "bob", "cat")
    r = cli("hand", "out=ann", "cards=-/QS 10H/A,7")
    assert r.code == 0, r.err
    assert "bob: QS 10H read as Q♠ 10♥ = 60" in r.out and "cat: A,7 read as A 7 = 15" in r.out
    before = dump(db)
    r = cli("hand", "out=ann", "cards=QS,10H")
    assert r.code == 2 and "one group per player separated by /" in r.err
    assert dump(db) == before


def test_edit_and_sheet_show_how_cards_were_read(cli: Callable[..., Run]) -> None:
    cli("new", "skid", "ann", "bob", "cat")
    cli("hand", "out=ann", "bob.cards=QS", "cat.cards=7")
    r = cli("edit", "1", "bob.cards=КП")
    assert r.code == 0, r.err
    assert "bob: КП read as K♠ = 10" in r.out
    sheet = json.loads(cli("sheet", "--json").out)
    assert sheet["hands"][0]["cards_read"] == ["bob: КП read as K♠ = 10", "cat: 7 read as 7 = 0"]
    assert sheet["totals"] == [0, 10, 0]


def test_a_card_text_read_two_ways_is_refused_with_both_and_nothing_stored(cli: Callable[..., Run], db: Path) -> None:
    """500 Rummy counted `Q S` as a queen and a jack (23); it reads as Q♠ (12) as well."""
    cli("new", "five-hundred", "ann", "bob")
    before = dump(db)
    for typed, sentence in (("Q S", "'Q S' reads two ways, as Q♠ or as Q J"),
                            ("K Т", "'K Т' reads two ways, as K♣ or as K A"),
                            ("two kings", "'kings' is a rank in the plural, not a card"),
                            ("ÄR", "'ÄR' reads two ways, as A♦ or as A♣")):
        r = cli("hand", "ann.hand=0", f"bob.cards={typed}")
        assert r.code == 2 and sentence in r.err and "Traceback" not in r.err, (typed, r.err)
        assert dump(db) == before
    r = cli("hand", "ann.hand=0", "bob.cards=QS")
    assert r.code == 0, r.err
    assert "bob: QS read as Q♠ = 12" in r.out


def test_estonian_suit_letters_scored(cli: Callable[..., Run]) -> None:
    cli("new", "five-hundred", "ann", "bob")
    r = cli("hand", "ann.hand=0", "bob.cards=EP KÄ")
    assert r.code == 0, r.err
    assert "bob: EP KÄ read as Q♠ K♥ = 25" in r.out


def test_the_refusal_in_the_language_shown(cli: Callable[..., Run], db: Path) -> None:
    cli("new", "five-hundred", "ann", "bob")
    before = dump(db)
    for lang, words in (("et", ("loeb kahte moodi", "Q♠", "Q J", "QS", "Q, S")),
                        ("ru", ("читается двояко", "Q♠", "Q J", "QS", "Q, S")),
                        ("uk", ("читається двояко", "Q♠", "Q J", "QS", "Q, S"))):
        r = cli("--lang", lang, "hand", "ann.hand=0", "bob.cards=Q S")
        assert r.code == 2 and all(w in r.err for w in words), (lang, r.err)
        assert "reads two ways" not in r.err and "lone S" not in r.err
    r = cli("--lang", "et", "hand", "ann.hand=0", "bob.cards=kings")
    assert r.code == 2 and "plural" not in r.err and "K K" in r.err, r.err
    assert dump(db) == before
