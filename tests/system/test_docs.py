"""Docs that cannot drift: the example ruleset in docs/rulesets.md loads and scores as the text says."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run

DOCS = Path(__file__).parents[2] / "docs" / "rulesets.md"


def example_file(heading: str, path: Path) -> Path:
    """The first TOML block under `heading` in docs/rulesets.md, written to `path`."""
    text = DOCS.read_text(encoding="utf-8")
    toml = re.search(r"```toml\n(.*?)```", text[text.index(heading):], re.S)
    assert toml is not None
    path.write_text(toml.group(1), encoding="utf-8")
    return path


def test_docs_example_ruleset_plays(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = example_file("## A complete small example", tmp_path / "little-hearts.toml")
    assert cli("rules", "check", str(path)).code == 0
    assert cli("new", str(path), "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "hearts=5,4,3,1", "queen=ann").code == 0
    data = json.loads(cli("standings", "--json").out)
    assert [s["score"] for s in data["sides"]] == [18, 4, 3, 1]
    assert data["next"]["pass"] == "right"
    assert cli("hand", "hearts=13,0,0,0", "queen=ann").code == 0   # the moon: the others 26 each
    data = json.loads(cli("standings", "--json").out)
    assert [s["score"] for s in data["sides"]] == [18, 30, 29, 27]


def test_docs_example_of_related_fields_plays(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = example_file("## A complete example of fields that relate", tmp_path / "little-oh-hell.toml")
    assert cli("rules", "check", str(path)).code == 0
    assert cli("new", str(path), "ann", "bob", "cat").code == 0
    refused = cli("hand", "bid=1,0,0", "tricks=1,0")
    assert refused.code == 2 and "ann deals and may not bid 1" in refused.err
    done = cli("hand", "bid=0,0,0", "tricks=1,0")
    assert done.code == 0 and "worked out: cat.tricks=0" in done.out
    data = json.loads(cli("standings", "--json").out)
    assert [s["score"] for s in data["sides"]] == [0, 10, 10]
    refused = cli("hand", "void=yes", "tricks=1,1,0")
    assert refused.code == 2 and "tricks does not apply to this hand" in refused.err
    assert cli("hand", "void=yes").code == 0
    data = json.loads(cli("standings", "--json").out)
    assert [s["score"] for s in data["sides"]] == [0, 10, 10]


def test_docs_example_of_values_that_follow_plays(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = example_file("## A complete example of values that follow", tmp_path / "little-meld.toml")
    assert cli("rules", "check", str(path)).code == 0
    assert cli("new", str(path), "ann", "bob").code == 0
    done = cli("hand", "ann.melds=tm 4A", "bob.melds=20", "ann.won=A A A 10 10 K")
    assert done.code == 0, done.err
    assert "worked out: ann.card_points=57, bob.card_points=63" in done.out
    data = json.loads(cli("standings", "--json").out)
    assert [s["score"] for s in data["sides"]] == [197, 83]
    refused = cli("hand", "ann.melds=4A", "ann.four_aces=0", "card_points=60,60")
    assert refused.code == 2 and "ann.four_aces is typed as 0, but ann.melds gives 1" in refused.err
    refused = cli("hand", "ann.won=A A", "card_points=30,90")
    assert refused.code == 2 and "ann.card_points is typed as 30, but won gives 22" in refused.err
    data = json.loads(cli("standings", "--json").out)
    assert [s["score"] for s in data["sides"]] == [197, 83]


def test_every_bundled_ruleset_loads_and_has_scenarios() -> None:
    from scorepad.rules.registry import bundled_dir, load

    scenarios = Path(__file__).parents[1] / "scenarios"
    for path in sorted(bundled_dir().glob("*.toml")):
        rs = load(str(path))
        for variant in rs.variants:
            load(str(path), variant=variant)
        files = list((scenarios / rs.id).glob("*.toml"))
        assert files, f"{rs.id} has no scenario files"
        played = {tomllib.loads(f.read_text(encoding="utf-8")).get("variant") for f in files}
        for variant in rs.variants:
            assert variant in played, f"{rs.id}:{variant} has no scenario"


def test_every_formula_function_is_documented() -> None:
    from scorepad.rules.expr import BUILTINS
    from scorepad.rules.model import card_functions

    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("## Formulas"):text.index("### Names a formula sees")]
    for name in [*BUILTINS, *card_functions({})]:
        assert re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", section), f"{name} is not in docs/rulesets.md"


def test_formula_limits_in_the_docs_are_the_codes() -> None:
    """The work limit, the cut of shown values, and the comprehension rule, as docs/rulesets.md states them."""
    from scorepad.errors import FormulaError, RulesetError
    from scorepad.rules.expr import MAX_STEPS, compile_formula
    from scorepad.rules.loader import load_text
    from scorepad.rules.values import MAX_SHOWN

    text = DOCS.read_text()
    assert f"**{MAX_STEPS:,} steps**" in text and f"budget of {MAX_STEPS:,} steps" in text
    assert f"cut at {MAX_SHOWN} characters" in text
    example = re.search(r"`([^`]+)` is refused", text)
    assert example and example.group(1) == "[a for a in [b for b in xs]]"
    with pytest.raises(FormulaError, match="inside a comprehension"):
        compile_formula(example.group(1), "k", ["xs"])
    hostile = Path(__file__).parents[1] / "hostile" / "cost_count_in_loop.toml"
    with pytest.raises(RulesetError) as caught:
        load_text(hostile.read_text(), "x.toml")
    quoted = re.search(r"`(score\[0\]\.points: this formula[^`]+)`", text)
    assert quoted, "the docs quote the refusal"
    shown = " ".join(quoted.group(1).split()).removesuffix(" ...")
    assert shown in caught.value.problems[0]


ARCHITECTURE = DOCS.with_name("architecture.md")
ROOT = DOCS.parents[1]
# `layer/module.py`, `layer/module.py: name` or `folder/` in backticks: a place in the package or the tree
_PLACE = re.compile(r"`((?:[\w.]+/)+(?:[\w.]+\.py)?)(?:: (\w+))?`")


def _place(path: str) -> Path | None:
    for base in (ROOT / "scorepad", ROOT):
        if (base / path).exists():
            return base / path
    return None


def test_every_place_the_architecture_map_names_exists() -> None:
    """docs/architecture.md names modules, folders and functions: each must be where it says."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    places = _PLACE.findall(text)
    assert len(places) > 30
    for path, name in places:
        found = _place(path)
        assert found is not None, f"docs/architecture.md names {path}, which is not in the tree"
        if name:
            source = found.read_text(encoding="utf-8")
            assert re.search(rf"^(?:def |class )?{name}\b", source, re.M), f"{path} has no {name}"
