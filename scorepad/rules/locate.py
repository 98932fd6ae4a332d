"""Where a ruleset problem is in its file: `rules check` reports `file:line:column: key: message`.

The loader names each problem by its TOML key (`score[1].points`, `fields.bid.max`). To point an
editor at it, the file is read once more with tomlkit, whose parser is followed to note where
each table and each `key = value` starts. Only `rules check` imports this module (and tomlkit), so
no other command pays for it at start-up. A key that is not in the file (it comes from a base
ruleset, or a variant merged it) is placed at the nearest table that is; a problem with no key at
all (the file is too large) at line 1, column 1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from scorepad.locale import shown

POSITION = re.compile(r":(\d+):(\d+): ")   # `source:N:M: message`: a problem that says where it is (bad TOML)
NAME_SECTIONS = (("fields",), ("let",), ("player",), ("side",), ("options",), ("tables",), ("state", "side"),
                 ("state", "game"))


@dataclass(frozen=True)
class Located:
    """One problem of a ruleset file, with where it is."""

    line: int
    column: int
    key: str
    message: str
    shown: str = ""   # the message in the language shown (`rules check` text); JSON keeps the English

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "column": self.column, "key": self.key, "message": self.message}


def locate(source: str, text: str, problems: list[str]) -> list[Located]:
    """Each problem line (`source: key: message`) with the line and column of its key in `text`."""
    index = _Index(text)
    out = []
    for problem in problems:
        found = POSITION.match(problem, len(source)) if problem.startswith(source) else None
        if found:  # a TOML syntax error says where it is
            frame = problem[:found.end()]   # the frame is the same in every language
            out.append(Located(int(found.group(1)), int(found.group(2)), "", problem.removeprefix(frame),
                               shown(problem).removeprefix(frame)))
            continue
        rest = problem.removeprefix(f"{source}: ")
        local = shown(problem).removeprefix(f"{source}: ")   # the frame is the same in every language
        key, sep, message = rest.partition(": ")
        where = index.find(key) if sep and "\n" not in key else None
        if where is None:
            out.append(Located(1, 1, "", rest, local))
        else:
            local_key, _sep, local_message = local.partition(": ")
            out.append(Located(where[0], where[1], key, message, local_message if local_key == key else message))
    return out


class _Index:
    """Where each table and value of a TOML text starts, by tomlkit's parser."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts: dict[int, int] = {}
        self.doc: Any = None
        self.read = False

    def _read(self) -> None:
        """Parse once, on the first key looked up (a file whose problems have no key is not parsed)."""
        self.read = True
        text = self.text
        try:
            from tomlkit.parser import Parser  # start-up: tomlkit ~25 ms; only locating a mistake needs it
        except ImportError:  # pragma: no cover - tomlkit is a dependency; positions are a convenience
            return
        starts = self.starts

        class _Noting(Parser):
            def _parse_key_value(self, *args: Any, **kwargs: Any) -> Any:
                start = self._idx
                key, item = super()._parse_key_value(*args, **kwargs)
                starts[id(item)] = start
                return key, item

            def _parse_table(self, *args: Any, **kwargs: Any) -> Any:
                start = self._idx
                key, item = super()._parse_table(*args, **kwargs)
                starts.setdefault(id(item), start)
                return key, item

        try:
            self.doc = _Noting(text).parse()
        except Exception:  # noqa: BLE001 - a file tomlkit cannot read gets no positions, not a crash
            self.doc = None

    def find(self, key: str) -> tuple[int, int] | None:
        """(line, column) of `key` or of the nearest table above it in the file; None if nothing is."""
        if not key or " " in key.split(".")[0]:
            return None
        if not self.read:
            self._read()
        if self.doc is None:
            return None
        path = _path(key)
        if not path:
            return None
        start = self._walk(path)
        if start is None and len(path) == 1:  # a bare name: a field, let, option, table or counter
            for section in NAME_SECTIONS:
                start = self._walk([*section, path[0]], whole=True)
                if start is not None:
                    break
        return None if start is None else self._position(start)

    def _walk(self, path: list[str | int], whole: bool = False) -> int | None:
        node, best, i = self.doc, None, 0
        while i < len(path):
            part = path[i]
            child = _child(node, part)
            # a label with a dot in it ("display.side.a.b"): try the remaining parts joined
            j = i + 1
            while child is None and isinstance(part, str) and j < len(path) and isinstance(path[j], str):
                part = f"{part}.{path[j]}"
                child = _child(node, part)
                j += 1
            if child is None:
                return None if whole or best is None else best
            node, i = child, j if j > i + 1 else i + 1
            best = self.starts.get(id(node), best)
        return best

    def _position(self, start: int) -> tuple[int, int]:
        text = self.text
        while start < len(text) and text[start] in " \t":
            start += 1
        line = text.count("\n", 0, start) + 1
        return line, start - (text.rfind("\n", 0, start) + 1) + 1


def _child(node: Any, part: str | int) -> Any:
    try:
        if isinstance(part, int):  # an array of tables ([[score]]) or an array
            return None if hasattr(node, "keys") else node[part]
        return node[part] if hasattr(node, "keys") and part in node else None
    except (KeyError, IndexError, TypeError):
        return None


def _path(key: str) -> list[str | int]:
    """`score[1].points` -> ['score', 1, 'points']; `check[0].message{2}` -> ['check', 0, 'message']."""
    out: list[str | int] = []
    for part in key.split("."):
        name = re.sub(r"\{\d+\}$", "", part.split("[", 1)[0])
        if name:
            out.append(name)
        out += [int(n) for n in re.findall(r"\[(\d+)\]", part)]
    return out
