"""Scorepad replaces a few private functions of Typer (scorepad/cli/coerce.py: the conversion of plain
values without pydantic; scorepad/cli/help.py: help in words, not Python types). Each was checked
against the Typer pinned in pyproject.toml; here the source of every function replaced, or called
by the replacement, is held to what it was then, so that a Typer upgrade that changes one fails
here instead of changing scorepad's behaviour quietly, and a function gone is an error, not a
patch skipped."""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

# (module, class or None, function): the first 16 hex digits of the SHA-256 of its source as written
CHECKED: dict[tuple[str, str | None, str], str] = {
    ("typer._coercion", None, "build_runtime_param"): "b1461d5fed4b0936",
    ("typer._coercion", "RuntimeParam", "coerce"): "a351794cb8d7cec6",
    ("typer.core", "_TyperParameter", "get_runtime_param"): "290734ed608e90ca",
    ("typer.core", "TyperOption", "display_type_rich"): "af08f3295f8b666f",
    ("typer.core", "_TyperParameter", "display_type_rich"): "13ab2283590644a9",
    ("typer.core", "TyperArgument", "_usage_display_name"): "97a15147edd81a22",
    ("typer.core", "TyperArgument", "_rich_display_name"): "ddfa8fc04c03caaf",
    ("typer.core", "_TyperParameter", "display_name_raw"): "8be9a3cc0278a1ca",
}


def source_of(module: str, cls: str | None, name: str) -> str | None:
    """The function's source as the installed file has it (read from the file: the patched class no
    longer holds the original), or None when it is not there."""
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    text = Path(spec.origin).read_text(encoding="utf-8")
    body = ast.parse(text).body
    if cls is not None:
        found = [n for n in body if isinstance(n, ast.ClassDef) and n.name == cls]
        if not found:
            return None
        body = found[0].body
    for node in body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return ast.get_source_segment(text, node)
    return None


@pytest.mark.parametrize(("where", "digest"), list(CHECKED.items()), ids=[".".join(filter(None, k)) for k in CHECKED])
def test_a_replaced_typer_function_is_the_one_checked(where: tuple[str, str | None, str], digest: str) -> None:
    source = source_of(*where)
    assert source is not None, f"{'.'.join(filter(None, where))} is gone from Typer {version('typer')}"
    got = hashlib.sha256(source.encode()).hexdigest()[:16]
    assert got == digest, (f"{'.'.join(filter(None, where))} changed in Typer {version('typer')}: check the patch "
                           "against it, then record the new digest")


def test_the_typer_checked_is_the_one_pinned() -> None:
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    pins = [d for d in pyproject["project"]["dependencies"] if d.startswith("typer")]
    assert pins == [f"typer=={version('typer')}"]


def test_a_missing_typer_function_is_an_error_not_a_patch_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer import core

    from scorepad.cli.coerce import plain_coercion
    from scorepad.cli.help import words_not_types

    monkeypatch.delattr(core, "build_runtime_param")
    with pytest.raises(AttributeError):
        plain_coercion()
    monkeypatch.delattr(core, "TyperArgument")
    with pytest.raises(AttributeError):
        words_not_types()


def test_the_patches_are_in_place() -> None:
    from typer import core

    import scorepad.cli.app  # noqa: F401 - applies them
    from scorepad.cli import help as words

    assert getattr(core.build_runtime_param, "scorepad_plain", False)  # type: ignore[attr-defined]
    assert core.TyperOption.display_type_rich is words._option_type
    assert core.TyperArgument._usage_display_name is words._argument_usage
