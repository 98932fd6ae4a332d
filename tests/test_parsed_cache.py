"""The parsed-TOML cache of pinned rulesets (scorepad/rules/parsed.py): it gives back exactly what
tomllib gives, ignores any file that is not the one it wrote for that text, and spares the TOML
parser on a game's next command."""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path

import pytest

from scorepad.registry import bundled_dir
from scorepad.rules import parsed
from scorepad.ruleset import load_text, parse_toml
from tests.quick_route import new_spades_game, run_noting_module

TEXTS = sorted(bundled_dir().glob("*.toml"))


def _file(text: str) -> Path:
    return Path(str(parsed.cache_dir())) / f"{parsed._sha256(text)}.json"


@pytest.mark.parametrize("path", TEXTS, ids=[p.stem for p in TEXTS])
def test_what_it_keeps_is_what_tomllib_gives(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    want = tomllib.loads(text)
    assert not _file(text).exists()
    assert parse_toml(text, "x", cache=True) == want      # parsed, and kept
    assert _file(text).is_file()
    got = parse_toml(text, "x", cache=True)               # read back from the file
    assert got == want and json.dumps(got) == json.dumps(want)   # the same keys in the same order
    assert parsed.read(text)[1] == want


def test_a_cached_ruleset_loads_as_a_parsed_one() -> None:
    text = (bundled_dir() / "spades.toml").read_text(encoding="utf-8")
    fresh = load_text(text, "spades.toml", "blind-nil")
    load_text(text, "spades.toml", "blind-nil", pinned=True)
    again = load_text(text, "spades.toml", "blind-nil", pinned=True)
    assert _file(text).is_file()
    def shown(rs: object) -> str:
        return re.sub(r" at 0x[0-9a-f]+", "", repr(rs))   # the compiled formulas' addresses

    assert shown(again) == shown(fresh) and again.data == fresh.data and again.text == fresh.text


def test_without_cache_nothing_is_written() -> None:
    text = (bundled_dir() / "hearts.toml").read_text(encoding="utf-8")
    parse_toml(text, "x")
    load_text(text, "x")
    assert not _file(text).exists()


@pytest.mark.parametrize("content", [
    "", "not json", "[1, 2]", '{"layout": 1, "sha256": "0", "data": {}}', '{"layout": 99, "sha256": "@", "data": {}}',
    '{"layout": 1, "sha256": "@", "data": []}', '{"layout": 1, "sha256": "@"}', "[" * 100000 + "]" * 100000,
], ids=["empty", "text", "list", "other-text", "other-layout", "data-not-table", "no-data", "deep"])
def test_a_file_it_did_not_write_for_this_text_is_ignored(content: str) -> None:
    text = (bundled_dir() / "hearts.toml").read_text(encoding="utf-8")
    where = _file(text)
    where.parent.mkdir(parents=True, exist_ok=True)
    where.write_text(content.replace("@", parsed._sha256(text)), encoding="utf-8")
    assert parse_toml(text, "x", cache=True) == tomllib.loads(text)
    assert json.loads(where.read_text(encoding="utf-8"))["data"] == tomllib.loads(text)   # written anew


def test_not_utf8_is_ignored() -> None:
    text = '[game]\nid = "x"\n'
    where = _file(text)
    where.parent.mkdir(parents=True, exist_ok=True)
    where.write_bytes(b"\xff\xfe{")
    assert parse_toml(text, "x", cache=True) == {"game": {"id": "x"}}


@pytest.mark.parametrize("text", ['when = 1979-05-27\n', "t = 07:32:00\n", "x = inf\n", "x = nan\n", "[a]\nb = -inf\n"])
def test_what_json_cannot_hold_exactly_is_parsed_every_time(text: str) -> None:
    first = parse_toml(text, "x", cache=True)
    assert not _file(text).exists()
    assert repr(parse_toml(text, "x", cache=True)) == repr(first) == repr(tomllib.loads(text))


def test_plain() -> None:
    assert parsed.plain({"a": [1, 2.5, "x", True, {"b": -0.0}], "c": 10**30})
    assert not parsed.plain({"a": [float("inf")]})
    assert not parsed.plain({"a": {"b": None}})
    assert not parsed.plain({1: "a"})


def test_an_unwritable_cache_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    text = (bundled_dir() / "hearts.toml").read_text(encoding="utf-8")
    assert parse_toml(text, "x", cache=True) == tomllib.loads(text)
    assert parse_toml(text, "x", cache=True) == tomllib.loads(text)
    assert not list(tmp_path.glob("**/*.tmp"))


def test_a_bad_text_is_refused_as_before() -> None:
    from scorepad.errors import RulesetError

    with pytest.raises(RulesetError, match="not valid TOML"):
        parse_toml("[game\n", "bad.toml", cache=True)
    assert not _file("[game\n").exists()


def test_the_oldest_files_go(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parsed, "KEEP", 5)
    texts = [f'n = {i}\n' for i in range(8)]
    for i, text in enumerate(texts):
        parse_toml(text, "x", cache=True)
        os.utime(_file(text), (1000 + i, 1000 + i))
    parse_toml('n = "last"\n', "x", cache=True)
    kept = sorted(p.name for p in Path(str(parsed.cache_dir())).glob("*.json"))
    assert len(kept) == 5
    assert kept == sorted(_file(t).name for t in [*texts[4:], 'n = "last"\n'])


def test_a_games_next_command_parses_no_toml(tmp_path: Path) -> None:
    """What the cache is for: once a game's ruleset is kept, `standings` and `hand` import no TOML
    parser (and print what they printed when it was parsed)."""
    env = new_spades_game(tmp_path)
    outputs = [run_noting_module(env, "tomllib", args)
               for args in (["standings"], ["standings"], ["--lang", "ru", "hand", "bid=3,3,3,3", "tricks=4,3,3,3"],
                            ["sheet"])]
    assert outputs[0] == (outputs[1][0], "True")    # the first parses it and keeps it
    assert [tomllib for _, tomllib in outputs[1:]] == ["False"] * 3
    assert len(list(Path(env["XDG_CACHE_HOME"]).glob("scorepad/parsed/*.json"))) == 1
