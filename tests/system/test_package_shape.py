"""The package's shape, as the layers issue asks: no function a newcomer cannot read in one screen.
(Imports pointing down and no cycles: import-linter's contracts in pyproject.toml; complexity and
statements: ruff's C901 and PLR0915; both run by .ci/run.)"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parents[2] / "scorepad"
MAX_LINES = 60


def test_no_function_is_longer_than_sixty_lines() -> None:
    long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_LINES:
                    long.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {node.name} ({lines} lines)")
    assert not long, "split by what each part decides:\n" + "\n".join(long)


def test_every_package_is_installed() -> None:
    """`pip install .` installs the packages pyproject.toml lists: a folder of the code missing there
    works from the source tree (as the tests run) and fails once installed."""
    import tomllib

    listed = set(tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
                 ["tool"]["setuptools"]["packages"])
    folders = {".".join(p.parent.relative_to(PACKAGE.parent).parts) for p in PACKAGE.rglob("__init__.py")}
    assert folders <= listed, f"add to [tool.setuptools] packages: {sorted(folders - listed)}"
