"""A stored hand's breakdown holds each line's id in the ruleset (and the player of a per-player line),
never its words: a game recorded in Estonian is shown in Ukrainian without scoring its hands again; a
database of schema 7 (lines in English words) is migrated to ids, and `verify` stays clean on it; an
export holds ids, and an older export in words is still imported. Both stores."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scorepad.app import games as play
from scorepad.locale import speaking
from scorepad.store.choice import open_store
from scorepad.store.protocol import is_server
from tests.conftest import Run, counting
from tests.store.test_row_shape import run

# Spades, n+s against e+w: a per-player nil line (hand 1) and the bag penalty, a [[rule]] line with an
# event (hand 5); hands 2-4 have no event.
HANDS = [("bid=0,4,3,3", "tricks=0,5,4,4"), ("bid=2,4,3,3", "tricks=4,3,3,3")] + [("bid=1,2,3,1", "tricks=4,3,3,3")] * 3
FIRST = [[{"id": "contract", "points": 30}, {"id": "bags", "points": 1},
          {"id": "nil", "points": 100, "args": {"player": "n"}}],
         [{"id": "contract", "points": 70}, {"id": "bags", "points": 2}]]
PENALTY = {"rule": "bag_penalty", "points": -100}


def recorded_in_estonian(acli: Callable[..., Run]) -> None:
    assert acli("--lang", "et", "new", "spades", "n", "e", "s", "w").code == 0
    for hand in HANDS:
        r = acli("--lang", "et", "hand", *hand)
        assert r.code == 0, r.err
    assert "pagasi karistus -100" in r.out


def stored(spec: str) -> list[Any]:
    store = open_store(spec)
    try:
        return [json.loads(text) for (text,) in store.db.execute("SELECT breakdown FROM hands ORDER BY n").fetchall()]
    finally:
        store.close()


def shown(spec: str, lang: str | None, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[Any], int]:
    """Each hand's breakdown and events on the sheet in `lang`, and how many hands were scored to show them."""
    real = play.apply_hand
    scored = counting(monkeypatch, "apply_hand", play)
    store = open_store(spec)
    try:
        with speaking(lang):
            sheet = play.sheet(store, store.game(None))
    finally:
        store.close()
        monkeypatch.setattr(play, "apply_hand", real)
    return [h["breakdown"] for h in sheet["hands"]], [h["events"] for h in sheet["hands"]], scored[0]


def test_stored_lines_are_ids_and_shown_in_the_language_asked(acli: Callable[..., Run], anydb: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    recorded_in_estonian(acli)
    rows = stored(anydb)
    assert rows[0] == FIRST
    assert PENALTY in rows[4][0] and PENALTY in rows[4][1]
    assert not any(isinstance(line, list) for row in rows for side in row for line in side)
    breakdowns, events, scored = shown(anydb, "uk", monkeypatch)
    assert breakdowns[0][0] == [["контракт", 30, ["score"]], ["мішки", 1, ["score"]], ["нуль (n)", 100, ["score"]]]
    assert ["штраф за мішки", -100, ["score"]] in breakdowns[4][0]
    assert events[4] == ["n+s: мішків набралося 10, штраф -100", "e+w: мішків набралося 10, штраф -100"]
    assert scored == 0   # no hand is scored for its breakdown or its events
    breakdowns, _events, scored = shown(anydb, "et", monkeypatch)
    assert breakdowns[0][0][2] == ["null (n)", 100, ["score"]] and ["pagasi karistus", -100, ["score"]] in breakdowns[4][1]
    breakdowns, _events, scored = shown(anydb, None, monkeypatch)
    assert breakdowns[0][0][2] == ["nil (n)", 100, ["score"]] and scored == 0
    assert acli("--lang", "uk", "sheet", "--format", "md").code == 0


def back_to_schema(spec: str, version: int, column: str, values: list[Any]) -> None:
    """The database as scorepad left it at an older schema: `column` of hand n holds values[n - 1]."""
    for n, value in enumerate(values, 1):
        run(spec, f"UPDATE hands SET {column} = '{json.dumps(value)}' WHERE n = {n}")
    if is_server(spec):
        from scorepad.store.postgres import VERSION_TABLE

        run(spec, f"UPDATE {VERSION_TABLE} SET version = {version}")
    else:
        run(spec, f"PRAGMA user_version = {version}")


def as_schema_7(spec: str, words: list[Any]) -> None:
    """The database as scorepad left it at schema 7: every breakdown line in the ruleset's English words."""
    back_to_schema(spec, 7, "breakdown", words)


def test_a_schema_7_database_is_named_by_ids_and_verifies(acli: Callable[..., Run], anydb: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    recorded_in_estonian(acli)
    now = stored(anydb)
    english, _events, _scored = shown(anydb, None, monkeypatch)
    as_schema_7(anydb, english)
    assert english[0][0][0] == ["contract", 30, ["score"]]
    r = acli("verify")   # opening the store migrates it
    assert r.code == 0 and "All 1 games replay" in r.out, r.out + r.err
    assert stored(anydb) == now and now[0] == FIRST and PENALTY in now[4][1]   # what a new hand stores
    breakdowns, _events, _scored = shown(anydb, "uk", monkeypatch)
    assert breakdowns[0][0][2] == ["нуль (n)", 100, ["score"]]
    breakdowns, _events, _scored = shown(anydb, "et", monkeypatch)
    assert ["pagasi karistus", -100, ["score"]] in breakdowns[4][0]


def test_a_label_no_line_has_stays_in_words_and_is_shown_as_it_is(acli: Callable[..., Run], anydb: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    recorded_in_estonian(acli)
    english, _events, _scored = shown(anydb, None, monkeypatch)
    english[1][1] = [["a house bonus", -70, ["score"]]]   # written by hand: no line of spades says it
    as_schema_7(anydb, english)
    assert acli("standings").code == 0
    rows = stored(anydb)
    assert rows[1][1] == [["a house bonus", -70, ["score"]]]
    assert rows[1][0] == [{"id": "contract", "points": 50}, {"id": "bags", "points": 2}]
    breakdowns, _events, _scored = shown(anydb, "uk", monkeypatch)
    assert breakdowns[1] == [[["контракт", 50, ["score"]], ["мішки", 2, ["score"]]], [["a house bonus", -70, ["score"]]]]
    r = acli("verify")
    assert r.code == 1 and "hand 2 does not replay to its stored breakdown" in r.out, r.out


def test_an_export_holds_ids_and_an_older_export_in_words_imports(acli: Callable[..., Run], anydb: str,
                                                                  tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    recorded_in_estonian(acli)
    english, _events, _scored = shown(anydb, None, monkeypatch)
    out = tmp_path / "new.json"
    assert acli("export", "--output", str(out)).code == 0
    data = json.loads(out.read_text())
    assert data["version"] == 3
    rows = data["games"][0]["hand_rows"]
    assert rows[0]["breakdown"] == FIRST
    data["version"] = 1
    for h, words in zip(rows, english, strict=True):
        h["breakdown"] = words
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data))
    monkeypatch.setenv("SCOREPAD_DB", str(tmp_path / "fresh.db"))
    r = acli("import", str(old))
    assert r.code == 0, r.err
    assert stored(str(tmp_path / "fresh.db"))[0] == FIRST
    r = acli("verify")
    assert r.code == 0, r.out
    data["games"][0]["hand_rows"][0]["breakdown"][0][0] = ["contract", 31, ["score"]]
    old.write_text(json.dumps(data))
    monkeypatch.setenv("SCOREPAD_DB", str(tmp_path / "other.db"))
    r = acli("import", str(old))
    assert r.code == 2 and "hand_rows[0].breakdown: differs from a replay" in r.err, r.err
