"""The scorer's JSON API and the live updates on each store (a club's PostgreSQL database as well as a
file): a hand posted to `/s/TOKEN2/api/hand` is what `hand --json` prints, `/t/TOKEN/api/standings`
is `standings --json`, a refused hand is 422 with nothing stored, and an open event stream sees a
hand typed at a terminal within a second."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from tests.conftest import Run, dump_any
from tests.web.serving import Stream, get, serving
from tests.web.test_api import post_json, refusal_lines
from tests.web.test_scorer import scorer_url


def page_event(stream: Stream) -> tuple[float, str]:
    while True:
        at, name, data = stream.next()
        if name == "page":
            return at, data


def test_the_api_and_the_live_page_on_each_store(acli: Callable[..., Run], anydb: str) -> None:
    assert acli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert acli("new", "spades", "ann", "bob", "cat", "dan").code == 0   # game 2, current: the same start
    with serving("--scorer") as served:
        api = scorer_url(served.first_lines, served.process) + "api/"
        status, answer = post_json(api + "hand", {"typed": ["bid=4,3,3,3", "tricks=5,3,3,2"], "key": "pg-1"})
        assert status == 200, answer
        assert post_json(api + "hand", {"typed": ["bid=4,3,3,3", "tricks=5,3,3,2"], "key": "pg-1"}) == (200, answer)
        # the same hand typed at a terminal into game 1, which stood as game 2 stood
        assert acli("use", "1").code == 0
        by_cli = acli("hand", "bid=4,3,3,3", "tricks=5,3,3,2", "--json")
        assert by_cli.code == 0, by_cli
        mine, theirs = json.loads(answer), json.loads(by_cli.out)
        assert mine["standings"].pop("game") == "2" and theirs["standings"].pop("game") == "1"
        assert mine == theirs
        # the page follows game 1 now: its JSON is what `standings --json` prints
        status, _headers, body = get(served.url + "api/standings")
        assert status == 200 and body == acli("standings", "--json").out
        # a refused hand: 422, the sentences `hand` prints, nothing stored
        said = acli("hand", "bid=4,3,3,3", "tricks=5,3,3,3")
        assert said.code == 2
        before = dump_any(anydb)
        status, refused = post_json(api + "hand", {"typed": ["bid=4,3,3,3", "tricks=5,3,3,3"], "key": "pg-2"})
        assert status == 422 and refusal_lines(refused) == said.err.rstrip("\n").splitlines(), refused
        assert dump_any(anydb) == before
        # an open page sees a hand typed at a terminal within a second
        stream = Stream(served.url + "events")
        try:
            assert "Game 1" in page_event(stream)[1]
            typed = time.monotonic()
            assert acli("hand", "bid=2,3,4,4", "tricks=2,3,4,4").code == 0
            at, data = page_event(stream)
            assert at - typed < 1.0, at - typed
            assert "after 2 hands" in data, data
        finally:
            stream.close()
