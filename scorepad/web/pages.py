"""The viewer page as HTML, written on the server from the standings and the sheet: no framework,
every text escaped, the words of the reader's language (the caller speaks it), the numbers big."""

from __future__ import annotations

from html import escape
from typing import Any

from scorepad.locale import _, current, ngettext, shown
from scorepad.text.render import format_value, num, outcome_lines, pad_cell, status_text
from scorepad.text.sheet_page import story_section

LAST_HANDS = 3
"""How many of the latest hands are shown with their breakdown above the sheet."""


def esc(value: Any) -> str:
    return escape(str(value), quote=True)


def name_html(name: str) -> str:
    """A side's name, which may break after a "+" of the names it joins (ann+cat) on a narrow screen."""
    return esc(name).replace("+", "+<wbr>")


def title_of(st: dict[str, Any]) -> str:
    """The game as the standings name it: "Game 3: Spades — Friday", as `standings` prints it."""
    title = _("Game {id}: {ruleset}").format(id=st["game"], ruleset=st.get("title") or st["ruleset"])
    if st.get("name"):
        title += f" — {st['name']}"
    return title


def sides_html(st: dict[str, Any]) -> str:
    """One card per side: its name (and players), its total in large figures, its counters, its status."""
    cards = []
    draw = bool(st.get("draw"))
    for side in st["sides"]:
        players = ", ".join(side["players"])
        who = f'<span class="players">{esc(players)}</span>' if players != side["name"] else ""
        extra = ", ".join(f"{k} {format_value(v)}" for k, v in side.get("shown", {}).items())
        status = "" if side["status"] == "playing" else (
            f'<span class="status">{esc(status_text(side["status"], draw))}</span>')
        cls = "side won" if side["status"] == "won" else "side"
        cards.append(f'<li class="{cls}"><span class="name">{name_html(side["name"])}</span>{who}'
                     f'<span class="score">{esc(format_value(side["score"]))}</span>'
                     + (f'<span class="extra">{esc(extra)}</span>' if extra else "") + status + "</li>")
    return f'<ul class="sides">{"".join(cards)}</ul>'


def outcome_html(st: dict[str, Any]) -> str:
    """Who won, or who deals the next hand; a bid written down for it; the ruleset's reminders."""
    if st.get("abandoned"):
        return f'<p class="next">{esc(_("Abandoned: counts in no season table, and takes no more hands"))}</p>'
    cls = "winner" if st["finished"] else "next"
    out = [f'<p class="{cls}">{esc(line)}</p>' for line in outcome_lines(st)]
    if st.get("bid"):
        bid = _("Bid for hand {value}: {value2}").format(value=st["hands"] + 1, value2=" ".join(st["bid"]))
        out.append(f'<p class="bid">{esc(bid)}</p>')
    out += [f'<p class="info">{esc(line)}</p>' for line in st.get("info", [])]
    return "".join(out)


def hands_html(sheet: dict[str, Any]) -> str:
    """The latest hands, newest first, each side's points with the why and the hand's events."""
    items = []
    for h in reversed(sheet["hands"][-LAST_HANDS:]):
        lines = []
        for k, name in enumerate(sheet["sides"]):
            why = ", ".join(f"{label} {num(points)}" for label, points, *_to in h["breakdown"][k]) or _("nothing")
            lines.append(f'<li><b>{name_html(name)}</b> <span class="pts">{esc(num(h["points"][k]))}</span> '
                         f'<span class="why">({esc(why)})</span></li>')
        lines += [f'<li class="event">{esc(shown(e))}</li>' for e in h["events"]]
        heading = esc(_("Hand {n}").format(n=h["hand"]))
        items.append(f'<article class="hand"><h3>{heading}</h3>'
                     f'<ul>{"".join(lines)}</ul></article>')
    if not items:
        return ""
    last = esc(_("Last hands"))
    return f'<section aria-labelledby="last"><h2 id="last">{last}</h2>{"".join(items)}</section>'


def sheet_html(sheet: dict[str, Any]) -> str:
    """The score sheet: hand by hand, each side's points and running total, the notes; bids and
    tricks beside the points in a game with bids, as the paper pad writes them."""
    if not sheet["hands"]:
        return ""
    sides = sheet["sides"]
    labels = sheet.get("field_labels") or {}
    pad = "/".join(labels.values())
    heads = ["#", *([f"{s} {pad}" for s in sides] if labels else []), *sides,
             *[_("{side} total").format(side=s) for s in sides], _("notes")]
    rows = []
    for h in sheet["hands"]:
        cells = [str(h["hand"]), *([pad_cell(sheet, h, k) for k in range(len(sides))] if labels else []),
                 *[num(p) for p in h["points"]], *[format_value(t) for t in h["totals"]]]
        notes = "; ".join(shown(e) for e in h["events"])
        rows.append("<tr>" + "".join(f'<td class="n">{esc(c)}</td>' for c in cells) + f"<td>{esc(notes)}</td></tr>")
    head = "".join(f'<th scope="col">{name_html(c)}</th>' for c in heads)
    label = esc(_("Score sheet"))
    return (f'<section aria-labelledby="sheet"><h2 id="sheet">{label}</h2>'
            f'<div class="scroll" role="region" aria-labelledby="sheet" tabindex="0">'
            f'<table><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div></section>')


def live_html(st: dict[str, Any], sheet: dict[str, Any]) -> str:
    """What the live part of the page holds; the event stream sends it again after every change."""
    after = ngettext(", after {n} hand", ", after {n} hands", st["hands"]).format(n=st["hands"]).lstrip(", ")
    return (f'<h1>{esc(title_of(st))}</h1><p class="sub">{esc(after)}</p>'
            + sides_html(st) + outcome_html(st) + hands_html(sheet) + chart_html(sheet) + sheet_html(sheet))


def chart_html(sheet: dict[str, Any]) -> str:
    """The game's chart as `sheet --format html` draws it (every side's total after each hand, the
    ruleset's thresholds dashed, events ringed), with no style attribute: the page's CSP forbids them."""
    section = story_section(sheet, current(), inline_style=False)
    return f'<div class="story">{section}</div>' if section else ""


def nothing_html(message: str) -> str:
    """The page while there is no game to show (none started yet, or GAME is gone)."""
    return f'<h1>scorepad</h1><p class="next">{esc(message)}</p>'


def document(lang: str, title: str, live: str, script: bool = True) -> str:
    """The whole page: the live part, the page's own style sheet and script (the only ones the
    Content-Security-Policy allows), and a line that says when the live updates are lost."""
    lost = esc(_("The connection was lost; trying again"))
    return ('<!doctype html>\n'
            f'<html lang="{esc(lang)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<meta name="color-scheme" content="light dark">'
            '<meta name="referrer" content="same-origin">'
            f'<title>{esc(title)}</title>'
            '<link rel="stylesheet" href="page.css">' + ('<script src="live.js" defer></script>' if script else "")
            + '</head>'
            f'<body><main id="live">{live}</main>'
            f'<p id="link" role="status" data-lost="{lost}"></p></body></html>\n')


STYLE = """\
:root { color-scheme: light dark; --bg: #fbfaf7; --fg: #16181b; --muted: #4b5058; --card: #ffffff;
  --line: #d5d7db; --accent: #0b5cad; --win: #1b6e3a; --winbg: #e4f3e9; --limit: #a00; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #101317; --fg: #f1f3f5; --muted: #b9c0c8; --card: #1a1f26; --line: #343b45;
    --accent: #8cc4ff; --win: #9fe0b5; --winbg: #163223; --limit: #ff8f85; }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 1.05rem/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.35rem; margin: 0; }
h2 { font-size: 1.15rem; margin: 1.6rem 0 .5rem; }
h3 { font-size: 1rem; margin: 0 0 .25rem; }
.sub { margin: .1rem 0 .8rem; color: var(--muted); }
.sides { list-style: none; margin: 0; padding: 0; display: grid; gap: .6rem;
  grid-template-columns: repeat(auto-fit, minmax(9.5rem, 1fr)); }
.side { background: var(--card); border: 1px solid var(--line); border-radius: .8rem; padding: .7rem .9rem;
  display: flex; flex-direction: column; min-width: 0; }
.side .name { font-weight: 700; font-size: clamp(1rem, 4.2vw, 1.2rem); overflow-wrap: break-word; }
.side .players, .side .extra { color: var(--muted); font-size: .95rem; overflow-wrap: break-word; }
.side .score { font-size: clamp(2.8rem, 14vw, 5.5rem); font-weight: 800; line-height: 1.05;
  font-variant-numeric: tabular-nums; }
.side .status { font-weight: 700; color: var(--muted); }
.side.won .status { color: var(--win); }
.side.won { border: 2px solid var(--win); background: var(--winbg); }
.next, .bid { font-size: 1.25rem; font-weight: 600; margin: .9rem 0 .2rem; }
.winner { font-size: 1.6rem; font-weight: 800; margin: 1rem 0 .2rem; padding: .6rem .9rem; border-radius: .6rem;
  color: var(--win); background: var(--winbg); border: 2px solid var(--win); }
.info { color: var(--muted); margin: .2rem 0; }
.hand { border-top: 1px solid var(--line); padding: .5rem 0; }
.hand ul { list-style: none; margin: 0; padding: 0; }
.hand .pts { font-weight: 800; font-size: 1.2rem; font-variant-numeric: tabular-nums; }
.hand .why, .hand .event { color: var(--muted); }
.scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: .5rem; }
.scroll:focus { outline: 3px solid var(--accent); }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { padding: .35rem .6rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
td.n { white-space: nowrap; }
th { min-width: 3.5rem; vertical-align: bottom; }
td.n { text-align: right; }
fieldset { border: 1px solid var(--line); border-radius: .6rem; margin: .8rem 0; padding: .5rem .8rem; min-width: 0; }
legend { font-weight: 700; padding: 0 .3rem; }
legend small { font-weight: 400; color: var(--muted); }
label.f { display: flex; gap: .6rem; align-items: center; justify-content: space-between; margin: .35rem 0; }
label.f input { font-size: 1.25rem; width: 9rem; padding: .35rem .5rem; border-radius: .4rem;
  border: 1px solid var(--muted); background: var(--card); color: var(--fg); }
label.f input.wide { width: auto; flex: 1 1 12rem; min-width: 0; }
button { font-size: 1.2rem; font-weight: 700; padding: .7rem 1.4rem; border-radius: .6rem; border: 0;
  background: var(--accent); color: var(--bg); margin: .5rem 0; }
.undo button, button.again { background: var(--card); color: var(--fg); border: 1px solid var(--muted); }
button.record { margin-right: .6rem; }
.help { color: var(--muted); margin: 0 0 .3rem; font-size: .95rem; }
.worked { display: block; color: var(--win); font-weight: 600; }
.notes { color: var(--muted); margin: .5rem 0; padding-left: 1.2rem; }
.summary { border: 2px solid var(--accent); border-radius: .6rem; padding: .2rem .9rem; margin: .8rem 0; }
.summary h2 { margin: .5rem 0 .3rem; }
.summary ul { list-style: none; margin: 0 0 .5rem; padding: 0; }
.summary .pts { font-weight: 700; }
.refused { border: 2px solid #b3261e; border-radius: .6rem; padding: .2rem .9rem; margin: .8rem 0; }
.refused p { margin: .4rem 0; font-weight: 600; }
.stored { font-weight: 700; font-size: 1.2rem; }
.story svg[role="img"] { display: block; width: 100%; height: auto; max-width: 60rem; background: var(--card);
  border: 1px solid var(--line); border-radius: .5rem; }
.story svg .axis { fill: var(--fg); }
.story svg .threshold text { fill: var(--limit); }
.story svg .threshold line[stroke="#b00"] { stroke: var(--limit); }
.legend { display: flex; flex-wrap: wrap; gap: .2rem .9rem; margin: .4rem 0; }
.legend span { overflow-wrap: anywhere; min-width: 0; }
.legend .swatch { display: inline-block; width: .9em; height: .9em; margin-right: .35em; vertical-align: -.1em; }
p.key { color: var(--muted); font-size: .95rem; margin: .3rem 0; }
.games { list-style: none; margin: 0; padding: 0; }
.games li { border-top: 1px solid var(--line); padding: .5rem 0; display: flex; flex-direction: column; }
.games a, .back a { color: var(--accent); font-weight: 700; font-size: 1.1rem; overflow-wrap: anywhere; }
.games .players, .games .here { color: var(--muted); overflow-wrap: anywhere; }
.back { margin: 0 0 .5rem; }
th button { all: inherit; padding: 0; }
.toggle { display: none; }
#link { position: fixed; bottom: 0; left: 0; right: 0; margin: 0; text-align: center; background: var(--fg);
  color: var(--bg); font-weight: 600; }
#link:empty { display: none; }
"""

SCRIPT = """\
"use strict";
// Live updates: the server sends the page's live part again after every change (server-sent events);
// the browser reconnects by itself after a lost connection, and the line at the bottom says so meanwhile.
(function () {
  var live = document.getElementById("live");
  var link = document.getElementById("link");
  var source = new EventSource("events");
  source.addEventListener("page", function (e) { live.innerHTML = e.data; link.textContent = ""; });
  source.addEventListener("open", function () { link.textContent = ""; });
  source.addEventListener("error", function () { link.textContent = link.dataset.lost; });
})();
"""
