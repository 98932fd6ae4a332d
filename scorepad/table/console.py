"""The terminal a person types into: questions with line editing, history and tab completion, and
coloured output where the terminal wants it.

Line editing comes from the standard library's `readline` (GNU readline or libedit, whichever
Python was built with): it gives the arrow keys, history and tab completion that a table needs at
no cost in dependencies or start-up time. prompt_toolkit would add drop-down menus and
multi-line editing, which a prompt that asks one short value at a time does not use.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Protocol, TextIO

from scorepad.locale import _
from scorepad.text.output import terminal_safe


class Console(Protocol):
    """What the prompt and the session need from a terminal (tests pass a scripted one)."""

    def ask(self, question: str, candidates: Sequence[str] = ()) -> str:
        """One line from the person; raises EOFError (Ctrl-D) or KeyboardInterrupt (Ctrl-C)."""
        ...

    def say(self, text: str, style: str = "") -> None:
        """A line of output; `style` is one of '', 'good', 'bad', 'event', 'dim'."""
        ...


COLOURS = {"good": "1;32", "bad": "1;31", "event": "33", "dim": "2", "bold": "1"}


def colour_wanted(stream: TextIO) -> bool:
    """Colour on a terminal, never when NO_COLOR is set (https://no-color.org) or TERM is dumb."""
    if os.environ.get("NO_COLOR") is not None or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def paint(text: str, style: str, on: bool) -> str:
    code = COLOURS.get(style)
    return f"\033[{code}m{text}\033[0m" if on and code and text else text


def emit(text: str, err: bool = False) -> None:
    """Print a line that may carry colour codes. Everything printed passes through scorepad.text.output's
    terminal-safe streams, which would show the codes as text: so the caller makes the text safe before it
    paints it, and the coloured line is written to the terminal itself. Only then: where colour is not
    wanted (not a terminal, NO_COLOR) the line goes through the safe stream, which shows any escape
    sequence in it (a ruleset's label, say) as text."""
    stream = sys.stderr if err else sys.stdout
    if "\033[" not in text or not colour_wanted(stream):
        print(text, file=stream, flush=True)
        return
    real = sys.__stderr__ if err else sys.__stdout__
    stream.flush()
    if real is None:
        return
    real.write(text + "\n")
    real.flush()


def colour_lines(text: str, stream: TextIO) -> str:
    """Colour a hand's output for a terminal: events, the winner; unchanged when colour is not wanted.
    The text is made terminal-safe before the colour codes go in (see `emit`)."""
    if not colour_wanted(stream):
        return terminal_safe(text)

    # the first words of "Finished: ..." and "Hand N" in the language they are printed in
    finished = _("Finished: a draw between {names}").split(":")[0] + ":"
    hand = _("Hand {n}").split("{")[0]
    out = []
    for line in terminal_safe(text).split("\n"):
        if line.startswith("  * "):
            line = paint(line, "event", True)
        elif line.startswith(finished):
            line = paint(line, "good", True)
        elif hand and line.startswith(hand):
            line = paint(line, "bold", True)
        out.append(line)
    return "\n".join(out)


class TerminalConsole:
    """input() with readline: history kept across questions (and in a file for `play`), Tab completes
    the candidates of the current question."""

    def __init__(self, history: Path | None = None) -> None:
        self.colour = colour_wanted(sys.stdout)
        self._candidates: list[str] = []
        self._history = history
        self._readline = self._setup()

    def _setup(self) -> object | None:
        try:
            import readline  # start-up: only a terminal prompt needs it
        except ImportError:  # Windows without pyreadline: plain input() still works
            return None
        readline.set_completer(self._complete)
        readline.set_completer_delims(" \t,=")
        if "libedit" in (readline.__doc__ or ""):
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")
        if self._history is not None:
            with contextlib.suppress(OSError):
                readline.read_history_file(self._history)
            readline.set_history_length(1000)
        return readline

    def _complete(self, text: str, state: int) -> str | None:
        low = text.lower()
        matches = [c for c in self._candidates if c.lower().startswith(low)]
        return matches[state] if state < len(matches) else None

    def ask(self, question: str, candidates: Sequence[str] = ()) -> str:

        self._candidates = list(candidates)
        return input(terminal_safe(question))  # readline writes the question to the terminal itself

    def say(self, text: str, style: str = "") -> None:
        if self.colour and style:

            emit(paint(terminal_safe(text), style, True))
        else:
            print(text, flush=True)

    def save_history(self) -> None:
        """Write the history file. GNU readline writes `NAME-PID.tmp` beside it and renames that over it:
        a terminal closed meanwhile (SIGHUP) would leave the empty temporary file behind, so the hang-up
        and termination signals wait until the write is done; temporary files of earlier sessions that
        ended that way are removed."""
        if self._readline is None or self._history is None:
            return
        history = self._history
        try:
            history.parent.mkdir(parents=True, exist_ok=True)
            with _signals_held():
                self._readline.write_history_file(history)  # type: ignore[attr-defined]
        except OSError:
            pass
        remove_stale_temporaries(history)


_HELD = ("SIGHUP", "SIGTERM")


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold the hang-up and termination signals for a moment (delivered after it, where the system can)."""
    import signal  # start-up: only saving the history needs it

    held = {getattr(signal, name) for name in _HELD if hasattr(signal, name)}
    if not held or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def remove_stale_temporaries(history: Path) -> None:
    """Remove readline's `NAME-PID.tmp` files beside `history` whose process is gone."""
    import glob  # start-up: only saving the history needs it

    try:
        leftovers = list(history.parent.glob(f"{glob.escape(history.name)}-*.tmp"))
    except OSError:
        return
    for path in leftovers:
        pid = path.name[len(history.name) + 1:-len(".tmp")]
        if not pid.isdigit() or _alive(int(pid)):
            continue
        with contextlib.suppress(OSError):
            path.unlink()


def _alive(pid: int) -> bool:
    """Whether a process `pid` is running (so its temporary file may still be being written)."""
    if pid == os.getpid():
        return False   # this process has finished writing
    if os.name == "nt":
        return True    # os.kill(pid, 0) would end the process there
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, ValueError, OverflowError):
        return True   # not ours to ask about (or no way to ask): leave its file alone
    return True
