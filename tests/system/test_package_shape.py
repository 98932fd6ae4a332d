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


# The command-line modules whose docstring says why their commands import inside their bodies (every
# command loads them; each command's use case is imported where it runs).
_IMPORTING_WHERE_THEY_RUN = {"cli/app.py", "cli/context.py", "cli/quick.py"}


def test_an_import_inside_a_function_says_why() -> None:
    """An import inside a function is there for a measured start-up cost (or a version of Python),
    and a comment beside it says which; anything else is imported at the top of its module."""
    silent = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        if name in _IMPORTING_WHERE_THEY_RUN:
            assert "import" in (ast.get_docstring(tree) or ""), f"{name}: its docstring says why it imports late"
            continue
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(func):
                if isinstance(node, ast.Import | ast.ImportFrom) and not _said_why(lines, node.lineno,
                                                                                   node.end_lineno or node.lineno):
                    silent.append(f"scorepad/{name}:{node.lineno}")
    assert not silent, "import at the top, or say the start-up cost it saves:\n" + "\n".join(sorted(set(silent)))


def _said_why(lines: list[str], first: int, last: int) -> bool:
    """A comment on the import's last line, or on the line above it or above the imports it follows."""
    if "#" in lines[last - 1]:
        return True
    above = first - 2
    while above >= 0 and lines[above].lstrip().startswith(("import ", "from ")) and "#" not in lines[above]:
        above -= 1
    return above >= 0 and "#" in lines[above]
