"""A pinned ruleset is parsed from its own text on every command: nothing planted in the user's cache
(edited data under the text's digest, a FIFO, a link to /dev/zero) changes a score or holds a command."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

from scorepad.rules.registry import load
from tests.conftest import Run


def planted_path() -> Path:
    import platformdirs

    text = load("hearts").text
    where = Path(platformdirs.user_cache_dir("scorepad", appauthor=False)) / "parsed"
    where.mkdir(parents=True, exist_ok=True)
    return where / f"{hashlib.sha256(text.encode()).hexdigest()}.json"


def test_edited_data_in_the_cache_changes_no_score(cli: Callable[..., Run]) -> None:
    text = load("hearts").text
    data = tomllib.loads(text)
    for item in data.get("score", []):
        if isinstance(item, dict) and "points" in item:
            item["points"] = f"100 * ({item['points']})"
    digest = hashlib.sha256(text.encode()).hexdigest()
    planted_path().write_text(json.dumps({"layout": 1, "sha256": digest, "data": data}), encoding="utf-8")
    assert cli("new", "hearts", "ann", "bob", "cat", "dan").code == 0
    r = cli("hand", "hearts=1,4,3,5", "queen=ann")
    assert r.code == 0, r.err
    assert [s["score"] for s in json.loads(cli("standings", "--json").out)["sides"]] == [14, 4, 3, 5]
    assert cli("verify").code == 0


def test_a_fifo_or_a_link_to_dev_zero_in_the_cache_holds_no_command(db: Path) -> None:
    path = planted_path()
    os.mkfifo(path)
    other = path.with_name("0" * 64 + ".json")
    other.symlink_to("/dev/zero")
    env = dict(os.environ)
    for args in (["new", "hearts", "ann", "bob", "cat", "dan"], ["hand", "hearts=1,4,3,5", "queen=ann"],
                 ["standings"]):
        done = subprocess.run([sys.executable, "-m", "scorepad", *args], env=env, capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=180)
        assert done.returncode == 0, done.stderr
