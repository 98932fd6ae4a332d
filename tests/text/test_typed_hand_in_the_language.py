"""A hand said back where players read it (the undo message, `edit N`'s "was typed", the log's undo,
edit and redo lines, the cards read): each field by the name players of the language type, each value
in its words, cards in the language's notation. English, and JSON, keep what was typed."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run


def bridge(cli: Callable[..., Run]) -> None:
    assert cli("new", "bridge", "a", "b", "c", "d").code == 0
    assert cli("hand", "contract=2S", "by=E", "tricks=8").code == 0
    assert cli("hand", "contract=pass").code == 0


@pytest.mark.parametrize(("lang", "undone", "edited", "restored"), [
    ("ru", "контракт=пас", "взятки=8 → взятки=9", "контракт=пас"),
    ("et", "leping=pass", "tihid=8 → tihid=9", "leping=pass"),
    ("uk", "контракт=пас", "взятки=8 → взятки=9", "контракт=пас"),
])
def test_bridge_undo_and_log_name_the_fields_in_the_language(cli: Callable[..., Run], lang: str, undone: str,
                                                             edited: str, restored: str) -> None:
    bridge(cli)
    r = cli("--lang", lang, "undo")
    assert r.code == 0 and f"({undone})" in r.out.splitlines()[0] and "contract" not in r.out, r.out
    assert cli("--lang", lang, "edit", "1", "tricks=9").code == 0
    assert cli("--lang", lang, "redo").code == 0
    log = cli("--lang", lang, "log").out
    lines = log.splitlines()
    assert lines[1].endswith(undone) and lines[2].endswith(edited) and lines[3].endswith(restored), log
    assert "contract" not in log and "tricks" not in log, log
    entries = json.loads(cli("--lang", lang, "log", "--json").out)
    assert entries[1]["detail"]["removed"]["typed"] == ["contract=pass"]   # the data keeps what was typed


def test_english_says_the_hand_as_it_was_typed(cli: Callable[..., Run]) -> None:
    bridge(cli)
    assert "(contract=pass)" in cli("undo").out
    assert cli("edit", "1", "tricks=9").code == 0
    log = cli("log").out
    assert "removed hand 2: contract=pass" in log and "hand 1: tricks=8 → tricks=9" in log, log


@pytest.mark.parametrize(("lang", "said", "read"), [
    ("ru", "вышел=Аня перетасовки=1 Борис.карты=Т♥ К♠ Вика.карты=Д♠", "Борис: ТЧ КП прочитано как Т♥ К♠ = 25"),
    ("uk", "вийшов=Аня тасування=1 Борис.карти=Т♥ К♠ Вика.карти=Д♠", "Борис: ТЧ КП прочитано як Т♥ К♠ = 25"),
])
def test_skid_cards_are_said_back_in_the_language_s_notation(cli: Callable[..., Run], lang: str, said: str,
                                                            read: str) -> None:
    assert cli("new", "skid", "Аня", "Борис", "Вика").code == 0
    r = cli("--lang", lang, "hand", "out=Аня", "reshuffles=1", "Борис.cards=ТЧ КП", "Вика.cards=QS")
    assert r.code == 0 and read in r.out and "A♥" not in r.out, r.out
    r = cli("--lang", lang, "edit", "1")       # not on a terminal: how the hand was typed, then a refusal
    assert said in r.out, r.out
    r = cli("--lang", lang, "undo")
    assert said in r.out, r.out


def test_estonian_cards_are_echoed_in_estonian_letters(cli: Callable[..., Run]) -> None:
    assert cli("new", "skid", "Mari", "Jaan", "Kati").code == 0
    r = cli("--lang", "et", "hand", "out=Mari", "reshuffles=0", "Jaan.cards=E♠, S♥, Ä♦", "Kati.cards=KS")
    assert r.code == 0 and "E♠, S♥, Ä♦ loeti kui E♠ S♥ Ä♦" in r.out, r.out
    assert "Q♠" not in r.out and "J♥" not in r.out
    assert cli("undo").code == 0
    r = cli("--lang", "et", "hand", "--json", "out=Mari", "reshuffles=0", "Jaan.cards=E♠", "Kati.cards=KS")
    assert json.loads(r.out)["cards_read"][0] == "Jaan: E♠ read as Q♠ = 50"   # JSON: English, as before


def test_combinations_are_said_back_by_their_names(cli: Callable[..., Run]) -> None:
    assert cli("new", "pinochle", "a", "b").code == 0
    r = cli("--lang", "ru", "hand", "melds=4A tm,pinochle", "card_points=140,100", "last=a")
    assert r.code == 0, r.err
    r = cli("--lang", "ru", "undo")
    said = "комбинации=4 туза козырный марьяж,пинокль"
    assert said in r.out, r.out
    r = cli("--lang", "ru", "hand", said, "card_points=140,100", "last=a")   # read back as said
    assert r.code == 0 and "a: +290" in r.out, r.out + r.err


@pytest.mark.parametrize("lang", ["uk", "ru", "en"])
def test_a_combination_the_list_does_not_name_is_typed_beside_it(cli: Callable[..., Run], lang: str) -> None:
    assert cli("new", "pinochle", "a", "b").code == 0
    r = cli("--lang", lang, "hand", "melds=4A tm,pinochle", "card_points=140,100", "last=a", "a.dix=1")
    assert r.code == 0 and "a: +300" in r.out, r.out + r.err
    assert cli("undo").code == 0
    r = cli("--lang", lang, "hand", "melds=4A tm,pinochle", "card_points=140,100", "last=a", "a.aces=2")
    assert r.code == 2 and "2" in r.err, r.err   # one the list names must agree with it


@pytest.mark.parametrize(("lang", "contract", "by", "score"), [
    ("ru", "4П", "С", "NS: +120"), ("ru", "3БК", "СЮ", "NS: +100"), ("ru", "5Т контра", "В", "EW: +250"),
    ("ru", "2Б реконтра", "ВЗ", "EW: +260"), ("uk", "4П", "Ю", "NS: +120"),
    ("et", "4 ärtu", "O", "EW: +120"), ("et", "3 trumbita", "OW", "EW: +100"), ("et", "4 pada kontra", "N", "NS: +290"),
])
def test_bridge_contracts_and_seats_are_typed_in_the_language(cli: Callable[..., Run], lang: str, contract: str,
                                                              by: str, score: str) -> None:
    assert cli("new", "bridge", "a", "b", "c", "d").code == 0
    r = cli("--lang", lang, "hand", f"contract={contract}", f"by={by}", "result==")
    assert r.code == 0 and score in r.out, r.out + r.err
    r = cli("--lang", lang, "hand", "contract=1H", "by=N", "result==", f"honors={by}:100")
    assert r.code == 0, r.err
    side = score.split(":")[0]
    assert f"{side}: +1" in r.out, r.out          # the honours to the side the seat or side name names


def test_the_declarer_is_said_back_by_the_language_s_seat_letter(cli: Callable[..., Run]) -> None:
    assert cli("new", "bridge", "a", "b", "c", "d").code == 0
    assert cli("hand", "contract=4S", "by=E", "tricks=10").code == 0
    r = cli("--lang", "ru", "undo")
    assert "(контракт=4S разыгрывающий=В взятки=10)" in r.out, r.out
    assert cli("hand", "contract=4S", "by=EW", "tricks=10").code == 0
    r = cli("--lang", "et", "undo")
    assert "(leping=4S väljamängija=OW tihid=10)" in r.out, r.out


def test_a_language_s_seats_are_checked(cli: Callable[..., Run], tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parents[2] / "rulesets" / "bridge.toml").read_text(encoding="utf-8")
    bad = tmp_path / "bridge.toml"
    bad.write_text(text.replace('seats = ["С", "В", "Ю", "З"]', 'seats = ["С", "В", "Ю"]')
                   .replace('side_names = ["NS", "OW"]', 'side_names = ["EW", "NS"]'), encoding="utf-8")
    r = cli("rules", "check", str(bad))
    assert r.code == 2, r.out + r.err
    assert "translations.ru.seats: must be a list of 4 names without spaces, one for each of N, E, S, W" in r.err
    assert "translations.et.side_names: 'EW' is already the name of EW" in r.err, r.err


def test_finish_says_its_events_in_the_language(cli: Callable[..., Run]) -> None:
    assert cli("new", "bridge", "a", "b", "c", "d").code == 0
    assert cli("hand", "contract=2S", "by=E", "tricks=8").code == 0
    r = cli("--lang", "ru", "finish")
    assert r.code == 0 and "игра окончена" in r.out and "game over" not in r.out, r.out
