"""`[options.NAME]`: house rules with their defaults."""

from __future__ import annotations

from typing import Any

from scorepad.locale import N_, Said
from scorepad.rules.format import OPTION
from scorepad.rules.model import Option
from scorepad.rules.names import name_ok
from scorepad.rules.problems import Problems
from scorepad.rules.schema import validate
from scorepad.rules.sections import section


def read_options(data: dict[str, Any], p: Problems) -> dict[str, Option]:
    options: dict[str, Option] = {}
    for oname, spec in section(data, "options", None, p).items():
        key = f"options.{oname}"
        if not name_ok(oname, key, p):
            continue
        if not isinstance(spec, dict):
            p.add(key, Said(N_("must be a table with a default")))
            continue
        spec = validate(spec, OPTION, key, p)
        if "default" not in spec:
            p.add(key + ".default", Said(N_("every option needs a default")))
            continue
        numeric = "min" in spec or "max" in spec
        if numeric and (not isinstance(spec["default"], int | float) or isinstance(spec["default"], bool)):
            p.add(key + ".default", Said(N_("must be a number (the option has a range), not {value}"),
                                         value=repr(spec["default"])))
            continue
        values = spec.get("values")
        if values is not None and (not isinstance(values, list) or spec["default"] not in values):
            p.add(key + ".values", Said(N_("must be a list that contains the default")))
            values = None
        options[oname] = Option(oname, spec["default"], tuple(values) if values else None,
                                spec.get("min"), spec.get("max"), str(spec.get("help", "")))
    return options
