"""What the page shows, read for one request in its reader's language with its own store connection:
the standings (as `standings --json`), the sheet, and the page's live part written from them.

Called in a worker thread (SQLite connections stay in the thread that opened them), once per change
and language however many pages are open: `Renders` shares one rendering among the streams."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

from scorepad.app import games as play
from scorepad.errors import ScorepadError
from scorepad.locale import shown, speaking
from scorepad.store.choice import open_store
from scorepad.web.club import club_html, club_key
from scorepad.web.pages import live_html, nothing_html, title_of


@contextmanager
def opened(spec: str | None) -> Iterator[Any]:
    store = open_store(spec)
    try:
        yield store
    finally:
        store.close()


def standings_json(spec: str | None, game: str | None) -> str:
    """Exactly what `scorepad standings --json` prints for `game` (JSON output is English, as there)."""
    with opened(spec) as store, speaking(None):
        _row, data = play.standings_with_bid(store, game)
    return json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def game_exists(spec: str | None, game: str) -> bool:
    """Whether the club's database holds game `game` (a club page of any other number is 404)."""
    with opened(spec) as store:
        try:
            store.game(int(game))
        except ScorepadError:
            return False
    return True


def live_part(spec: str | None, game: str | None, lang: str, club: bool = False) -> tuple[tuple[Any, ...], str, str]:
    """(what it shows: game and version, the page's title, the live part's HTML) in `lang`; with `club`
    (serve without --game, on its home page) the club's games in progress and season table below."""
    with opened(spec) as store, speaking(lang):
        extra = club_html if club else None
        try:
            row, st = play.standings_with_bid(store, game)
            sheet = play.sheet(store, row)
        except ScorepadError as exc:   # no game yet, or GAME deleted: the page says so, in the reader's words
            message = shown(exc.message)
            if extra is None:
                return ("none", message), "scorepad", nothing_html(message)
            return ("none", message, club_key(store)), "scorepad", nothing_html(message) + extra(store, None)
        if extra is None:
            return (row.id, row.version), title_of(st), live_html(st, sheet)
        return ((row.id, row.version, club_key(store)), title_of(st),
                live_html(st, sheet) + extra(store, row.id))


Rendered = tuple[tuple[Any, ...], str, str]


class Renders:
    """One rendering per (change, language, page) for all the streams that wait on it: the page is None
    for the home page, else the id of the game whose own page it is (club mode's `g/ID/`)."""

    def __init__(self, render: Callable[[str, str | None], Awaitable[Rendered]]) -> None:
        self.render = render
        self._made: dict[tuple[int, str, str | None], asyncio.Task[Rendered]] = {}

    async def get(self, generation: int, lang: str, page: str | None = None) -> Rendered:
        key = (generation, lang, page)
        task = self._made.get(key)
        if task is None:
            for old in [k for k in self._made if k[0] < generation]:
                del self._made[old]   # a newer change makes the older renderings useless
            task = self._made[key] = asyncio.ensure_future(self.render(lang, page))
        try:
            return await asyncio.shield(task)
        except Exception:
            self._made.pop(key, None)   # a failed reading (a server gone for a moment) is tried again
            raise
