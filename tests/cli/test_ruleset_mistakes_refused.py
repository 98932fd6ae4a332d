"""A mistake in what the player gave is refused with a sentence, never quietly worked around: a user
ruleset that is not TOML (above all one overriding a bundled game), a derived ruleset under another
game's id, and an --opt or a variant given twice with two values."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from scorepad.rules.bundled import bundled_dir
from tests.conftest import Run


def _broken_spades(tmp_path: Path) -> Path:
    rules = tmp_path / "ov"
    rules.mkdir()
    text = (bundled_dir() / "spades.toml").read_text(encoding="utf-8")
    (rules / "spades.toml").write_text(text + "oops = = 1\n", encoding="utf-8")
    return rules


def test_an_override_that_is_not_toml_is_refused_not_replaced_by_the_bundled_game(
        cli: Callable[..., Run], tmp_path: Path) -> None:
    rules = _broken_spades(tmp_path)
    lines = len((rules / "spades.toml").read_text(encoding="utf-8").splitlines())
    for name in ("spades", "pikid", "Spades"):         # by its id, an alias of the game, its name
        r = cli("--rules-dir", str(rules), "new", name, "a", "b", "c", "d")
        assert r.code == 2, (name, r.out)
        assert f"{rules / 'spades.toml'}:{lines}:8: not valid TOML" in r.err
        assert "Traceback" not in r.err
    assert json.loads(cli("games", "--json").out) == []
    r = cli("--rules-dir", str(rules), "rules", "show", "spades")
    assert r.code == 2 and "not valid TOML" in r.err
    # without the broken file, the bundled game as ever
    assert cli("new", "spades", "a", "b", "c", "d").code == 0


def test_a_new_game_that_is_not_toml_is_listed_as_a_warning_and_refused_by_name(
        cli: Callable[..., Run], tmp_path: Path) -> None:
    rules = tmp_path / "ov"
    rules.mkdir()
    (rules / "b1.toml").write_text('format = 1\n[game]\nid = "b1"\nname = "B1\n', encoding="utf-8")
    (rules / "b1.scenario.toml").write_text("not = = toml\n", encoding="utf-8")   # a scenario: not a ruleset
    r = cli("--rules-dir", str(rules), "rules", "list")
    assert r.code == 0
    assert f"warning: {rules / 'b1.toml'}:4:11: not valid TOML" in r.err
    assert "scenario" not in r.err
    assert "skid" in r.out                                 # the others are listed as ever
    r = cli("--rules-dir", str(rules), "new", "b1", "a", "b")
    assert r.code == 2
    assert f"{rules / 'b1.toml'}:4:11: not valid TOML" in r.err and "unknown game" not in r.err


def test_a_toml_file_without_a_game_id_is_a_warning_not_silence(cli: Callable[..., Run], tmp_path: Path) -> None:
    rules = tmp_path / "ov"
    rules.mkdir()
    (rules / "b2.toml").write_text('format = 1\n[game]\nname = "B2"\n', encoding="utf-8")
    r = cli("--rules-dir", str(rules), "rules", "list")
    assert r.code == 0 and f"warning: {rules / 'b2.toml'}: game.id" in r.err
    r = cli("--rules-dir", str(rules), "new", "b2", "a", "b")
    assert r.code == 2 and "game.id" in r.err


def test_rules_list_names_a_file_once(cli: Callable[..., Run], tmp_path: Path) -> None:
    rules = tmp_path / "ov"
    rules.mkdir()
    (rules / "b3.toml").write_text('format = 1\n[game]\nid = "b3"\nname = "B3"\nzzz = 1\n', encoding="utf-8")
    r = cli("--rules-dir", str(rules), "rules", "list")
    assert f"warning: {rules / 'b3.toml'}: game.zzz: unknown key" in r.err


@pytest.mark.parametrize("base, new_id", [("skid", "spades"), ("skid", "pikid"), ("spades", "skid")])
def test_derive_refuses_another_bundled_games_id(cli: Callable[..., Run], tmp_path: Path, base: str,
                                                 new_id: str) -> None:
    rules = tmp_path / "rd"
    r = cli("--rules-dir", str(rules), "rules", "derive", base, new_id)
    assert r.code == 2
    assert f"{new_id!r} already names the bundled game" in r.err and "choose another id" in r.err
    assert not (rules / f"{new_id}.toml").exists()


def test_derive_house_rules_of_a_game_under_its_own_id(cli: Callable[..., Run], tmp_path: Path) -> None:
    """README: a user ruleset with a bundled id overrides it; derived from the bundled one, it plays."""
    rules = tmp_path / "rd"
    assert cli("--rules-dir", str(rules), "rules", "derive", "spades", "spades", "--opt", "target=300").code == 0
    r = cli("--rules-dir", str(rules), "new", "spades", "a", "b", "c", "d", "--json")
    assert r.code == 0, r.err
    assert cli("--rules-dir", str(rules), "standings", "--json").code == 0
    r = cli("--rules-dir", str(rules), "rules", "list", "--json")   # (the table wraps names to the terminal)
    assert {g["id"]: g["name"] for g in json.loads(r.out)}["spades"] == "Spades (target 300)" and r.err == ""
    # derived again over the file it replaces: from the bundled game, not from the old house rules
    r = cli("--rules-dir", str(rules), "rules", "derive", "spades", "spades", "--opt", "nil_points=50", "--force")
    assert r.code == 0, r.err
    r = cli("--rules-dir", str(rules), "rules", "check", str(rules / "spades.toml"))
    assert r.code == 0 and r.err == "", r.err
    r = cli("--rules-dir", str(rules), "rules", "show", "spades", "--json")
    assert '"Spades (nil_points 50)"' in r.out


def test_derive_from_a_variant_is_refused(cli: Callable[..., Run], tmp_path: Path) -> None:
    rules = tmp_path / "rd"
    r = cli("--rules-dir", str(rules), "rules", "derive", "spades:short", "sp-x", "--opt", "nil_points=60")
    assert r.code == 2 and "start it with sp-x:short" in r.err
    assert not (rules / "sp-x.toml").exists()


def test_an_opt_given_twice_with_two_values_is_refused_naming_both(cli: Callable[..., Run]) -> None:
    r = cli("new", "skid", "a", "b", "c", "--opt", "limit=505", "--opt", "limit=225")
    assert r.code == 2
    assert "--opt limit is given twice, as 505 (limit=505) and as 225 (limit=225)" in r.err
    assert json.loads(cli("games", "--json").out) == []
    assert cli("new", "skid", "a", "b", "c", "--opt", "limit=505", "--opt", "LIMIT=505").code == 0


def test_derive_opt_given_twice_is_refused(cli: Callable[..., Run], tmp_path: Path) -> None:
    rules = tmp_path / "rd"
    r = cli("--rules-dir", str(rules), "rules", "derive", "skid", "skid-x", "--opt", "limit=505",
            "--opt", "limit=225")
    assert r.code == 2 and "given twice" in r.err and not (rules / "skid-x.toml").exists()


def test_two_variants_are_refused_naming_both(cli: Callable[..., Run]) -> None:
    r = cli("new", "spades:short", "a", "b", "c", "d", "--opt", "variant=mirrors")
    assert r.code == 2
    assert "variant is given twice, as short (spades:short) and as mirrors (--opt variant=mirrors)" in r.err
    assert cli("new", "spades:short", "a", "b", "c", "d", "--opt", "variant=short").code == 0
    assert cli("new", "spades", "a", "b", "c", "d", "--opt", "variant=mirrors").code == 0


@pytest.mark.parametrize("bound, kind", [
    ('max = "[1, 2]"', "a list"),
    ("max = \"'many'\"", "a word"),
    ('max = "players"', "a list"),
    ('max = "players[0]"', "a word"),
    ('max = "13 if hand_no > 1 else [1]"', "a list"),   # the first hand passes; the second would not
    ('max = "[1] * 3"', "a list"),
    ('min = "0 if n_players == 4 else \'none\'"', "a word"),
])
def test_a_number_field_s_bound_that_is_not_a_number_is_refused(cli: Callable[..., Run], tmp_path: Path,
                                                                bound: str, kind: str) -> None:
    """Checked as a default's kind is, by `rules check` and before a game starts; never an internal error."""
    text = (bundled_dir() / "spades.toml").read_text(encoding="utf-8")
    head, tricks, tail = text.partition("[fields.tricks]\n")
    assert tricks and "min = 0\nmax = 13\n" in tail
    lines = tail.split("\n")
    lines[lines.index(f"{bound[:3]} = {'13' if bound.startswith('max') else '0'}")] = bound
    path = tmp_path / "spades2.toml"
    path.write_text((head + tricks + "\n".join(lines)).replace('id = "spades"', 'id = "spades2"', 1), encoding="utf-8")
    r = cli("rules", "check", str(path))
    assert r.code == 2 and f"a bound is a number, and this formula can give {kind}" in r.out + r.err, r.out + r.err
    assert f"fields.tricks.{bound[:3]}" in r.out + r.err
    r = cli("new", str(path), "ann", "bob", "cat", "dan")
    assert r.code == 2 and "internal error" not in r.err
    assert json.loads(cli("games", "--json").out) == []


def test_bounds_that_are_numbers_still_pass(cli: Callable[..., Run], tmp_path: Path) -> None:
    text = (bundled_dir() / "spades.toml").read_text(encoding="utf-8")
    path = tmp_path / "spades3.toml"
    path.write_text(text.replace('id = "spades"', 'id = "spades3"', 1).replace(
        "max = 13\n", 'max = "13 if n_players == 4 else max(target // 40, 1)"\n', 1), encoding="utf-8")
    assert cli("rules", "check", str(path)).code == 0
