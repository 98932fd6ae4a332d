"""A pinned ruleset's TOML parsed once: the plain data kept as JSON in the user's cache directory.

Every `hand`, `standings` and `sheet` loads the ruleset its game pinned: the same text, every time.
Importing tomllib and parsing that text (spades with its et, ru and uk texts is 19 kB) was ~5 ms of
a 45 ms command; reading the same data back as JSON takes a few tenths of a millisecond.

The cache cannot change what a ruleset means. A file is named by the SHA-256 of the text and repeats
that digest inside; it holds JSON (plain data, never pickle or code) and goes through the loader's
checks exactly as freshly parsed TOML does. A file that is missing, unreadable, not JSON, of another
layout or for another text is ignored and written anew. Only data that JSON holds exactly is kept
(strings, whole numbers, finite floats, booleans, arrays and tables: not TOML's dates and times, nor
inf or nan), so what is read back equals what tomllib gave. Nothing about the cache is ever an error:
when the directory cannot be written the text is parsed each time, as before.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from typing import Any

LAYOUT = 1          # the file layout below; another number is ignored
KEEP = 64           # files kept: the oldest beyond this are removed when one is written


def _sha256(text: str) -> str:
    try:
        from _sha256 import sha256  # the C module alone: hashlib imports OpenSSL's (~2 ms)
    except ImportError:  # pragma: no cover - a Python built without it
        from hashlib import sha256
    digest: str = sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return digest


def cache_dir() -> str | None:
    """Where the parsed rulesets are kept (None: nowhere to keep them)."""
    try:
        from scorepad.userdirs import user_dir

        return os.path.join(user_dir("cache"), "parsed")
    except Exception:  # noqa: BLE001 - no home directory and the like: parse every time
        return None


def read(text: str) -> tuple[str, dict[str, Any] | None]:
    """The digest of `text`, and its parsed data when the cache holds them."""
    digest = _sha256(text)
    where = cache_dir()
    if where is None:
        return digest, None
    try:
        with open(os.path.join(where, f"{digest}.json"), encoding="utf-8") as f:
            doc = json.loads(f.read())
    except (OSError, ValueError, RecursionError):   # missing, unreadable, not UTF-8, not JSON
        return digest, None
    if (not isinstance(doc, dict) or doc.get("layout") != LAYOUT or doc.get("sha256") != digest
            or not isinstance(doc.get("data"), dict)):
        return digest, None
    data: dict[str, Any] = doc["data"]
    return digest, data


def plain(value: Any) -> bool:
    """Whether JSON gives `value` back exactly (TOML's own types but dates, times, inf and nan)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if not all(isinstance(k, str) for k in item):
                return False
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, float):
            if not math.isfinite(item):
                return False
        elif not isinstance(item, (str, int)):   # bool is an int
            return False
    return True


def write(digest: str, data: dict[str, Any]) -> None:
    """Keep the parsed data of the text with this digest (quietly nothing when it cannot be kept)."""
    where = cache_dir()
    if where is None or not plain(data):
        return
    path = os.path.join(where, f"{digest}.json")
    temp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(where, mode=0o700, exist_ok=True)
        with open(temp, "w", encoding="utf-8") as f:
            f.write(json.dumps({"layout": LAYOUT, "sha256": digest, "data": data}, ensure_ascii=False))
        os.replace(temp, path)   # whole or not at all, also with another process writing it
        _prune(where)
    except (OSError, ValueError, RecursionError):
        with contextlib.suppress(OSError):
            os.unlink(temp)


def _prune(where: str) -> None:
    """Remove the oldest files beyond KEEP (each game pins its text; a few are in use at a time)."""
    with os.scandir(where) as entries:
        files = [(e.stat().st_mtime, e.path) for e in entries if e.name.endswith(".json") and e.is_file()]
    files.sort()
    for _, path in files[:max(0, len(files) - KEEP)]:
        with contextlib.suppress(OSError):
            os.unlink(path)
