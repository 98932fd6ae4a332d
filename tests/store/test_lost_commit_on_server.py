"""The answer to COMMIT lost on a real PostgreSQL connection: a proxy between scorepad and the server
passes the transaction (COMMIT included) to the server, then cuts the connection before the server's
answer comes back. The hand (or the undo) is stored on the server; scorepad must find that out and say
so, never store it twice, never take back a second hand."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import Run, store_spec


class CuttingProxy:
    """A TCP proxy to the server that, once armed, waits on a connection for the client's bytes holding
    `marker`, then for its COMMIT (in the same bytes or later ones), forwards that, and closes both sides
    without passing the server's answer on (one time)."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.marker: bytes | None = None
        self.cuts = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            cut = threading.Event()
            threading.Thread(target=self._up, args=(client, server, cut), daemon=True).start()
            threading.Thread(target=self._down, args=(server, client, cut), daemon=True).start()

    def _up(self, client: socket.socket, server: socket.socket, cut: threading.Event) -> None:
        seen = False   # this connection sent the marked statement
        with contextlib.suppress(OSError):
            while data := client.recv(65536):
                seen = seen or (self.marker is not None and self.marker in data)
                if seen and self.marker is not None and b"COMMIT" in data:
                    self.marker = None
                    cut.set()   # from here on the server's answer is dropped
                    server.sendall(data)
                    time.sleep(0.5)   # the server commits meanwhile
                    self.cuts += 1
                    break
                server.sendall(data)
        for s in (client, server):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def _down(self, server: socket.socket, client: socket.socket, cut: threading.Event) -> None:
        with contextlib.suppress(OSError):
            while data := server.recv(65536):
                if cut.is_set():
                    continue
                client.sendall(data)

    def close(self) -> None:
        self.listener.close()


@pytest.fixture
def through_proxy(tmp_path: Path, pg_admin: str | None) -> Iterator[tuple[str, str, CuttingProxy]]:
    with contextlib.ExitStack() as stack:
        direct = store_spec("postgres", tmp_path, pg_admin, stack)
        m = re.match(r"postgresql://[^@]*@([^:/]+):(\d+)/", direct)
        assert m is not None
        proxy = CuttingProxy(m[1], int(m[2]))
        stack.callback(proxy.close)
        yield direct, direct.replace(f"{m[1]}:{m[2]}/", f"127.0.0.1:{proxy.port}/", 1), proxy


def hands(cli: Callable[..., Run], db: str) -> int:
    return int(json.loads(cli("--db", db, "standings", "--json").out)["hands"])


def test_a_hand_whose_commit_answer_is_lost_is_stored_once(cli: Callable[..., Run],
                                                           through_proxy: tuple[str, str, CuttingProxy]) -> None:
    direct, proxied, proxy = through_proxy
    assert cli("--db", direct, "new", "spades", "ann", "bob", "cat", "dan").code == 0
    proxy.marker = b"INSERT INTO writes"
    r = cli("--db", proxied, "hand", "bid=4,3,3,3", "tricks=5,3,3,2")
    assert proxy.cuts == 1
    assert r.code == 0, r.err
    assert "Traceback" not in r.err
    assert hands(cli, direct) == 1


def test_an_undo_whose_commit_answer_is_lost_takes_back_one_hand(cli: Callable[..., Run],
                                                                 through_proxy: tuple[str, str, CuttingProxy]) -> None:
    direct, proxied, proxy = through_proxy
    assert cli("--db", direct, "new", "spades", "ann", "bob", "cat", "dan").code == 0
    cli("--db", direct, "hand", "bid=4,3,3,3", "tricks=5,3,3,2")
    cli("--db", direct, "hand", "bid=3,3,3,3", "tricks=4,3,3,3")
    version = json.loads(cli("--db", direct, "standings", "--json").out)["version"]
    proxy.marker = b"removed"
    r = cli("--db", proxied, "undo", "--expect", str(version))
    assert proxy.cuts == 1
    assert r.code == 0 and "Hand 2 removed" in r.out, r.err
    r = cli("--db", proxied, "undo", "--expect", str(version))   # the person repeats it, to be sure
    assert r.code == 1 and "nothing was stored" in r.err and "undo of hand 2" in r.err
    assert hands(cli, direct) == 1
