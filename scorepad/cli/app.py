"""The command line: parse options, make one library call, render. Errors become exit statuses here.

Each command imports its use case inside its body, not here: this module is loaded by every command
that goes through Typer, and the use cases together cost ~250 ms to import (measured beside it,
this machine, 2026-12) where `scorepad games` takes ~150 ms in all.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import typer

from scorepad.app.config import user_data_dir
from scorepad.cli import context as clicore
from scorepad.cli.coerce import plain_coercion
from scorepad.cli.context import CTX
from scorepad.cli.context import config as _config
from scorepad.cli.context import db_spec as _db_spec
from scorepad.cli.context import lang as _lang
from scorepad.cli.context import on_terminal as _on_terminal
from scorepad.cli.context import print_json as _print_json
from scorepad.cli.context import rules_dirs as _rules_dirs
from scorepad.cli.context import store as _store
from scorepad.cli.context import table as _table
from scorepad.cli.early import Early
from scorepad.cli.help import add_examples, words_not_types
from scorepad.errors import ScorepadError
from scorepad.locale import N_, _, current, ngettext, shown

words_not_types()  # help in words (GAME, PLAYER), not Python types
plain_coercion()  # str, int and flag values converted without building pydantic adapters
def _typer(**kwargs: Any) -> typer.Typer:
    """A command group whose help and usage errors are click's plain text: rich's boxes cost as much
    start-up as the rest of a command."""
    return typer.Typer(rich_markup_mode=None, **kwargs)


app = _typer(add_completion=True, no_args_is_help=True, pretty_exceptions_enable=False,
                  context_settings={"help_option_names": ["-h", "--help"]},
                  help="Scorekeeper for card games played at a real table.")
rules_app = _typer(no_args_is_help=True, help="List, show and check rulesets.")
app.add_typer(rules_app, name="rules")


def _version(value: bool) -> None:
    if value:
        from scorepad import __version__

        typer.echo(_("scorepad {version}").format(version=__version__))
        raise typer.Exit()


@app.callback()
def _global(db: str | None = typer.Option(None, "--db", metavar="FILE|URL",
                                          help="database file or postgresql:// URL "
                                               "(default: SCOREPAD_DB, the config, the user data directory)"),
            rules_dir: list[str] = typer.Option([], "--rules-dir", metavar="DIR",
                                                help="extra directory of ruleset files (repeatable)"),
            version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                         help="print the version and exit"),
            lang: str | None = typer.Option(None, "--lang", metavar="CODE",
                                            help="language: en, et, ru or uk (default: the config's "
                                            "language, SCOREPAD_LANG, else the locale)")) -> None:
    clicore.start(db, rules_dir, lang)


# ------------------------------------------------------------------ rules

@rules_app.command("list")
def rules_list(as_json: bool = typer.Option(False, "--json", help="JSON output")) -> None:
    """All rulesets: id, name, aliases, players, variants."""
    from scorepad.app.rulesets import summaries

    shown_in = _lang(as_json)   # first: with --json, the errors in English too
    items, problems = summaries(_rules_dirs(), shown_in)
    if as_json:
        _print_json(items)
    else:
        import shutil

        from scorepad.text.render import fit_table

        rows = [[d["id"], d["name"], d["players"], ", ".join(d["aliases"]), ", ".join(d["variants"])] for d in items]
        width = shutil.get_terminal_size((100, 24)).columns  # the terminal's width, or COLUMNS
        typer.echo(fit_table(rows, ["id", _("name"), _("players"), _("also called"), _("variants")], width, (1, 3, 4)))
    for p in problems:
        typer.echo(_("warning: {p}").format(p=p), err=True)


@rules_app.command("show")
def rules_show(ruleset: str = typer.Argument(..., help="id, alias, native name or path, optionally :VARIANT"),
               as_json: bool = typer.Option(False, "--json", help="JSON output"),
               formulas: bool = typer.Option(False, "--formulas", help="also the formulas (for writing rulesets)")) -> None:
    """Fields to type per hand, options, scoring, checks, thresholds and the end rule, in words."""
    from scorepad.rules.registry import load
    from scorepad.rules.translations import translate
    from scorepad.text.describe import details, details_text

    shown_in = _lang(as_json)   # first: with --json, the errors in English too
    d = details(translate(load(ruleset, _rules_dirs()), shown_in), shown_in)
    if as_json:
        _print_json(d)
    else:
        typer.echo(details_text(d, formulas))


@rules_app.command("schema")
def rules_schema() -> None:
    """The JSON Schema of the ruleset format, for editors (see docs/rulesets.md: editor set-up)."""
    from scorepad.rules.format import schema_text

    typer.echo(schema_text(), nl=False)


@rules_app.command("check")
def rules_check(paths: list[Path] = typer.Argument(..., help="ruleset files"),
                fmt: str = typer.Option("text", "--format",
                                        help="text (file:line:column: key: message) or json (for editors)")) -> None:
    """Validate ruleset files: every problem as file:line:column: TOML key: a sentence."""
    import json

    from scorepad.app.rulesets import check_file, locate_problems
    from scorepad.errors import UserError

    _lang(fmt == "json")   # JSON for editors: its warnings and errors in English, as its problems
    if fmt not in ("text", "json"):
        raise UserError(_("unknown format {fmt} (text or json)").format(fmt=repr(fmt)))
    bad = 0
    report = []
    for path in paths:
        result = check_file(path, _rules_dirs())
        located = locate_problems(result) if result.problems else []
        bad += bool(result.problems)
        if fmt == "json":
            report.append({"file": str(path), "ok": not result.problems, "warnings": result.warnings,
                           "problems": [p.as_dict() for p in located]})
            continue
        for line in result.warnings:
            typer.echo(line, err=True)
        for p in located:
            typer.echo(f"{path}:{p.line}:{p.column}: " + (f"{p.key}: " if p.key else "") + (p.shown or p.message), err=True)
        if not result.problems:
            typer.echo(_("{path}: ok").format(path=path))
    if fmt == "json":
        typer.echo(json.dumps(report, ensure_ascii=False, indent=2))
    if bad:
        raise SystemExit(2)


def _first_rules_dir() -> Path:
    _config()   # a broken config file is refused here
    return clicore.settings().write_rules_dir()


@rules_app.command("derive")
def rules_derive(base: str = typer.Argument(..., help="the ruleset to start from (id, alias or path)"),
                 new_id: str = typer.Argument(..., help="id of the new ruleset, e.g. skid-505"),
                 opt: list[str] = typer.Option([], "--opt", metavar="KEY=VALUE",
                                            help="KEY=VALUE: a new default for an option (repeatable)"),
                 name: str | None = typer.Option(None, "--name", help="the new ruleset's name"),
                 alias: list[str] = typer.Option([], "--alias", help="another name to find it by (repeatable)"),
                 force: bool = typer.Option(False, "--force", help="replace an existing file")) -> None:
    """Write a house-rules ruleset: an overlay of BASE with new option defaults, into the user rules directory."""
    from scorepad.app.rulesets import derive, parse_opts

    path = derive(base, new_id, parse_opts(opt), name, alias, _rules_dirs(), _first_rules_dir(), force)
    typer.echo(_("Wrote {path}; play it with `scorepad new {new_id} ...`.").format(path=path, new_id=new_id))


@rules_app.command("new")
def rules_new(new_id: str = typer.Argument(..., help="id of the new ruleset"),
              name: str | None = typer.Option(None, "--name", help="the game's name"),
              force: bool = typer.Option(False, "--force", help="replace existing files")) -> None:
    """Write a complete starter ruleset (every section and field kind once) and an example scenario."""
    from scorepad.app.rulesets import write_starter

    path, scenario = write_starter(new_id, name, _rules_dirs(), _first_rules_dir(), force)
    typer.echo(_("Wrote {path} and {scenario}.").format(path=path, scenario=scenario))
    typer.echo(_("Check: scorepad rules check {path}   Test: scorepad rules test {path}").format(path=path))


@rules_app.command("export")
def rules_export(ruleset: str = typer.Argument(..., help="id, alias or path"),
                 output: Path | None = typer.Option(None, "--output", help="file to write (default: print)"),
                 force: bool = typer.Option(False, "--force", help="replace an existing file")) -> None:
    """Write a ruleset's text out for editing (a derived one merged with its base)."""
    from scorepad.app.rulesets import write_new
    from scorepad.rules.registry import resolve, resolved_text

    path, _variant = resolve(ruleset, _rules_dirs())
    text, _warnings = resolved_text(path, _rules_dirs())
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_new(output, text, force)
        typer.echo(_("Wrote {output}.").format(output=output))


@rules_app.command("test")
def rules_test(ruleset: str = typer.Argument(..., help="ruleset file or id"),
               scenarios: list[Path] = typer.Argument(None, help="scenario files (default: those beside the ruleset)")) -> None:
    """Play scenario files against a ruleset; report every mismatch with its hand and breakdown (exit 1)."""
    from scorepad.app.rulesets import scenario_files
    from scorepad.app.scenario import run_scenario

    rs, files = scenario_files(ruleset, scenarios or [], _rules_dirs())
    failed = 0
    for f in files:
        mismatches = run_scenario(Path(f), rs, _rules_dirs())
        failed += bool(mismatches)
        typer.echo(f"{'FAIL' if mismatches else 'ok  '} {f}")
        for m in mismatches:
            typer.echo(f"  {m}")
    typer.echo(_("{value} of {n} scenarios pass.").format(value=len(files) - failed, n=len(files)))
    if failed:
        raise SystemExit(1)


config_app = _typer(no_args_is_help=True,
                         help="Your settings: default database, rules directories, option defaults, aliases.")
app.add_typer(config_app, name="config")


@config_app.command("list")
def config_list() -> None:
    """Every setting in your config file, then every setting in effect and where it came from."""
    from scorepad.app.config import flat
    from scorepad.store.protocol import mask

    values = flat(_config())
    chosen = clicore.settings()
    typer.echo(f"# {chosen.config_path.value}")
    for key, value in values.items():
        typer.echo(f"{key} = {mask(str(value)) if key == 'db' else value}")
    typer.echo(_("# in effect (a flag beats the environment, which beats the config, which beats the default):"))
    for key, value, source in chosen.where_each_came_from():
        typer.echo(f"#   {key} = {mask(value) if key == 'db' else value}   ({source})")


@config_app.command("get")
def config_get(key: str = typer.Argument(..., help="db, rules_dirs, language, alias.SHORT or GAME.OPTION")) -> None:
    """One setting."""
    from scorepad.app.config import flat
    from scorepad.errors import UserError

    values = flat(_config())
    if key not in values:
        raise UserError(_("{key} is not set").format(key=key))
    from scorepad.store.protocol import mask

    typer.echo(mask(str(values[key])) if key == "db" else str(values[key]))


@config_app.command("set")
def config_set(key: str = typer.Argument(..., help="db, rules_dirs, language, alias.SHORT or GAME.OPTION"),
               value: str = typer.Argument(..., help="the value")) -> None:
    """Change a setting (written with tomli-w; unknown keys and illegal values are refused)."""
    from scorepad.app.config import save_config, set_value
    from scorepad.store.protocol import mask

    path = save_config(set_value(_config(), key, value))
    typer.echo(_("{key} = {value} (in {path})").format(key=key, value=mask(value) if key == "db" else value, path=path))


db_app = _typer(no_args_is_help=True, help="The database itself: migrate the schema, copy between SQLite and PostgreSQL.")
app.add_typer(db_app, name="db")


@db_app.command("migrate")
def db_migrate() -> None:
    """Bring the database's schema up to this scorepad's version (commands also do it on first use)."""
    from scorepad.store import SCHEMA_VERSION
    from scorepad.store.protocol import mask

    store = _store()
    store.close()
    typer.echo(f"{mask(str(_db_spec() or store.path))}: schema version {SCHEMA_VERSION}.")


@db_app.command("copy")
def db_copy(source: str = typer.Argument(..., help="database file, postgresql:// URL, or an export/backup .json file"),
            target: str = typer.Argument(..., help="an empty database: file or postgresql:// URL")) -> None:
    """Copy a whole database between SQLite and PostgreSQL (either way), then verify both sides are equal."""
    from scorepad.app.dbcopy import copy_database

    typer.echo(copy_database(source, target).text)


club_app = _typer(no_args_is_help=True,
                       help="A club's shared PostgreSQL database: roles and the history nobody can rewrite.")
app.add_typer(club_app, name="club")


@club_app.command("init")
def club_init(prefix: str = typer.Option("scorepad", "--prefix",
                                         help="role names: PREFIX_reader, PREFIX_scorer, PREFIX_owner")) -> None:
    """Create the schema, the roles PREFIX_reader/_scorer/_owner and their GRANTs, and the append-only triggers."""
    from scorepad.store import club
    from scorepad.store.protocol import mask

    spec = _db_spec() or ""
    done = club.init(spec, prefix)
    for sql in done:
        typer.echo(sql.rstrip() + ";")
    reader, scorer, owner = club.roles(prefix)
    typer.echo("-- " + _("{where}: roles {reader}, {scorer}, {owner} are ready; give them to members with GRANT "
                         "{scorer} TO alice;").format(where=mask(spec), reader=reader, scorer=scorer, owner=owner))


# ------------------------------------------------------------------ games

@app.command("new")
def new(ruleset: str = typer.Argument(..., metavar="GAME",
                                      help="game: id, alias, native name or path; GAME:VARIANT picks a variant"),
        players: list[str] = typer.Argument(..., metavar="PLAYER...", help="players in seating order (the first deals first)"),
        team: list[str] = typer.Option([], "--team", metavar="NAME=P1,P2", help="NAME=P1,P2 names a partnership (repeatable)"),
        opt: list[str] = typer.Option([], "--opt", metavar="KEY=VALUE", help="KEY=VALUE house rule (repeatable); variant=NAME"),
        name: str | None = typer.Option(None, "--name", help="a name for this game"),
        season: str | None = typer.Option(None, "--season", help="season (default: the current one)"),
        as_json: bool = typer.Option(False, "--json", help="JSON output"),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="print only the game's id")) -> None:
    """Start a game; it becomes the current game. On a terminal it says which game and who deals
    first; otherwise (or with --quiet) it prints the game's id."""
    from scorepad.app import games as play

    _lang(as_json)   # first: with --json, the errors in English too
    row = play.new_game(_store(), ruleset, players, team, opt, name, season, _rules_dirs(), _config())
    _started(row, as_json, quiet)


def _started(row: Any, as_json: bool, quiet: bool) -> None:
    """What `new` and `rematch` print: the standings object with --json; the id alone for a script
    (--quiet, or output that is not a terminal); one sentence for a person."""
    from scorepad.app import games as play
    from scorepad.engine.game import current_dealer

    if as_json:
        _print_json(play.standings(row))
    elif quiet or not sys.stdout.isatty():
        typer.echo(str(row.id))
    else:
        game = play.in_language(play.game_of(row))
        typer.echo(_("Game {id}: {game}, {sides}; {dealer} deals first.").format(
            id=row.id, game=game.ruleset.name, sides="; ".join(s["name"] for s in row.sides),
            dealer=game.players[current_dealer(row.state, len(game.players))]))


@app.command("hand")
def hand(assignments: list[str] = typer.Argument(None, metavar="FIELD=VALUE...",
                                                help="field=value, who.field=value, field=v1,v2,..."),
         game: str | None = typer.Option(None, "--game", metavar="GAME", help="game id (default: the current game)"),
         expect: int | None = typer.Option(None, "--expect", metavar="VERSION",
                                           help="refuse unless the game is still at this version "
                                                "(`standings --json` shows it)"),
         key: str | None = typer.Option(None, "--key", metavar="KEY",
                                        help="idempotency key: a repeat with the same key is answered with the "
                                             "stored hand, never stored twice"),
         as_json: bool = typer.Option(False, "--json", help="JSON output"),
         quiet: bool = typer.Option(False, "--quiet", "-q", help="print nothing when the hand is recorded")) -> None:
    """Record one hand: prints each side's points with the why, events, and one line per side.

    On a terminal without FIELD=VALUE it asks every field of the hand, shows the hand as read and asks
    whether to record it.
    """
    clicore.hand(assignments, game, expect, key, as_json, quiet)


EXPECT_HELP = N_("refuse unless the game is still at this version (`standings --json` shows it): a repeat is then safe")


@app.command("undo")
def undo(game: str | None = typer.Option(None, "--game", metavar="GAME", help="game id (default: the current game)"),
         expect: int | None = typer.Option(None, "--expect", metavar="VERSION", help=EXPECT_HELP)) -> None:
    """Remove the last hand (it stays in the audit trail)."""
    from scorepad.app import games as play
    from scorepad.app.bids import undo_bid
    from scorepad.text.render import standings_text
    from scorepad.text.typed import typed_said

    _lang()   # the language of the call: what it says and the standings shown
    store = _store()
    taken = undo_bid(store, game)
    if taken is not None:
        row, typed = taken
        typer.echo(_("The bid for hand {value} removed ({value2}).").format(
            value=row.hands + 1, value2=typed_said(play.game_of(row), typed)))
        return
    undone = play.undo(store, game, expect)
    row, n = undone.row, undone.n
    if undone.finish:
        typer.echo(_("The finish is taken back; the game goes on at hand {n}.").format(n=n + 1))
        typer.echo(standings_text(play.standings(row)))
        return
    removed = store.undone_hand(row.id, n)
    typer.echo(_("Hand {n} removed ({value}); `scorepad redo` puts it back.").format(
                   n=n, value=typed_said(play.game_of(row), removed.typed) if removed else ''))
    typer.echo(standings_text(play.standings(row)))


@app.command("redo")
def redo(game: str | None = typer.Option(None, "--game", metavar="GAME", help="game id (default: the current game)"),
         expect: int | None = typer.Option(None, "--expect", metavar="VERSION", help=EXPECT_HELP)) -> None:
    """Put back the last hand taken back by undo (scored against the game as it stands).

    Example: scorepad undo; scorepad redo
    """
    from scorepad.app import games as play
    from scorepad.app.redo import redo as put_back
    from scorepad.text.render import hand_short_text

    _lang()   # the language of the call: the hand put back is shown in it
    rec = put_back(_store(), game, expect)
    typer.echo(hand_short_text(play.hand_json(rec)))


@app.command("bid")
def bid(assignments: list[str] = typer.Argument(None, metavar="FIELD=VALUE...",
                                                help="the bidding fields, e.g. bid=4,3,3,3 or contract=4HX by=S"),
        game: str | None = typer.Option(None, "--game", metavar="GAME", help="game id (default: the current game)"),
        expect: int | None = typer.Option(None, "--expect", metavar="VERSION", help=EXPECT_HELP)) -> None:
    """Write down the bids of the next hand before it is played; `hand` completes it.

    Example: scorepad bid bid=4,3,3,3; scorepad hand tricks=5,3,3,2   (the bids before the play, the tricks after it)
    """
    from scorepad.app.bids import record_bid

    store = _store()
    if not assignments and _on_terminal() and expect is None:
        from scorepad.table.entry import enter_bid

        with _table() as console:
            done = enter_bid(store, game, console)
    else:
        done = record_bid(store, game, assignments or [], expect)
    if done.replaced:
        typer.echo(_("The bid written down before ({value}) is replaced.").format(value=' '.join(done.replaced)))
    typer.echo(_("Bid for hand {n} written down: {value}").format(n=done.n, value=' '.join(done.typed)))


@app.command("edit")
def edit(n: int = typer.Argument(..., help="hand number"),
         assignments: list[str] = typer.Argument(None, metavar="FIELD=VALUE...", help="the values to change"),
         game: str | None = typer.Option(None, "--game", metavar="GAME", help="game id (default: the current game)"),
         expect: int | None = typer.Option(None, "--expect", metavar="VERSION", help=EXPECT_HELP)) -> None:
    """Correct hand N; later hands are re-scored."""
    from scorepad.app import games as play
    from scorepad.text.render import standings_text

    _lang()   # the language of the call: the words typed and the standings shown
    store = _store()
    if not assignments:
        if _on_terminal():
            from scorepad.table.edits import edit_interactively

            with _table() as console:
                row, rows = edit_interactively(store, game, n, console)
        else:
            from scorepad.text.typed import typed_said

            before = store.game(game)
            hands = store.hands(before.id)
            if 1 <= n <= len(hands):
                typer.echo(_("Hand {n} was typed: {value}").format(
                    n=n, value=typed_said(play.game_of(before), hands[n - 1].typed)))
            row, rows = play.edit(store, game, n, [])
    else:
        row, rows = play.edit(store, game, n, assignments, expect)
    typer.echo(play.edit_said(n, rows))
    for read in play.cards_read(play.in_language(play.game_of(row)), rows[0].typed, rows[0].hand) if rows else []:
        typer.echo(f"  {read['text']}")
    typer.echo(standings_text(play.standings(row)))


@app.command("play")
def play_session(game: str | None = typer.Argument(None, metavar="[GAME]",
                                                   help="the game to play: its id or name (default: the current game)")) -> None:
    """The evening at the table: standings, then hand after hand, with undo, edit, bid, sheet, rematch.

    At its prompt: Enter types the next hand field by field; a line like `bid=4,3,3,3 tricks=5,3,3,2`
    records it at once; `help` lists the commands. Ctrl-D or quit leaves.

    Example: scorepad play
    """
    from scorepad.app import games as play
    from scorepad.table.console import TerminalConsole
    from scorepad.table.session import Session

    store = _store()

    def start(words: Sequence[str]) -> Any:
        return play.new_game(store, words[0], list(words[1:]), rules_dirs=_rules_dirs(), config=_config())

    history = _history_file(store)
    console = TerminalConsole(history=history if _on_terminal() else None)
    try:
        code = Session(store, console, game, start).run()
    finally:
        console.save_history()
    raise SystemExit(code)


def _history_file(store: Any) -> Path:
    """Where `play` keeps the lines typed at its prompt: beside a database file; for a club's server, in
    the user's data directory under the server and database's name (never a path made of a URL)."""
    if not store.server:
        return Path(store.path.parent / (store.path.stem + ".history"))
    name = "".join(ch if ch.isalnum() or ch in "-." else "_" for ch in str(store.where))
    return user_data_dir() / "history" / f"{name}.history"


@app.command("sheet")
def sheet(game: str | None = typer.Option(None, "--game", metavar="GAME", help="game id (default: the current game)"),
          as_json: bool = typer.Option(False, "--json", help="JSON output"),
          chart: bool = typer.Option(False, "--chart", help="draw the running totals as a chart"),
          fmt: str | None = typer.Option(None, "--format", metavar="FORMAT",
                                         help="text, json, csv, md (Markdown) or html (a page with a chart)"),
          output: str | None = typer.Option(None, "--output", metavar="FILE", help="write to this file (atomically)")) -> None:
    """The score sheet: hand by hand, points and running totals (bridge: the WE/THEY pad).

    --format html writes a page of its own: the sheet and a chart of every side's total after each
    hand, the game's thresholds as lines and its events marked.

    Example: scorepad sheet --format html --output evening.html
    """
    clicore.sheet(game, as_json, chart, fmt, output)


@app.command("standings")
def standings(game: str | None = typer.Option(None, "--game", metavar="GAME", help="game id (default: the current game)"),
              as_json: bool = typer.Option(False, "--json", help="JSON output")) -> None:
    """Current totals, each side's counters, who deals next, finished/winner."""
    clicore.standings(game, as_json)


@app.command("serve")
def serve(game: str | None = typer.Option(None, "--game", metavar="GAME",
                                          help="show this game (default: whichever game is current, followed to the next)"),
          host: str = typer.Option("127.0.0.1", "--host", help="address to listen on (0.0.0.0: every network, with a warning)"),
          port: int = typer.Option(8737, "--port", help="port to listen on (0: any free port)"),
          keep_tokens: bool = typer.Option(False, "--keep-tokens",
                                           help="keep the page's address from one start to the next (in the config)"),
          scorer: bool = typer.Option(False, "--scorer",
                                      help="also serve a hand form at a second address, for the scorer")) -> None:
    """A live score page for everyone at the table, on their phones: standings, who deals, the last
    hands and the sheet, updated the moment a hand is recorded. Prints the page's address, then its
    QR code; Ctrl-C stops it. Needs `pip install 'scorepad[serve]'`.

    Example: scorepad serve --host 0.0.0.0
    """
    from scorepad.locale import current
    from scorepad.web.run import serve as run  # start-up: the web layer (and uvicorn) only for `serve`

    run(_db_spec(), game, host, port, keep_tokens, CTX.lang, current(), scorer)


@app.command("games")
def games(season: str | None = typer.Option(None, "--season", help="only this season"),
          as_json: bool = typer.Option(False, "--json", help="JSON output")) -> None:
    """List games (the current one is marked *)."""
    from scorepad.app.rows import game_title, season_name
    from scorepad.text.local_time import local_stamp
    from scorepad.text.render import games_text

    lang = _lang(as_json)   # first: with --json, the errors in English too
    store = _store()
    season = season if season is None else season_name(store, season)
    rows = [{"id": g.id, "ruleset": g.ruleset_id, "variant": g.variant, "players": g.players,
             **({} if as_json else {"title": game_title(g, lang)}),
             "hands": g.hands, "finished": g.finished, "abandoned": g.abandoned, "season": g.season, "name": g.name,
             "created": g.created if as_json else local_stamp(g.created),   # JSON: the stored UTC moment
             "winner": g.state.get("winners")} for g in store.games(season)]
    if as_json:
        _print_json(rows)
    else:
        typer.echo(games_text(rows, store.get_meta("current_game")))


@app.command("use")
def use(game_id: str = typer.Argument(..., help="game id, or the name it was started with (or its start)")) -> None:
    """Make a game the current game."""
    gid = _store().set_current(game_id)
    typer.echo(_("Game {gid} is now the current game.").format(gid=gid))


@app.command("delete")
def delete(game: str = typer.Argument(..., help="game id or name"),
           yes: bool = typer.Option(False, "--yes", help="delete without asking")) -> None:
    """Remove a game typed by mistake, with its hands (recorded in the audit trail)."""
    from scorepad.app import rows as gamerows
    from scorepad.errors import UserError

    store = _store()
    row = store.game(game)
    what = ngettext("game {id} ({ruleset}: {players}; {n} hand)", "game {id} ({ruleset}: {players}; {n} hands)",
                    row.hands).format(id=row.id, ruleset=row.ruleset_id + (" " + repr(row.name) if row.name else ""),
                                      players=", ".join(row.players), n=row.hands)
    hint = _("`scorepad backup FILE` first keeps a copy of everything")
    if not yes:
        if not sys.stdin.isatty():
            raise UserError(_("this deletes {what}; {hint}. Run again with --yes to delete it").format(
                                what=what, hint=hint))
        typer.echo(_("This deletes {what}; {hint}.").format(what=what, hint=hint))
        if not typer.confirm(_('Delete it?')):
            typer.echo(_('Nothing deleted.'))
            return
    gamerows.delete(store, row.id)
    typer.echo(_("Deleted {what}. `scorepad log --game {id}` still shows what it was.").format(what=what, id=row.id))


@app.command("abandon")
def abandon(game: str | None = typer.Option(None, "--game", help="game id or name (default: the current game)")) -> None:
    """Give up an unfinished game: kept, but out of the season tables, not a draw, and it takes no more hands."""
    from scorepad.app.rows import abandon

    row = abandon(_store(), game)
    typer.echo(ngettext("Game {id} abandoned after {hands} hand; it counts in no season table "
                        "(`scorepad rematch` starts it again).",
                        "Game {id} abandoned after {hands} hands; it counts in no season table "
                        "(`scorepad rematch` starts it again).", row.hands).format(id=row.id, hands=row.hands))


@app.command("rename")
def rename(old: str = typer.Argument(..., help="the player's name now"),
           new: str = typer.Argument(..., help="the new name"),
           game: str | None = typer.Option(None, "--game", help="game id or name (default: the current game)"),
           everywhere: bool = typer.Option(False, "--all", help="in every game (seasons then count one player)")) -> None:
    """Rename a player in one game, or in every game with --all (recorded in the audit trail)."""
    from scorepad.app import rename as renaming
    from scorepad.errors import UserError

    if everywhere and game is not None:
        raise UserError(_('--game renames in one game and --all in every game; give one of them'))
    rows = renaming.rename(_store(), old, new, game, everywhere)
    ids = ", ".join(str(r.id) for r in rows)
    typer.echo(ngettext("Renamed {old} to {new} in game {ids}.", "Renamed {old} to {new} in games {ids}.",
                        len(rows)).format(old=old, new=new.strip(), ids=ids))


@app.command("rematch")
def rematch(game: str | None = typer.Option(None, "--game", help="game id or name (default: the current game)"),
            name: str | None = typer.Option(None, "--name", help="a name for the new game"),
            season: str | None = typer.Option(None, "--season", help="season (default: the current one)"),
            as_json: bool = typer.Option(False, "--json", help="JSON output"),
            quiet: bool = typer.Option(False, "--quiet", "-q", help="print only the game's id")) -> None:
    """A new game with the same ruleset, options, seats and sides: nobody moves, and the deal passes on. It becomes current."""
    from scorepad.app import games as play

    _lang(as_json)   # first: with --json, the errors in English too
    _started(play.rematch(_store(), game, name, season), as_json, quiet)


@app.command("finish")
def finish(game: str | None = typer.Option(None, "--game", metavar="GAME", help="game id (default: the current game)"),
           expect: int | None = typer.Option(None, "--expect", metavar="VERSION", help=EXPECT_HELP)) -> None:
    """End a game now, applying the ruleset's rule for unfinished games."""
    from scorepad.app import games as play
    from scorepad.text.render import num, standings_text

    _lang()   # the language of the call: the result shown
    row, result = play.finish(_store(), game, expect)
    breakdown, events = play.result_shown(play.game_of(row), result)
    for side, pts, items in zip(row.sides, result.points, breakdown, strict=False):
        if items:
            why = ", ".join(f"{label} {num(points)}" for label, points, _to in items)
            typer.echo(f"  {side['name']}: {num(pts)} ({why})")
    for event in events:
        typer.echo(f"  * {shown(event)}")
    typer.echo(standings_text(play.standings(row)))


@app.command("log")
def log(game: str | None = typer.Option(None, "--game", metavar="GAME", help="game id (default: the current game)"),
        as_json: bool = typer.Option(False, "--json", help="JSON output")) -> None:
    """The audit trail of a game: when it started, every undo, edit, rescore and finish, with what changed."""
    from scorepad.app.rows import game_log

    _lang(as_json)   # first: with --json, the errors in English too
    store = _store()
    gid, entries, deleted = game_log(store, game)
    if as_json:
        _print_json(entries)
        return
    from scorepad.text.local_time import local_stamp
    from scorepad.text.render import audit_text

    entries = [{**e, "at": local_stamp(e["at"])} for e in entries]   # the local clock; JSON keeps UTC
    if deleted:
        typer.echo(_("Game {gid} was deleted; its audit trail:").format(gid=gid))
        typer.echo(audit_text(entries))
        return
    if current() == "en":   # as typed: English needs no ruleset loaded (log scores nothing)
        typer.echo(audit_text(entries))
        return
    from scorepad.app.games import finish_events_shown, game_of
    from scorepad.text.typed import typed_said

    row = store.game(gid)
    entries = [{**e, "detail": {**e["detail"], "events": finish_events_shown(store, row, e["detail"]["events"])}}
               if e["action"] == "finish" and isinstance(e.get("detail", {}).get("events"), list) else e
               for e in entries]
    shown_game = game_of(row)
    typer.echo(audit_text(entries, lambda typed: typed_said(shown_game, typed)))


@app.command("verify")
def verify(typed: bool = typer.Option(False, "--typed", help="also type every hand's text again, as import does "
                                                             "(about twice as long)")) -> None:
    """Replay every game and compare each hand and the totals with what is stored (exit 1 if any differ)."""
    from scorepad.app import verify as verification

    store = _store()
    problems = verification.verify(store, retype=typed)
    for p in problems:
        typer.echo(p)
    damaged: list[str] = []
    n = len(store.games(damaged=damaged)) + len(damaged)
    if problems:
        typer.echo(_("{n} problem(s) in {n2} games.").format(n=len(problems), n2=n))
        raise SystemExit(1)
    typer.echo(_("All {n} games replay to their stored totals.").format(n=n))


@app.command("backup")
def backup(target: Path = typer.Argument(..., help="file to write")) -> None:
    """A consistent copy of the database: FILE.json an export of one moment (what import and db copy read),
    any other name an SQLite copy; a PostgreSQL database is copied as an export."""
    from scorepad.errors import UserError
    from scorepad.text.output import check_not_database, check_output_path

    store = _store()
    check_output_path(target)
    check_not_database(target, store.path)
    if target.exists() or target.is_symlink():
        raise UserError(_("{target} exists; choose a new file name").format(target=target))
    from scorepad.app.transfer.export import backup as copy_database

    copy_database(store, target)
    typer.echo(_("Backed up to {target}.").format(target=target))


@app.command("season")
def season(name: str | None = typer.Argument(None, help="season name (default: the current season); `season use NAME` switches"),
           value: str | None = typer.Argument(None, help="with `use`: the season to make current"),
           fmt: str = typer.Option("text", "--format", help="text, markdown, csv, json, html, or a tabulate format"),
           output: Path | None = typer.Option(None, "--output", help="write to this file (atomically)"),
           ruleset: str | None = typer.Option(None, "--ruleset", help="only games of this ruleset (id, alias or native name)"),
           since: str | None = typer.Option(None, "--since", help="only games on or after YYYY-MM-DD"),
           until: str | None = typer.Option(None, "--until", help="only games on or before YYYY-MM-DD"),
           player: str | None = typer.Option(None, "--player", help="only this player's line"),
           include_unfinished: bool = typer.Option(False, "--include-unfinished",
                                                   help="count unfinished games by their current standings"),
           min_games: int = typer.Option(3, "--min-games", help="games of a kind a player needs to be ranked"),
           by_variant: bool = typer.Option(False, "--by-variant", help="a leaderboard per variant of a game")) -> None:
    """A leaderboard per game (rank, rating, games, wins, places, points) in text, markdown, csv, json or html.

    last5: the last five results, oldest first: W a win, D a draw, L a loss (csv and json keep these letters)."""
    from scorepad.app.season import season_report
    from scorepad.errors import UserError

    _lang(fmt == "json")   # the JSON report is the same in every language: its errors in English too
    store = _store()
    if name == "use":
        if not value:
            raise UserError(_('say which season: `scorepad season use 2027`'))
        from scorepad.names import check_name

        value = check_name(value, "a season name")
        store.set_meta("current_season", value)
        typer.echo(_("New games now go into season {value}.").format(value=value))
        return
    if value is not None:
        raise UserError(_("unexpected {value}; `scorepad season [NAME]` or `scorepad season use NAME`").format(
                            value=repr(value)))
    for label, day in (("--since", since), ("--until", until)):
        if day is not None:
            _check_date(label, day)
    if fmt not in ("json", "csv", "html"):
        from scorepad.text.season_table import table_formats

        if {"text": "simple", "markdown": "github"}.get(fmt, fmt) not in table_formats():
            raise UserError(_("unknown format {fmt} (text, markdown, csv, json, html, or a tabulate format: "
                              "{value})").format(fmt=repr(fmt), value=", ".join(table_formats())))
    data = season_report(store, name, ruleset=ruleset, since=since, until=until, player=player,
                         include_unfinished=include_unfinished, rules_dirs=_rules_dirs(),
                         aliases=_config().get("aliases", {}), min_games=min_games, by_variant=by_variant,
                         charts=fmt == "html")
    text = _season_text(data, fmt)
    if output is None:
        typer.echo(text, nl=False)
    else:
        from scorepad.text.output import check_not_database, write_output

        check_not_database(output, store.path)
        write_output(output, text)
        typer.echo(_("Wrote {output}.").format(output=output))


def _season_text(data: dict[str, Any], fmt: str) -> str:
    """The season's data in the format asked for (the writers are in text/)."""
    if fmt == "html":
        from scorepad.text.report import season_html

        return season_html(data)
    from scorepad.text import season_table

    if fmt == "json":
        return season_table.season_json(data)
    if fmt == "csv":
        return season_table.season_csv(data)
    return season_table.season_text(data, fmt)


def _check_date(label: str, day: str) -> None:
    from datetime import date

    from scorepad.errors import UserError

    try:
        date.fromisoformat(day)
    except ValueError:
        raise UserError(_("{label} {day}: write a date as YYYY-MM-DD").format(label=label, day=repr(day))) from None


@app.command("player")
def player(name: str = typer.Argument(..., help="player name"),
           vs: str | None = typer.Option(None, "--vs", help="head-to-head with this player"),
           as_json: bool = typer.Option(False, "--json", help="JSON output")) -> None:
    """One player's history: every game, side, score, place and result, and his partners; or, with --vs,
    the games he played with or against another player."""
    from scorepad.app.season import head_to_head, known_player, partners, player_history
    from scorepad.errors import UserError

    _lang(as_json)   # first: with --json, the errors in English too
    games = _store().games()
    aliases = _config().get("aliases", {})
    name = known_player(games, name, aliases)
    if vs is not None:
        other = known_player(games, vs, aliases)
        if other == name:
            raise UserError(_("--vs {name}: name another player").format(name=other))
        record = head_to_head(games, name, other)
        if as_json:
            _print_json(record)
            return
        from scorepad.text.player_page import head_to_head_text

        typer.echo(head_to_head_text(record))
        return
    rows = player_history(games, name)
    from scorepad.app.statistics import player_statistics
    from scorepad.locale import current

    stats, per_game = player_statistics(_store(), games, name, current())
    if as_json:   # each game's own values, by statistic id
        _print_json([{**r, "statistics": per_game[r["game"]]} if r["game"] in per_game else r for r in rows])
        return
    from scorepad.text.player_page import partners_text, player_text, statistics_text

    typer.echo(player_text(rows) + partners_text(name, partners(rows, name)) + statistics_text(stats))


@app.command("stats")
def stats(player: str | None = typer.Argument(None, help="only this player (a name, an alias or its start)"),
          ruleset: str | None = typer.Option(None, "--ruleset", metavar="GAME",
                                             help="only games of this ruleset (id, alias or native name)"),
          season_: str | None = typer.Option(None, "--season", metavar="S", help="this season (default: the current one)"),
          as_json: bool = typer.Option(False, "--json", help="JSON output")) -> None:
    """The statistics each game's ruleset declares (nils made, bids made %, bags per hand), per game and
    player, over the season's finished games.

    Example: scorepad stats ann --ruleset spades"""
    from scorepad.app.season_statistics import stats_report
    from scorepad.locale import current

    _lang(as_json)   # first: with --json, the errors in English too
    report = stats_report(_store(), season_, ruleset=ruleset, player=player, rules_dirs=_rules_dirs(),
                          aliases=_config().get("aliases", {}), lang=current())
    from scorepad.text.statistics import stats_json, stats_text

    if as_json:
        _print_json(stats_json(report))
        return
    typer.echo(stats_text(report), nl=False)


@app.command("export")
def export(output: Path = typer.Option(..., "--output", help="file to write"),
           game: str | None = typer.Option(None, "--game", metavar="GAME", help="only this game (with --format toml)"),
           fmt: str = typer.Option("json", "--format", help="json (the whole database) or toml (one game)"),
           force: bool = typer.Option(False, "--force", help="replace an existing file")) -> None:
    """The whole database as documented JSON, or one game as TOML (--game ID --format toml)."""
    from scorepad.app.transfer.export import export_chunks
    from scorepad.errors import UserError

    store = _store()
    if fmt == "toml":
        from scorepad.app.gamefile import game_toml

        text: Iterable[str] = [game_toml(store, game)]
    elif fmt == "json":
        if game is not None:
            raise UserError(_('--game exports one game as TOML: add --format toml'))
        text = export_chunks(store)  # written game by game as it is read
    else:
        raise UserError(_("unknown export format {fmt} (json or toml)").format(fmt=repr(fmt)))
    from scorepad.app.rulesets import write_new
    from scorepad.text.output import check_not_database

    check_not_database(output, store.path)
    write_new(output, text, force)
    typer.echo(_("Wrote {output}.").format(output=output))


@app.command("import")
def import_(path: Path = typer.Argument(..., help="a file written by `scorepad export` (JSON, or one game as TOML)")) -> None:
    """Read an export back; games already present are skipped (no duplicates)."""
    from scorepad.errors import UserError

    if not path.is_file():
        raise UserError(_("no file {path}").format(path=path))
    if path.suffix.lower() == ".toml":
        from scorepad.app.gamefile import import_game_toml

        added, skipped = import_game_toml(_store(), path)
    else:
        from scorepad.app.transfer.importing import import_file

        added, skipped = import_file(_store(), path)
    typer.echo(ngettext("Imported {added} game; {skipped} already present.",
                        "Imported {added} games; {skipped} already present.", added).format(added=added, skipped=skipped))


@app.command("rescore")
def rescore(game_id: str = typer.Argument(..., help="game id"),
            ruleset: Path = typer.Option(..., "--ruleset", help="the ruleset file to score the game with now"),
            yes: bool = typer.Option(False, "--yes", help="apply without asking")) -> None:
    """Re-score a game with another ruleset file: shows the differences first, applies with --yes."""
    from scorepad.app import rescore as rescoring

    store = _store()
    diff = rescoring.rescore_preview(store, game_id, ruleset, _rules_dirs())
    typer.echo(diff.text)
    if not diff.changed:
        typer.echo(_('Nothing changes.'))
        return
    if not yes:
        if sys.stdin.isatty() and typer.confirm(_('Re-score the game like this?')):
            pass
        else:
            typer.echo(_('Not applied; run again with --yes to apply.'))
            return
    rescoring.rescore_apply(store, diff)
    typer.echo(_('Re-scored; the old hands are kept in the audit trail.'))


def _click_errors() -> tuple[tuple[type[BaseException], ...], tuple[type[Exception], ...]]:
    """Abort and usage-error classes of click, and of the copy of click that newer typer ships instead."""
    import importlib

    aborts: list[type[BaseException]] = []
    usage: list[type[Exception]] = []
    for name in ("click.exceptions", "typer._click.exceptions", "typer.exceptions"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        abort = getattr(module, "Abort", None)
        if isinstance(abort, type) and issubclass(abort, BaseException):
            aborts.append(abort)
        clicky = getattr(module, "ClickException", None)
        if isinstance(clicky, type) and issubclass(clicky, Exception):
            usage.append(clicky)
    return tuple(aborts), tuple(usage)


add_examples(("", app), ("rules", rules_app), ("config", config_app))


def _hand_help(early: Early) -> None:
    """`hand --help` ends with the fields of the current game, the way it would ask them."""
    from scorepad.cli.completion import current_fields

    fields = current_fields(early.db, early.game)
    for info in app.registered_commands:
        if info.name == "hand" and fields and info.help:
            text, example, rest = info.help.partition("\n\nExample:")
            info.help = f"{text}\n\n{fields}{example}{rest}"


def _completion() -> None:
    from scorepad.cli.completion import attach

    attach(app, rules_app)


def _usage_error(exc: Exception, usage_error: Any, early: Early) -> None:
    """A click usage error in the language shown; with --json in English (a script's error)."""
    if not early.json:
        usage_error(exc)
        return
    from scorepad.locale import neutral

    with neutral():
        usage_error(exc)


def _help_language(early: Early) -> None:
    """The language of --help, chosen before Typer builds the commands (their help texts are
    read then): --lang from the command line, else as the callback chooses (SCOREPAD_LANG, config, locale)."""
    from scorepad.locale import choose, set_language

    flag = early.lang
    CTX.config = None
    try:
        configured = _config().get("language")
        CTX.config_fresh = True
    except ScorepadError:
        configured = None
    set_language(choose(flag, configured)[0])


def main() -> None:
    """Entry point: run the app, turning known errors into a sentence and an exit status.

    Everything printed goes through the terminal-safe streams of scorepad.text.output: text from the
    database or from a ruleset never reaches the terminal with its control characters."""
    from scorepad.text.output import terminal_safe_output

    early = Early(sys.argv[1:])
    if early.completion_script:
        _run(early)     # Typer's own words (its colour, the shell's script) reach the terminal as they are
        return
    with terminal_safe_output():
        _run(early)


def _run(early: Early) -> None:
    if any(k.endswith("_COMPLETE") for k in os.environ):  # the shell asks for Tab candidates
        _completion()
    try:
        _help_language(early)
        if early.hand_help:
            _hand_help(early)   # after the language: the fields by their names in it
        from scorepad.locale.cli_help import localized, usage_error

        with localized(app):
            try:
                code = app(standalone_mode=False)
            except Exception as exc:   # click's usage errors and its help: printed while its words are translated
                if type(exc).__name__ == "NoArgsIsHelpError" and getattr(exc, "ctx", None) is not None:
                    typer.echo(exc.ctx.get_help())  # type: ignore[attr-defined]
                    raise SystemExit(0) from None
                if isinstance(exc, _click_errors()[1]) and type(exc).__name__ != "Abort":
                    _usage_error(exc, usage_error, early)
                    raise SystemExit(2) from None
                raise
        if code == 130:  # Ctrl-C inside a command: typer returns Exit(130) when not in standalone mode
            clicore.interrupted()
    except BaseException as exc:   # noqa: BLE001 - click's own endings here, then the one mapping (clicore.exit_for)
        _click_ending(exc)
        clicore.exit_for(exc)


def _click_ending(exc: BaseException) -> None:
    """click's help asked by a group without a command (exit 0) and its usage errors (exit 2)."""
    if type(exc).__name__ == "NoArgsIsHelpError" and getattr(exc, "ctx", None) is not None:
        typer.echo(exc.ctx.get_help())  # type: ignore[attr-defined]
        raise SystemExit(0) from None
    if isinstance(exc, _click_errors()[1]):
        exc.show()  # type: ignore[attr-defined]
        raise SystemExit(2) from None
