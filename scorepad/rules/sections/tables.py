"""`[tables]`: named values (scoring tables) for formulas to look up."""

from __future__ import annotations

from typing import Any

from scorepad.locale import N_, Said
from scorepad.rules.names import name_ok
from scorepad.rules.problems import Problems
from scorepad.rules.sections import section
from scorepad.rules.source import MAX_TABLE_ITEMS, depth_and_size


def read_tables(data: dict[str, Any], p: Problems) -> dict[str, Any]:
    tables = section(data, "tables", None, p)
    for tname, value in tables.items():
        name_ok(tname, f"tables.{tname}", p)
        if depth_and_size(value)[1] > MAX_TABLE_ITEMS:
            p.add(f"tables.{tname}", Said(N_("has more than {most} entries"), most=MAX_TABLE_ITEMS))
    return tables
