"""What scorepad hands to other programs: terminals, spreadsheets, Markdown, and files named by --output.

Text in the database and in rulesets comes from other people (imports, shared rulesets). Before it
reaches one of these readers it is made harmless here, in one place per reader:

- terminals: every control character and bidi override on stdout and stderr is shown as `\\uXXXX`
  (inside JSON output that is the same string, so `--json` stays exact);
- spreadsheets: a CSV cell that a spreadsheet would run as a formula gets a leading `'`;
- Markdown: `|` and line breaks inside a table cell are escaped;
- files: `--output` writes atomically over regular files, keeps their mode, creates new ones with
  the user's umask, and writes straight into devices and FIFOs instead of replacing them.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import stat
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from scorepad.errors import UserError
from scorepad.locale import _
from scorepad.names import unsafe_char

# ------------------------------------------------------------------ terminals

# Every character `unsafe_char` refuses, as ranges a regex finds fast (a test checks the list covers all
# of Unicode); a match that is in fact safe (the joiners U+200C/D) is left as it is. Compiled when
# first needed: most commands print only text that has none of them.
_CANDIDATE_RANGES = (
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff\U000110bd\U000110cd"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001-\U000e007f]")


@functools.cache
def candidates() -> re.Pattern[str]:
    return re.compile(_CANDIDATE_RANGES)


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    if not unsafe_char(ch):
        return ch
    code = ord(ch)
    if code > 0xFFFF:   # a surrogate pair, as JSON writes it
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def terminal_safe(text: str) -> str:
    """Text with every control character and bidi override shown as \\uXXXX; newlines, tabs and CR LF stay."""
    if text.isprintable() or text.replace("\n", "").replace("\t", "").isprintable():
        return text   # every unsafe character is one str.isprintable refuses (a test checks it)
    pattern = candidates()
    if "\r" not in text:
        return pattern.sub(_escape, text)
    return "\r\n".join(pattern.sub(_escape, part) for part in text.split("\r\n"))


class TerminalSafe:
    """A text stream that passes everything written to it through `terminal_safe`."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError("write() argument must be str")
        self._stream.write(terminal_safe(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        if name == "buffer":   # no way around the escaping through the raw bytes
            raise AttributeError(name)
        return getattr(self._stream, name)


@contextlib.contextmanager
def terminal_safe_output() -> Iterator[None]:
    """While running a command, stdout and stderr escape control characters (see the module docstring)."""
    saved = sys.stdout, sys.stderr
    sys.stdout = TerminalSafe(saved[0])
    sys.stderr = TerminalSafe(saved[1])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


# ------------------------------------------------------------------ spreadsheets and Markdown

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def spreadsheet_safe(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text, never runs: text starting with = + - @ tab CR or LF gets a
    leading ' (the OWASP rule). Numbers, also negative ones like -12, stay numbers."""
    if not isinstance(value, str) or not value.startswith(_FORMULA_START):
        return value
    if _NUMBER.match(value):
        return value
    return "'" + value


def markdown_cell(value: Any) -> Any:
    """A Markdown table cell that stays one cell: | escaped, line breaks as <br>."""
    if not isinstance(value, str):
        return value
    text = value.replace("\\", "\\\\").replace("|", "\\|")
    return re.sub(r"\r\n|\r|\n", "<br>", text)


# ------------------------------------------------------------------ files

def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def check_output_path(path: Path | str) -> Path:
    """The path --output names, or a sentence saying why nothing can be written there."""
    text = str(path)
    if not text.strip():
        raise UserError(_('--output needs a file name'))
    target = Path(text)
    if text.endswith(("/", os.sep)) or target.is_dir():
        raise UserError(_("{text} is a directory; name a file inside it").format(text=text))
    parent = target.parent
    if parent.exists() and not parent.is_dir():
        raise UserError(_("{text}: {parent} is a file, not a folder; choose another place").format(
                            text=text, parent=parent))
    if not parent.is_dir():
        raise UserError(_("{text}: the folder {parent} does not exist; create it first or choose another "
                           "place").format(text=text, parent=parent))
    return target


DATABASE_COMPANIONS = ("", "-wal", "-journal", "-shm")


def check_not_database(path: Path | str, database: Path | str) -> None:
    """Refuse to write over the database or the files SQLite keeps beside it (its -wal, -journal, -shm)."""
    target = os.path.realpath(path)
    base = os.path.realpath(database)
    for suffix in DATABASE_COMPANIONS:
        if target == base + suffix:
            what = _("the database itself") if not suffix else _("the database's own {suffix} file").format(suffix=suffix)
            raise UserError(_("{path} is {what}; choose another file name").format(path=path, what=what))


def write_output(path: Path | str, text: str | Iterable[str], *, force: bool = True) -> Path:
    """Write `text` to the file --output names; see the module docstring for what happens to what is there.

    `force=False` refuses to replace an existing regular file. Devices and FIFOs (/dev/null,
    /dev/stdout, a named pipe) are written into, never replaced; other special files are refused.
    """
    target = check_output_path(path)
    real = Path(os.path.realpath(target))   # a symlink stays a symlink: its target is written
    try:
        info: os.stat_result | None = os.stat(real)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise UserError(_("cannot write {target}: {strerror}").format(target=target, strerror=exc.strerror)) from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        if stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode):
            try:
                with open(real, "w", encoding="utf-8", newline="") as f:
                    _write(f, text)
            except OSError as exc:
                raise UserError(_("cannot write {target}: {strerror}").format(target=target, strerror=exc.strerror)) from None
            return target
        if stat.S_ISDIR(info.st_mode):
            raise UserError(_("{target} is a directory; name a file inside it").format(target=target))
        raise UserError(_("{target} is not a regular file (a socket or a block device); choose a file name").format(
                            target=target))
    if info is not None and not force:
        raise UserError(_("{target} exists; use --force to replace it").format(target=target))
    try:
        write_atomic(real, text, info)
    except OSError as exc:
        raise UserError(_("cannot write {target}: {strerror}").format(target=target, strerror=exc.strerror)) from None
    return target


def _write(f: TextIO, text: str | Iterable[str]) -> None:
    """Write text, or pieces of text as they come (a large export is never whole in memory)."""
    if isinstance(text, str):
        f.write(text)
        return
    for piece in text:
        f.write(piece)


def write_atomic(path: Path, text: str | Iterable[str], existing: os.stat_result | None = None,
                 mode: int | None = None) -> None:
    """Write a regular file so that a reader never sees half of it (temp file + rename).

    The new file gets the old one's permissions (and owner, where allowed), or for a new file
    the permissions the user's umask gives (0644 under the usual umask 022); `mode` instead gives it
    exactly those (0o600 for a file that may hold a password: the temporary file is 0600 from the start).
    """
    import tempfile  # start-up: ~6 ms; only writing a file needs it

    path = Path(path)
    if existing is None:
        with contextlib.suppress(FileNotFoundError):
            existing = os.stat(path)
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=".scorepad-", dir=directory)
    try:
        if mode is not None:
            os.chmod(fd, mode)
        elif existing is not None:
            os.chmod(fd, stat.S_IMODE(existing.st_mode))
            with contextlib.suppress(OSError):
                os.fchown(fd, existing.st_uid, existing.st_gid)
        else:
            os.chmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            _write(f, text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
