"""`scorepad serve` run by a test: a subprocess on a free loopback port, its address read from its
first line, stopped with Ctrl-C (SIGINT) at the end, which must end it cleanly and soon; and a reader
of its event stream that notes when each event arrived."""

from __future__ import annotations

import http.client
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import urlsplit


@dataclass
class Served:
    url: str                      # http://127.0.0.1:PORT/t/TOKEN/
    process: subprocess.Popen[str]
    first_lines: list[str] = field(default_factory=list)

    @property
    def origin(self) -> str:
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"


@contextmanager
def serving(*args: str, env: dict[str, str] | None = None, stop: bool = True) -> Iterator[Served]:
    """`scorepad serve --port 0 ARGS` until the block ends, then Ctrl-C: it must stop within 10 s, status 0."""
    proc = subprocess.Popen([sys.executable, "-m", "scorepad", *args[:_globals(args)], "serve", "--port", "0",
                             *args[_globals(args):]],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env or dict(os.environ))
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline().rstrip("\n")
        assert first.startswith("http://"), (first, proc.stderr.read() if proc.poll() is not None else "")
        served = Served(first, proc, [first])
        _wait_listening(served)
        yield served
        if stop:
            proc.send_signal(signal.SIGINT)
            code = proc.wait(timeout=10)
            assert code == 0, proc.stderr.read() if proc.stderr else ""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _globals(args: tuple[str, ...]) -> int:
    """How many of `args` are global options (--db X, --lang X) that go before the command."""
    n = 0
    while n < len(args) and args[n] in ("--db", "--lang"):
        n += 2
    return n


def _wait_listening(served: Served) -> None:
    deadline = time.monotonic() + 20
    while True:
        try:
            get(served.url + "live.js")
            return
        except OSError:
            if time.monotonic() > deadline or served.process.poll() is not None:
                raise
            time.sleep(0.05)


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    """(status, headers, body) of a GET."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request("GET", parts.path or "/", headers=headers or {})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read().decode()
    finally:
        conn.close()


class Stream:
    """The event stream of a page, read in a thread: (arrival time, event name, data) in a queue."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        self.conn.request("GET", parts.path, headers={"Accept": "text/event-stream", **(headers or {})})
        self.response = self.conn.getresponse()
        assert self.response.status == 200, self.response.status
        self.events: queue.Queue[tuple[float, str, str]] = queue.Queue()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        name, data = "message", []
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\r\n")
                if not line:
                    if data:
                        self.events.put((time.monotonic(), name, "\n".join(data)))
                    name, data = "message", []
                elif line.startswith("event:"):
                    name = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].removeprefix(" "))
        except (OSError, ValueError, AttributeError):   # closed by the test
            return

    def next(self, timeout: float = 10) -> tuple[float, str, str]:
        """The next event other than a ping (a comment line, not an event)."""
        return self.events.get(timeout=timeout)

    def close(self) -> None:
        self.conn.close()
