"""The engine before generated formula code, lazy name tables and the shaped state copy, for the
benchmarks' 'before' figures: read from the commit that kept it as tests/legacy_engine.py (the tests
compare with its recorded results, tests/data/engine_golden.json, instead). Its formulas are closure
trees, as the engine's are now."""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMIT = "da8ffbe"
PATH = "tests/legacy_engine.py"
MOVED = {
    "from scorepad.expr import": "from scorepad.rules.expr import",
    "from scorepad.ruleset import Check, Rule, Ruleset": "from scorepad.rules.model import Check, Rule, Ruleset",
    "from scorepad.ruleset import TEMPLATE_RE": "from scorepad.rules.names import TEMPLATE_RE",
}


def engine_before() -> types.ModuleType:
    """The old engine as a module, or SystemExit with a sentence when the git history is not at hand."""
    try:
        source = subprocess.run(["git", "show", f"{COMMIT}:{PATH}"], cwd=ROOT, capture_output=True, text=True,
                                check=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        raise SystemExit(f"cannot read the engine before from git ({COMMIT}:{PATH}): {exc}") from None
    for old, new in MOVED.items():   # the package's modules have moved since (round 3: the layers)
        source = source.replace(old, new)
    module = types.ModuleType("engine_before")
    module.__file__ = f"{COMMIT}:{PATH}"
    sys.modules[module.__name__] = module  # dataclasses look their module up by name
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module
