"""The scorer's JSON API of `scorepad serve --scorer`: `POST /s/TOKEN2/api/hand` answers exactly what
`scorepad hand --json` prints, a refused hand is 422 with `hand`'s sentences and nothing stored, a key
stores one hand however often it is sent, `api/bid` writes a bid as `scorepad bid` does; and only the
scorer's token, from no browser or the page's own origin, with a small body, writes."""

from __future__ import annotations

import http.client
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tests.conftest import Run, dump_any
from tests.web.serving import serving
from tests.web.test_scorer import scorer_url


def post_json(url: str, body: Any, headers: dict[str, str] | None = None) -> tuple[int, str]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=20)
    try:
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        conn.request("POST", parts.path, body=raw, headers={"Content-Type": "application/json", **(headers or {})})
        response = conn.getresponse()
        return response.status, response.read().decode()
    finally:
        conn.close()


def refusal_lines(answer: str) -> list[str]:
    """The refusal answered, as the lines `hand` prints it on stderr."""
    data = json.loads(answer)
    return [f"error: {data['error']}", *(f"  - {p}" for p in data["problems"])]


def test_the_api_stores_the_hand_hand_stores_and_answers_its_json(cli: Callable[..., Run], db: Path) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    with serving("--scorer") as served:
        api = scorer_url(served.first_lines, served.process) + "api/"
        status, answer = post_json(api + "hand", {"assignments": ["bid=4,3,3,3", "tricks=5,3,3,2"], "key": "k-1"})
        assert status == 200, answer
        assert answer == json.dumps(json.loads(answer), ensure_ascii=False, indent=2) + "\n"
        # the repeat of a write (a lost answer, a retry) stores nothing more and answers the same hand
        again = post_json(api + "hand", {"assignments": ["bid=4,3,3,3", "tricks=5,3,3,2"], "key": "k-1"})
        assert again == (200, answer)
        assert json.loads(cli("standings", "--json").out)["hands"] == 1
        # the same hand typed with `hand --json` in a game that stands as this one stood
        assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
        by_cli = cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2", "--json")
        assert by_cli.code == 0
        mine, theirs = json.loads(answer), json.loads(by_cli.out)
        assert mine["standings"].pop("game") == "1" and theirs["standings"].pop("game") == "2"
        assert mine == theirs
        # the spelling of the same list, and a version to check (the page follows game 2 now)
        version = json.loads(cli("standings", "--json").out)["version"]
        status, answer = post_json(api + "hand", {"typed": ["bid=2,3,4,4", "tricks=2,3,4,4"], "expect": version - 1})
        assert status == 409 and f"changed since version {version - 1}" in json.loads(answer)["error"], answer
        status, answer = post_json(api + "hand", {"typed": ["bid=2,3,4,4", "tricks=2,3,4,4"], "expect": version})
        assert status == 200 and json.loads(answer)["hand"] == 2, answer
        assert json.loads(cli("standings", "--json", "--game", "1").out)["hands"] == 1


def test_a_refused_hand_is_422_with_the_sentences_of_hand_and_nothing_stored(cli: Callable[..., Run], db: Path) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    refused = [["bid=4,3,3,3", "tricks=5,3,3,3"], ["bid=4,3,3", "tricks=5,3,3,2"], ["bid=4,3,3,3"],
               ["colour=red", "bid=4,3,3,3", "tricks=5,3,3,2"]]
    said = []
    for typed in refused:
        run = cli("hand", *typed, "--json")
        assert run.code == 2, run
        said.append(run.err.rstrip("\n").splitlines())
    before = dump_any(str(db))
    with serving("--scorer") as served:
        api = scorer_url(served.first_lines, served.process) + "api/"
        for typed, lines in zip(refused, said, strict=True):
            status, answer = post_json(api + "hand", {"assignments": typed, "key": "same"})
            assert status == 422, answer
            assert refusal_lines(answer) == lines
        for body in (b"not json", b"[1, 2]", {"assignments": "bid=4,3,3,3"}, {"assignments": [1]},
                     {"hand": ["bid=4,3,3,3"]}, {"assignments": ["tricks=5,3,3,2"], "expect": "one"},
                     {"assignments": ["tricks=5,3,3,2"], "key": ""}, "\ud800".encode("utf-8", "surrogatepass")):
            status, answer = post_json(api + "hand", body)
            assert status == 422 and json.loads(answer)["error"], (body, answer)
        assert dump_any(str(db)) == before


def test_a_bid_by_the_api_is_what_bid_writes_down(cli: Callable[..., Run], db: Path) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    with serving("--scorer") as served:
        api = scorer_url(served.first_lines, served.process) + "api/"
        status, answer = post_json(api + "bid", {"assignments": ["bid=4,3,3,3"]})
        assert status == 200, answer
        data = json.loads(answer)
        assert data["hand"] == 1 and data["bid"] == ["bid=4,3,3,3"] and data["replaced"] is None
        assert json.loads(cli("standings", "--json").out)["bid"] == ["bid=4,3,3,3"]
        before = dump_any(str(db))
        status, answer = post_json(api + "bid", {"assignments": ["bid=4,3,3"]})   # refused as `bid` refuses it
        cli_said = cli("bid", "bid=4,3,3")
        assert status == 422 and cli_said.code == 2
        assert refusal_lines(answer) == cli_said.err.rstrip("\n").splitlines()
        assert dump_any(str(db)) == before
        status, answer = post_json(api + "hand", {"assignments": ["tricks=5,3,3,2"]})   # `hand` completes it
        assert status == 200 and json.loads(answer)["sides"][0]["points"] == 71, answer


def test_who_may_write_through_the_api(cli: Callable[..., Run], db: Path) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    before = dump_any(str(db))
    hand = {"assignments": ["bid=4,3,3,3", "tricks=5,3,3,2"]}
    with serving("--scorer") as served:
        scorer = scorer_url(served.first_lines, served.process)
        token = served.url.split("/t/")[1].rstrip("/")
        assert post_json(served.origin + f"/s/{token}/api/hand", hand)[0] == 404   # the viewer's token
        assert post_json(served.origin + f"/s/{token}/api/bid", {"assignments": ["bid=4,3,3,3"]})[0] == 404
        assert post_json(served.url + "api/hand", hand)[0] in (404, 405)
        assert post_json(scorer + "api/hand", hand, {"Origin": "http://evil.example"})[0] == 403
        assert post_json(scorer + "api/hand", hand, {"Sec-Fetch-Site": "cross-site"})[0] == 403
        assert post_json(scorer + "api/bid", {"assignments": ["bid=4,3,3,3"]}, {"Origin": "http://evil.example"})[0] == 403
        big = {"assignments": ["bid=4,3,3,3", "tricks=5,3,3,2"], "key": "x" * 70000}
        assert post_json(scorer + "api/hand", big)[0] == 413
        assert dump_any(str(db)) == before
        # the page's own origin, as a script on the scorer's page would send it
        status, _answer = post_json(scorer + "api/hand", hand, {"Origin": served.origin, "Sec-Fetch-Site": "same-origin"})
        assert status == 200
    assert json.loads(cli("standings", "--json").out)["hands"] == 1
