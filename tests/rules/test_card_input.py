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
