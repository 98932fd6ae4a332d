"""Reading a file to import: its size and encoding, and a large export a piece at a time, twice (the
head and where each game begins and ends, then each game's text).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from scorepad.app.shapes import (
    NotFinite,
    _parse_float,
    _parse_int,
)
from scorepad.app.transfer.forked import can_fork
from scorepad.app.transfer.schema import MAX_FILE_BYTES
from scorepad.errors import UserError
from scorepad.locale import N_, _
from scorepad.store.sqlite import gc_paused

READ_PIECE = 1 << 20  # characters of the file read at a time


def read_document(path: Path, what: str) -> str:
    """The text of a file to import: UTF-8, of a sane size; a sentence (exit 2) otherwise. `what` is the
    message id of what the file should be (AN_EXPORT, A_GAME_FILE), translated where it is said."""
    check_size(path, what)
    try:
        return Path(path).read_bytes().decode("utf-8")
    except OSError as exc:
        raise unreadable(path, exc) from None
    except UnicodeDecodeError:
        raise UserError(_("{path}: not {what} (the file is not UTF-8 text)").format(path=path, what=_(what))) from None


# what a file to import should be, in the sentences that refuse one (read_document, check_size)
AN_EXPORT = N_("a scorepad export")
A_GAME_FILE = N_("a scorepad game file")


def check_size(path: Path, what: str) -> None:
    try:
        size = Path(path).stat().st_size
    except OSError as exc:
        raise unreadable(path, exc) from None
    if size > MAX_FILE_BYTES:
        raise UserError(_("{path}: the file is larger than {value} MiB; not {what}").format(
                            path=path, value=MAX_FILE_BYTES >> 20, what=_(what)))


def unreadable(path: Path, exc: OSError) -> UserError:
    return UserError(_("{path}: cannot read the file ({strerror})").format(path=path, strerror=exc.strerror))


_SPACE = re.compile(r"[ \t\n\r]*")


_PLAIN_JSON = json.JSONDecoder()  # where the games begin and end, and the hashes they name


_AS_READ_JSON = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float, parse_constant=NotFinite)


class FileChanged(Exception):
    """The file is not what its first reading found (it changed in between)."""


class _Pieces:
    """A JSON text read from a file a piece at a time; values are parsed one by one (`raw_decode`)
    at offsets counted from the start of the text, and what was read past is dropped."""

    def __init__(self, f: TextIO) -> None:
        self.f = f
        self.buf = ""
        self.at = 0    # in buf
        self.base = 0  # the offset of buf[0] in the text
        self.eof = False

    def _more(self) -> bool:
        if self.eof:
            return False
        piece = self.f.read(max(READ_PIECE, len(self.buf) - self.at))   # a value longer than a piece: double
        if not piece:
            self.eof = True
            return False
        self.base += self.at
        self.buf = self.buf[self.at:] + piece
        self.at = 0
        return True

    def peek(self) -> str:
        """The next character that is not white space ('' at the end of the text)."""
        while True:
            space = _SPACE.match(self.buf, self.at)
            if space is not None:
                self.at = space.end()
            if self.at < len(self.buf):
                return self.buf[self.at]
            if not self._more():
                return ""

    def take(self, chars: str) -> str:
        """The next character, one of `chars`; ValueError otherwise."""
        char = self.peek()
        if not char or char not in chars:
            raise ValueError(f"expected one of {chars}")
        self.at += 1
        return char

    def value(self, decoder: json.JSONDecoder = _PLAIN_JSON) -> tuple[Any, int, int]:
        """The next value, and where it begins and ends in the text."""
        self.peek()
        while True:
            try:
                value, end = decoder.raw_decode(self.buf, self.at)
            except json.JSONDecodeError:
                if self._more():
                    continue
                raise
            if end == len(self.buf) and self._more():
                continue  # a number may go on in the next piece
            start, self.at = self.base + self.at, end
            return value, start, self.base + end

    def text(self, start: int, end: int) -> str:
        """The text from `start` to `end` (not before what was read already)."""
        while self.base + len(self.buf) < end:
            try:
                more = self._more()
            except UnicodeDecodeError:
                raise FileChanged from None
            if not more:
                raise FileChanged
        out = self.buf[start - self.base:end - self.base]
        self.at = end - self.base
        return out


class Layout:
    """What the first reading of an export learns: the top-level values but the games, where each game
    begins and ends (None: `games` is not a list), and the ruleset hashes the games name."""

    def __init__(self, head: dict[str, Any], spans: list[tuple[int, int]] | None, used: set[str]) -> None:
        self.head, self.spans, self.used = head, spans, used

    @classmethod
    def read(cls, path: Path) -> Layout:
        """ValueError (or RecursionError, UnicodeDecodeError) for a text this reading does not follow."""
        head: dict[str, Any] = {}
        spans: list[tuple[int, int]] | None = None
        used: set[str] = set()
        with open(path, encoding="utf-8", newline="") as f, gc_paused():
            text = _Pieces(f)
            text.take("{")
            closing = text.peek() == "}"
            if closing:
                text.take("}")
            while not closing:
                key = text.value()[0]
                if not isinstance(key, str) or key in head or (key == "games" and spans is not None):
                    raise ValueError("a key twice in the top-level table")
                text.take(":")
                if key == "games" and text.peek() == "[":
                    spans = cls._games(text, used)
                else:
                    head[key] = text.value(_AS_READ_JSON)[0]
                closing = text.take(",}") == "}"
            if text.peek():
                raise ValueError("more after the top-level table")
        return cls(head, spans, used)

    @staticmethod
    def _games(text: _Pieces, used: set[str]) -> list[tuple[int, int]]:
        spans: list[tuple[int, int]] = []
        text.take("[")
        if text.peek() == "]":
            text.take("]")
            return spans
        while True:
            game, start, end = text.value()
            spans.append((start, end))
            if isinstance(game, dict) and isinstance(game.get("ruleset_hash"), str):
                used.add(game["ruleset_hash"])
            if text.take(",]") == "]":
                return spans

    def workers(self) -> int:
        """Processes to check the games in: one per core for a large file, where processes can be forked."""
        size = sum(end - start for start, end in self.spans or ())
        if size <= PARALLEL_CHARS or not can_fork():
            return 1
        return os.cpu_count() or 1

    def game_texts(self, path: Path) -> Iterator[str]:
        """The second reading: each game's text, in order (with nothing parsed around them)."""
        with open(path, encoding="utf-8", newline="") as f:
            text = _Pieces(f)
            for start, end in self.spans or ():
                yield text.text(start, end)


PARALLEL_CHARS = 4 << 20  # a file whose games take more (about 3,000 hands) is checked by one process per core
