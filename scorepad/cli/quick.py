"""The `scorepad` entry point: `hand`, `standings` and `sheet` by a quick route, the rest by Typer.

A player waits for these three after every hand. Importing Typer (and the pydantic it coerces
parameters with) costs more than the whole command, so a command line of one of them that this
module understands for certain is parsed here, against the table scorepad/cli/quickspec.py that
scorepad/cli/quickgen.py writes from the Typer app, and runs the same body (scorepad.cli.context) the Typer
command runs. Anything else goes to Typer unchanged: help, completion, an unknown or misspelt
option, a value this parser would have to guess about, a usage error. So click keeps its own
wording and exit statuses for them, and a test runs a corpus of command lines through both routes.
`script()` is the console script; `main()` the same without its quick exit, for running in-process.
Everything past the parser is imported where it runs: a command line that goes to Typer never
loads the command bodies here, and one that runs here never loads Typer (~75 ms).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

from scorepad.cli.quickspec import COMMANDS, GLOBAL_DEFAULTS, GLOBALS, HELP

Call = tuple[str, dict[str, Any], dict[str, Any]]
"""(command, global options, the command's parameters)."""


def _option(table: dict[str, tuple[str | None, str]], args: Sequence[str], i: int, into: dict[str, Any]) -> int | None:
    """Read the option at args[i] into `into` as click would; the index after it, or None for Typer."""
    name, eq, value = args[i].partition("=")
    if name in HELP:
        return None
    entry = table.get(name)
    if entry is None or (eq and not name.startswith("--")):
        return None  # unknown, a cluster of short options, -x=value: Typer says what is wrong
    dest, kind = entry
    if kind == "flag":
        if eq:
            return None  # click: "Option '--json' does not take a value."
        into[str(dest)] = True
        return i + 1
    if kind == "defer":
        return None
    if not eq:
        if i + 1 >= len(args):
            return None  # click: "Option '--game' requires an argument."
        value = args[i + 1]
        i += 1
        if value.startswith("-") and value != "-":
            return None  # click would take it as the value; Typer decides
    if kind == "int":
        if not (value.isascii() and value.isdigit() and len(value) <= 18):
            return None  # signs, spaces, underscores, other digits: as Typer converts them
        into[str(dest)] = int(value)
    elif kind == "strs":
        into[str(dest)] = [*into[str(dest)], value]
    else:  # "str"; a repeated option keeps its last value, as in click
        into[str(dest)] = value
    return i + 1


def parse(args: Sequence[str], environ: Any = None) -> Call | None:
    """The command, global options and parameters of a command line of the quick route, or None when
    Typer must run it (anything this parser is not sure of)."""
    environ = os.environ if environ is None else environ
    if any(k.endswith("_COMPLETE") for k in environ):  # the shell asks for Tab candidates
        return None
    if os.name == "nt" and any(c in arg for arg in args for c in "~$%*?["):
        return None  # typer expands ~, variables and wildcards on Windows as a Unix shell would
    glob: dict[str, Any] = {k: (list(v) if isinstance(v, list) else v) for k, v in GLOBAL_DEFAULTS.items()}
    i = 0
    while i < len(args) and args[i].startswith("-") and args[i] != "-":
        after = _option(GLOBALS, args, i, glob)
        if after is None:
            return None
        i = after
    if i >= len(args) or args[i] not in COMMANDS:
        return None
    command = args[i]
    spec = COMMANDS[command]
    params: dict[str, Any] = {k: (list(v) if isinstance(v, list) else v) for k, v in spec["defaults"].items()}
    positional: list[str] = []
    i += 1
    while i < len(args):
        arg = args[i]
        if arg == "--":
            positional.extend(args[i + 1:])
            break
        if arg.startswith("-") and arg != "-":
            after = _option(spec["options"], args, i, params)
            if after is None:
                return None
            i = after
            continue
        positional.append(arg)
        i += 1
    if positional:
        if spec["argument"] is None:
            return None  # click: "Got unexpected extra argument"
        params[spec["argument"]] = positional
    return command, glob, params


def run(call: Call) -> None:
    """Run a parsed command as the Typer app would: the global options, the body, and its errors
    turned into a sentence and an exit status (scorepad.cli.app._run and typer's main, for this route)."""
    from scorepad.cli import context as clicore
    from scorepad.text.output import terminal_safe_output

    command, glob, params = call
    with terminal_safe_output():
        try:
            clicore.start(glob["db"], glob["rules_dir"], glob["lang"])
            getattr(clicore, command)(**params)
        except BaseException as exc:   # noqa: BLE001 - one mapping to a sentence and a status (clicore.exit_for)
            clicore.exit_for(exc)


def main() -> None:
    """The quick route when it is sure of the command line, else Typer (in-process: the tests)."""
    call = parse(sys.argv[1:])
    if call is None:
        _typer()
        return
    run(call)


def _typer() -> None:
    from scorepad.cli.app import main as typer_main

    typer_main()


def script() -> None:
    """The console script: main(); after the quick route its databases are closed (SQLite writes its
    log back into the file, as at a normal exit) and the interpreter exits as usual. The cyclic
    garbage collector is off on the quick route (it passes over every module's objects while they are
    imported; a short command makes no garbage worth collecting: ~2 ms)."""
    import gc

    call = parse(sys.argv[1:])
    if call is None:
        _typer()
        return
    gc.disable()
    try:
        run(call)
    finally:
        from scorepad.cli import context as clicore

        clicore.close_stores()
