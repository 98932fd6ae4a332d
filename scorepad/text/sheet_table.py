"""A game's score sheet as a table for other programs and pages: CSV, Markdown, and the rows the HTML
page lays out. One row per hand (and one for what `scorepad finish` added): the hand, each side's
bids and tricks where the game has them, each side's points and running total, and the hand's notes.

CSV keeps plain numbers (131, -60, 5.5) for a spreadsheet, every cell made safe for one; Markdown and
the page write numbers as the language shown does (points with their sign, Estonian 0,5), cells made
safe for Markdown. Headers are in the language shown.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from scorepad.locale import _, ngettext, shown
from scorepad.text.numbers import local_number, plain
from scorepad.text.output import markdown_cell, spreadsheet_safe
from scorepad.text.render import pad_cell


def signed(value: Any, lang: str) -> str:
    """Points with their sign as the language writes numbers: +131, -60, 0, Estonian +0,5."""
    text = local_number(value, lang, 2)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return "+" + text
    return text


def headers(data: Mapping[str, Any]) -> list[str]:
    """The columns: hand, each side's bids and tricks (a game with bids), points, totals, notes."""
    sides = data["sides"]
    labels = data.get("field_labels") or {}
    pad = [f"{s} {'/'.join(labels.values())}" for s in sides] if labels else []
    return [_("hand"), *pad, *sides, *[_("{side} total").format(side=s) for s in sides], _("notes")]


def rows(data: Mapping[str, Any], lang: str | None = None) -> list[list[Any]]:
    """The sheet's rows; numbers as plain numbers, or (with `lang`) as that language writes them."""
    n = len(data["sides"])
    with_pad = bool(data.get("field_labels"))

    def numbers(points: list[Any], totals: list[Any]) -> list[Any]:
        if lang is None:
            return [*map(plain, points), *map(plain, totals)]
        return [*(signed(p, lang) for p in points), *(local_number(t, lang, 2) for t in totals)]

    out = []
    for h in data["hands"]:
        pad = [pad_cell(dict(data), h, k) for k in range(n)] if with_pad else []
        out.append([h["hand"], *pad, *numbers(h["points"], h["totals"]), "; ".join(shown(e) for e in h["events"])])
    finish = data.get("finish")
    if finish:
        out.append([_("finish"), *([""] * n if with_pad else []), *numbers(finish["points"], finish["totals"]),
                    "; ".join(shown(e) for e in finish["events"])])
    return out


def result(data: Mapping[str, Any]) -> str:
    """Who won, or "" while the game goes on."""
    if not data["finished"] or not data.get("winner"):
        return ""
    if data.get("draw"):
        return _("A draw between {names}").format(names=_(" and ").join(data["winner"]))
    return ngettext("Winner: {names}", "Winners: {names}", len(data["winner"])).format(names=", ".join(data["winner"]))


def sheet_csv(data: Mapping[str, Any]) -> str:
    """The sheet as CSV (CR LF line ends, as spreadsheets expect), every cell safe for a spreadsheet."""
    import csv  # start-up: only the CSV form needs it

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow([spreadsheet_safe(h) for h in headers(data)])
    for row in rows(data):
        writer.writerow([spreadsheet_safe(v) for v in row])
    return buf.getvalue()


def sheet_markdown(data: Mapping[str, Any], lang: str) -> str:
    """The sheet as a Markdown table (numbers right-aligned), then the totals and who won."""
    head = headers(data)
    right = ["---:" if 0 < i < len(head) - 1 else "---" for i in range(len(head))]
    lines = ["| " + " | ".join(markdown_cell(h) for h in head) + " |", "| " + " | ".join(right) + " |"]
    lines.extend("| " + " | ".join(str(markdown_cell(str(v))) for v in row) + " |" for row in rows(data, lang))
    totals = ", ".join(f"{s} {local_number(t, lang, 2)}" for s, t in zip(data["sides"], data["totals"], strict=False))
    lines += ["", markdown_cell(_("Totals: {totals}").format(totals=totals))]
    won = result(data)
    if won:
        lines.append("")
        lines.append(markdown_cell(won))
    return "\n".join(lines) + "\n"
