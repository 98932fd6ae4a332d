"""scorepad.record against dataclasses: every record class behaves as the dataclass of its declaration.

Each module that declares records is read again with `@record` written as `@dataclass(frozen=True)`
and `@mutable_record` as `@dataclass`; each record class is then held to its dataclass twin: the same
fields, defaults, constructor (positional, keyword, defaults, the errors), repr, equality, hash,
frozenness and match arguments. Plus the record functions that stand in for the dataclasses ones.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import re
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import scorepad
from scorepad import record

ROOT = Path(scorepad.__file__).resolve().parent


def _record_modules() -> list[str]:
    out = []
    for info in pkgutil.walk_packages([str(ROOT)], "scorepad."):
        path = ROOT.joinpath(*info.name.split(".")[1:])
        file = path / "__init__.py" if info.ispkg else path.with_suffix(".py")
        if file.is_file() and "from scorepad.record import" in file.read_text(encoding="utf-8"):
            out.append(info.name)
    return sorted(out)


MODULES = _record_modules()


def _twin_module(name: str, as_dataclasses: bool = True) -> types.ModuleType:
    """The module `name` again: with its records declared as dataclasses, or as they are (new classes
    that have made no instance yet)."""
    source = importlib.util.find_spec(name).origin  # type: ignore[union-attr]
    text = Path(str(source)).read_text(encoding="utf-8")
    if as_dataclasses:
        text = re.sub(r"^from scorepad\.record import [\w, ]+$", "from dataclasses import dataclass, field",
                      text, flags=re.M)
        text = re.sub(r"^@record$", "@dataclass(frozen=True)", text, flags=re.M)
        text = re.sub(r"^@mutable_record$", "@dataclass", text, flags=re.M)
    twin = types.ModuleType(name + ("_as_dataclasses" if as_dataclasses else "_again"))
    twin.__file__ = str(source)
    sys.modules[twin.__name__] = twin   # dataclasses look the module up
    try:
        exec(compile(text, str(source), "exec"), twin.__dict__)
    finally:
        del sys.modules[twin.__name__]
    return twin


def _pairs() -> list[tuple[str, type, type]]:
    pairs = []
    for name in MODULES:
        module = importlib.import_module(name)
        twin = _twin_module(name)
        for attr, cls in vars(module).items():
            if isinstance(cls, type) and cls.__module__ == name and "__record_fields__" in cls.__dict__:
                pairs.append((f"{name}.{attr}", cls, getattr(twin, attr)))
    return pairs


def _fresh(label: str) -> type:
    """The record class `label` declared anew (the shared __init__: nothing is compiled)."""
    name, _, attr = label.rpartition(".")
    cls: type = getattr(_twin_module(name, as_dataclasses=False), attr)
    assert cls.__dict__["__init__"].__code__.co_flags & 0x04   # *args: the shared __init__
    return cls


PAIRS = _pairs()


def test_the_records_are_found() -> None:
    """The twins cover the ruleset model and the store's rows (the route a `standings` takes)."""
    found = {label for label, _, _ in PAIRS}
    assert {"scorepad.rules.model.Ruleset", "scorepad.rules.model.FieldDef", "scorepad.rules.schema.Int",
            "scorepad.store.sqlite.HandRow", "scorepad.rules.cards.Deck"} <= found
    assert len(found) >= 25


def _raises(call: Any, *args: Any, **kwargs: Any) -> type | None:
    try:
        call(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - which error, compared between the twins
        return type(exc)
    return None


@pytest.mark.parametrize(("label", "rec", "dc"), PAIRS, ids=[p[0] for p in PAIRS])
def test_a_record_is_its_dataclass(label: str, rec: type, dc: type) -> None:
    for cls in (rec, _fresh(label)):
        _same_as_dataclass(label, cls, dc)


def _same_as_dataclass(label: str, rec: type, dc: type) -> None:
    assert dataclasses.is_dataclass(dc) and record.is_record(rec)
    dc_fields = dataclasses.fields(dc)
    assert record.fields(rec) == tuple(f.name for f in dc_fields)
    assert rec.__match_args__ == dc.__match_args__  # type: ignore[attr-defined]
    required = [f.name for f in dc_fields
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    frozen = dc.__dataclass_params__.frozen  # type: ignore[attr-defined]

    values = [f"v{i}" for i in range(len(dc_fields))]
    a, b = rec(*values), dc(*values)
    assert repr(a) == repr(b)
    assert a == rec(*values)
    assert (a != rec(*values)) is False
    assert (a == b) is False   # another class is never equal, as between two dataclasses
    for i, f in enumerate(dc_fields):   # each field changed: unequal when == compares it
        other = [*values[:i], "changed", *values[i + 1:]]
        assert (a == rec(*other)) is (b == dc(*other)) is (not f.compare)
    assert (rec.__hash__ is None) == (dc.__hash__ is None)
    if rec.__hash__ is not None:
        assert hash(a) == hash(b)
    assert (_raises(lambda: setattr(a, "anything", 1)) is None) == (_raises(lambda: setattr(b, "anything", 1)) is None)
    if values:
        first = dc_fields[0].name
        assert (_raises(lambda: setattr(a, first, 1)) is None) is (not frozen)
        assert (_raises(lambda: setattr(b, first, 1)) is None) is (not frozen)

    # only the required arguments, by keyword: the defaults (a fresh object from each factory)
    kw = {n: f"k{n}" for n in required}
    a, b = rec(**kw), dc(**kw)
    assert repr(a) == repr(b)
    def shown(obj: object, name: str) -> str:   # a default function: the same but for its address
        return re.sub(r" at 0x[0-9a-f]+", "", repr(getattr(obj, name)))

    assert [shown(a, f.name) for f in dc_fields] == [shown(b, f.name) for f in dc_fields]
    for f in dc_fields:
        if f.default_factory is not dataclasses.MISSING:
            assert getattr(a, f.name) is not getattr(rec(**kw), f.name)
    # the constructor refuses what the dataclass refuses
    for args, kwargs in [([*values, "extra"], {}), ((), {"no_such_field": 1}), (values[:1], {n: 1 for n in required[:1]}),
                         (values[:len(required) - 1] if required else (), {})]:
        assert (_raises(rec, *args, **kwargs) is None) == (_raises(dc, *args, **kwargs) is None), \
            (label, args, kwargs)
    # replace, as dataclasses.replace
    if values:
        changed = record.replace(rec(*values), **{dc_fields[-1].name: "new"})
        assert repr(changed) == repr(dataclasses.replace(dc(*values), **{dc_fields[-1].name: "new"}))
        assert _raises(record.replace, rec(*values), no_such_field=1) is TypeError


def test_record_semantics() -> None:
    @record.record
    class Point:
        x: int
        y: int = 0
        tags: tuple[str, ...] = record.field(default_factory=tuple, repr=False)
        note: str = record.field(default="", compare=False)

    @record.mutable_record
    class Box:
        size: int

    p = Point(1)
    assert p == Point(1, 0) and p != Point(1, 2) and hash(p) == hash(Point(1))
    assert repr(p) == "test_record_semantics.<locals>.Point(x=1, y=0, note='')"
    assert p == Point(1, note="other") and hash(p) == hash(Point(1, note="other"))
    assert Point.y == 0 and "tags" not in Point.__dict__
    with pytest.raises(AttributeError):
        p.x = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del p.x
    with pytest.raises(TypeError, match="missing 1 required argument: 'x'"):
        Point()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="multiple values for argument 'x'"):
        Point(1, x=2)  # type: ignore[misc]
    box = Box(3)
    box.size = 4
    assert box == Box(4) and Box.__hash__ is None
    with pytest.raises(TypeError):
        hash(box)
    with pytest.raises(TypeError, match="non-default argument 'z' follows default argument 'y'"):
        @record.record
        class Bad:
            y: int = 0
            z: int  # type: ignore[misc]
    assert record.fields(p) == ("x", "y", "tags", "note") and record.is_record(Point) and not record.is_record(1)


def test_records_copy_and_pickle() -> None:
    """copy, deepcopy and pickle of the module-level records, frozen and not, as of dataclasses."""
    import copy
    import pickle

    from scorepad.rules.model import Option
    from scorepad.store.sqlite import HandRow

    option = Option("limit", 500, (250, 500), None, None, "points to win")
    row = HandRow(1, ["bid=3"], {"bid": [3]}, [10], [[]], [], {"sides": []}, "2026-01-01")
    copies: tuple[Callable[[Any], Any], ...] = (copy.copy, copy.deepcopy, lambda x: pickle.loads(pickle.dumps(x)))
    for same in copies:
        assert same(option) == option and hash(same(option)) == hash(option)
        assert same(row) == row and same(row) is not row
