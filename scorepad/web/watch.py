"""Noticing that the database changed, whoever changed it: a terminal's `hand`, `play`, `use`, `rematch`.

One thread of the server asks its own connection one cheap question about ten times a second and
wakes the event streams when the answer changes. SQLite: `PRAGMA data_version`, a counter of commits
by other connections that SQLite keeps in memory (no table is read). PostgreSQL: the games' count and
the sum of their versions (every hand, undo, edit, bid and finish raises a game's version) and the
server's current game, one indexed query; LISTEN/NOTIFY would need a trigger in the club's schema and
a connection that waits on its socket, for an answer a tenth of a second sooner.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

from scorepad.errors import ScorepadError
from scorepad.store.choice import open_store

POLL_SECONDS = 0.1


class Changes:
    """A counter of changes seen, that the event streams wait on (in the server's event loop)."""

    def __init__(self) -> None:
        self.generation = 0
        self._event = asyncio.Event()

    def bump(self) -> None:
        self.generation += 1
        event, self._event = self._event, asyncio.Event()
        event.set()

    async def after(self, seen: int) -> int:
        """The generation once it is past `seen`."""
        while self.generation == seen:
            await self._event.wait()
        return self.generation


def stamp(store: Any) -> tuple[Any, ...]:
    """What changes whenever anything the page shows changes (see the module's docstring)."""
    if not store.server:
        return tuple(store.db.execute("PRAGMA data_version").fetchone())
    row = store.db.execute("SELECT count(*), coalesce(sum(version), 0) FROM games").fetchone()
    return (*row, store.get_meta("current_game"))


class Watcher:
    """The polling thread: its own store connection, opened and used in that thread only."""

    def __init__(self, spec: str | None, changed: Callable[[], None], poll: float = POLL_SECONDS) -> None:
        self.spec, self.changed, self.poll = spec, changed, poll
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="scorepad-watch", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        store = open_store(self.spec)
        try:
            last = stamp(store)
            while not self._stop.wait(self.poll):
                try:
                    now = stamp(store)
                except ScorepadError:
                    continue   # a server that went away for a moment: asked again at the next tick
                if now != last:
                    last = now
                    self.changed()
        finally:
            store.close()
