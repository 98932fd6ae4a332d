"""One reader per section of a ruleset file, each named after its section and testable alone.

A reader takes the parsed TOML (or its section), the shared problems collector and what it needs
from the sections read before it, and returns that section's part of the Ruleset.
"""

from __future__ import annotations

from typing import Any

from scorepad.locale import N_, Said
from scorepad.rules.problems import Problems
from scorepad.rules.schema import validate
from scorepad.shape import Record


def section(data: dict[str, Any], name: str, m: Record | None, p: Problems) -> dict[str, Any]:
    """A top-level table, checked against its declaration (None: a table of names the reader checks)."""
    value = data.get(name, {})
    if not isinstance(value, dict):
        p.add(name, Said(N_("must be a table")))
        return {}
    return validate(value, m, name, p) if m is not None else value


def entries(data: dict[str, Any], name: str, p: Problems) -> list[dict[str, Any]]:
    """A list section ([[check]], [[score]], [[rule]])."""
    value = data.get(name, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        p.add(name, Said(N_("must be a list of tables ([[{name}]])"), name=name))
        return []
    return value
