"""Live page load: `scorepad serve` with many viewers holding its event stream while hands are recorded.

    python bench/serve.py                 # 100 viewers, 200 hands through the scorer's JSON API
    python bench/serve.py --quick         # 10 viewers, 10 hands (the smoke run CI makes)
    python bench/serve.py --via cli       # each hand a whole `scorepad hand` process instead
    python bench/serve.py --viewers 50 --hands 100 --gap 0.5 --deadline 300

The server is started as a person starts it (`scorepad --db DB serve --scorer --port 0`, a free
loopback port) on a Spades game whose target is out of reach (so 200 hands fit in one game: the
sheet and the chart grow to 200 hands, the costliest page). N viewers each hold the event stream
open (`GET /t/TOKEN/events`, English), read by one thread of this script through `selectors`, so the
viewers cost this process next to nothing. M hands are then recorded one after another, `--gap`
seconds apart: `POST /s/TOKEN2/api/hand` (or `scorepad hand`, a new process each). A hand counts as
stored when its write is answered (its transaction committed before; for a `hand` process, when it
has exited, so a page may have it sooner: a negative delay); a viewer has seen hand k when
an event arrives whose page says "after k hands" or more (back-to-back hands may arrive in one
event: the page shows the game as it stands). Measured: for each hand and viewer, the delay from
stored to seen (median, p95, max over all of them), whether every viewer saw every hand, and the
server's memory (VmHWM, its peak resident size, and VmRSS at the end, from /proc). Bounded: the
run stops at `--deadline` seconds whatever happens. A benchmark, not a test: it never fails a build.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import bench_env, scorepad_cmd, spades_hand  # noqa: E402

TARGET_P95_S = 1.0
TARGET_MEMORY_MB = 150.0
SEEN = re.compile(rb'class="sub">after (\d+) hands?<')


class Viewers:
    """N event streams read by one thread: for each viewer, the moment it first saw each hand count."""

    def __init__(self, url: str, n: int) -> None:
        parts = urlsplit(url)
        self.seen: list[dict[int, float]] = [{} for _ in range(n)]
        self.selector = selectors.DefaultSelector()
        self.buffers: dict[int, bytes] = {}
        request = (f"GET {parts.path}events HTTP/1.1\r\nHost: {parts.netloc}\r\nAccept: text/event-stream\r\n"
                   "Accept-Language: en\r\n\r\n").encode()
        for k in range(n):
            sock = socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80), timeout=30)
            sock.sendall(request)
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, k)
            self.buffers[k] = b""
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while not self._stop.is_set():
            for key, _mask in self.selector.select(timeout=0.2):
                k = key.data
                try:
                    chunk = key.fileobj.recv(1 << 20)  # type: ignore[union-attr]
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                now = time.monotonic()
                if not chunk:
                    self.selector.unregister(key.fileobj)
                    continue
                buf = self.buffers[k] + chunk
                for m in SEEN.finditer(buf):
                    self.seen[k].setdefault(int(m.group(1)), now)
                self.buffers[k] = buf[-200:]   # a match cut in two by the read is found in the next one

    def saw(self, k: int, hands: int) -> float | None:
        """When viewer k first saw the game at `hands` hands or more."""
        times = [t for n, t in self.seen[k].items() if n >= hands]
        return min(times) if times else None

    def all_saw(self, hands: int) -> bool:
        return all(self.saw(k, hands) is not None for k in range(len(self.seen)))

    def close(self) -> None:
        self._stop.set()
        self.thread.join(timeout=5)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self.selector.close()


def post_hand(url: str, typed: list[str], key: str) -> int:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=60)
    try:
        conn.request("POST", parts.path + "api/hand", body=json.dumps({"assignments": typed, "key": key}),
                     headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def memory_mb(pid: int) -> dict[str, float]:
    """The server's resident memory now and at its peak, in MB (Linux /proc)."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            out[name] = int(value.split()[0]) / 1024
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="10 viewers, 10 hands (a smoke run)")
    ap.add_argument("--viewers", type=int)
    ap.add_argument("--hands", type=int)
    ap.add_argument("--via", choices=("api", "cli"), default="api", help="how each hand is recorded")
    ap.add_argument("--gap", type=float, default=0.0, help="seconds between one hand's answer and the next")
    ap.add_argument("--deadline", type=float, help="stop after this many seconds (default 600; --quick 120)")
    args = ap.parse_args()
    viewers_n = args.viewers or (10 if args.quick else 100)
    hands_n = args.hands or (10 if args.quick else 200)
    viewers_n, hands_n = max(1, min(viewers_n, 1000)), max(1, min(hands_n, 2000))
    deadline = time.monotonic() + (args.deadline or (120 if args.quick else 600))
    rng = random.Random(36)
    with tempfile.TemporaryDirectory(prefix="scorepad-serve-bench-") as tmp_name:
        tmp = Path(tmp_name)
        env = bench_env(tmp)
        db = str(tmp / "serve.db")
        sp = [*scorepad_cmd(), "--db", db]
        subprocess.run([*sp, "new", "spades", "ann", "bob", "cat", "dan", "--opt", "target=1000000", "-q"],
                       check=True, capture_output=True, env=env)
        server = subprocess.Popen([*sp, "serve", "--scorer", "--port", "0"], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env=env)
        try:
            assert server.stdout is not None
            viewer_url = server.stdout.readline().strip()
            scorer_url = server.stdout.readline().strip()
            if not viewer_url.startswith("http") or not scorer_url.startswith("http"):
                raise SystemExit(f"serve did not start: {viewer_url} {server.stderr.read() if server.stderr else ''}")
            threading.Thread(target=server.stdout.read, daemon=True).start()   # the QR code, drained
            run(server, viewer_url, scorer_url, sp, env, viewers_n, hands_n, args, deadline, rng)
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def run(server: subprocess.Popen[str], viewer_url: str, scorer_url: str, sp: list[str], env: dict[str, str],
        viewers_n: int, hands_n: int, args: argparse.Namespace, deadline: float, rng: random.Random) -> None:
    parts = urlsplit(viewer_url)
    while time.monotonic() < deadline:   # listening: the page answers
        try:
            conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=5)
            conn.request("GET", parts.path + "live.js")
            conn.getresponse().read()
            conn.close()
            break
        except OSError:
            time.sleep(0.05)
    idle = memory_mb(server.pid)
    viewers = Viewers(viewer_url, viewers_n)
    while not viewers.all_saw(0) and time.monotonic() < deadline:
        time.sleep(0.05)   # every stream has sent its first page
    connected = memory_mb(server.pid)
    stored: list[float] = []
    writes: list[float] = []
    refused = 0
    for k in range(hands_n):
        if time.monotonic() > deadline:
            break
        typed = spades_hand(rng)
        started = time.monotonic()
        if args.via == "api":
            ok = post_hand(scorer_url, typed, f"bench-{k}") == 200
        else:
            ok = subprocess.run([*sp, "hand", *typed, "--key", f"bench-{k}", "-q"], capture_output=True,
                                env=env).returncode == 0
        done = time.monotonic()
        refused += not ok
        if not ok:
            break
        stored.append(done)
        writes.append(done - started)
        if args.gap:
            time.sleep(args.gap)
    recorded = len(stored)
    while not viewers.all_saw(recorded) and time.monotonic() < deadline:
        time.sleep(0.05)
    end = memory_mb(server.pid)
    viewers.close()
    delays = [seen - at for k in range(viewers_n) for n, at in enumerate(stored, start=1)
              if (seen := viewers.saw(k, n)) is not None]
    missed = recorded * viewers_n - len(delays)
    report(viewers_n, recorded, hands_n, refused, args.via, writes, delays, missed, idle, connected, end)


def report(viewers_n: int, recorded: int, hands_n: int, refused: int, via: str, writes: list[float],
           delays: list[float], missed: int, idle: dict[str, float], connected: dict[str, float],
           end: dict[str, float]) -> None:
    print(f"{viewers_n} viewers, {recorded} of {hands_n} hands recorded through the {via}"
          + (f" ({refused} refused: stopped)" if refused else ""))
    if writes:
        print(f"write answered: median {statistics.median(writes) * 1000:.0f} ms, p95 {pct(writes, .95) * 1000:.0f} ms")
    if delays:
        med, p95, worst = statistics.median(delays), pct(delays, .95), max(delays)
        print(f"stored -> seen at every viewer ({len(delays)} deliveries): median {med * 1000:.0f} ms, "
              f"p95 {p95 * 1000:.0f} ms, max {worst * 1000:.0f} ms; p95 / target {p95 / TARGET_P95_S:.2f} "
              f"(target {TARGET_P95_S:.0f} s)")
    print(f"every viewer saw every hand: {'yes' if missed == 0 and recorded else f'no, {missed} missed'}")
    peak = end.get("VmHWM", 0.0)
    print(f"server memory: {idle.get('VmRSS', 0):.1f} MB idle, {connected.get('VmRSS', 0):.1f} MB with the viewers, "
          f"{end.get('VmRSS', 0):.1f} MB at the end, peak {peak:.1f} MB; peak / target {peak / TARGET_MEMORY_MB:.2f} "
          f"(target {TARGET_MEMORY_MB:.0f} MB)")


if __name__ == "__main__":
    main()
