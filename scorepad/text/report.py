"""The season as one self-contained HTML page: a sortable table and inline SVG charts (no network).

The page is meant to be shared and read on a phone: nothing is wider than the screen (the table
scrolls inside its own box, legends wrap), every line in a chart has a colour of its own and a
marker at each point (so a player with one rated game still shows), lines that coincide are drawn
once with all their names, and each game card says who won and the final score.
"""

from __future__ import annotations

import colorsys
import html
import json
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from scorepad.locale import _, current, ngettext
from scorepad.text.season_lines import PlayerLine, cell, column_label

# Well-separated colours (Tableau 10 and two more); beyond them, hues spread evenly around the wheel.
PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
           "#7f7f7f", "#bcbd22", "#393b79", "#637939"]
MAX_GAME_CHARTS = 40

STYLE = """
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;margin:1rem;color:#222;max-width:80rem}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:1.5rem}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-size:.9rem}
th,td{padding:.3rem .5rem;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}
th{cursor:pointer;background:#f3f3f3;position:sticky;top:0}
td:first-child,th:first-child{text-align:left;position:sticky;left:0;background:#fff;z-index:1}
th:first-child{background:#f3f3f3}
th.sorted-asc::after{content:" \\25B2"}th.sorted-desc::after{content:" \\25BC"}
svg{display:block;width:100%;max-width:100%;height:auto;background:#fafafa;border:1px solid #eee}
.games{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(16rem,100%),1fr));gap:.8rem}
figure{margin:0;min-width:0;border:1px solid #eee;padding:.4rem}
figcaption{font-size:.9rem;margin-bottom:.3rem;overflow-wrap:anywhere}
.result{font-size:.85rem;margin:.3rem 0 0}
.legend{display:flex;flex-wrap:wrap;gap:.2rem .8rem;margin:.3rem 0;font-size:.85rem}
.legend span{overflow-wrap:anywhere;min-width:0}
.legend i{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:-.05em}
.legend .won{font-weight:bold}
"""

SCRIPT = """
document.querySelectorAll('table.sortable th').forEach(function(th, col){
  th.addEventListener('click', function(){
    var table = th.closest('table'), body = table.tBodies[0];
    var asc = !th.classList.contains('sorted-asc');
    table.querySelectorAll('th').forEach(function(h){h.classList.remove('sorted-asc','sorted-desc')});
    th.classList.add(asc ? 'sorted-asc' : 'sorted-desc');
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function(a, b){
      var x = a.cells[col].dataset.v, y = b.cells[col].dataset.v;
      var nx = parseFloat(x), ny = parseFloat(y);
      var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return asc ? c : -c;
    });
    rows.forEach(function(r){body.appendChild(r)});
  });
});
"""


def _esc(value: Any) -> str:
    return html.escape("" if value is None else str(value))


def _num(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def colours(n: int) -> list[str]:
    """n colours, no two alike: the palette first, then evenly spread hues in two lightnesses."""
    if n <= len(PALETTE):
        return PALETTE[:n]
    out = []
    for k in range(n):
        r, g, b = colorsys.hls_to_rgb(k / n, 0.38 if k % 2 else 0.5, 0.75)
        out.append(f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}")
    return out


def embedded_json(data: Any) -> str:
    """JSON to put inside <script>: < > & written as \\u escapes, so no text in it can end the element
    or open a comment (a player called `<!--<script>` stays a name)."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def line_chart(series: Sequence[tuple[str, Sequence[tuple[float, float]]]], width: int = 600, height: int = 240,
               title: str = "", labels: Sequence[str] | None = None) -> str:
    """An inline SVG line chart with a legend: one line and markers per named series of (x, y) points.

    Series with the same points are one line, with all their names in its legend entry. `labels`
    (HTML) replaces the legend text of each series, in the order given.
    """
    points = [p for _, values in series for p in values]
    if not points:
        return ""
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    lo, hi = min(ys), max(ys)
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    x0, x1 = min(xs), max(xs)
    pad = 28

    def at(x: float, y: float) -> tuple[float, float]:
        px = pad + (width - 2 * pad) * ((x - x0) / (x1 - x0) if x1 > x0 else 0.5)
        py = height - pad - (height - 2 * pad) * ((y - lo) / (hi - lo))
        return px, py

    groups: dict[tuple[tuple[float, float], ...], list[int]] = {}
    for k, (_name, values) in enumerate(series):
        groups.setdefault(tuple(values), []).append(k)
    palette = colours(len(groups))
    parts = [f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="{_esc(title)}">']
    if lo < 0 < hi:
        _x, y0 = at(x0, 0)
        parts.append(f'<line x1="{pad}" x2="{width - pad}" y1="{y0:.1f}" y2="{y0:.1f}" stroke="#bbb" stroke-dasharray="4"/>')
    parts.append(f'<text x="2" y="{pad - 8}" font-size="11">{_esc(round(hi, 1))}</text>')
    parts.append(f'<text x="2" y="{height - 6}" font-size="11">{_esc(round(lo, 1))}</text>')
    legend = []
    radius = 3 if width >= 400 else 2.5
    for colour, (values, members) in zip(palette, groups.items(), strict=True):
        names = ", ".join(series[k][0] for k in members)
        xy = [at(x, y) for x, y in values]
        parts.append(f'<g class="series" data-names="{_esc(names)}"><title>{_esc(names)}</title>')
        if len(xy) > 1:
            pts = " ".join(f"{px:.1f},{py:.1f}" for px, py in xy)
            parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{pts}"/>')
        parts.extend(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{radius}" fill="{colour}"/>' for px, py in xy)
        parts.append("</g>")
        text = " = ".join(labels[k] for k in members) if labels else _esc(names)
        legend.append(f'<span style="color:{colour}"><i style="background:{colour}"></i>{text}</span>')
    parts.append("</svg>")
    return "".join(parts) + f'<div class="legend">{"".join(legend)}</div>'


def game_card(g: dict[str, Any]) -> str:
    """One game: its progression, each side's final score, and who won."""
    series = [(side, [(0.0, 0.0), *((float(i + 1), float(t[k])) for i, t in enumerate(g["totals"]))])
              for k, side in enumerate(g["sides"])]
    winners = set(g.get("winners") or [])
    labels = []
    for side, final in zip(g["sides"], g["final"], strict=False):
        won = g.get("finished") and side in winners
        text = f"{_esc(side)} {_esc(_num(final))}"
        labels.append(f'<b class="won">{text} ✓</b>' if won else text)
    if not g.get("finished"):
        result = _esc(_("Not finished"))
    elif g.get("draw"):
        result = _esc(_("Draw: {sides}").format(sides=_(" and ").join(w for w in g["sides"] if w in winners)))
    elif winners:
        result = _esc(_("Won by {sides}").format(sides=", ".join(w for w in g["sides"] if w in winners)))
    else:
        result = _esc(_("Finished"))
    final = ", ".join(f"{_esc(s)} {_esc(_num(v))}" for s, v in zip(g["sides"], g["final"], strict=False))
    caption = _esc(_("Game {id}: {ruleset}, {date}").format(id=g['id'], ruleset=g['ruleset'],
                                                             date=local_date(g['date'], current())))
    if g.get("name"):
        caption += f" — {_esc(g['name'])}"
    chart = line_chart(series, 320, 160, _("game {id}").format(id=g['id']), labels) if g["totals"] else ""
    scores = "" if chart else f" · {final}"   # with a chart, its legend gives each side's final score
    return (f'<figure class="game" data-game="{_esc(g["id"])}"><figcaption>{caption}</figcaption>'
            f'<p class="result"><strong>{result}</strong>{scores}</p>{chart}</figure>')


def season_html(title: str, rows: Sequence[dict[str, Any]], columns: Sequence[str], lines: dict[str, PlayerLine],
                games: Sequence[dict[str, Any]], total_games: int, order: Sequence[int] = (),
                counters: Mapping[str, str] | None = None) -> str:
    """The page: the table (sortable by a click on a column), ratings over time, game progressions.

    `order` lists the season's game ids in the order they were played: the rating chart's x axis,
    so each player's points sit above the games he played.
    """
    lang = current()
    head = "".join(f"<th>{_esc(column_label(c, counters).replace('_', ' '))}</th>" for c in columns)
    body = []
    for r in rows:
        cells = []
        for c in columns:
            v = cell(c, r.get(c))
            sort_value = "" if v is None else v
            cells.append(f'<td data-v="{_esc(sort_value)}">{_esc("-" if v is None else local_number(v, lang))}</td>')
        body.append(f"<tr>{''.join(cells)}</tr>")
    position = {gid: k + 1 for k, gid in enumerate(order)}
    rating_series = [(name, [(float(position.get(gid, k + 1)), v) for k, (gid, v) in enumerate(line.history)])
                     for name, line in lines.items() if line.history]
    charts = [game_card(g) for g in games]
    more = ""
    if total_games > len(games):
        more = "<p>" + _esc(_("The last {n} of {total} games are drawn.").format(n=len(games), total=total_games)) + "</p>"
    note = ""
    if "points" not in columns:
        note = " " + _("Points are shown per ruleset: points of different games do not add up.")
    ratings = line_chart(rating_series, title=_("ratings"))
    if ratings:
        ratings = "<p>" + _esc(_("Each point is a finished game, in the order of the season; lines that coincide are "
                                 "drawn once, with all their names.")) + f"</p>{ratings}"
    players = ngettext("{n} player", "{n} players", len(rows)).format(n=len(rows))
    n_games = ngettext("{n} game", "{n} games", total_games).format(n=total_games)
    rating_heading = _("Rating over time (mu - 3 sigma)")
    no_games = _("No finished games yet.")
    games_heading = _("Games")
    intro = _("{players}, {games}. Click a column to sort. Rating: openskill mu (uncertainty sigma);\n"
              "average place 0 = always first, 1 = always last.").format(players=players, games=n_games)
    return f"""<!DOCTYPE html>
<html lang="{_esc(lang)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_esc(title)}</title><style>{STYLE}</style></head>
<body><h1>{_esc(title)}</h1>
<p>{_esc(intro + note)}</p>
<div class="scroll"><table class="sortable" id="season"><thead><tr>{head}</tr></thead>
<tbody>{''.join(body)}</tbody></table></div>
<h2>{_esc(rating_heading)}</h2>{ratings or '<p>' + _esc(no_games) + '</p>'}
<h2>{_esc(games_heading)}</h2>{more}<div class="games">{''.join(charts)}</div>
<script type="application/json" id="season-data">{embedded_json(rows)}</script>
<script>{SCRIPT}</script>
</body></html>
"""


def local_number(value: Any, lang: str) -> str:
    """A number as the reader's locale writes it (0,5 in Estonian, Russian and Ukrainian), via Babel;
    English, and anything that is not a number, as it was."""
    if lang == "en" or isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    from babel.numbers import format_decimal  # only for a report in another language

    return str(format_decimal(value, locale=lang, group_separator=False))


def local_date(text: str, lang: str) -> str:
    """A YYYY-MM-DD date in the reader's locale's medium form (30. nov 2026, 30 нояб. 2026 г.), via Babel."""
    if lang == "en":
        return text

    from babel.dates import format_date  # start-up: babel ~20 ms; only the HTML report needs it

    try:
        return str(format_date(date.fromisoformat(text), format="medium", locale=lang))
    except ValueError:
        return text
