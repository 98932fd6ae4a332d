"""Typer's parameter conversion for the plain kinds scorepad declares, without building pydantic.

Typer 0.29 converts every parameter value through a pydantic TypeAdapter; importing pydantic and
building the adapters was a third of the start-up of every command. For the values that need no
judgement (a str that stays the str, a list of str, a bool flag, a run of ASCII digits for an
int, an absent value) `plain_coercion()` gives back what the adapter would give, and hands
anything else (a Path, a signed or spaced number, a bytes value ...) to Typer's own conversion,
built only then. It touches only Typer's runtime coercion, and only where the installed Typer has
the function it expects; tests run every command through it.
"""

from __future__ import annotations

from typing import Any

_PLAIN_INFO = ("parser", "min", "max", "clamp", "formats", "path_type")


class _Plain:
    """A runtime parameter of typer (the `coerce` it calls): an absent value, and str, list[str], bool and
    int values here; any other value by typer's own runtime parameter, built when first needed."""

    def __init__(self, descriptor: Any, build: Any) -> None:
        self.descriptor = descriptor
        self.annotation = descriptor.annotation
        self.parameter_info = info = descriptor.parameter_info
        plain = (getattr(descriptor, "file_annotation", None) is None and info is not None
                 and all(getattr(info, name, None) in (None, False) for name in _PLAIN_INFO))
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
        if kind is str and type(value) is str:
            return value
        if kind is bool and type(value) is bool:
            return value
        if kind is int and type(value) is str and value.isascii() and value.isdigit():
            return int(value)
        if kind == list[str] and isinstance(value, (list, tuple)) and all(type(v) is str for v in value):
            return list(value)
        return self.real().coerce(value, param=param, ctx=ctx)

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        return self.real()._coerce_value(value, param=param, ctx=ctx)


def plain_coercion() -> None:
    try:
        from typer import core
    except ImportError:  # pragma: no cover - typer is a dependency
        return
    build = getattr(core, "build_runtime_param", None)
    if build is None or getattr(build, "scorepad_plain", False):
        return

    def runtime_param(descriptor: Any) -> Any:
        return _Plain(descriptor, build)

    runtime_param.scorepad_plain = True  # type: ignore[attr-defined]
    setattr(core, "build_runtime_param", runtime_param)  # noqa: B010  (typer does not export the name)
