"""A write whose answer may not arrive: what the store did is asked again before anything is offered again.

A write is sent, then the answer to its COMMIT is read. If the connection is lost in between, or the
person presses Ctrl-C then, the write may or may not be stored. So every write of a hand carries an
idempotency key (each front end makes one per hand), and every other change (undo, redo, edit, finish)
the version of the game it acts on and a key written into its audit entry. After a lost answer the
store is asked again, holding the game so that a write still on its way has ended first: the hand (or
the change) is then reported as stored, or as not stored; only when the store cannot be reached at all
is the person told that it may have been stored, with the command that repeats it safely.

A Ctrl-C while the commit's answer is on its way waits for that answer (the write is then reported as
it ended); a second Ctrl-C does not wait, and the write is reported as one that may have been stored.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from scorepad.errors import StoreError, StoreUnreachable
from scorepad.locale import _
from scorepad.store import GameRow, Store


class MaybeStored(StoreUnreachable):
    """A write whose answer never came: it may have been stored; the message says how to repeat it safely."""


def new_key() -> str:
    """An idempotency key for one write (a hand, or a change of a game): 128 random bits in hex (os.urandom:
    `secrets` and `uuid` would cost the quick route their imports)."""
    return os.urandom(16).hex()


class CommitHeld:
    """While active: a first Ctrl-C is held until the commit's answer has come; a second one is not."""

    def __init__(self) -> None:
        self.reached = False       # the commit was sent: from here on, a lost answer leaves it unknown
        self.interrupted = False

    @contextmanager
    def holding(self) -> Iterator[None]:
        self.reached = True
        if threading.current_thread() is not threading.main_thread():
            yield   # signals reach the main thread only; a server's worker thread has none to hold
            return

        def later(_signum: int, _frame: Any) -> None:
            if self.interrupted:
                raise KeyboardInterrupt   # a second Ctrl-C: the person will not wait for the answer
            self.interrupted = True

        previous = signal.signal(signal.SIGINT, later)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)


def key_written(store: Store, game_id: int, key: str) -> tuple[int, int] | None:
    """After a lost answer: (game, hand) written with `key`, or None. The game is held first, so a
    write of it still on its way (its COMMIT sent, its answer lost) has ended before the key is read."""
    with store.write() as db:
        store.lock_game(db, game_id)
        return store.written(db, key)


def change_done(store: Store, row: GameRow, key: str) -> bool | None:
    """After a lost answer to a change of the game `row` showed: True when the change was stored (the
    audit trail's newest entry carries `key`), False when the game is still at `row`'s version (nothing
    was stored), None when the game was changed by someone else meanwhile."""
    with store.write() as db:
        store.lock_game(db, row.id)
    fresh = store.game(row.id)
    if fresh.version == row.version:
        return False
    trail = store.audit(row.id)
    if trail and trail[-1]["detail"].get("key") == key:
        return True
    return None


def hand_unknown(exc: StoreError, key: str, typed: str) -> MaybeStored:
    """The sentence for a hand whose answer was lost and whose store cannot be asked again."""
    return MaybeStored(_("{error}; the hand may have been stored: `scorepad hand --key {key} {typed}` repeats it "
                         "safely (a hand stored already is not stored again)").format(
                             error=exc.message, key=key, typed=typed))


def change_unknown(exc: StoreError, what: str, version: int, again: str) -> MaybeStored:
    """The sentence for a change (undo, redo, edit, finish) whose answer was lost and cannot be asked again."""
    return MaybeStored(_("{error}; the {what} may have been done: `{again} --expect {version}` repeats it safely "
                         "(it is refused if the game changed since version {version})").format(
                             error=exc.message, what=what, version=version, again=again))
