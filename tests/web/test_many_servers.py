"""Several `serve` processes on one database (one per room, or behind a reverse proxy) all see every
hand: two servers on two ports, hands recorded through each one's API and at a terminal, both event
streams see each within a second and both answer `standings --json` (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from tests.conftest import Run
from tests.web.serving import Stream, get, serving
from tests.web.test_api import post_json
from tests.web.test_scorer import scorer_url


def page_event(stream: Stream) -> tuple[float, str]:
    while True:
        at, name, data = stream.next()
        if name == "page":
            return at, data


def test_two_servers_on_one_database_see_every_hand(acli: Callable[..., Run]) -> None:
    assert acli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    with serving("--scorer") as one, serving("--scorer") as two:
        assert one.origin != two.origin
        apis = [scorer_url(one.first_lines, one.process) + "api/", scorer_url(two.first_lines, two.process) + "api/"]
        streams = [Stream(one.url + "events"), Stream(two.url + "events")]
        try:
            for s in streams:
                assert "after 0 hands" in page_event(s)[1]
            writes: list[Callable[[], None]] = [
                lambda: _posted(apis[0], ["bid=4,3,3,3", "tricks=5,3,3,2"]),
                lambda: _posted(apis[1], ["bid=2,3,4,4", "tricks=2,3,4,4"]),
                lambda: _typed(acli, ["bid=3,3,3,3", "tricks=4,3,3,3"])]
            for n, write in enumerate(writes, start=1):
                typed = time.monotonic()
                write()
                for s in streams:
                    at, data = page_event(s)
                    assert at - typed < 1.0, (n, at - typed)
                    assert f"after {n} hand" in data, (n, data)
            want = acli("standings", "--json").out
            assert json.loads(want)["hands"] == 3
            for served in (one, two):
                assert get(served.url + "api/standings")[2] == want
                # each server's club page lists the game with all three hands
                assert "· 3 hands" in get(served.url)[2]
        finally:
            for s in streams:
                s.close()


def _posted(api: str, typed: list[str]) -> None:
    status, answer = post_json(api + "hand", {"typed": typed})
    assert status == 200, answer


def _typed(acli: Callable[..., Run], typed: list[str]) -> None:
    assert acli("hand", *typed).code == 0
