"""The scorer's JSON API: a hand and a bid written by a script, as `scorepad hand --json` and
`scorepad bid` write them. A hand goes through `app.games.record_hand`, the use case `hand` calls
(one transaction holding the game, the version checked with `expect`, the idempotency `key`), and the
answer is exactly what `hand --json` prints; a refusal is the sentences `hand` prints (error, then
each problem), with nothing stored. JSON speaks English, as every --json output does.

Called in a worker thread with its own store connection, as every request is answered."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from scorepad.app import games as play
from scorepad.app.bids import record_bid
from scorepad.errors import ScorepadError, StoreConflict, UserError
from scorepad.locale import shown, speaking
from scorepad.web.live import opened

Answer = tuple[int, str]
"""(HTTP status, the JSON text answered)."""


def dumped(data: Any) -> str:
    """JSON as the command line prints it (`hand --json`): indented, UTF-8 as it is, a newline at the end."""
    return json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def refusal(exc: ScorepadError) -> Answer:
    """What `hand` prints for a refusal, as JSON: `error` its first line, `problems` the lines below it
    (each problem when there is more than one). Bad input is 422, a game changed meanwhile 409, a
    database that failed 503: never a 500 for what a person typed."""
    problems = [shown(p) for p in exc.problems if p != exc.message] if len(exc.problems) > 1 else []
    status = 422 if isinstance(exc, UserError) else 409 if isinstance(exc, StoreConflict) else 503
    return status, dumped({"error": shown(exc.message), "problems": problems})


def _request(body: bytes) -> dict[str, Any]:
    """The body read as a JSON object, or UserError with the sentence that says what is wrong."""
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise UserError("the request's body is not JSON text in UTF-8") from None
    if not isinstance(data, dict):
        raise UserError('the request\'s body must be a JSON object, e.g. {"assignments": ["bid=4,3,3,3"]}')
    return data


def _assignments(data: dict[str, Any], *names: str) -> list[str]:
    """`assignments` (or the same list named `typed`): the FIELD=VALUE texts `hand` takes as arguments;
    `names`, the other names the request may hold."""
    unknown = sorted(set(data) - {"assignments", "typed", *names})
    if unknown:
        raise UserError(f"unknown name in the request: {unknown[0]} ({', '.join(('assignments', *names))})")
    if "assignments" in data and "typed" in data:
        raise UserError("give the hand once: assignments or typed, not both")
    items = data.get("assignments", data.get("typed", []))
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        raise UserError('assignments: a list of texts FIELD=VALUE, e.g. ["bid=4,3,3,3", "tricks=5,3,3,2"]')
    if len(items) > 200 or any("\x00" in item or not item.strip() for item in items):
        raise UserError("assignments: at most 200 texts FIELD=VALUE, none of them empty")
    return items


def _key_and_expect(data: dict[str, Any]) -> tuple[str | None, int | None]:
    key, expect = data.get("key"), data.get("expect")
    if key is not None and (not isinstance(key, str) or not 1 <= len(key) <= 200 or "\x00" in key):
        raise UserError("key: write 1 to 200 characters, e.g. a UUID")
    if expect is not None and (isinstance(expect, bool) or not isinstance(expect, int) or expect < 0):
        raise UserError("expect: the game's version, a whole number (standings --json gives it)")
    return key, expect


def _answered(write: Callable[[], str]) -> Answer:
    """The write's JSON (200), or its refusal; in English, as `--json` speaks."""
    with speaking(None):
        try:
            return 200, write()
        except ScorepadError as exc:
            return refusal(exc)


def hand(spec: str | None, game: str | None, body: bytes) -> Answer:
    """`POST .../api/hand`: the hand stored as `scorepad hand ASSIGNMENTS --json [--key K] [--expect N]`
    stores it, answered with what that prints; a refused hand stores nothing."""
    def write() -> str:
        data = _request(body)
        assignments = _assignments(data, "key", "expect")
        key, expect = _key_and_expect(data)
        with opened(spec) as store:
            rec = play.record_hand(store, game, assignments, expect=expect, key=key)
            return dumped(play.hand_json(rec))
    return _answered(write)


def bid(spec: str | None, game: str | None, body: bytes) -> Answer:
    """`POST .../api/bid`: the bids of the coming hand written down as `scorepad bid ASSIGNMENTS` writes
    them (a bid written before is replaced, and the answer says which)."""
    def write() -> str:
        data = _request(body)
        assignments = _assignments(data)
        with opened(spec) as store:
            done = record_bid(store, game, assignments)
            return dumped({"hand": done.n, "bid": done.typed, "replaced": done.replaced,
                           "version": done.row.version})
    return _answered(write)
