"""A summary index of the bundled rulesets, so that `rules list` and finding a game by name do not
parse and compile every ruleset file on every start.

rulesets/index.json holds, per ruleset text (keyed by the SHA-256 of the file's text), what finding
and listing it need: its id, its folded names, and its `rules list` entry in each language. It is
generated from the loaded rulesets (`python -m scorepad.rules.bundled` writes it; a test checks that it
equals what loading gives). A file is only ever answered from the index when its text hashes to an
indexed one, so an edited, replaced or hostile file (bundled or in a user's rules directory) is read
and checked as before: the index can make a lookup faster, never different.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

FORMAT = 1
INDEX_NAME = "index.json"


def digest(text: str) -> str:
    """The key of a ruleset text in the index."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def bundled_dir() -> Path:
    """The folder of the bundled rulesets: beside the package in a checkout, inside it once installed."""
    package = Path(__file__).resolve().parents[1]          # scorepad/
    here = package
    for candidate in (package / "rulesets", package.parent / "rulesets"):
        if candidate.is_dir():
            return candidate
    try:
        from importlib.resources import files  # start-up: ~12 ms; only a bundled file read through a zip needs it

        return Path(str(files("scorepad.rulesets")))
    except (ImportError, ModuleNotFoundError):  # pragma: no cover - broken install
        return here / "rulesets"


def index_path() -> Path:
    return bundled_dir() / INDEX_NAME


@lru_cache(maxsize=1)
def _records() -> dict[str, Any]:
    try:
        data = json.loads(index_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    texts = data.get("texts") if isinstance(data, dict) and data.get("format") == FORMAT else None
    return texts if isinstance(texts, dict) else {}


def record(text_digest: str) -> dict[str, Any] | None:
    """The indexed record of a ruleset text, or None (not indexed: read the file)."""
    rec = _records().get(text_digest)
    return rec if isinstance(rec, dict) else None


def entry_names(text_digest: str) -> tuple[str, tuple[str, ...]] | None:
    """(id, folded names) of an indexed ruleset text."""
    rec = record(text_digest)
    if rec is None or not isinstance(rec.get("id"), str) or not isinstance(rec.get("names"), list):
        return None
    return rec["id"], tuple(str(n) for n in rec["names"])


def summary(text_digest: str, language: str | None) -> dict[str, Any] | None:
    """The `rules list` entry of an indexed ruleset text in `language` (None: the untranslated texts)."""
    rec = record(text_digest)
    summaries = rec.get("summaries") if rec else None
    found = summaries.get(language or "") if isinstance(summaries, dict) else None
    return _copy(found) if isinstance(found, dict) else None


def name_of(ruleset_id: str, language: str | None) -> str | None:
    """A bundled ruleset's name in `language`, by its id (None for a ruleset that is not bundled)."""
    for rec in _records().values():
        if isinstance(rec, dict) and rec.get("id") == ruleset_id:
            found = (rec.get("summaries") or {}).get(language or "")
            return str(found["name"]) if isinstance(found, dict) and isinstance(found.get("name"), str) else None
    return None


def _copy(value: Any) -> Any:
    """A copy of a JSON value (the cached index is never handed out to be changed); deepcopy is slower."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
