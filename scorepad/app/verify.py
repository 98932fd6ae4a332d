"""`scorepad verify`: every game replayed from its stored hands and pinned ruleset, and compared
with what is stored (in several processes for a large database)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from scorepad.app.games import game_of
from scorepad.engine.game import finish_game, initial_state
from scorepad.engine.scoring import apply_hand
from scorepad.errors import ScorepadError
from scorepad.locale import _, shown
from scorepad.rules.translations import check_translations
from scorepad.store import GameRow, Store
from scorepad.store.choice import open_store
from scorepad.store.sqlite import gc_paused, loads

READ_GAMES = 100  # games whose hands are read in one statement
PARALLEL_HANDS = 5000  # a database with more hands than this is verified by one process per core
CHUNKS_PER_WORKER = 16  # the games go out in runs of about this share of the hands, to whichever process is free


def verify(store: Store, workers: int | None = None) -> list[str]:
    """Replay every game from its stored hands and pinned ruleset; one line per difference.

    Games replay independently, so a large database is shared out among `workers` processes (one
    per core by default, where processes can be forked): in runs of consecutive games of about equal
    numbers of hands, each to whichever process is free, so a process slowed by other work on the
    machine, or given the long games, does not hold up the end; the lines come back in the order of
    the games."""
    problems = [f"ruleset {rid}: the text pinned as {rhash} is not the text with that hash (the database "
                f"was altered; starting a new {rid} game pins the real text)"
                for rhash, rid in store.misfiled_rulesets()]
    rows = store.games()
    total = sum(r.hands for r in rows)
    if workers is None:
        workers = (os.cpu_count() or 1) if total > PARALLEL_HANDS else 1
    import multiprocessing  # start-up: ~15 ms; only large transfers fork

    spec = _spec(store)
    if workers <= 1 or len(rows) < 2 or "fork" not in multiprocessing.get_all_start_methods() or spec is None:
        return problems + _verify_rows(store, rows)
    global _VERIFY_JOB
    _VERIFY_JOB = (spec, rows)
    chunks = _runs(rows, max(1, total // (workers * CHUNKS_PER_WORKER)))
    try:
        with multiprocessing.get_context("fork").Pool(min(workers, len(chunks))) as pool:
            found = pool.imap(_verify_chunk, chunks)  # in order, each run to the first free process
            return problems + [line for per_run in found for line in per_run]
    finally:
        _VERIFY_JOB = None


def _runs(rows: Sequence[GameRow], hands: int) -> list[range]:
    """Consecutive games in runs of at least `hands` hands (a run of one long game may hold more)."""
    out, start, count = [], 0, 0
    for i, row in enumerate(rows):
        count += row.hands + 1  # + 1: a game without hands still costs its set-up
        if count >= hands:
            out.append(range(start, i + 1))
            start, count = i + 1, 0
    if start < len(rows):
        out.append(range(start, len(rows)))
    return out


def _spec(store: Store) -> str | None:
    """What a worker opens a connection of its own with: the SQLite file, or the server's spec (None:
    another kind of store, verified in one process)."""
    if type(store) is Store:
        return str(store.path)
    if type(store).__name__ == "PgStore":
        return str(getattr(store, "spec", "")) or None
    return None


_VERIFY_JOB: tuple[str, list[GameRow]] | None = None  # what forked workers inherit
_WORKER_STORE: list[Store] = []  # a worker's own connection, opened for its first run


def _verify_chunk(indexes: range) -> list[str]:
    """In a worker: the problems of a run of games (by their index in the job), in order."""
    assert _VERIFY_JOB is not None
    spec, rows = _VERIFY_JOB
    if not _WORKER_STORE:  # a connection of its own: the parent's is not shared across a fork

        _WORKER_STORE.append(open_store(spec))
    return _verify_rows(_WORKER_STORE[0], [rows[i] for i in indexes])


def _verify_rows(store: Store, rows: Sequence[GameRow]) -> list[str]:
    out = []
    for k in range(0, len(rows), READ_GAMES):
        run = rows[k:k + READ_GAMES]
        hands = _active_hands(store, [row.id for row in run])
        for row in run:
            out += _verify_game(row, hands.get(row.id, []))
    return out


def _active_hands(store: Store, ids: list[int]) -> dict[int, list[tuple[int, Any, Any]]]:
    """(n, hand, state after it) of each active hand of these games, in order: what a replay reads,
    one statement for a run of games (a round trip each on a server)."""
    out: dict[int, list[tuple[int, Any, Any]]] = {}
    marks = ", ".join("?" for _ in ids)
    with gc_paused():
        for gid, n, hand, state in store.db.execute(
                f"SELECT game_id, n, hand, state FROM hands WHERE status = 'active' AND game_id IN ({marks})"
                " ORDER BY game_id, n", ids):
            out.setdefault(gid, []).append((n, loads(hand), loads(state)))
    return out


def _verify_game(row: GameRow, hands: list[tuple[int, Any, Any]]) -> list[str]:
    problems = []
    if row.damaged is not None:
        problems.append(_("game {id}: its cached totals are damaged ({value}); they are read from its last "
                          "hand until the next hand is recorded").format(id=row.id, value=row.damaged))
    try:
        game = game_of(row)

        check_translations(game.ruleset)   # every language's texts, as when the game began
        state = initial_state(game)
        for n, hand, stored in hands:
            state = apply_hand(game, state, hand).state
            if state != stored:
                problems.append(_("game {id}: hand {n} replays to a different state").format(id=row.id, n=n))
                break
        if row.state.get("finished") and not state["finished"]:
            replayed_finish = finish_game(game, state).state
            state = replayed_finish
        if state != row.state:
            problems.append(_("game {id}: the cached totals differ from a replay ({value} stored, {value2} "
                               "replayed)").format(
                                id=row.id, value=[s['score'] for s in row.state['sides']],
                                value2=[s['score'] for s in state['sides']]))
    except ScorepadError as exc:
        problems.append(_("game {id}: cannot be replayed: {message}").format(id=row.id, message=shown(exc.message)))
    return problems
