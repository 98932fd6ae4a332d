"""The scorer's form of `scorepad serve --scorer`: a hand typed in the form is stored as `hand` stores
it (the same points), a double tap stores one hand, a refused hand says `hand`'s message with nothing
stored, undo takes back the last hand, and only the scorer's token on a request from its own page writes."""

from __future__ import annotations

import http.client
import json
import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from tests.conftest import Run, dump
from tests.web.serving import get, serving


def post(url: str, fields: dict[str, str], headers: dict[str, str] | None = None) -> tuple[int, str]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=20)
    try:
        conn.request("POST", parts.path, body=urlencode(fields),
                     headers={"Content-Type": "application/x-www-form-urlencoded", **(headers or {})})
        response = conn.getresponse()
        return response.status, response.read().decode()
    finally:
        conn.close()


def form_of(page: str) -> dict[str, str]:
    """The hidden fields of the hand form on the page (its key and the version shown)."""
    form = page[page.index('class="hand-form"'):]
    return dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', form[:form.index("</form>")]))


def scorer_url(served_lines: list[str], process: object) -> str:
    line = process.stdout.readline().rstrip("\n")  # type: ignore[attr-defined]
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/s/[A-Za-z0-9_-]{22}/", line), line
    return line


def test_a_hand_from_the_form_is_what_hand_stores(cli: Callable[..., Run], db: Path, tmp_path: Path,
                                                  monkeypatch: object) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    with serving("--scorer") as served:
        scorer = scorer_url(served.first_lines, served.process)
        assert served.url.split("/t/")[1] != scorer.split("/s/")[1]
        status, _h, page = get(scorer)
        assert status == 200
        hidden = form_of(page)
        fields = {"v.bid.0": "4", "v.bid.1": "3", "v.bid.2": "3", "v.bid.3": "3",
                  "v.tricks.0": "5", "v.tricks.1": "3", "v.tricks.2": "3", "v.tricks.3": "2", **hidden}
        same_site = {"Origin": served.origin, "Sec-Fetch-Site": "same-origin"}
        status, page = post(scorer + "hand", fields, same_site)   # checked: the summary, nothing stored yet
        assert status == 200 and "= ann+cat: +71 (contract +70, bags +1)" in page, page
        assert json.loads(cli("standings", "--json").out)["hands"] == 0
        fields = {**fields, **form_of(page), "do": "record"}
        status, page = post(scorer + "hand", fields, same_site)
        assert status == 200 and "Hand 1: ann+cat +71, bob+dan -60" in page, page
        assert post(scorer + "hand", fields, same_site)[0] == 200   # the double tap: the same key
        by_form = json.loads(cli("standings", "--json").out)
        assert by_form["hands"] == 1
        # the same hand typed with `hand` in another game scores the same
        assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
        assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
        by_cli = json.loads(cli("standings", "--json").out)
        assert [s["score"] for s in by_form["sides"]] == [s["score"] for s in by_cli["sides"]] == [71, -60]


def test_a_refused_hand_says_what_hand_says_and_stores_nothing(cli: Callable[..., Run], db: Path) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    refused = cli("hand", "bid=4,3,3,3", "tricks=5,3,3,3")
    assert refused.code == 2
    message = refused.err.removeprefix("error: ").strip().splitlines()[0]
    russian = cli("--lang", "ru", "hand", "bid=4,3,3,3", "tricks=5,3,3,3").err.strip().splitlines()[0].split(": ", 1)[1]
    before = dump(db)
    with serving("--scorer") as served:
        scorer = scorer_url(served.first_lines, served.process)
        hidden = form_of(get(scorer)[2])
        fields = {**{f"v.bid.{i}": v for i, v in enumerate("4333")}, **{f"v.tricks.{i}": v for i, v in enumerate("5333")},
                  **hidden}
        status, page = post(scorer + "hand", fields)
        assert status == 422
        assert message.replace("'", "&#x27;").replace('"', "&quot;") in page, (message, page)
        assert 'value="5"' in page   # what was typed is kept for the next try
        assert dump(db) == before
        # a Russian phone: the refusal `scorepad --lang ru hand` prints
        status, page_ru = post(scorer + "hand", fields, {"Accept-Language": "ru"})
        assert status == 422 and '<html lang="ru">' in page_ru
        assert russian.replace("'", "&#x27;").replace('"', "&quot;") in page_ru, (russian, page_ru)
    assert dump(db) == before


def test_undo_and_who_may_write(cli: Callable[..., Run], db: Path) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    with serving("--scorer") as served:
        scorer = scorer_url(served.first_lines, served.process)
        token = served.url.split("/t/")[1].rstrip("/")
        viewer_as_scorer = served.origin + f"/s/{token}/"
        assert get(viewer_as_scorer)[0] == 404
        assert post(viewer_as_scorer + "undo", {"expect": "2"})[0] == 404
        assert post(served.url + "undo", {"expect": "2"})[0] in (404, 405)
        assert post(scorer + "undo", {"expect": "2"}, {"Origin": "http://evil.example"})[0] == 403
        assert post(scorer + "undo", {"expect": "2"}, {"Sec-Fetch-Site": "cross-site"})[0] == 403
        assert post(scorer + "undo", {"x": "y" * 70000})[0] == 413
        assert json.loads(cli("standings", "--json").out)["hands"] == 1
        version = json.loads(cli("standings", "--json").out)["version"]
        status, page = post(scorer + "undo", {"expect": str(version - 1)})   # a page shown before the game moved
        assert status == 422 and json.loads(cli("standings", "--json").out)["hands"] == 1
        status, page = post(scorer + "undo", {"expect": str(version)})
        assert status == 200 and "Hand 1: undo" in page
        assert json.loads(cli("standings", "--json").out)["hands"] == 0
    with serving() as plain:   # without --scorer there is no scorer's page at all
        assert plain.process.stdout is not None
        assert not plain.process.stdout.readline().startswith("http")
