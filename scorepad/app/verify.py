"""`scorepad verify`: every game replayed from its stored hands and pinned ruleset, and compared
with what is stored (in several processes for a large database): each active hand's points,
breakdown, events and state, and the game's cached totals, equal as JSON as `import` compares them;
with `retype`, each hand's typed text typed again too, as `import` types it."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from scorepad.app.breakdown import same_breakdown_text
from scorepad.app.events import same_events_text
from scorepad.app.games import game_of, hand_row, typed_again
from scorepad.app.shapes import checked, scan
from scorepad.app.transfer.forked import can_fork, forked_in_order
from scorepad.app.transfer.schema import TYPED, canonical_json, same_as_stored
from scorepad.engine.game import Game, finish_game, initial_state
from scorepad.engine.scoring import apply_hand
from scorepad.errors import ScorepadError
from scorepad.locale import _, shown
from scorepad.rules.translations import check_translations
from scorepad.store import GameRow, Store
from scorepad.store.choice import open_store
from scorepad.store.rowshape import JSON_COLUMNS, DamagedRow, column_problem, hand_values, where
from scorepad.store.sqlite import gc_paused, loads

READ_GAMES = 100  # games whose hands are read in one statement
PARALLEL_HANDS = 5000  # a database with more hands than this is verified by one process per core
CHUNKS_PER_WORKER = 16  # the games go out in runs of about this share of the hands, to whichever process is free


def verify(store: Store, workers: int | None = None, retype: bool = False) -> list[str]:
    """Replay every game from its stored hands and pinned ruleset; one line per difference.

    `retype`: also type each active hand's stored text again, which must give the values stored with
    it (what `import` checks too); it more than doubles the time (typing a hand costs more than
    scoring it).

    Games replay independently, so a large database is shared out among `workers` processes (one
    per core by default, where processes can be forked): in runs of consecutive games of about equal
    numbers of hands, each to whichever process is free, so a process slowed by other work on the
    machine, or given the long games, does not hold up the end; the lines come back in the order of
    the games."""
    problems = [_("ruleset {id}: the text pinned as {hash} is not the text with that hash (the database was altered; "
                  "starting a new {id} game pins the real text)").format(id=rid, hash=rhash)
                for rhash, rid in store.misfiled_rulesets()]
    rows = store.games(damaged=problems)   # a game whose row is damaged is named, and not replayed
    problems += _damaged_rows(store)
    total = sum(r.hands for r in rows)
    if workers is None:
        workers = (os.cpu_count() or 1) if total > PARALLEL_HANDS else 1
    spec = _spec(store)
    if workers <= 1 or len(rows) < 2 or spec is None or not can_fork():
        return problems + _verify_rows(store, rows, retype)
    chunks = _runs(rows, max(1, total // (workers * CHUNKS_PER_WORKER)))
    job = _Share(spec, rows, retype)
    return problems + list(forked_in_order(job.run, chunks, min(workers, len(chunks))))


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


class _Share:
    """What a worker verifies: runs of these games (by index), through a connection of its own (the
    parent's is not shared across a fork), opened for its first run."""

    def __init__(self, spec: str, rows: list[GameRow], retype: bool) -> None:
        self.spec, self.rows, self.retype = spec, rows, retype
        self.store: Store | None = None

    def run(self, indexes: range) -> list[str]:
        """In a worker: the problems of a run of games, in order."""
        if self.store is None:
            self.store = open_store(self.spec)
        return _verify_rows(self.store, [self.rows[i] for i in indexes], self.retype)


def _verify_rows(store: Store, rows: Sequence[GameRow], retype: bool = False) -> list[str]:
    out = []
    for k in range(0, len(rows), READ_GAMES):
        run = rows[k:k + READ_GAMES]
        hands = _active_hands(store, [row.id for row in run])
        with gc_paused():
            for row in run:
                out += _verify_game(row, hands.get(row.id, []), retype)
    return out


# n, then the stored texts of typed, hand, points, breakdown, events and state
StoredHand = tuple[int, str, str, str, str, str, str]


_COMPARED = ("points", "breakdown", "events", "state")  # a hand's columns made by scoring it


def _active_hands(store: Store, ids: list[int]) -> dict[int, list[StoredHand]]:
    """Each active hand of these games, in order, as stored: one statement for a run of games (a round
    trip each on a server). The texts are parsed only where needed: a replayed value is compared
    with a stored one by its text first."""
    out: dict[int, list[StoredHand]] = {}
    marks = ", ".join("?" for _ in ids)
    for gid, n, typed, hand, points, breakdown, events, state in store.db.execute(
            "SELECT game_id, n, typed, hand, points, breakdown, events, state FROM hands"
            f" WHERE status = 'active' AND game_id IN ({marks}) ORDER BY game_id, n", ids):
        out.setdefault(gid, []).append((n, typed, hand, points, breakdown, events, state))
    return out


def _damaged_rows(store: Store) -> list[str]:
    """The rows that no replay reads, not of the shape scorepad writes (an export would refuse them):
    hands undone or replaced, audit entries, bids written down. One line each, by game and hand."""
    out = []
    kinds = dict(JSON_COLUMNS["hands"])
    for gid, n, *texts in store.db.execute(
            "SELECT game_id, n, typed, hand, points, breakdown, events, state FROM hands WHERE status <> 'active'"
            " ORDER BY game_id, n"):
        try:
            hand_values(gid, n, tuple(texts))
        except DamagedRow as exc:
            out.append(exc.problems[0])
    for gid, hand_n, detail in store.db.execute("SELECT game_id, hand_n, detail FROM audit ORDER BY id"):
        said = column_problem(detail, "detail", "object")
        if said is not None:
            out.append(_("{where}: {problem} (in its audit trail)").format(where=where(abs(gid), hand_n), problem=said))
    for gid, typed in store.db.execute("SELECT game_id, typed FROM pending_bids ORDER BY game_id"):
        said = column_problem(typed, "bid", kinds["typed"])
        if said is not None:
            out.append(_("{where}: {problem}").format(where=where(gid), problem=said))
    return out


def _verify_game(row: GameRow, hands: list[StoredHand], retype: bool = False) -> list[str]:
    problems = []
    if row.damaged is not None:
        problems.append(_("game {id}: its cached totals are damaged ({value}); they are read from its last "
                          "hand until the next hand is recorded").format(id=row.id, value=row.damaged))
    numbers = [h[0] for h in hands]
    if numbers != list(range(1, len(hands) + 1)):
        problems.append(_("game {id}: its active hands are numbered {value}; they must be 1, 2, 3 ... once "
                          "each").format(id=row.id, value=numbers[:10]))
    try:
        game = game_of(row)

        check_translations(game.ruleset)   # every language's texts, as when the game began
        state = initial_state(game)
        named = False  # a hand of this game named already: only the first (an altered ruleset changes them all)
        for n, typed, hand_text, *stored in hands:
            if state["finished"]:
                problems.append(_("game {id}: hand {n} follows the end of the game").format(id=row.id, n=n))
                return problems
            try:
                hand = loads(hand_text)
            except (ValueError, RecursionError):
                hand = None
            if type(hand) is not dict:
                problems.append(_("game {id}: hand {n}: the stored values are not a JSON table").format(
                    id=row.id, n=n))
                return problems
            said = None if retype else column_problem(typed, "typed", "array")   # an export writes it
            if said is not None:
                problems.append(_("{where}: {problem}").format(where=where(row.id, n), problem=said))
                return problems
            if retype and not named:
                wrong = _retyped(game, state, typed, hand_text, row.id, n)
                if wrong is not None:
                    problems.append(wrong)
                    named = True
            result = apply_hand(game, state, hand)
            if not named:
                wrong = _replays_differ(game, row.id, n, hand, result, stored)
                if wrong is not None:
                    problems.append(wrong)
                    named = True
            state = result.state
        if row.state.get("finished") and not state["finished"]:
            replayed_finish = finish_game(game, state).state
            state = replayed_finish
        if canonical_json(state) != canonical_json(row.state):
            problems.append(_("game {id}: the cached totals differ from a replay ({value} stored, {value2} "
                               "replayed)").format(
                                id=row.id, value=[s['score'] for s in row.state['sides']],
                                value2=[s['score'] for s in state['sides']]))
    except ScorepadError as exc:
        problems.append(_("game {id}: cannot be replayed: {message}").format(id=row.id, message=shown(exc.message)))
    return problems


def _replays_differ(game: Game, gid: int, n: int, hand: dict[str, Any], result: Any,
                    stored: Sequence[str]) -> str | None:
    """What differs between hand n as stored and as replayed (a damaged column named as such); None: nothing.
    A breakdown line or an event stored as words (before schema 8 or 9, words naming no single line or
    message) is compared by its words."""
    replayed = hand_row(n, [], hand, result, "-")
    differ = [key for key, text in zip(_COMPARED, stored, strict=True)
              if not same_as_stored(getattr(replayed, key), text)
              and not (key == "breakdown" and same_breakdown_text(game, result, text))
              and not (key == "events" and same_events_text(result, text))]
    if not differ:
        return None
    said = next((p for key, text in zip(_COMPARED, stored, strict=True) if key in differ
                 and (p := column_problem(text, key, dict(JSON_COLUMNS["hands"])[key]))), None)
    if said is not None:
        return _("{where}: {problem}").format(where=where(gid, n), problem=said)
    return _("game {id}: hand {n} does not replay to its stored {values}").format(
        id=gid, n=n, values=", ".join(differ))


def _retyped(game: Game, state: Any, typed_text: str, hand_text: str, gid: int, n: int) -> str | None:
    """What is wrong with hand n's typed text: typed again (`typed_again`, as `import` types it), it
    must give the values stored with it. None: it does."""
    try:
        typed = loads(typed_text)
    except (ValueError, RecursionError):
        typed = typed_text  # not JSON: its shape says what it is not
    said = scan(typed, "typed")
    if not said:
        checked(TYPED, typed, "typed", said)
    try:
        if not said and not same_as_stored(typed_again(game, state, typed), hand_text):
            return _("game {id}: hand {n}: its typed text ({typed}) does not give the values stored with "
                     "it").format(id=gid, n=n, typed=" ".join(typed))
    except ScorepadError as exc:
        said = [exc.message]
    if not said:
        return None
    return _("game {id}: hand {n}: its typed text does not type: {message}").format(id=gid, n=n,
                                                                                   message=shown(said[0]))
