"""Text output for people: hands with their 'why', standings, the score sheet, ruleset descriptions."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from scorepad.locale import N_, _, ngettext, shown
from scorepad.rules.values import decimal_text
from scorepad.rules.values import format_value as plain_value

STATUS = {"playing": N_("playing"), "won": N_("won"), "lost": N_("lost"), "out": N_("out"), "drawn": N_("draw")}
"""A side's status (an id in the data and JSON) as shown."""


def status_text(status: str, draw: bool = False) -> str:
    """A status as shown; in a drawn game the sides that share it show "draw", not "won" (the data
    keeps "won", which the rules and the season table read)."""
    status = "drawn" if draw and status == "won" else status
    return _(STATUS[status]) if status in STATUS else status


def format_value(value: Any) -> str:
    """A value as `rules.values.format_value` writes it, but a yes/no value in the reader's language
    (the engine's own texts stay English)."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return plain_value(value)


def tabulate(*args: Any, **kwargs: Any) -> str:
    """tabulate.tabulate, imported when first used (the commands that print no table never pay for it)."""
    from tabulate import tabulate as real  # start-up: tabulate ~20-40 ms, paid only by a command that prints a table

    return str(real(*args, **kwargs))


def _width(text: str) -> int:
    """Display width in a terminal: wide (CJK, emoji) characters count 2, combining marks 0."""
    if text.isascii():  # names are checked: no control characters, so one column each
        return len(text)
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in text)


def simple_table(rows: list[list[str]], headers: list[str], numparse: bool = True) -> str:
    """tabulate's "simple" table (the standings on every `hand` and `standings`, the games, `player`).
    tabulate itself, not a copy of it: its import (~20-40 ms of start-up) is the price, measured in
    bench/README.md. With `numparse=False` every column is text."""
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=not numparse)


def num(value: Any) -> str:
    """Points with their sign (+5, -60, +5.33): a fraction at most two decimals, as format_value shows it."""
    if isinstance(value, float):
        text = decimal_text(value)
        return text if text == "0" or text.startswith("-") or "n" in text else "+" + text
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:+}" if value else "0"
    return format_value(value)


def hand_lines(data: dict[str, Any]) -> list[str]:
    """The hand itself: cards as read, values worked out, each side's points with the why, the events."""
    lines = [_("Hand {n}").format(n=data['hand'])]
    lines += [f"  {text}" for text in data.get("cards_read", [])]
    if data.get("worked_out"):
        lines.append("  " + _("worked out: {values}").format(values=", ".join(data["worked_out"])))
    for side in data["sides"]:
        why = ", ".join(f"{b['label']} {num(b['points'])}" for b in side["breakdown"]) or _("nothing")
        lines.append(f"  {side['name']}: {num(side['points'])}  ({why})")
    for event in data["events"]:
        lines.append(f"  * {shown(event)}")
    return lines


def hand_text(data: dict[str, Any]) -> str:
    lines = hand_lines(data)
    lines.append("")
    lines.append(standings_text(data["standings"]))
    return "\n".join(lines)


def fit_table(rows: list[list[Any]], headers: list[str], width: int, flexible: tuple[int, ...] = ()) -> str:
    """A simple table no wider than `width` where it can be: the `flexible` columns wrap their text,
    the narrowest keeping its natural width and the room left shared out among the others."""
    # tabulate's simple format keeps two spaces beside a header: a column is at least header + 2 wide
    natural = [max([_width(str(h)) + 2, *(_width(str(r[i])) for r in rows)]) for i, h in enumerate(headers)]
    room = width - sum(w for i, w in enumerate(natural) if i not in flexible) - 2 * (len(headers) - 1)
    limits: list[int | None] = [None] * len(headers)
    if room < sum(natural[i] for i in flexible):
        order = sorted(flexible, key=lambda i: natural[i])
        for k, i in enumerate(order):
            share = max(8, room // (len(order) - k))
            limits[i] = min(natural[i], share)
            room -= limits[i] or 0
    return tabulate(rows, headers=headers, tablefmt="simple", maxcolwidths=limits)


def compact_standings(data: dict[str, Any]) -> list[str]:
    """One line per side: name, total, the ruleset's counters, and the status when not playing."""
    width = max((_width(s["name"]) for s in data["sides"]), default=0)
    numbers = [format_value(s["score"]) for s in data["sides"]]
    num_width = max((len(n) for n in numbers), default=0)
    lines = []
    for side, total in zip(data["sides"], numbers, strict=False):
        extra = ", ".join(f"{k} {format_value(v)}" for k, v in side.get("shown", {}).items())
        status = "" if side["status"] == "playing" else f"  {status_text(side['status'], bool(data.get('draw')))}"
        name = side["name"] + " " * (width - _width(side["name"]))
        lines.append(f"  {name}  {total:>{num_width}}{'  (' + extra + ')' if extra else ''}{status}".rstrip())
    return lines


def outcome_lines(st: dict[str, Any]) -> list[str]:
    """Who won (or the draw) when the game is over, else what comes next: hand, dealer, the ruleset's values."""
    if st["finished"]:
        winners = st.get("winner") or []
        if st.get("draw"):
            return [_("Finished: a draw between {names}").format(names=_(" and ").join(winners))]
        return [ngettext("Finished: {names} won", "Finished: {names} won", len(winners)).format(names=", ".join(winners))]
    if st.get("next"):
        nxt = st["next"]
        parts = [_("hand {n}").format(n=nxt['hand']), _("{dealer} deals").format(dealer=nxt['dealer'])]
        parts += [f"{k}: {format_value(v)}" for k, v in nxt.items() if k not in ("hand", "dealer")]
        return [_("Next: {what}").format(what="; ".join(parts))]
    return []


def hand_short_text(data: dict[str, Any]) -> str:
    """What `hand` prints at the table: each side's points with the why, the events, then one line
    per side and who deals next. The ruleset's reminders come with the first hand only."""
    lines = hand_lines(data)
    st = data["standings"]
    lines.append(_("Totals:"))
    lines += compact_standings(st)
    lines += outcome_lines(st)
    if data["hand"] == 1:
        lines.extend(st.get("info", []))
    return "\n".join(lines)


def standings_text(data: dict[str, Any]) -> str:
    rows = []
    shown_labels: list[str] = []
    for side in data["sides"]:
        for label in side.get("shown", {}):
            if label not in shown_labels:
                shown_labels.append(label)
    for side in data["sides"]:
        players = ", ".join(side["players"])
        name = side["name"] if side["name"] == players else f"{side['name']} ({players})"
        row = [name, format_value(side["score"])]
        row += [format_value(side.get("shown", {}).get(label, "")) for label in shown_labels]
        row.append(status_text(side["status"], bool(data.get("draw"))))
        rows.append(row)
    title = _("Game {id}: {ruleset}").format(id=data['game'], ruleset=data.get("title") or data['ruleset'])
    if data.get("variant") and not data.get("title"):
        title += f" ({data['variant']})"
    if data.get("name"):
        title += f" — {data['name']}"
    title += ngettext(", after {n} hand", ", after {n} hands", data['hands']).format(n=data['hands'])
    out = [title, simple_table(rows, [_("side"), _("score"), *shown_labels, _("status")])]
    if data.get("abandoned"):
        out.append(_("Abandoned: counts in no season table, and takes no more hands"))
    else:
        out += outcome_lines(data)
    out.extend(data.get("info", []))
    return "\n".join(out)


def pad_text(data: dict[str, Any]) -> str:
    """The WE/THEY pad: above-the-line entries upward from the line, then each game ruled off."""
    pad = data["pad"]
    sides = data["sides"]
    width = max(10, *(len(s) + 2 for s in sides))
    n = len(sides)

    def row(cells: list[str], note: str = "") -> str:
        return "  ".join(c.rjust(width) for c in cells) + (f"   {note}" if note else "")

    rule = "=" * ((width + 2) * n - 2)
    thin = "-" * ((width + 2) * n - 2)
    out = [row(sides), thin]
    depth = max((len(side) for side in pad["above"]), default=0)
    for level in range(depth - 1, -1, -1):
        cells = []
        for side in pad["above"]:
            cells.append(f"{format_value(side[level]['points'])}" if level < len(side) else "")
        out.append(row(cells))
    out.append(rule)
    for g, game in enumerate(pad["games"]):
        depth = max(len(side) for side in game["below"])
        for level in range(depth):
            cells = [format_value(side[level]["points"]) if level < len(side) else "" for side in game["below"]]
            out.append(row(cells))
        if game["won_by"]:
            out.append(thin + "   " + _("game {n}: {side}").format(n=g + 1, side=game['won_by']))
    out.append(rule)
    out.append(row([format_value(t) for t in data["totals"]], _("total")))
    if data["finished"] and data.get("winner"):
        out.append(_("Rubber won by {side}").format(side=", ".join(data['winner'])) if len(data["winner"]) == 1
                   else _("A draw: {sides}").format(sides=", ".join(data['winner'])))
    return "\n".join(out)


def sheet_text(data: dict[str, Any]) -> str:
    if data.get("pad"):
        return pad_text(data) + "\n\n" + hands_text(data)
    return hands_text(data)


def hands_text(data: dict[str, Any]) -> str:
    sides = data["sides"]
    labels = data.get("field_labels") or {}
    pad = ["/".join(labels.values())] if labels else []
    headers = (["#"] + [f"{s} {pad[0]}" for s in sides if pad] + [f"{s}" for s in sides]
               + [_("{side} total").format(side=s) for s in sides] + [_("notes")])
    rows = []
    for h in data["hands"]:
        notes = "; ".join(shown(e) for e in h["events"])
        typed = [pad_cell(data, h, k) for k in range(len(sides))] if labels else []
        rows.append([str(h["hand"]), *typed, *[num(p) for p in h["points"]], *[format_value(t) for t in h["totals"]],
                     notes])
    finish = data.get("finish")
    if finish:   # what `scorepad finish` added (bridge's unfinished rubber), a row of its own after the hands
        notes = "; ".join(shown(e) for e in finish["events"])
        rows.append([_("finish"), *([""] * len(sides) if labels else []), *[num(p) for p in finish["points"]],
                     *[format_value(t) for t in finish["totals"]], notes])
    if any("\n" in cell for row in rows for cell in row):  # tabulate lays out lines within a cell
        out = [tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)]
    else:  # the same text without importing tabulate (~20 ms of `scorepad sheet`)
        out = [simple_table(rows, headers, numparse=False)]
    out.append(_("Totals: {totals}").format(
        totals=", ".join(f"{s} {format_value(t)}" for s, t in zip(sides, data["totals"], strict=False))))
    if data["finished"] and data.get("draw") and data.get("winner"):
        out.append(_("A draw between {names}").format(names=_(" and ").join(data["winner"])))
    elif data["finished"] and data.get("winner"):
        out.append(ngettext("Winner: {names}", "Winners: {names}", len(data["winner"]))
                   .format(names=", ".join(data['winner'])))
    return "\n".join(out)


def pad_cell(data: dict[str, Any], hand: dict[str, Any], k: int) -> str:
    """What the pad writes for side k beside its points: each field's values of its players joined
    by +, the fields by / (Spades: bids 4+3, tricks 5+3 → `4+3/5+3`)."""
    parts = []
    for name in data["field_labels"]:
        values = hand.get("fields", {}).get(name)
        if not isinstance(values, list):
            parts.append("-")
            continue
        seats = data["members"][k] if data["field_scopes"][name] == "player" else [k]
        parts.append("+".join(format_value(values[i]) for i in seats if i < len(values) and values[i] is not None) or "-")
    return "/".join(parts)


def chart_text(data: dict[str, Any], height: int = 12, width: int = 60) -> str:
    """Running totals as a terminal chart: one letter per side, hand numbers along the bottom."""
    sides = data["sides"]
    series = [[0.0] + [float(h["totals"][k]) for h in data["hands"]] for k in range(len(sides))]
    if not data["hands"]:
        return _("No hands yet.")
    values = [v for s in series for v in s]
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    points = len(series[0])
    cols = min(width, max(points, 2) * 4)
    grid = [[" "] * cols for _ in range(height)]
    marks = [(s[0].upper() if s else "?") for s in sides]
    if len(set(marks)) < len(marks):
        marks = [str(k + 1) for k in range(len(sides))]
    for k, s in enumerate(series):
        for i, v in enumerate(s):
            x = round(i * (cols - 1) / max(points - 1, 1))
            y = height - 1 - round((v - lo) / span * (height - 1))
            grid[y][x] = marks[k] if grid[y][x] in (" ", marks[k]) else "*"
    label_w = max(len(format_value(round(hi))), len(format_value(round(lo))))
    lines = []
    for r, row in enumerate(grid):
        label = format_value(round(hi)) if r == 0 else format_value(round(lo)) if r == height - 1 else ""
        lines.append(f"{label.rjust(label_w)} |{''.join(row)}")
    lines.append(" " * label_w + " +" + "-" * cols)
    lines.append(" " * label_w + "  " + _("hand 0 .. {n}").format(n=points - 1))
    legend = ", ".join(f"{m} = {s}" for m, s in zip(marks, sides, strict=True))
    lines.append(_("{legend}; * = several").format(legend=legend))
    return "\n".join(lines)


def games_text(rows: list[dict[str, Any]], current: str | None) -> str:
    table = []
    for g in rows:
        mark = "*" if str(g["id"]) == current else ""
        state = _("abandoned") if g.get("abandoned") else _("finished") if g["finished"] else _("playing")
        title = g.get("title") or g["ruleset"] + (f":{g['variant']}" if g["variant"] else "")
        table.append([f"{mark}{g['id']}", title,
                      ", ".join(g["players"]), str(g["hands"]), state, g.get("season") or "", g.get("name") or "",
                      g["created"][:10]])
    # the text tabulate's "simple" format gives, without its type guessing cell by cell (a club's
    # thousands of games took a second)
    return simple_table(table, ["id", _("game"), _("players"), _("hands"), _("state"), _("season"), _("name"),
                               _("started")])


def audit_text(entries: list[dict[str, Any]], said: Callable[[Sequence[str]], str] = " ".join) -> str:
    """One line per change to a game, with the typed values that were removed or replaced, each hand
    as `said` writes it (text.typed: in the language shown)."""
    lines = []
    for e in entries:
        d = e["detail"]
        what = ""
        if e["action"] == "undo" and "removed" in d:
            what = _("removed hand {n}: {typed}").format(n=d['removed']['n'], typed=said(d['removed']['typed']))
        elif e["action"] == "edit":
            old, new = d["old"]["typed"], d["new"]["typed"]
            before, after = [t for t in old if t not in new], [t for t in new if t not in old]
            what = _("hand {n}: {old} → {new}").format(n=d["hand"], old=said(before or old) or "-",
                                                       new=said(after or new) or "-")
        elif e["action"] == "redo" and "restored" in d:
            what = _("put back hand {n}: {typed}").format(n=d['restored']['n'], typed=said(d['restored']['typed']))
        elif e["action"] == "bid" and isinstance(d.get("bid"), list):
            what = said([str(b) for b in d["bid"]])
        elif e["action"] == "undo bid" and isinstance(d.get("removed_bid"), list):
            what = _("took back {typed}").format(typed=said([str(b) for b in d["removed_bid"]]))
        elif e["action"] == "new":
            what = _("players {names}").format(names=", ".join(d.get("players", [])))
        elif e["action"] == "rescore":
            what = _("ruleset {old} -> {new}").format(old=d.get('old_ruleset'), new=d.get('new_ruleset'))
        elif e["action"] == "finish":
            what = "; ".join(shown(e) for e in d.get("events", []))
        elif e["action"] == "undo finish":
            what = ngettext("took back the finish; the game goes on after {n} hand",
                            "took back the finish; the game goes on after {n} hands", d.get("hands") or 0).format(
                n=d.get("hands"))
        elif e["action"] == "abandon":
            hands = d.get("hands")
            what = ngettext("after {n} hand, totals {totals}", "after {n} hands, totals {totals}", hands or 0).format(
                n=hands, totals=", ".join(map(str, d.get('totals', []))))
        elif e["action"] == "rename":
            what = f"{d.get('old')} -> {d.get('new')}"
        elif e["action"] == "delete":
            what = ngettext("{ruleset} with {players}; {n} hand (typed: {typed})",
                            "{ruleset} with {players}; {n} hands (typed: {typed})", len(d.get('hands', []))).format(
                ruleset=d.get('ruleset'), players=", ".join(d.get('players', [])), n=len(d.get('hands', [])),
                typed=" | ".join(" ".join(h['typed']) for h in d.get('hands', [])))
        lines.append((e["at"][:19].replace("T", " "), action_word(e["action"]), what))
    width = max([8, *(len(word) for _at, word, _what in lines)])
    return "\n".join(f"{at}  {word:<{width}} {what}".rstrip() for at, word, what in lines) or _("No changes recorded.")


AUDIT_ACTIONS = {"new": N_("new"), "undo": N_("undo"), "edit": N_("edit"), "redo": N_("redo"),
                 "rescore": N_("rescore"), "rename": N_("rename"), "abandon": N_("abandon"), "delete": N_("delete"),
                 "bid": N_("bid"), "undo bid": N_("undo bid"), "finish": N_("finish"),
                 "undo finish": N_("undo finish")}
"""The actions of the audit trail as `log` names them (the stored action and `log --json` keep the ids)."""


def action_word(action: str) -> str:
    """An action of the audit trail in the language shown; one this scorepad does not know, as stored."""
    return _(AUDIT_ACTIONS[action]) if action in AUDIT_ACTIONS else action
