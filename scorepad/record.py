"""Records: classes of named fields, as `dataclasses` makes them, without its start-up cost.

`dataclasses` writes each class's `__init__`, `__repr__`, `__eq__`, `__hash__` and `__setattr__` as
source text and compiles it when the module is imported: about 0.3 ms a class, and importing
`dataclasses` itself pulls in `inspect` (5 ms). A `scorepad standings` imports some 30 such classes
(the ruleset model, the store's rows) and uses each a handful of times, so the compiling was a fifth
of the command. A record's methods are the same few functions for every class, reading the field
names the decorator collected; nothing is compiled, at import or later.

What a record does is what `@dataclass(frozen=True)` (`record`) or `@dataclass` (`mutable_record`)
does for the features scorepad uses: fields from the class's own annotations after its base
records' fields, defaults and `field(default=..., default_factory=..., repr=False, compare=False)`, keyword or positional
arguments, `==` on the exact class comparing the fields in order, a hash of the fields for frozen
records (none for mutable ones), `repr` as `Name(a=1, b='x')`, assignment refused on a frozen
record, and `__match_args__`. A method the class body defines itself is kept. `replace` and
`fields` stand for `dataclasses.replace` and `dataclasses.fields`; tests/leaves/test_record.py holds every
record class to the dataclass made of the same declaration.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")

_MISSING: Any = object()


class FrozenRecordError(AttributeError):
    """Assigning to a field of a frozen record (as dataclasses.FrozenInstanceError)."""


class Field:
    """A field's declaration: its default or default factory, whether repr shows it and whether
    == and the hash compare it."""

    __slots__ = ("compare", "default", "default_factory", "name", "repr")

    def __init__(self, default: Any = _MISSING, default_factory: Callable[[], Any] | None = None,
                 repr: bool = True, compare: bool = True) -> None:
        if default is not _MISSING and default_factory is not None:
            raise ValueError("cannot specify both default and default_factory")
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.repr = repr
        self.compare = compare


def field(*, default: Any = _MISSING, default_factory: Callable[[], Any] | None = None,
          repr: bool = True, compare: bool = True) -> Any:
    """A field with a default (factory), hidden from repr or left out of == and the hash (as
    dataclasses.field)."""
    return Field(default, default_factory, repr, compare)


def _is_classvar(annotation: Any) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar", "t.ClassVar"))


def _collect(cls: type) -> tuple[Field, ...]:
    """The fields of `cls`: its base records' fields, then (replacing any of the same name) its own."""
    found: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for f in base.__dict__.get("__record_fields__", ()):
            found[f.name] = f
    own = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 - inspect costs the import this module saves
    for name, annotation in own.items():
        if _is_classvar(annotation):
            continue
        value = cls.__dict__.get(name, _MISSING)
        if isinstance(value, Field):
            f = value
            if f.default is _MISSING:
                delattr(cls, name)   # as dataclasses: no class attribute for a factory or no default
            else:
                setattr(cls, name, f.default)
        else:
            f = Field(value)
        f.name = name
        found.pop(name, None)
        found[name] = f
    seen_default = ""
    for f in found.values():
        if f.default is not _MISSING or f.default_factory is not None:
            seen_default = f.name
        elif seen_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument {seen_default!r}")
    return tuple(found.values())


def _init_for(names: tuple[str, ...], fill: tuple[tuple[str, Any, Any], ...], qualname: str) -> Callable[..., None]:
    """The shared __init__ of a record class: positional or keyword arguments, defaults filled in."""
    count = len(names)
    known = frozenset(names)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > count:
            raise TypeError(f"{qualname}.__init__() takes {count + 1} positional arguments but "
                            f"{len(args) + 1} were given")
        if not kwargs and len(args) == count:
            self.__dict__.update(zip(names, args, strict=False))
            return
        values = dict(zip(names, args, strict=False))
        for key in kwargs:
            if key in values:
                raise TypeError(f"{qualname}.__init__() got multiple values for argument {key!r}")
            if key not in known:
                raise TypeError(f"{qualname}.__init__() got an unexpected keyword argument {key!r}")
        values.update(kwargs)
        for name, default, factory in fill:
            if name not in values:
                values[name] = default if factory is None else factory()
        if len(values) < count:
            missing = [n for n in names if n not in values]
            raise TypeError(f"{qualname}.__init__() missing {len(missing)} required argument"
                            f"{'s' if len(missing) > 1 else ''}: {', '.join(map(repr, missing))}")
        self.__dict__.update((n, values[n]) for n in names)

    return __init__


def _methods(cls: type, fields: tuple[Field, ...], frozen: bool) -> dict[str, Any]:
    names = tuple(f.name for f in fields)
    fill = tuple((f.name, f.default, f.default_factory) for f in fields
                 if f.default is not _MISSING or f.default_factory is not None)
    shown = tuple(f.name for f in fields if f.repr)
    qualname = cls.__qualname__
    compared = tuple(f.name for f in fields if f.compare)
    values_of: Callable[[Any], tuple[Any, ...]]   # the compared fields as a tuple, in order
    if len(compared) > 1:
        values_of = attrgetter(*compared)
    elif len(compared) == 1:
        one = compared[0]
        values_of = lambda obj: (getattr(obj, one),)  # noqa: E731
    else:
        values_of = lambda obj: ()  # noqa: E731

    __init__ = _init_for(names, fill, qualname)

    def __repr__(self: Any) -> str:
        return f"{type(self).__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in shown)})"

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return values_of(self) == values_of(other)

    methods: dict[str, Any] = {"__init__": __init__, "__repr__": __repr__, "__eq__": __eq__}
    if frozen:
        def __hash__(self: Any) -> int:
            return hash(values_of(self))

        def __setattr__(self: Any, name: str, value: Any) -> None:
            raise FrozenRecordError(f"cannot assign to field {name!r}")

        def __delattr__(self: Any, name: str) -> None:
            raise FrozenRecordError(f"cannot delete field {name!r}")

        methods.update(__hash__=__hash__, __setattr__=__setattr__, __delattr__=__delattr__)
    return methods


def _make(cls: type[T], frozen: bool) -> type[T]:
    fields = _collect(cls)
    own = cls.__dict__
    # as dataclasses: a __hash__ the class body writes is kept; a body that defines __eq__ alone
    # (which sets __hash__ to None) gets the record's hash only when frozen
    explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
    for name, method in _methods(cls, fields, frozen).items():
        if name == "__hash__" and explicit_hash:
            continue
        if name in ("__setattr__", "__delattr__") or name not in own or name == "__hash__":
            method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, method)
    if not frozen and not explicit_hash:
        cls.__hash__ = None  # type: ignore[assignment]  # mutable and compared by value: unhashable
    if "__match_args__" not in own:
        setattr(cls, "__match_args__", tuple(f.name for f in fields))  # noqa: B010
    cls.__record_fields__ = fields  # type: ignore[attr-defined]
    cls.__record_frozen__ = frozen  # type: ignore[attr-defined]
    return cls


@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
def record(cls: type[T]) -> type[T]:
    """A frozen record (as `@dataclass(frozen=True)`)."""
    return _make(cls, frozen=True)


@dataclass_transform(field_specifiers=(field, Field))
def mutable_record(cls: type[T]) -> type[T]:
    """A record whose fields can be assigned (as `@dataclass`)."""
    return _make(cls, frozen=False)


def is_record(obj: Any) -> bool:
    """Whether `obj` is a record instance or class (as dataclasses.is_dataclass)."""
    return hasattr(obj, "__record_fields__")


def fields(obj: Any) -> tuple[str, ...]:
    """The names of a record's fields, in order."""
    return tuple(f.name for f in obj.__record_fields__)


def replace(obj: T, **changes: Any) -> T:
    """A copy of a record with some fields changed (as dataclasses.replace)."""
    names = fields(obj)
    for key in changes:
        if key not in names:
            raise TypeError(f"{type(obj).__qualname__}.__init__() got an unexpected keyword argument {key!r}")
    return type(obj)(**{n: changes[n] if n in changes else getattr(obj, n) for n in names})
