"""A game's pinned ruleset checks its [translations] one language at a time, when that language is
shown: a command in English reads no translation, a command in Estonian checks the Estonian texts as
loading the file checks them, and `verify` checks every language."""

from __future__ import annotations

import sqlite3
import tomllib
from pathlib import Path

import pytest
import tomli_w

from scorepad.app import games as play
from scorepad.app import verify as verification
from scorepad.errors import RulesetError
from scorepad.locale import speaking
from scorepad.rules.loader import load_text
from scorepad.rules.registry import bundled_dir
from scorepad.rules.translations import check_translations, translate
from scorepad.store import Store
from tests.quick_route import new_spades_game, run_noting_module

SPADES = (bundled_dir() / "spades.toml").read_text(encoding="utf-8")


def _with_bad_estonian() -> str:
    data = tomllib.loads(SPADES)
    data["translations"]["et"]["name"] = 5                      # must be text
    data["translations"]["et"]["checks"] = {"no_such_check": "x"}
    return tomli_w.dumps(data)


def test_a_file_with_a_bad_language_is_refused_whole() -> None:
    with pytest.raises(RulesetError) as refused:
        load_text(_with_bad_estonian(), "bad.toml")
    assert any("translations.et.name: must be text" in line for line in refused.value.problems)


def test_a_pinned_text_checks_the_language_shown() -> None:
    text = _with_bad_estonian()
    with pytest.raises(RulesetError) as whole:
        load_text(text, "bad.toml")
    rs = load_text(text, "bad.toml", pinned=True)
    assert rs.unchecked_translations is not None
    assert translate(rs, None) is rs
    assert translate(rs, "ru").name != rs.name           # Russian is fine: shown
    with pytest.raises(RulesetError) as estonian:
        translate(rs, "et")
    assert estonian.value.problems == whole.value.problems   # the same sentences as loading the file
    with pytest.raises(RulesetError) as every:
        check_translations(rs)
    assert every.value.problems == whole.value.problems
    check_translations(rs, "uk")
    assert rs.checked_languages == {"ru", "uk"} and rs.unchecked_translations is not None


def test_a_checked_ruleset_is_not_checked_again() -> None:
    rs = load_text(SPADES, "spades.toml")
    assert rs.unchecked_translations is None
    pinned = load_text(SPADES, "spades.toml", "blind-nil", pinned=True)
    assert pinned.unchecked_translations is not None
    check_translations(pinned)
    assert pinned.unchecked_translations is None   # checked whole once: not again
    assert translate(pinned, "et").name == translate(load_text(SPADES, "spades.toml", "blind-nil"), "et").name


def test_verify_checks_every_language(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.db")
    row = play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    play.record_hand(store, row.id, ["bid=3,3,3,3", "tricks=4,3,3,3"])
    assert verification.verify(store, workers=1) == []
    store.close()
    con = sqlite3.connect(tmp_path / "t.db")
    con.execute("UPDATE rulesets SET text = ?", (_with_bad_estonian(),))
    con.commit()
    con.close()
    play.pinned_ruleset.cache_clear()
    store = Store(tmp_path / "t.db")
    try:
        found = verification.verify(store, workers=1)
        assert f"game {row.id}: cannot be replayed: 2 problems in spades.toml" in found, found   # as before
        assert play.standings(store.game(row.id))["hands"] == 1      # English: the standings as ever
        with pytest.raises(RulesetError) as estonian, speaking("et"):
            play.standings(store.game(row.id))
        assert any("translations.et.name: must be text" in line for line in estonian.value.problems)
    finally:
        store.close()
        play.pinned_ruleset.cache_clear()


def test_a_command_in_english_reads_no_translation(tmp_path: Path) -> None:
    env = new_spades_game(tmp_path)
    for args, loaded in ((["standings"], "False"), (["hand", "bid=3,3,3,3", "tricks=4,3,3,3"], "False"),
                         (["--lang", "et", "standings"], "True")):
        assert run_noting_module(env, "scorepad.rules.translations", args)[1] == loaded, args
