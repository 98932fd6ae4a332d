"""Writing rulesets/index.json: each bundled ruleset loaded and summarised as `rules list` shows it.

    python -m scorepad.app.index_writer     # after changing a bundled ruleset (a test fails until then)

The index is read by scorepad/rules/bundled.py, which knows nothing of how it is made: this module
sits above the loader, the translations and the descriptions it uses.
"""

from __future__ import annotations

import json
from typing import Any

from scorepad.locale import LANGUAGES
from scorepad.rules.bundled import FORMAT, bundled_dir, digest, index_path
from scorepad.rules.loader import load_text
from scorepad.rules.registry import names_of
from scorepad.rules.source import parse_toml, read_text
from scorepad.rules.translations import translate
from scorepad.text.describe import summary as list_entry


def build() -> dict[str, Any]:
    """The index of the bundled rulesets, from loading each one (what `rules list` would show)."""
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
