"""The JSON Schema of the ruleset format: generated from the loader's declaration, shipped, printed
by `rules schema`, named by every bundled ruleset and starter, and in agreement with the loader."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from scorepad.rules.format import SCHEMA_FILE, json_schema, schema_text
from tests.conftest import Run

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted((ROOT / "rulesets").glob("*.toml"))
HOSTILE = ROOT / "tests" / "hostile"
# The hostile files the loader refuses for their shape (a key, a type, a bound), not for what a
# formula or pattern does: the schema refuses each of them too.
SHAPE_REFUSED = ["base_etc_passwd", "base_proc_environ", "base_self", "base_loop_a", "base_loop_b",
                 "format_version", "huge_card_value", "huge_option_default", "huge_table_number",
                 "huge_float_table", "huge_list_table", "id_path_traversal", "inf_nan", "variant_recursion"]


def validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json_schema())


def as_json(path: Path) -> Any:
    """The TOML file as JSON would hold it (inf and nan stay floats, as Python's json reads them)."""
    return json.loads(json.dumps(tomllib.loads(path.read_text(encoding="utf-8"))))


def test_the_schema_is_valid_and_the_shipped_file_is_generated_from_the_declaration() -> None:
    jsonschema.Draft202012Validator.check_schema(json_schema())
    shipped = (ROOT / "rulesets" / SCHEMA_FILE).read_text(encoding="utf-8")
    assert shipped == schema_text(), "stale: run scorepad rules schema > rulesets/ruleset.schema.json"


def test_rules_schema_prints_it(cli: Callable[..., Run]) -> None:
    r = cli("rules", "schema")
    assert r.code == 0 and json.loads(r.out) == json_schema()


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_every_bundled_ruleset_names_the_schema_and_passes_it(path: Path) -> None:
    assert path.read_text(encoding="utf-8").splitlines()[0] == f"#:schema ./{SCHEMA_FILE}"
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator().iter_errors(as_json(path))]
    assert not errors, errors[:5]


@pytest.mark.parametrize("name", SHAPE_REFUSED)
def test_hostile_rulesets_refused_for_their_shape_fail_the_schema(cli: Callable[..., Run], name: str) -> None:
    path = HOSTILE / f"{name}.toml"
    assert cli("rules", "check", str(path)).code == 2           # the loader refuses it ...
    assert not validator().is_valid(as_json(path))              # ... and so does the schema


def test_the_schema_refuses_what_the_loader_refuses_by_key_and_type() -> None:
    base = {"game": {"id": "x", "name": "X"}}
    v = validator()
    assert v.is_valid(base)
    for bad in ({"gmae": {}}, {"game": {"id": "x"}}, {"game": {"id": "X Y", "name": "X"}},
                {"players": {"min": 0}}, {"players": {"sides": "teams"}}, {"fields": {"bid": {"type": "text"}}},
                {"fields": {"bid": {"bidding": "yes"}}}, {"end": {"winner": "loudest"}},
                {"check": [{"ok": "true", "message": "m", "colour": 1}]}, {"rule": [{"on": "deal"}]},
                {"variants": {"v": {"format": 1}}}, {"tables": {"t": 1e300}}, {"display": {"side": "x"}}):
        assert not v.is_valid({**base, **bad}), bad


def test_a_starter_names_the_schema_written_beside_it(cli: Callable[..., Run], tmp_path: Path) -> None:
    r = cli("--rules-dir", str(tmp_path), "rules", "new", "my-game")
    assert r.code == 0, r.err
    assert (tmp_path / "my-game.toml").read_text(encoding="utf-8").startswith(f"#:schema ./{SCHEMA_FILE}\n")
    assert (tmp_path / SCHEMA_FILE).read_text(encoding="utf-8") == schema_text()
    assert validator().is_valid(as_json(tmp_path / "my-game.toml"))
