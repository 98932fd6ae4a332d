"""Club mode: `serve` without `--game` shows the current game first, then the club's games in progress,
each opening to its own live page under the same token (`/t/TOKEN/g/ID/`), and the season table as
`season` counts it, all updated live; `serve --game` shows its game alone (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable

from tests.conftest import Run
from tests.web.serving import Stream, get, serving


def page_event(stream: Stream) -> tuple[float, str]:
    while True:
        at, name, data = stream.next()
        if name == "page":
            return at, data


def season_rows(page: str) -> list[tuple[str, str]]:
    """(player, games) of each leaderboard row in the page's season section."""
    section = page.split('id="season"', 1)[1]
    rows = re.findall(r'<td class="player" data-v="([^"]*)">.*?</td><td class="" data-v="[^"]*">[^<]*</td>'
                      r'<td class="" data-v="(\d+)">', section)
    return rows


def test_serve_without_game_shows_the_games_in_progress_and_the_season(acli: Callable[..., Run]) -> None:
    assert acli("new", "spades", "ann", "bob", "cat", "dan", "--opt", "target=100").code == 0
    assert acli("hand", "bid=6,3,6,3", "tricks=7,0,6,0").code == 0   # game 1 is over: ann+cat won
    assert acli("new", "skid", "<b>eve</b>", "fay", "--name", "Kitchen & co").code == 0   # game 2
    assert acli("new", "spades", "ann", "bob", "cat", "dan", "--opt", "target=100").code == 0   # game 3, current
    assert acli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    season = json.loads(acli("season", "--format", "json").out)
    with serving() as served:
        status, _headers, page = get(served.url)
        assert status == 200
        # the current game first, as before
        assert page.index("Game 3: Spades") < page.index("Games in progress")
        playing = page.split("Games in progress", 1)[1].split('id="season"', 1)[0]
        assert 'href="g/3/"' in playing and 'href="g/2/"' in playing and 'href="g/1/"' not in playing
        assert "ann+cat 71, bob+dan -60 · 1 hand" in playing
        assert "&lt;b&gt;eve&lt;/b&gt;" in playing and "Kitchen &amp; co" in playing and "<b>eve" not in page
        # the season table is what `season` counts: game 1's players, one game each
        assert season["games"] == 1
        want = sorted((r["player"], str(r["games"])) for r in season["rulesets"][0]["players"])
        assert sorted(season_rows(page)) == want
        # plain headings there: the season page's sorting script is not served with the live page
        season_part = page.split('id="season"', 1)[1]
        assert "<th" in season_part and "<button" not in season_part and "sortable" not in season_part
        # each game in progress opens to its own live page, with its own JSON and event stream
        status, _headers, game2 = get(served.url + "g/2/")
        assert status == 200 and "Kitchen &amp; co" in game2 and "Games in progress" not in game2
        assert get(served.url + "g/2/api/standings")[2] == acli("standings", "--json", "--game", "2").out
        assert get(served.url + "g/2/live.js")[0] == 200 and get(served.url + "g/x/")[0] == 404
        # a game the club does not hold has no page, its stream and JSON neither
        assert [get(served.url + f"g/9/{part}")[0] for part in ("", "api/standings", "events")] == [404] * 3
        home, own = Stream(served.url + "events"), Stream(served.url + "g/2/events")
        try:
            assert "Game 3" in page_event(home)[1] and "Kitchen" in page_event(own)[1]
            # a hand in game 2 reaches its own page and the home page's list
            typed = time.monotonic()
            assert acli("hand", "--game", "2", "out=fay", "<b>eve</b>.cards=QS JH").code == 0
            at, data = page_event(own)
            assert at - typed < 1.0 and "after 1 hand" in data, data
            at, data = page_event(home)
            assert at - typed < 1.0 and "· 1 hand" in data.split("Kitchen", 1)[1], data
            # game 3 ends: it leaves the games in progress and its players join the season table
            typed = time.monotonic()
            assert acli("hand", "bid=6,3,6,3", "tricks=7,0,6,0").code == 0
            at, data = page_event(home)
            assert at - typed < 1.0
            assert 'href="g/3/"' not in data and "Season " in data and ": 2 games" in data, data
        finally:
            home.close()
            own.close()


def test_serve_with_game_shows_that_game_alone(acli: Callable[..., Run]) -> None:
    assert acli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert acli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    with serving("--game", "1") as served:
        page = get(served.url)[2]
        assert "Game 1" in page and "Games in progress" not in page and 'id="season"' not in page
        assert get(served.url + "g/2/")[0] == 404
