"""The summary index of the bundled rulesets (rulesets/index.json): equal to what loading gives, and
never the answer for a file whose text is not exactly an indexed one."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from scorepad.app import index_writer as rules_index_writer
from scorepad.locale import LANGUAGES
from scorepad.rules import bundled as rules_index
from scorepad.rules import registry
from scorepad.rules.source import parse_toml, read_text
from scorepad.rules.translations import translate
from scorepad.text.describe import summary
from tests.conftest import Run

BUNDLED = registry.bundled_dir()


def test_index_is_up_to_date() -> None:
    """Fails when a bundled ruleset (or what `rules list` shows of it) changed without the index:
    run `python -m scorepad.app.index_writer` to write it again."""
    assert rules_index.index_path().read_text(encoding="utf-8") == rules_index_writer.build_text(), \
        "rulesets/index.json is stale: run `python -m scorepad.app.index_writer`"


def test_every_bundled_ruleset_is_indexed_and_answers_as_loaded() -> None:
    files = sorted(BUNDLED.glob("*.toml"))
    assert len(files) >= 30
    for path in files:
        text = read_text(path)
        key = rules_index.digest(text)
        found = rules_index.entry_names(key)
        assert found is not None, path
        parsed = registry.names_of(parse_toml(text, str(path)))
        assert found == parsed
        rs = registry.load(str(path))
        for code in (None, *LANGUAGES):
            assert rules_index.summary(key, code) == summary(translate(rs, code), code), (path, code)


def test_unknown_text_and_language_are_not_answered() -> None:
    assert rules_index.record(rules_index.digest("[game]\nid = \"x\"\n")) is None
    key = rules_index.digest(read_text(BUNDLED / "spades.toml"))
    assert rules_index.summary(key, "fr") is None
    assert rules_index.summary(key, None) is not None


def test_answers_are_copies() -> None:
    key = rules_index.digest(read_text(BUNDLED / "spades.toml"))
    first = rules_index.summary(key, None)
    assert first is not None
    first["aliases"].append("tampered")
    first["name"] = "tampered"
    again = rules_index.summary(key, None)
    assert again is not None and "tampered" not in again["aliases"] and again["name"] != "tampered"


def _listed(cli: Callable[..., Run], *args: str) -> dict[str, dict[str, object]]:
    r = cli(*args, "rules", "list", "--json")
    assert r.code == 0, r.err
    return {d["id"]: d for d in json.loads(r.out)}


def test_an_edited_copy_of_a_bundled_ruleset_is_read_not_indexed(cli: Callable[..., Run], tmp_path: Path) -> None:
    """A user's file that overrides spades with one word changed: list and find show the file's own text."""
    text = (BUNDLED / "spades.toml").read_text(encoding="utf-8")
    name = parse_toml(text, "spades.toml")["game"]["name"]
    edited = text.replace(f'name = "{name}"', 'name = "Spades, our way"', 1)
    assert edited != text
    (tmp_path / "spades.toml").write_text(edited, encoding="utf-8")
    listed = _listed(cli, "--rules-dir", str(tmp_path))
    assert listed["spades"]["name"] == "Spades, our way"
    assert registry.resolve("spades, our way", [str(tmp_path)])[0] == tmp_path / "spades.toml"
    assert _listed(cli)["spades"]["name"] == name


def test_a_broken_copy_is_reported_not_listed_from_the_index(cli: Callable[..., Run], tmp_path: Path) -> None:
    text = (BUNDLED / "spades.toml").read_text(encoding="utf-8")
    (tmp_path / "spades.toml").write_text(text.replace("[game]", "[game]\nbogus_key = 1", 1), encoding="utf-8")
    r = cli("--rules-dir", str(tmp_path), "rules", "list")
    assert r.code == 0
    assert "spades.toml" in r.err and "bogus_key" in r.err
    assert not any(line.startswith("spades ") for line in r.out.splitlines())


def test_an_exact_copy_lists_as_the_bundled_one(cli: Callable[..., Run], tmp_path: Path) -> None:
    (tmp_path / "spades.toml").write_bytes((BUNDLED / "spades.toml").read_bytes())
    assert _listed(cli, "--rules-dir", str(tmp_path)) == _listed(cli)


def test_a_tampered_index_is_ignored(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                     cli: Callable[..., Run]) -> None:
    """An index that is not in the expected format is no index at all: every file is read."""
    for content in ("not json", json.dumps({"format": 999, "texts": {}}), json.dumps([1, 2])):
        bad = tmp_path / "index.json"
        bad.write_text(content, encoding="utf-8")
        monkeypatch.setattr(rules_index, "index_path", lambda bad=bad: bad)
        rules_index._records.cache_clear()
        registry._entry.cache_clear()
        try:
            assert rules_index.record(rules_index.digest(read_text(BUNDLED / "spades.toml"))) is None
            assert "spades" in _listed(cli)
        finally:
            rules_index._records.cache_clear()
            registry._entry.cache_clear()


def test_rules_list_reads_no_formulas(cli: Callable[..., Run]) -> None:
    """The point of the index: listing the bundled rulesets compiles none of them."""
    import scorepad.rules.loader as loader

    calls: list[object] = []
    real = loader.build

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    mp = pytest.MonkeyPatch()
    mp.setattr(loader, "build", counting)
    try:
        assert cli("rules", "list").code == 0
        assert calls == []
        assert cli("rules", "show", "spades").code == 0   # the counter counts
        assert len(calls) == 1
    finally:
        mp.undo()
