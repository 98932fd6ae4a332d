"""Refusals and reports that were English in every language: names, `rules test`, the stores' conflicts
and the club database. They read in the chosen language, and nothing recognises them by their words."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scorepad.app.scenario import run_scenario
from scorepad.errors import UserError
from scorepad.locale import set_language
from scorepad.names import check_name, name_problem
from tests.conftest import STORE_KINDS, Run, store_spec


@pytest.fixture(params=STORE_KINDS)
def spec(request: pytest.FixtureRequest, tmp_path: Path, pg_admin: str | None) -> Iterator[str]:
    with contextlib.ExitStack() as stack:
        yield store_spec(request.param, tmp_path, pg_admin, stack)


def refusal(text: object, *args: Any) -> str:
    with pytest.raises(UserError) as caught:
        check_name(text, *args)
    return caught.value.message


def test_name_refusals_in_english_read_as_before() -> None:
    assert refusal(" ", "a season name") == "a season name is empty"
    assert refusal("a\x07b") == ("a player name 'a?b' contains the control character U+0007; use letters, digits, "
                                 "spaces and punctuation")
    assert refusal("x" * 41) == f"a player name '{'x' * 20}...' is longer than 40 characters"
    assert name_problem("x" * 41) == "is longer than 40 characters"


def test_name_refusals_in_estonian_russian_ukrainian() -> None:
    set_language("et")
    assert refusal(" ", "a season name") == "hooaja nimi on tühi"
    assert refusal("a\x07b", "a team name") == ("võistkonna nimi 'a?b' sisaldab juhtmärki U+0007; kasuta tähti, numbreid, "
                                                "tühikuid ja kirjavahemärke")
    assert name_problem("x" * 41) == "on pikem kui 40 märki"
    set_language("ru")
    assert refusal("x" * 41) == f"имя игрока '{'x' * 20}...': больше 40 символов"
    assert name_problem("a\u202eb") == "содержит управляющий символ U+202E"
    set_language("uk")
    assert refusal("", "a game name") == "назва гри: порожнє значення"
    assert name_problem("x" * 41, 21) == "довше за 21 символ"


def scenario(tmp_path: Path, totals: str) -> Path:
    path = tmp_path / "one.toml"
    path.write_text('ruleset = "marjas"\nplayers = ["n", "e", "s", "w"]\n\n[[hand]]\n'
                    'input = ["trump=n", "extra=1,1", "matt=n", "last=e"]\n'
                    f'totals = {totals}\n\n[[hand]]\ninput = ["trump=none", "extra=1,0", "matt=n", "last=n"]\n'
                    'error = "extra does not apply to this hand"\n', encoding="utf-8")
    return path


def test_rules_test_in_another_language_matches_the_english_refusals(cli: Callable[..., Run],
                                                                       tmp_path: Path) -> None:
    """A scenario's expected refusals are written in English: the game is played in English whatever
    the reader's language, and only the report is translated."""
    path = scenario(tmp_path, "[4, 2]")
    for lang in ("et", "ru", "uk"):
        r = cli("--lang", lang, "rules", "test", "marjas", str(path))
        assert r.code == 0, r.out + r.err
    r = cli("--lang", "et", "rules", "test", "marjas")
    assert r.code == 0 and "6-st stsenaariumist läbis 6." in r.out, r.out


def test_rules_test_mismatches_read_in_the_language(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = scenario(tmp_path, "[5, 2]")
    r = cli("--lang", "ru", "rules", "test", "marjas", str(path))
    assert r.code == 1
    assert "  раздача 1: totals: ожидалось [5, 2], получено [4, 2]" in r.out, r.out
    set_language("uk")
    [m] = run_scenario(path)
    assert m.what == "totals: expected [5, 2], got [4, 2]"        # what scripts and tests look at
    assert str(m).startswith("роздача 1: totals: очікувалося [5, 2], отримано [4, 2]")


def test_an_unreachable_club_database_in_ukrainian(cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("psycopg")
    monkeypatch.setenv("SCOREPAD_DB", "postgresql://ann:hunter2@127.0.0.1:1/club?connect_timeout=2")
    r = cli("--lang", "uk", "hand", "bid=4,3,3,3", "tricks=5,3,3,2", "--key", "k1")
    assert r.code == 1 and r.err.startswith("помилка: немає зв'язку з базою даних клубу 127.0.0.1:1/club"), r.err
    # nothing reached the server: nothing can have been stored, and it says so
    assert "нічого не збережено" in r.err and "--key" not in r.err and "hunter2" not in r.err
    monkeypatch.setenv("SCOREPAD_DB", "")
    r = cli("--lang", "ru", "club", "init")
    assert r.code == 2 and "club init настраивает базу данных PostgreSQL" in r.err, r.err


def test_db_copy_reports_in_the_language(cli: Callable[..., Run], db: Path, tmp_path: Path) -> None:
    assert cli("new", "spades", "a", "b", "c", "d").code == 0
    r = cli("--lang", "ru", "db", "copy", str(db), str(tmp_path / "copy.db"))
    assert r.code == 0 and r.out.startswith("Скопировано 1 игра, "), r.out
    assert "обе стороны совпадают" in r.out
    r = cli("--lang", "et", "db", "copy", str(db), str(tmp_path / "copy.db"))
    assert r.code == 2 and "on juba 1 mäng; db copy täidab tühja andmebaasi" in r.err, r.err


def test_a_file_s_problems_read_in_the_language() -> None:
    """The import and game-file checks (scorepad.app.shapes) say what is wrong in the reader's language."""
    from scorepad.app.shapes import problems
    from scorepad.app.transfer.schema import HASH
    from scorepad.shape import Int, ListOf, Record, Text

    shape = Record({"n": Int(low=0, high=9), "tags": ListOf(Text()), "hash": HASH, "who": Text(name=True)})
    doc = {"n": 12, "tags": "x", "hash": "XYZ", "who": "a\x07", "extra": 1}
    english = problems(doc, shape)
    assert english == ["extra: unknown key (expected n, tags, hash, who)", "n: must be between 0 and 9, not 12",
                       "tags: must be a list, not text", "hash: must be 16 hexadecimal digits, not \"XYZ\"",
                       "who: the name contains the control character U+0007"]
    set_language("ru")
    assert problems(doc, shape) == [
        "extra: неизвестный ключ (ожидались n, tags, hash, who)", "n: нужно число от 0 до 9, а здесь 12",
        "tags: нужен список, а здесь текст", "hash: нужно: 16 шестнадцатеричных цифр, а здесь \"XYZ\"",
        "who: имя содержит управляющий символ U+0007"]
    set_language("uk")
    assert problems([], shape) == ["файл: потрібна таблиця, а тут список"]


def test_the_engine_s_team_refusals_are_translated_where_shown() -> None:
    """The engine's refusal is English as a string and translated by its id where it is printed."""
    from scorepad.engine.game import make_game
    from scorepad.errors import UserError
    from scorepad.locale import shown
    from scorepad.rules.registry import load

    bridge = load("bridge")
    with pytest.raises(UserError) as sides:
        make_game(bridge, ["a", "b", "c", "d"], {"x": ["a"], "y": ["b"], "z": ["c", "d"]})
    with pytest.raises(UserError) as sizes:
        make_game(bridge, ["a", "b", "c", "d"], {"x": ["a"], "y": ["b", "c", "d"]})
    assert sides.value.message == "Rubber bridge has 2 sides; --team named 3"
    assert sizes.value.message == "Rubber bridge teams have 2 and 2 players"
    set_language("uk")
    assert shown(sides.value.message) == "у грі Rubber bridge сторін: 2; у --team вказано: 3"
    assert shown(sizes.value.message) == "у грі Rubber bridge гравців у командах: 2 і 2"
