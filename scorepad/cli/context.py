"""The command line's own state and the bodies of the hot commands, without Typer.

Two routes lead here: the Typer app (scorepad.cli.app) for every command, and the quick route
(scorepad.cli.quick) that runs `hand`, `standings` and `sheet` without importing Typer, click or
pydantic. Both call the same functions below, so a command's behaviour is written once: the global
options (`start`), the helpers every command uses (config, store, language, errors), and the bodies
of the three hot commands. Nothing here imports Typer; `echo` is click's `echo` for text, which
this module must not import. Every command loads this module, so each hot command imports its use
case and its rendering where it runs (app.games and the engine are ~150 ms that `games` or `log`
never need; the prompt, ~150 ms more, only on a terminal).
"""

from __future__ import annotations

import errno
import json
import os
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from typing import Any, NoReturn

from scorepad.app.config import load_config
from scorepad.app.settings import Settings, resolve
from scorepad.errors import ScorepadError, StoreUnreachable, UserError
from scorepad.locale import _, current, set_language, shown
from scorepad.store.choice import open_store
from scorepad.text.output import terminal_safe


class Context:
    """The global options of this invocation."""

    def __init__(self) -> None:
        self.db: str | None = None
        self.rules_dirs: list[str] = []
        self.settings: Settings | None = None   # resolved once per invocation (scorepad.app.settings)
        self.lang: str | None = None   # --lang as given (a server answers each reader in theirs unless it is given)
        self.config: dict[str, Any] | None = None   # the user's config file, read once per invocation
        self.config_fresh = False   # read by main() for this invocation already (the language of --help)
        self.stores: list[Any] = []   # opened by this invocation: the quick route closes them before it exits


CTX = Context()

_ANSI = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")  # the codes click's echo strips when not on a terminal


def echo(message: Any = None, nl: bool = True, err: bool = False) -> None:
    """click.echo for text: a line to stdout (or stderr), colour codes dropped when it is not a
    terminal, flushed. Both routes print through this or through click's own, with equal results."""
    stream = sys.stderr if err else sys.stdout
    out = "" if message is None else str(message)
    if nl:
        out += "\n"
    if not out:
        stream.flush()
        return
    if "\033" in out:
        try:
            tty = stream.isatty()
        except (AttributeError, ValueError, OSError):
            tty = False
        if not tty:
            out = _ANSI.sub("", out)
    stream.write(out)
    stream.flush()


def start(db: str | None, rules_dir: Sequence[str], lang: str | None) -> None:
    """The global options (--db, --rules-dir, --lang): kept for the command, and the language chosen."""
    CTX.db = db
    CTX.rules_dirs = list(rules_dir)
    CTX.lang = lang
    CTX.stores = []
    if not CTX.config_fresh:
        CTX.config = None
    CTX.config_fresh = False

    CTX.settings = resolve(db=db, rules_dirs=rule_dirs_given(), lang=lang, read_config=_config_or_nothing)
    if CTX.settings.warning:
        echo(CTX.settings.warning, err=True)
    set_language(CTX.settings.language.value)


def rule_dirs_given() -> list[str]:
    return CTX.rules_dirs


def _config_or_nothing(_path: Any) -> dict[str, Any]:
    """The config file for the settings; a broken one is reported by the command that needs it."""
    try:
        return config()
    except ScorepadError:
        CTX.config = None
        return {}


def settings() -> Settings:
    """This invocation's settings (resolved by `start`; resolved here for a caller that did not start)."""
    if CTX.settings is None:
        CTX.settings = resolve(db=CTX.db, rules_dirs=CTX.rules_dirs, read_config=_config_or_nothing)
    return CTX.settings


def config() -> dict[str, Any]:
    if CTX.config is None:

        CTX.config = load_config()
    return CTX.config


def rules_dirs() -> list[str]:
    """Every rules directory, weakest first (a later one overrides an earlier): the user rules directory,
    the config's, SCOREPAD_RULES', --rules-dir's (scorepad.app.settings)."""
    config()   # a broken config file is refused here, as by every command that reads it
    return settings().rule_dir_list()


def db_spec() -> str | None:
    """--db, else SCOREPAD_DB, else the config's db, else the default file: a file path, or a PostgreSQL
    URL or connection string."""
    config()   # a broken config file is refused here, as by every command that reads it
    chosen = settings().db
    return None if chosen.source in ("default", "SCOREPAD_HOME") else str(chosen.value)


def store() -> Any:

    opened = open_store(db_spec())
    CTX.stores.append(opened)
    return opened


def close_stores() -> None:
    """Close what this invocation opened (SQLite checkpoints its log into the file, as at a normal exit)."""
    while CTX.stores:
        CTX.stores.pop().close()


def lang(as_json: bool = False) -> str | None:
    """The language of the texts shown; None (the rulesets' own texts) for JSON, which stays neutral:
    a command with --json also prints the program's own texts in English, its errors too (so a command
    with --json asks for its language before anything else, and a script never depends on the language)."""

    if as_json:
        set_language(None)
        return None
    return current()


def print_json(data: Any) -> None:
    echo(json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False))


def on_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


@contextmanager
def table() -> Iterator[Any]:
    """A terminal console for the prompt; a cancelled prompt says so and stores nothing."""
    from scorepad.table.console import TerminalConsole
    from scorepad.table.prompt import Cancelled

    try:
        yield TerminalConsole()
    except Cancelled as exc:
        echo(_('\nNot recorded; nothing was stored.'), err=True)
        raise SystemExit(130 if exc.interrupted else 0) from None


def exit_for(exc: BaseException) -> NoReturn:
    """The one mapping from what ended a command to its sentence and exit status, for both routes (the
    quick route and Typer's): a known error (its own status: 2 bad input, 1 the rest), Ctrl-C (130), the
    end of input at a question (2), a reader gone away (`| head`: 1, quietly), and the unexpected (1, one
    sentence; raised as it is with SCOREPAD_DEBUG set). An exit already decided passes through."""
    if isinstance(exc, SystemExit):
        raise exc
    if isinstance(exc, ScorepadError):
        fail(exc)
    if isinstance(exc, KeyboardInterrupt):
        interrupted()
    if isinstance(exc, EOFError):
        echo(err=True)  # as typer does before its Abort
        aborted()
    if type(exc).__name__ == "Abort":   # click's: the end of input at one of its questions
        aborted()
    if isinstance(exc, OSError) and exc.errno == errno.EPIPE:
        sys.stdout = PacifyFlush(sys.stdout)  # the reader went away (`| head`): as click
        sys.stderr = PacifyFlush(sys.stderr)
        raise SystemExit(1) from None
    if os.environ.get("SCOREPAD_DEBUG") or not isinstance(exc, Exception):
        raise exc
    internal(exc)


def fail(exc: ScorepadError) -> NoReturn:
    """A known error: its sentence on stderr, and its exit status; with more than one problem, each
    on a line below (a single one is the sentence itself, perhaps with what led to it before it)."""
    from scorepad.table.console import colour_wanted, emit, paint

    label = _("error:")
    emit(f"{paint(label, 'bad', colour_wanted(sys.stderr))} {terminal_safe(shown(exc.message))}", err=True)
    if len(exc.problems) > 1:
        for line in exc.problems:
            if line != exc.message:
                echo(f"  - {terminal_safe(shown(line))}", err=True)
    raise SystemExit(exc.exit_code)


def interrupted() -> NoReturn:
    echo(_('interrupted; nothing was stored'), err=True)
    raise SystemExit(130)


def aborted() -> NoReturn:
    echo(_('aborted; nothing was stored'), err=True)
    raise SystemExit(2)


def internal(exc: Exception) -> NoReturn:
    """The unexpected: one sentence (the caller re-raises instead when SCOREPAD_DEBUG is set). Bytes that are
    not UTF-8 in a value typed (kept by Python as lone surrogates) are the person's input, wherever they end."""
    if isinstance(exc, UnicodeEncodeError) and "surrogates" in str(exc.reason):
        fail(UserError(_("a value typed holds bytes that are not UTF-8 text; type it again in UTF-8")))
    echo(_("internal error: {name}: {exc} (set SCOREPAD_DEBUG=1 for details)").format(
             name=type(exc).__name__, exc=exc), err=True)
    raise SystemExit(1) from None


# ------------------------------------------------------------------ the hot commands

def hand(assignments: Sequence[str] | None, game: str | None, expect: int | None, key: str | None,
         as_json: bool, quiet: bool) -> None:
    """`scorepad hand`: record one hand, print the points with the why (see cli.hand for the help)."""
    from scorepad.app import games as play
    from scorepad.app.answer_lost import new_key
    from scorepad.text.render import hand_short_text

    lang(as_json)   # first: with --json, the errors in English too
    if key is not None:
        from scorepad.names import utf8_text

        utf8_text(key, "--key")
    if key is not None and not 1 <= len(key) <= 200:
        raise UserError(_("--key: write 1 to 200 characters, e.g. a UUID"))
    write_key = key or new_key()   # every hand is written with a key: a lost answer is asked about again
    try:
        st = store()
    except StoreUnreachable as exc:   # before anything was sent: certainly nothing was stored
        raise StoreUnreachable(_("{error}; nothing was stored").format(error=shown(exc.message))) from None
    from scorepad.table.entry import take_hand

    prompted = on_terminal() and not as_json and expect is None
    with table() if prompted else nullcontext() as console:
        rec = take_hand(st, game, list(assignments or []), console, write_key, expect)
    data = play.hand_json(rec)
    if as_json:
        echo(json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False))
    elif not quiet:
        from scorepad.table.console import colour_lines, emit

        emit(colour_lines(hand_short_text(data), sys.stdout))


SHEET_FORMATS = ("text", "json", "csv", "md", "markdown", "html")


def sheet(game: str | None, as_json: bool, chart: bool, fmt: str | None = None, output: str | None = None) -> None:
    """`scorepad sheet`: the score sheet, hand by hand, printed or written to a file."""
    from scorepad.app import games as play

    if fmt is None:
        fmt = "json" if as_json else "text"
    lang(fmt == "json")   # first: with JSON, the errors in English too
    if fmt not in SHEET_FORMATS:
        raise UserError(_("unknown format {fmt} (text, json, csv, md or html)").format(fmt=repr(fmt)))
    if as_json and fmt != "json":
        raise UserError(_("--json and --format {fmt} ask for two forms; give one").format(fmt=fmt))
    if chart and fmt != "text":
        raise UserError(_("--chart draws on the terminal; with --format html the page has its chart"))
    st = store()
    if output is not None:
        from scorepad.text.output import check_not_database, check_output_path

        check_output_path(output)   # before the work: a wrong place is said at once
        if not st.server:
            check_not_database(output, st.path)
    row = st.game(game)
    data = play.sheet(st, row)
    if fmt == "html":   # the page's heading gives the day it was played (not in the JSON: a moment, no score)
        data["created"] = row.created
    text = sheet_text_in(data, fmt, chart)
    if output is None:
        echo(text.removesuffix("\n"))
        return
    from scorepad.text.output import write_output

    write_output(output, text)
    echo(_("Wrote {output}.").format(output=output))


def sheet_text_in(data: dict[str, Any], fmt: str, chart: bool) -> str:
    """The sheet in the form asked for (the writers are in text/), ending with a newline."""
    if fmt == "json":
        return json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False) + "\n"
    if fmt == "csv":
        from scorepad.text.sheet_table import sheet_csv

        return sheet_csv(data)
    if fmt in ("md", "markdown"):
        from scorepad.text.sheet_table import sheet_markdown

        return sheet_markdown(data, current())
    if fmt == "html":
        from scorepad.text.sheet_page import sheet_html

        return sheet_html(data)
    from scorepad.text.render import chart_text, sheet_text

    return (chart_text(data) if chart else sheet_text(data)) + "\n"


def standings(game: str | None, as_json: bool) -> None:
    """`scorepad standings`: totals, counters, who deals next, and a bid written down for the coming hand."""
    from scorepad.app import games as play
    from scorepad.text.render import standings_text

    lang(as_json)   # first: with --json, the errors in English too
    row, data = play.standings_with_bid(store(), game)
    echo(json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False) if as_json else standings_text(data))
    if "bid" in data and not as_json:
        echo(_("Bid for hand {value}: {value2}").format(value=row.hands + 1, value2=' '.join(data["bid"])))


class PacifyFlush:
    """A stream whose flush ignores a reader that went away (EPIPE), as click's PacifyFlushWrapper."""

    def __init__(self, wrapped: Any) -> None:
        self.wrapped = wrapped

    def flush(self) -> None:
        try:
            self.wrapped.flush()
        except OSError as exc:

            if exc.errno != errno.EPIPE:
                raise

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.wrapped, attr)
