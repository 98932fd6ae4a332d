"""A stored hand's events hold each message's id (a [[rule]]'s with its placeholders' values, the
program's with its arguments), never its words: a game is shown in Estonian, Russian and Ukrainian
without scoring a hand again; a database of schema 8 (events in English words) is migrated to ids and
`verify` stays clean on it; an export holds ids and an older export in words is still imported. Both stores."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scorepad.app import games as play
from scorepad.engine import hand_entry
from scorepad.store.choice import open_store
from tests.conftest import Run, counting
from tests.store.test_breakdown_ids import back_to_schema
from tests.store.test_row_shape import run

# Spades to 150: hand 4 costs both teams the bag penalty (a [[rule]]'s message each), hand 6 ends the game
HANDS = [("bid=1,2,3,1", "tricks=4,3,3,3")] * 5 + [("bid=4,4,3,3", "tricks=4,4,3,2")]
PENALTY = [{"rule": "bag_penalty", "args": {"me": "n+s", "bag_limit": 10, "bag_penalty": 100}},
           {"rule": "bag_penalty", "args": {"me": "e+w", "bag_limit": 10, "bag_penalty": 100}}]
OVER = [{"msgid": "game over: {name} wins", "args": {"name": "n+s"}}]
WORDS = {
    None: (["n+s reach 10 bags: -100", "e+w reach 10 bags: -100"], ["game over: n+s wins"]),
    "et": (["n+s: pagasit 10, karistus -100", "e+w: pagasit 10, karistus -100"], ["mäng läbi: võitis n+s"]),
    "ru": (["n+s: мешков набралось 10, штраф -100", "e+w: мешков набралось 10, штраф -100"],
           ["игра окончена: победа — n+s"]),
    "uk": (["n+s: мішків набралося 10, штраф -100", "e+w: мішків набралося 10, штраф -100"],
           ["гру закінчено: перемога — n+s"]),
}


def recorded_in_russian(acli: Callable[..., Run]) -> None:
    assert acli("--lang", "ru", "new", "spades", "n", "e", "s", "w", "--opt", "target=150").code == 0
    for hand in HANDS:
        r = acli("--lang", "ru", "hand", *hand)
        assert r.code == 0, r.err


def stored(spec: str) -> list[Any]:
    store = open_store(spec)
    try:
        return [json.loads(text) for (text,) in store.db.execute("SELECT events FROM hands ORDER BY n").fetchall()]
    finally:
        store.close()


def shown(spec: str, lang: str | None, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], int]:
    """Each hand's events on the sheet in `lang` (as printed), and how many hands were scored to show them."""
    from scorepad.locale import shown as said
    from scorepad.locale import speaking

    real = play.apply_hand
    scored = counting(monkeypatch, "apply_hand", play)
    store = open_store(spec)
    try:
        with speaking(lang):
            sheet = play.sheet(store, store.game(None))
            events = [[said(e) for e in h["events"]] for h in sheet["hands"]]
    finally:
        store.close()
        monkeypatch.setattr(play, "apply_hand", real)
    return events, scored[0]


@pytest.mark.parametrize("lang", [None, "et", "ru", "uk"])
def test_events_are_ids_and_shown_in_the_language_asked_without_scoring(
        acli: Callable[..., Run], anydb: str, monkeypatch: pytest.MonkeyPatch, lang: str | None) -> None:
    recorded_in_russian(acli)
    rows = stored(anydb)
    assert rows == [[], [], [], PENALTY, [], OVER]
    events, scored = shown(anydb, lang, monkeypatch)
    assert events == [[], [], [], WORDS[lang][0], [], WORDS[lang][1]]
    assert scored == 0
    r = acli("--lang", lang or "en", "sheet")
    assert r.code == 0 and "; ".join(WORDS[lang][0]) in r.out and WORDS[lang][1][0] in r.out, r.out


def as_schema_8(spec: str, events: list[Any]) -> None:
    """The database as scorepad left it at schema 8: every event in English words."""
    back_to_schema(spec, 8, "events", events)


def test_a_schema_8_database_is_named_by_ids_and_verifies(acli: Callable[..., Run], anydb: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    recorded_in_russian(acli)
    now = stored(anydb)
    english = [[], [], [], WORDS[None][0], [], WORDS[None][1]]
    english[2] = ["a house note"]   # written by hand: no event of hand 3 says it
    as_schema_8(anydb, english)
    r = acli("verify")   # opening the store migrates it
    assert r.code == 1 and "hand 3 does not replay to its stored events" in r.out, r.out + r.err
    rows = stored(anydb)
    assert rows[3] == now[3] == PENALTY and rows[5] == OVER and rows[2] == ["a house note"]
    events, scored = shown(anydb, "uk", monkeypatch)
    assert events[3] == WORDS["uk"][0] and events[5] == WORDS["uk"][1] and events[2] == ["a house note"]
    assert scored == 0
    run(anydb, "UPDATE hands SET events = '[]' WHERE n = 3")
    r = acli("verify")
    assert r.code == 0 and "All 1 games replay" in r.out, r.out + r.err


def test_an_export_holds_event_ids_and_an_older_export_in_words_imports(
        acli: Callable[..., Run], anydb: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    recorded_in_russian(acli)
    out = tmp_path / "new.json"
    assert acli("export", "--output", str(out)).code == 0
    data = json.loads(out.read_text())
    assert data["version"] == 3
    rows = data["games"][0]["hand_rows"]
    assert [h["events"] for h in rows] == [[], [], [], PENALTY, [], OVER]
    data["version"] = 2
    rows[3]["events"], rows[5]["events"] = WORDS[None]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data))
    monkeypatch.setenv("SCOREPAD_DB", str(tmp_path / "fresh.db"))
    r = acli("import", str(old))
    assert r.code == 0, r.err
    assert stored(str(tmp_path / "fresh.db"))[3:] == [PENALTY, [], OVER]
    assert acli("verify").code == 0
    rows[5]["events"] = ["game over: e+w wins"]
    old.write_text(json.dumps(data))
    monkeypatch.setenv("SCOREPAD_DB", str(tmp_path / "other.db"))
    r = acli("import", str(old))
    assert r.code == 2 and "hand_rows[5].events: differs from a replay" in r.err, r.err
    rows[5]["events"] = [{"msgid": "game over: {name} wins"}, {"rule": "x", "msgid": "y"}]
    old.write_text(json.dumps(data))
    r = acli("import", str(old))
    assert r.code == 2 and "must have either a msgid or a rule" in r.err, r.err


def test_a_hand_typed_in_a_language_is_scored_once_and_stored_as_in_english(
        acli: Callable[..., Run], anydb: str, monkeypatch: pytest.MonkeyPatch) -> None:
    scored = counting(monkeypatch, "apply_hand", play, hand_entry)   # the store's use case, the entry reading a hand
    recorded_in_russian(acli)
    assert scored[0] == len(HANDS)   # the ruleset in Russian scores each hand; nothing scores it again to store it
    store = open_store(anydb)
    try:
        rows = store.db.execute("SELECT breakdown, events FROM hands ORDER BY n").fetchall()
    finally:
        store.close()
    assert rows[3] == (json.dumps([[{"id": "contract", "points": 40}, {"id": "bags", "points": 3},
                                    {"rule": "bag_penalty", "points": -100}],
                                   [{"id": "contract", "points": 30}, {"id": "bags", "points": 3},
                                    {"rule": "bag_penalty", "points": -100}]],
                                  separators=(",", ":")), json.dumps(PENALTY, separators=(",", ":")))


def test_a_finish_stores_its_events_by_id_and_the_log_says_them_in_the_language(
        acli: Callable[..., Run], anydb: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert acli("new", "bridge", "a", "b", "c", "d").code == 0
    assert acli("hand", "contract=2S", "by=E", "tricks=8").code == 0
    assert acli("finish").code == 0
    store = open_store(anydb)
    try:
        (detail,) = store.db.execute("SELECT detail FROM audit WHERE action = 'finish'").fetchone()
    finally:
        store.close()
    assert json.loads(detail)["events"] == [
        {"rule": "unfinished_partscore", "args": {"unfinished_partscore": 100, "me": "EW"}},
        {"msgid": "game over: {name} wins", "args": {"name": "EW"}}]
    finished = counting(monkeypatch, "finish_game", play)
    r = acli("--lang", "ru", "log")
    assert r.code == 0 and "игра окончена" in r.out and "game over" not in r.out, r.out
    assert finished[0] == 0   # the log reads the finish's events, it does not finish the game again


def test_a_finish_in_a_language_is_worked_out_once_and_stored_as_in_english(
        acli: Callable[..., Run], anydb: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert acli("new", "bridge", "a", "b", "c", "d").code == 0
    assert acli("hand", "contract=2S", "by=E", "tricks=8").code == 0
    finished = counting(monkeypatch, "finish_game", play)
    r = acli("--lang", "ru", "finish")
    assert r.code == 0 and "игра окончена" in r.out, r.out
    assert finished[0] == 1
    store = open_store(anydb)
    try:
        (detail,) = store.db.execute("SELECT detail FROM audit WHERE action = 'finish'").fetchone()
    finally:
        store.close()
    detail = json.loads(detail)
    assert detail["events"][0] == {"rule": "unfinished_partscore", "args": {"unfinished_partscore": 100, "me": "EW"}}
    assert detail["breakdown"] == [[], [{"rule": "unfinished_partscore", "points": 100, "to": ["score", "above"]}]]
