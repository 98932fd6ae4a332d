"""Paths for large databases: the export written game by game is the same text as one dump, and verify
shared among processes says what one process says."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from scorepad.app import games as play
from scorepad.app import verify as verification
from scorepad.app.transfer.export import export_chunks, export_data
from scorepad.store import Store


def _reference(store: Store) -> str:
    return json.dumps(export_data(store), ensure_ascii=False, indent=1, sort_keys=True, allow_nan=False) + "\n"


def test_empty_database(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite")
    assert "".join(export_chunks(store)) == _reference(store)
    json.loads("".join(export_chunks(store)))


def test_games_hands_audit_and_names(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite")
    first = play.new_game(store, "spades", ["ann", "bö \"b\"", "cat", "dan"], season="winter")
    for args in (["bid=3,3,3,3", "tricks=4,3,3,3"], ["bid=4,3,3,2", "tricks=4,3,3,3"]):
        play.record_hand(store, first.id, args)
    second = play.new_game(store, "hearts", ["ann", "bob", "cat", "dan"])
    play.record_hand(store, second.id, ["hearts=5,4,3,1", "queen=bob"])
    text = "".join(export_chunks(store))
    assert text == _reference(store)
    assert len(json.loads(text)["games"]) == 2
    assert "\n   \"audit\"" in text  # a game's keys three levels in: indented as one dump indents them


def test_verify_shared_among_processes_says_what_one_process_says(tmp_path: Path) -> None:
    """A large database is verified by several processes: the same lines, in the order of the games."""
    store = Store(tmp_path / "db.sqlite")
    ids = []
    for g in range(5):
        row = play.new_game(store, "spades", ["ann", "bob", "cat", "dan"], opts=["target=1000000"])
        for _ in range(g + 1):
            play.record_hand(store, row.id, ["bid=3,3,3,3", "tricks=4,3,3,3"])
        ids.append(row.id)
    with store.write() as con:  # two games altered behind scorepad's back
        con.execute("UPDATE hands SET state = replace(state, '\"score\":', '\"score\":1') WHERE game_id = ?",
                    (ids[1],))
        con.execute("UPDATE games SET state = replace(state, '\"bags\":', '\"bags\":9') WHERE id = ?", (ids[3],))
    alone = verification.verify(store, workers=1)
    assert sorted({line.split(":")[0] for line in alone}) == [f"game {ids[1]}", f"game {ids[3]}"]
    assert verification.verify(store, workers=2) == alone
    assert verification.verify(store, workers=3) == alone


def test_verify_shared_among_processes_names_every_kind_of_problem_as_one_process(tmp_path: Path) -> None:
    """Problems of several kinds in several games (a column that is not JSON, a hand that does not
    replay, cached totals that differ, a typed text that gives other values, a damaged hand taken
    back): the same lines in the same order from one process, two, or three, typed again or not."""
    store = Store(tmp_path / "db.sqlite")
    ids = []
    for g in range(8):
        row = play.new_game(store, "spades", ["ann", "bob", "cat", "dan"], opts=["target=1000000"])
        for _ in range(g % 3 + 2):
            play.record_hand(store, row.id, ["bid=3,3,3,3", "tricks=4,3,3,3"])
        ids.append(row.id)
    play.undo(store, ids[6])
    with store.write() as con:  # altered behind scorepad's back, its checks of a row's shape out of the way
        for trigger in ("hands_shape_update", "games_shape_update"):
            con.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        con.execute("UPDATE hands SET points = '{not json' WHERE game_id = ? AND n = 1", (ids[0],))
        con.execute("UPDATE hands SET state = replace(state, '\"score\":', '\"score\":1') WHERE game_id = ?",
                    (ids[2],))
        con.execute("UPDATE games SET state = replace(state, '\"bags\":', '\"bags\":9') WHERE id = ?", (ids[3],))
        con.execute("UPDATE hands SET typed = replace(typed, 'tricks=4', 'tricks=5') WHERE game_id = ? AND n = 2",
                    (ids[5],))
        con.execute("UPDATE hands SET events = '[' WHERE game_id = ? AND status <> 'active'", (ids[6],))
    for retype in (False, True):
        alone = verification.verify(store, workers=1, retype=retype)
        named = {re.match(r"game \d+", line).group() for line in alone}  # type: ignore[union-attr]
        assert {f"game {ids[i]}" for i in (0, 2, 3, 6)} <= named and (f"game {ids[5]}" in named) == retype, alone
        assert verification.verify(store, workers=2, retype=retype) == alone
        assert verification.verify(store, workers=3, retype=retype) == alone
    store.close()


def test_verify_runs_cover_every_game_once_in_order() -> None:
    """The runs of games handed to the processes: consecutive, every game once, each run (but the last)
    at least the asked number of hands and set-ups."""
    import random
    from types import SimpleNamespace

    rng = random.Random(7)
    for _ in range(200):
        rows: Any = [SimpleNamespace(hands=rng.choice([0, 1, 5, 20, 300])) for _ in range(rng.randint(1, 60))]
        size = rng.randint(1, 400)
        runs = verification._runs(rows, size)
        assert [i for run in runs for i in run] == list(range(len(rows)))
        assert all(len(run) > 0 for run in runs)
        assert all(sum(rows[i].hands + 1 for i in run) >= size for run in runs[:-1])
