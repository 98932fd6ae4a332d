"""`scorepad serve` as people at the table meet it: its address and QR code, the page's JSON equal to
`standings --json`, 404 for any path without the token, a hand typed at a terminal on every open
page within a second (SQLite and PostgreSQL), two readers answered in two languages at once, Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.conftest import Run
from tests.web.serving import Stream, get, serving


def test_the_first_line_is_the_address_then_its_qr_code(cli: Callable[..., Run]) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    with serving() as served:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/t/[A-Za-z0-9_-]{22}/", served.url)
        assert served.process.stdout is not None
        qr = [served.process.stdout.readline() for _ in range(5)]
        assert all("█" in line or "▀" in line or "▄" in line for line in qr[1:4]), qr
    with serving() as again:
        assert again.url.split("/t/")[1] != served.url.split("/t/")[1]   # a new token at each start


def test_the_api_is_exactly_standings_json(acli: Callable[..., Run]) -> None:
    assert acli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert acli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert acli("bid", "bid=2,4,3,4").code == 0   # a bid written down shows in both
    want = acli("standings", "--json").out
    with serving() as served:
        status, headers, body = get(served.url + "api/standings", {"Accept-Language": "ru"})
    assert status == 200 and headers["content-type"] == "application/json"
    assert body == want
    assert json.loads(body)["bid"] == ["bid=2,4,3,4"]


def test_every_path_without_the_token_is_404(cli: Callable[..., Run]) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    with serving() as served:
        token = served.url.split("/t/")[1].rstrip("/")
        wrong = token[:-1] + ("A" if token[-1] != "A" else "B")
        assert get(served.url)[0] == 200
        for path in ("/", "/t/", f"/t/{wrong}/", f"/t/{wrong}/api/standings", f"/t/{wrong}/events",
                     f"/t/{wrong}/live.js", f"/t/{token}", f"/t/{token}/nothing", f"/s/{token}/", f"/{token}/",
                     "/favicon.ico", f"/t/{token.upper()}/"):
            status, _headers, body = get(served.origin + path)
            assert status == 404, path
            assert token not in body


def test_the_page_is_safe_and_its_texts_escaped(cli: Callable[..., Run]) -> None:
    assert cli("new", "skid", "<script>alert(1)</script>", "bob & co").code == 0
    assert cli("hand", "out=bob & co", "<script>alert(1)</script>.cards=QS JH JD JC JS").code == 0
    with serving() as served:
        status, headers, page = get(served.url)
    assert status == 200
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "bob &amp; co" in page
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "same-origin" and headers["x-content-type-options"] == "nosniff"
    assert "<script>" not in page.replace('<script src="live.js" defer></script>', "")   # no inline script


def _page_event(stream: Stream) -> tuple[float, str]:
    while True:
        at, name, data = stream.next()
        if name == "page":
            return at, data


def test_a_hand_typed_at_a_terminal_reaches_every_stream_within_a_second(acli: Callable[..., Run]) -> None:
    assert acli("new", "spades", "ann", "bob", "cat", "dan", "--opt", "target=100").code == 0
    with serving() as served:
        streams = [Stream(served.url + "events"), Stream(served.url + "events", {"Accept-Language": "et"})]
        try:
            for s in streams:
                data = _page_event(s)[1]
                assert "Game 1" in data or "Mäng 1" in data, data
            typed = time.monotonic()
            assert acli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
            for s in streams:
                at, data = _page_event(s)
                assert at - typed < 1.0, at - typed
                assert ">71<" in data and ">-60<" in data, data
            # the game ends: the page names the winner
            assert acli("hand", "bid=6,3,6,3", "tricks=7,0,6,0").code == 0
            assert "Finished: ann+cat won" in _page_event(streams[0])[1]
            assert "Lõppenud: võitis ann+cat" in _page_event(streams[1])[1]
            # a rematch (or `use`) moves the page to the new game
            typed = time.monotonic()
            assert acli("rematch").code == 0
            for s in streams:
                at, data = _page_event(s)
                assert at - typed < 1.0
                assert "Game 2" in data or "Mäng 2" in data, data
        finally:
            for s in streams:
                s.close()


def test_two_readers_in_two_languages_at_once(cli: Callable[..., Run]) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    words = {"ru": "Последние раздачи", "et": "Viimased jagamised", "en": "Last hands", "uk": "Останні роздачі"}
    with serving() as served:
        def read(lang: str) -> tuple[str, str]:
            header = {"ru": "ru-RU,ru;q=0.9,en;q=0.5", "et": "et,en;q=0.8", "en": "de-DE,en;q=0.7",
                      "uk": "fr;q=0.9, uk;q=0.95"}[lang]
            status, _headers, page = get(served.url, {"Accept-Language": header})
            assert status == 200
            return lang, page

        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(read, ["ru", "et", "en", "uk"] * 10))
        # the stream of a Russian reader is Russian too
        stream = Stream(served.url + "events", {"Accept-Language": "ru"})
        try:
            assert words["ru"] in _page_event(stream)[1]
        finally:
            stream.close()
    for lang, page in answers:
        assert f'<html lang="{lang}">' in page
        assert words[lang] in page, lang
        assert all(w not in page for other, w in words.items() if other != lang)


def test_lang_given_to_serve_speaks_to_every_reader(cli: Callable[..., Run]) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    with serving("--lang", "uk") as served:
        page = get(served.url, {"Accept-Language": "ru"})[2]
    assert '<html lang="uk">' in page


def test_keep_tokens_keeps_the_address(cli: Callable[..., Run], tmp_path: Path) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    with serving("--keep-tokens") as first:
        pass
    with serving("--keep-tokens") as second:
        assert get(second.url)[0] == 200
    assert first.url.split("/t/")[1] == second.url.split("/t/")[1]
    assert cli("config", "list").code == 0   # the config it wrote is a valid one


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scorepad", "serve", *args], capture_output=True, text=True,
                          timeout=30, env=dict(os.environ))


def test_a_port_in_use_or_a_game_not_there_is_a_sentence(cli: Callable[..., Run]) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        run = _run("--port", str(taken.getsockname()[1]))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("error: port ") and "in use" in run.stderr and "Traceback" not in run.stderr
    run = _run("--game", "no-such-game")
    assert run.returncode == 2 and "no game called 'no-such-game'" in run.stderr and run.stdout == ""
    run = _run("--port", "70000")
    assert run.returncode == 2 and "--port" in run.stderr


def test_every_network_is_said_with_a_warning(cli: Callable[..., Run]) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    with serving("--host", "0.0.0.0") as served:
        host, rest = served.url.removeprefix("http://").split(":", 1)
        assert host != "0.0.0.0"   # the address a phone can reach: the machine's own on its network
        assert get(f"http://127.0.0.1:{rest}")[0] == 200
    assert served.process.stderr is not None
    err = served.process.stderr.read().splitlines()
    assert len(err) == 1 and err[0].startswith("warning: listening on every network"), err


def test_ctrl_c_stops_it_with_a_page_open(cli: Callable[..., Run]) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    with serving(stop=False) as served:
        stream = Stream(served.url + "events")
        _page_event(stream)
        started = time.monotonic()
        served.process.send_signal(__import__("signal").SIGINT)
        code = served.process.wait(timeout=15)
        stream.close()
    assert code == 0 and time.monotonic() - started < 5
    assert served.process.stderr is not None and "Traceback" not in served.process.stderr.read()


@pytest.mark.parametrize("header,want", [("ru-RU,ru;q=0.9", "ru"), ("de,et;q=0.5", "et"), ("en;q=0.1, uk", "uk"),
                                         ("uk;q=0, ru;q=0.2", "ru"), ("zz", None), ("", None), ("et;q=x, ru", "ru")])
def test_accept_language_read(header: str, want: str | None) -> None:
    from scorepad.web.language import accepted

    assert accepted(header) == want
