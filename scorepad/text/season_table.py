"""The season as tables: text, markdown or any tabulate format, CSV and JSON, from the data that
`app/season.py: season_report` gives (the HTML page is report.py).

A season of one game is that game's leaderboard; a season of several has first everyone over all
games (games, wins, evenings: what adds up across games) and then a leaderboard per game, each with
its own rating. mu and sigma are in CSV and JSON only: the tables show the one number they are
sorted by.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping, Sequence
from typing import Any

from scorepad.errors import UserError
from scorepad.locale import _, current, ngettext
from scorepad.text.numbers import local_number
from scorepad.text.output import markdown_cell, spreadsheet_safe
from scorepad.text.season_lines import cell, column_label
from scorepad.text.statistics import PARTS, statistic_shown

OVERALL = ["player", "games", "wins", "draws", "losses", "win_rate", "evenings", "last5"]
BOARD = ["rank", "player", "rating", "games", "wins", "draws", "losses", "win_rate", "avg_place", "points",
         "avg_points", "last5"]
CSV = ["game", "rank", "player", "rating", "mu", "sigma", "games", "wins", "draws", "losses", "win_rate",
       "avg_place", "points", "avg_points", "last5", "provisional"]
PAIRS = ["pair", "games", "wins", "draws", "losses", "win_rate"]

# tabulate formats that copy a cell's text into markup unescaped: a name could add HTML or LaTeX of its own
RAW_MARKUP_FORMATS = {"unsafehtml", "latex_raw"}


def table_formats() -> list[str]:
    """The tabulate formats `season --format` offers (html is scorepad's own page)."""
    from tabulate import tabulate_formats  # start-up: tabulate ~20-40 ms, only for the season table

    return sorted(f for f in tabulate_formats if f not in RAW_MARKUP_FORMATS and f != "html")


def rating_sentence() -> str:
    """What the rating is, in one plain sentence of the language shown."""
    return _("Rating: a cautious estimate of skill at this game, 0 for a new player; it rises with wins, more "
             "with wins over strong players, and firms up with more games.")


def provisional_sentence(min_games: int) -> str:
    return ngettext("Players with fewer than {n} game are listed after the others, without a rank (provisional).",
                    "Players with fewer than {n} games are listed after the others, without a rank (provisional).",
                    min_games).format(n=min_games)


def unfinished_sentence(ids: Sequence[int]) -> str:
    return ngettext("Not finished, so not counted: game {ids}.", "Not finished, so not counted: games {ids}.",
                    len(ids)).format(ids=", ".join(map(str, ids)))


def board_columns(board: Mapping[str, Any]) -> list[str]:
    """A leaderboard's columns: BOARD and the game's side counters summed (Spades' bags ...)."""
    counters = sorted({k for r in board["players"] for k in r["counters"]})
    return [*BOARD, *(f"total {k}" for k in counters)]


def board_cells(board: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A leaderboard's rows with its counters as `total …` cells."""
    return [{**r, **{f"total {k}": v for k, v in r["counters"].items()}} for r in board["players"]]


def statistics_columns(board: Mapping[str, Any]) -> list[str]:
    """The columns of a game's statistics table: the player, then each statistic its ruleset declares."""
    return ["player", *(f"statistic {s['id']}" for s in board.get("statistics", []))]


def statistics_cells(board: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each player's totals of the declared statistics, as `statistic …` cells: a mean, a rate or a first
    as the language writes it (its parts stay in the JSON), a max or a min over no hand as "–"."""
    kinds = {s["id"]: s["kind"] for s in board.get("statistics", [])}
    return [{"player": r["player"],
             **{f"statistic {k}": statistic_shown(kinds.get(k, ""), v) if kinds.get(k) in PARTS or v is None else v
                for k, v in r.get("statistics", {}).items()}}
            for r in board["players"]]


def season_json(data: Mapping[str, Any]) -> str:
    """The season as JSON: the same in every language (no words, ids only)."""
    boards = [{k: v for k, v in b.items() if k not in ("counter_words", "statistic_names", "history", "order", "places")}
              for b in data["rulesets"]]
    out = {k: v for k, v in data.items() if k != "cards"} | {"rulesets": boards}
    return json.dumps(out, ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def season_csv(data: Mapping[str, Any]) -> str:
    """One row per player per game (`game` the ruleset's id), with mu and sigma; made safe for spreadsheets."""
    import csv  # start-up: only the CSV form needs it

    counters = sorted({k for b in data["rulesets"] for r in b["players"] for k in r["counters"]})
    columns = [*CSV, *(f"total {k}" for k in counters)]
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow([spreadsheet_safe(c) for c in columns])
    for b in data["rulesets"]:
        game = b["ruleset"] + (f":{b['variant']}" if b.get("variant") else "")
        for r in board_cells(b):
            row = {**r, "game": game}
            writer.writerow([spreadsheet_safe("" if row.get(c) is None else row.get(c)) for c in columns])
    return buf.getvalue()


def table_text(fmt: str, rows: Sequence[Mapping[str, Any]], columns: Sequence[str],
               counters: Mapping[str, str] | None = None) -> str:
    """One table in a tabulate format; numbers as the language writes them, cells made safe for markdown."""
    table_fmt = {"text": "simple", "markdown": "github"}.get(fmt, fmt)
    lang = current()
    cells = []
    for r in rows:
        line = []
        for c in columns:
            v = cell(c, r.get(c))
            if c == "pair" and isinstance(v, list):
                v = " + ".join(v)
            line.append(v if lang == "en" or not isinstance(v, float) else local_number(v, lang))
        cells.append(line)
    headers = [column_label(c, counters) for c in columns]
    if table_fmt in ("github", "pipe"):
        cells = [[markdown_cell(v) for v in row] for row in cells]
        headers = [markdown_cell(h) for h in headers]
    from tabulate import tabulate  # start-up: tabulate ~20-40 ms, only for the season table

    align = ["left" if c in ("player", "pair") else "right" for c in columns]
    return str(tabulate(cells, headers=headers, tablefmt=table_fmt, missingval="-", colalign=align)) + "\n"


def season_text(data: Mapping[str, Any], fmt: str = "text") -> str:
    """The season in a tabulate format: a leaderboard per game, and everyone over all games when the
    season has several; then what the rating is, who is provisional, and which games were not counted."""
    table_fmt = {"text": "simple", "markdown": "github"}.get(fmt, fmt)
    if table_fmt not in table_formats():
        raise UserError(_("unknown format {fmt} (text, markdown, csv, json, html, or a tabulate format: "
                          "{value})").format(fmt=repr(fmt), value=", ".join(table_formats())))
    heading = "## {}" if table_fmt in ("github", "pipe") else "{}"
    boards = data["rulesets"]
    title = ngettext("Season {season}: {n} game", "Season {season}: {n} games", data["games"]).format(
        season=data["season"], n=data["games"])
    if len(boards) == 1:
        title += f" ({boards[0]['name']})"
    parts = [title] if fmt == "text" else []   # the other formats are tables to paste somewhere: no title
    if len(boards) > 1:
        parts.append(table_text(fmt, data["players"], OVERALL))
    for b in boards:
        if len(boards) > 1:
            parts.append(heading.format(ngettext("{name}: {n} game", "{name}: {n} games", b["games"]).format(
                name=b["name"], n=b["games"])))
        parts.append(table_text(fmt, board_cells(b), board_columns(b), b.get("counter_words")))
        if b["pairs"]:
            parts.append(_("Partnerships:"))
            parts.append(table_text(fmt, b["pairs"], PAIRS))
        if b.get("statistics"):
            parts.append(_("Statistics:"))
            parts.append(table_text(fmt, statistics_cells(b), statistics_columns(b), b.get("statistic_names")))
    notes = []
    if boards:
        notes.append(rating_sentence())
        if any(r["provisional"] for b in boards for r in b["players"]):
            notes.append(provisional_sentence(data["filters"]["min_games"]))
    if data["unfinished"]:
        notes.append(unfinished_sentence(data["unfinished"]))
    text = "\n".join(parts)
    return text + ("\n" + "\n".join(notes) + "\n" if notes else "")
