"""Typer's parameter conversion for the plain kinds scorepad declares, without building pydantic.

Typer 0.29 converts every parameter value through a pydantic TypeAdapter; importing pydantic and
building the adapters was a third of the start-up of every command. For the values that need no
judgement (a str that stays the str, a list of str, a bool flag, a run of ASCII digits for an
int, a readable or absent path for a Path without checks, an absent value) `plain_coercion()`
gives back what the adapter would give, and hands anything else (a signed or spaced number, an
unreadable path, a bytes value ...) to Typer's own conversion, built only then. It touches only
Typer's runtime coercion; tests compare it with Typer's conversion and run every command through
it, and tests/cli/test_typer_patches.py holds it to the Typer it was written for.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

_PLAIN_INFO = ("parser", "min", "max", "clamp", "formats", "path_type")
_PATH_DEFAULTS = {"exists": False, "file_okay": True, "dir_okay": True, "writable": False, "readable": True,
                  "resolve_path": False, "allow_dash": False}
_UNSURE = object()


def _leaf(kind: Any, value: Any) -> Any:
    """One value converted as typer's adapter for `kind` would, or _UNSURE to leave it to typer."""
    if kind is str and type(value) is str:
        return value
    if kind is bool and type(value) is bool:
        return value
    if kind is int and type(value) is str and value.isascii() and value.isdigit():
        return int(value)
    if kind is int and type(value) is int:   # an int option's default (season --min-games)
        return value
    if kind is Path and type(value) is str and value and "\x00" not in value:
        path = Path(value)
        try:
            os.stat(path)
        except OSError:
            return path  # a file to be written: typer checks only an existing path
        except ValueError:
            return _UNSURE
        return path if os.access(path, os.R_OK) else _UNSURE  # typer refuses an unreadable one
    return _UNSURE


class _Plain:
    """A runtime parameter of typer (the `coerce` it calls): an absent value, and str, bool, int and Path
    values (and lists of str or Path) here; any other by typer's own runtime parameter, built when needed."""

    def __init__(self, descriptor: Any, build: Any) -> None:
        self.descriptor = descriptor
        self.annotation = descriptor.annotation
        self.parameter_info = info = descriptor.parameter_info
        plain = (getattr(descriptor, "file_annotation", None) is None and info is not None
                 and all(getattr(info, name, None) in (None, False) for name in _PLAIN_INFO)
                 and all(getattr(info, name, not value) == value for name, value in _PATH_DEFAULTS.items()))
        self.kind = self.annotation if plain else None  # None: every value goes to typer's conversion
        self._build = build
        self._real: Any = None

    def real(self) -> Any:
        if self._real is None:
            self._real = self._build(self.descriptor)
        return self._real

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        multi = param.multiple or param.nargs == -1
        if value is None:
            return () if multi else None  # as typer's RuntimeParam.coerce
        kind = self.kind
        if kind in (list[str], list[Path]):
            if isinstance(value, (list, tuple)):
                items = [_leaf(kind.__args__[0], v) for v in value]
                if _UNSURE not in items:
                    return items
        else:
            done = _leaf(kind, value)
            if done is not _UNSURE:
                return done
        try:
            return self.real().coerce(value, param=param, ctx=ctx)
        except Exception as exc:
            if type(exc).__name__ == "BadParameter" and self.annotation in (int, int | None) and isinstance(value, str):
                # pydantic's English sentence replaced by one the catalogs translate (cli_help.usage_error)
                from scorepad.locale import N_, Said

                exc.message = Said(N_("{value} is not a whole number"), value=repr(value))  # type: ignore[attr-defined]
            raise

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        return self.real()._coerce_value(value, param=param, ctx=ctx)


def plain_coercion() -> None:
    """Typer's `core.build_runtime_param` (private) replaced by one that converts plain values itself.

    Measured gain: a command on the Typer route (`scorepad games`, a whole process) takes 1.6x the
    CPU without it (pydantic imported and an adapter built per parameter; bench/README.md). Checked
    against the Typer pinned in pyproject.toml; tests/cli/test_typer_patches.py fails when the
    replaced function, or what `_Plain` hands over to, changes or disappears."""
    from typer import core  # start-up: the quick route never loads typer (~75 ms)

    build = core.build_runtime_param  # type: ignore[attr-defined]  # private: pinned and fingerprinted
    if getattr(build, "scorepad_plain", False):   # already ours
        return

    def runtime_param(descriptor: Any) -> Any:
        return _Plain(descriptor, build)

    runtime_param.scorepad_plain = True  # type: ignore[attr-defined]
    core.build_runtime_param = runtime_param  # type: ignore[attr-defined]
