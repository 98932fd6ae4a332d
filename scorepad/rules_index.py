"""A summary index of the bundled rulesets, so that `rules list` and finding a game by name do not
parse and compile every ruleset file on every start.

rulesets/index.json holds, per ruleset text (keyed by the SHA-256 of the file's text), what finding
and listing it need: its id, its folded names, and its `rules list` entry in each language. It is
generated from the loaded rulesets (`python -m scorepad.rules_index` writes it; a test checks that it
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


def index_path() -> Path:
    from scorepad.registry import bundled_dir

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


def _copy(value: Any) -> Any:
    """A copy of a JSON value (the cached index is never handed out to be changed); deepcopy is slower."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def build() -> dict[str, Any]:
    """The index of the bundled rulesets, from loading each one (what `rules list` would show)."""
    from scorepad.describe import summary as list_entry
    from scorepad.locale import LANGUAGES
    from scorepad.registry import bundled_dir, names_of
    from scorepad.rules.source import parse_toml, read_text
    from scorepad.ruleset import load_text
    from scorepad.translation import translate

    texts: dict[str, Any] = {}
    for path in sorted(bundled_dir().glob("*.toml")):
        text = read_text(path)
        data = parse_toml(text, path.name)
        if "base" in data:   # a derived ruleset's text depends on its base: not indexed
            continue
        rs = load_text(text, path.name)
        found = names_of(data)
        assert found is not None and found[0] == rs.id, path
        texts[digest(text)] = {
            "file": path.name, "id": rs.id, "names": list(found[1]),
            "summaries": {code or "": list_entry(translate(rs, code), code) for code in (None, *LANGUAGES)},
        }
    return {"format": FORMAT, "texts": texts}


def build_text() -> str:
    return json.dumps(build(), ensure_ascii=False, indent=1) + "\n"


if __name__ == "__main__":
    index_path().write_text(build_text(), encoding="utf-8")
    print(f"wrote {index_path()}")
