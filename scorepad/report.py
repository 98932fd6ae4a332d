"""The season as one self-contained HTML page: a sortable table and inline SVG charts (no network)."""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any

from scorepad.season import COLUMNS, PlayerLine

PALETTE = ["#1b6ca8", "#d1495b", "#2a9d8f", "#e9c46a", "#6a4c93", "#f4a261", "#264653", "#8ab17d"]
MAX_GAME_CHARTS = 40

STYLE = """
body{font-family:system-ui,sans-serif;margin:1rem;color:#222;max-width:60rem}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:1.5rem}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-size:.9rem}
th,td{padding:.3rem .5rem;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}
th{cursor:pointer;background:#f3f3f3;position:sticky;top:0}
td:first-child,th:first-child{text-align:left}
th.sorted-asc::after{content:" \\25B2"}th.sorted-desc::after{content:" \\25BC"}
svg{max-width:100%;height:auto;background:#fafafa;border:1px solid #eee}
.games{display:grid;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr));gap:.8rem}
.legend span{margin-right:.8rem;white-space:nowrap}
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


def line_chart(series: Sequence[tuple[str, Sequence[float]]], width: int = 600, height: int = 240,
               title: str = "") -> str:
    """An inline SVG line chart: one polyline per named series, with a legend."""
    points = [v for _, values in series for v in values]
    if not points:
        return ""
    lo, hi = min(points), max(points)
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    longest = max(len(values) for _, values in series)
    pad = 28
    def xy(i: int, v: float) -> str:
        x = pad + (width - 2 * pad) * (i / max(longest - 1, 1))
        y = height - pad - (height - 2 * pad) * ((v - lo) / (hi - lo))
        return f"{x:.1f},{y:.1f}"
    parts = [f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="{_esc(title)}">']
    if lo < 0 < hi:
        y0 = height - pad - (height - 2 * pad) * ((0 - lo) / (hi - lo))
        parts.append(f'<line x1="{pad}" x2="{width - pad}" y1="{y0:.1f}" y2="{y0:.1f}" stroke="#bbb" stroke-dasharray="4"/>')
    parts.append(f'<text x="2" y="{pad - 8}" font-size="11">{_esc(round(hi, 1))}</text>')
    parts.append(f'<text x="2" y="{height - 6}" font-size="11">{_esc(round(lo, 1))}</text>')
    legend = []
    for k, (name, values) in enumerate(series):
        color = PALETTE[k % len(PALETTE)]
        pts = " ".join(xy(i, v) for i, v in enumerate(values))
        parts.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="{pts}">'
                     f"<title>{_esc(name)}</title></polyline>")
        legend.append(f'<span style="color:{color}">&#9632; {_esc(name)}</span>')
    parts.append("</svg>")
    return "".join(parts) + f'<div class="legend">{"".join(legend)}</div>'


def season_html(title: str, rows: Sequence[dict[str, Any]], lines: dict[str, PlayerLine],
                games: Sequence[dict[str, Any]], total_games: int) -> str:
    """The page: the table (sortable by a click on a column), ratings over time, game progressions."""
    head = "".join(f"<th>{_esc(c.replace('_', ' '))}</th>" for c in COLUMNS)
    body = []
    for r in rows:
        cells = []
        for c in COLUMNS:
            v = r.get(c)
            sort_value = "" if v is None else v
            cells.append(f'<td data-v="{_esc(sort_value)}">{_esc("-" if v is None else v)}</td>')
        body.append(f"<tr>{''.join(cells)}</tr>")
    rating_series = [(name, [v for _, v in line.history]) for name, line in lines.items() if line.history]
    charts = []
    for g in games:
        series = [(side, [0, *[t[k] for t in g["totals"]]]) for k, side in enumerate(g["sides"])]
        chart = line_chart(series, 320, 160, f"game {g['id']}")
        charts.append(f"<figure><figcaption>Game {_esc(g['id'])}: {_esc(g['ruleset'])}, {_esc(g['date'])}"
                      f"</figcaption>{chart}</figure>")
    more = ""
    if total_games > len(games):
        more = f"<p>The last {len(games)} of {total_games} games are drawn.</p>"
    data = json.dumps(rows, ensure_ascii=False, allow_nan=False).replace("</", "<\\/")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_esc(title)}</title><style>{STYLE}</style></head>
<body><h1>{_esc(title)}</h1>
<p>{len(rows)} players, {total_games} games. Click a column to sort. Rating: openskill mu (uncertainty sigma);
average place 0 = always first, 1 = always last.</p>
<div class="scroll"><table class="sortable" id="season"><thead><tr>{head}</tr></thead>
<tbody>{''.join(body)}</tbody></table></div>
<h2>Rating over time (mu - 3 sigma)</h2>{line_chart(rating_series, title="ratings") or '<p>No finished games yet.</p>'}
<h2>Games</h2>{more}<div class="games">{''.join(charts)}</div>
<script type="application/json" id="season-data">{data}</script>
<script>{SCRIPT}</script>
</body></html>
"""
