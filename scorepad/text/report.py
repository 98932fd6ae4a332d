"""The season as one self-contained HTML page: a section per game with its own leaderboard and rating
chart, everyone over all games, and the games' cards (inline SVG, no network).

The page is meant to be shared and read on a phone: at 1280 px every column shows; at 390 px the
leaderboards show rank, player, rating, games and wins, and a tap on "All columns" shows the rest
(the table then scrolls inside its own box). Numbers read as in the tables of the language shown,
in the tables and the charts alike.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from scorepad.locale import _, current, ngettext
from scorepad.text.chart import esc, line_chart, sparkline
from scorepad.text.numbers import local_date, local_number, plain
from scorepad.text.season_lines import cell, column_label
from scorepad.text.season_table import (
    OVERALL,
    PAIRS,
    board_cells,
    board_columns,
    provisional_sentence,
    rating_sentence,
    statistics_cells,
    statistics_columns,
    unfinished_sentence,
)

ALWAYS = {"rank", "player", "rating", "games", "wins", "pair", "mu", "sigma"}
"""The columns a phone shows without a tap."""

STYLE = """
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;margin:0;color:#222;line-height:1.4}
main{margin:0 auto;padding:1rem;max-width:80rem}
h1{font-size:1.4rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:2px solid #ddd}h3{font-size:1rem}
nav ul{display:flex;flex-wrap:wrap;gap:.3rem 1rem;padding:0;list-style:none}
nav a{color:#0b57a4}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-size:.9rem;font-variant-numeric:tabular-nums}
th,td{padding:.3rem .45rem;border-bottom:1px solid #ddd;text-align:right}
td{white-space:nowrap}
th{background:#f3f3f3;vertical-align:bottom}
th button{all:inherit;cursor:pointer;padding:0}
th button:focus-visible{outline:2px solid #0b57a4}
.player{text-align:left;white-space:normal;overflow-wrap:anywhere;min-width:6rem}
tr.provisional td{color:#555;font-style:italic}
th.sorted-asc button::after{content:" \\25B2"}th.sorted-desc button::after{content:" \\25BC"}
.toggle{margin:.4rem 0;font:inherit;padding:.3rem .7rem;border:1px solid #888;border-radius:.3rem;background:#fff;
 color:#222;cursor:pointer}
details{margin:.6rem 0}
svg{display:block;width:100%;height:auto;background:#fafafa;border:1px solid #eee}
.form{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.3rem 1.2rem}
.form li{display:flex;align-items:center;gap:.4rem}
.form svg.spark{display:inline-block;width:6rem;background:none;border:0}.spark circle{fill:currentColor}
.games{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(18rem,100%),1fr));gap:.8rem}
figure{margin:0;min-width:0;border:1px solid #eee;padding:.4rem}
figcaption{font-size:.9rem;margin-bottom:.3rem;overflow-wrap:anywhere}
.result{font-size:.9rem;margin:.3rem 0 0}
.legend{display:flex;flex-wrap:wrap;gap:.2rem .8rem;margin:.3rem 0;font-size:.9rem}
.legend span{overflow-wrap:anywhere;min-width:0}
.legend i{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:-.05em}
.legend .won{font-weight:bold}
.toggle{display:none}
@media (max-width:40rem){
 .toggle{display:inline-block}
 .board-wrap:not(.all) .more{display:none}
}
"""

SCRIPT = """
document.querySelectorAll('table.sortable').forEach(function(table){
  table.querySelectorAll('th').forEach(function(th, col){
    var button = th.querySelector('button');
    if (!button) return;
    button.addEventListener('click', function(){
      var body = table.tBodies[0];
      var asc = !th.classList.contains('sorted-asc');
      table.querySelectorAll('th').forEach(function(h){h.classList.remove('sorted-asc','sorted-desc');
                                                     h.removeAttribute('aria-sort')});
      th.classList.add(asc ? 'sorted-asc' : 'sorted-desc');
      th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function(a, b){
        var x = a.cells[col].dataset.v, y = b.cells[col].dataset.v;
        var nx = parseFloat(x), ny = parseFloat(y);
        var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : (x === '' ? 1 : y === '' ? -1 : x.localeCompare(y));
        return asc ? c : -c;
      });
      rows.forEach(function(r){body.appendChild(r)});
    });
  });
});
document.querySelectorAll('button.toggle').forEach(function(button){
  button.addEventListener('click', function(){
    var wrap = document.getElementById(button.getAttribute('aria-controls'));
    var open = wrap.classList.toggle('all');
    button.setAttribute('aria-expanded', open ? 'true' : 'false');
  });
});
"""


def embedded_json(data: Any) -> str:
    """JSON to put inside <script>: < > & written as \\u escapes, so no text in it can end the element
    or open a comment (a player called `<!--<script>` stays a name)."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def shown(column: str, value: Any, lang: str) -> str:
    """A cell as the page shows it: numbers as the language writes them, a pair as "ann + bob"."""
    value = cell(column, value)
    if value is None:
        return "–"
    if isinstance(value, list):
        return " + ".join(map(str, value))
    if column == "win_rate" and isinstance(value, (int, float)):
        return local_number(round(value * 100), lang) + " %"
    return local_number(value, lang)


def table(key: str, rows: Sequence[Mapping[str, Any]], columns: Sequence[str], lang: str,
          counters: Mapping[str, str] | None = None, caption: str = "", sortable: bool = True) -> str:
    """A sortable table (a click on a heading sorts it); columns beyond ALWAYS hide on a phone until a tap.
    Not `sortable` (a page without the season page's script): plain headings, every column shown."""
    def cls(c: str) -> str:
        names = ["player"] if c in ("player", "pair") else []
        return " ".join([*names, *([] if c in ALWAYS or c.startswith("statistic ") else ["more"])])

    def heading(c: str) -> str:
        words = esc(column_label(c, counters).replace("_", " "))
        return f'<button type="button">{words}</button>' if sortable else words

    head = "".join(f'<th scope="col" class="{cls(c)}">{heading(c)}</th>' for c in columns)
    body = []
    for r in rows:
        cells = []
        for c in columns:
            v = r.get(c)
            sort = "" if v is None else " + ".join(v) if isinstance(v, list) else v
            cells.append(f'<td class="{cls(c)}" data-v="{esc(sort)}">{esc(shown(c, v, lang))}</td>')
        mark = ' class="provisional"' if r.get("provisional") else ""
        body.append(f"<tr{mark}>{''.join(cells)}</tr>")
    hidden = sortable and any(c not in ALWAYS for c in columns)
    words = _("All columns")
    toggle = (f'<button type="button" class="toggle" aria-expanded="false" aria-controls="{esc(key)}-wrap">'
              f'{esc(words)}</button>') if hidden else ""
    label = f' aria-label="{esc(caption)}"' if caption else ""
    sorts = ' class="sortable"' if sortable else ""
    return (f'{toggle}<div class="board-wrap scroll" id="{esc(key)}-wrap" tabindex="0" role="region"{label}>'
            f'<table{sorts} id="{esc(key)}"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>')


def game_card(g: Mapping[str, Any], lang: str) -> str:
    """One game: its progression (with the ruleset's thresholds as lines), each side's final score, and who won."""
    series = [(side, [(0.0, 0.0), *((float(i + 1), float(t[k])) for i, t in enumerate(g["totals"]))])
              for k, side in enumerate(g["sides"])]
    winners = set(g.get("winners") or [])
    labels = []
    for side, final in zip(g["sides"], g["final"], strict=False):
        text = f"{esc(side)} {esc(local_number(plain(final), lang))}"
        labels.append(f'<b class="won">{text} ✓</b>' if g.get("finished") and side in winners else text)
    if not g.get("finished"):
        result = esc(_("Not finished"))
    elif g.get("draw"):
        result = esc(_("Draw: {sides}").format(sides=_(" and ").join(w for w in g["sides"] if w in winners)))
    elif winners:
        result = esc(_("Won by {sides}").format(sides=", ".join(w for w in g["sides"] if w in winners)))
    else:
        result = esc(_("Finished"))
    final = ", ".join(f"{esc(s)} {esc(local_number(plain(v), lang))}"
                      for s, v in zip(g["sides"], g["final"], strict=False))
    caption = esc(_("Game {id}: {ruleset}, {date}").format(id=g["id"], ruleset=g["ruleset"],
                                                            date=local_date(g["date"], lang)))
    if g.get("name"):
        caption += f" — {esc(g['name'])}"
    lines = [(float(v), local_number(v, lang)) for v in g.get("thresholds", ())]
    chart = line_chart(series, lang=lang, width=300, height=160, title=_("game {id}").format(id=g["id"]),
                       labels=labels, lines=lines, font=13) if g["totals"] else ""
    scores = "" if chart else f" · {final}"   # with a chart, its legend gives each side's final score
    return (f'<figure class="game" data-game="{esc(g["id"])}"><figcaption>{caption}</figcaption>'
            f'<p class="result"><strong>{result}</strong>{scores}</p>{chart}</figure>')


def form_list(b: Mapping[str, Any], lang: str) -> str:
    """Each ranked player's places in this game's counted games, in the order played: a sparkline with
    the places in words beside it for a screen reader (1 = first)."""
    places = b.get("places") or {}
    worst = max((p for ps in places.values() for p in ps), default=1)
    items = []
    for r in b["players"]:
        mine = places.get(r["player"], [])
        if mine:
            label = _("{player}: places {places}").format(
                player=r["player"], places=", ".join(local_number(p, lang) for p in mine))
            items.append(f'<li><span class="who">{esc(r["player"])}</span>{sparkline(mine, worst, label)}</li>')
    return f'<ul class="form">{"".join(items)}</ul>' if items else ""


def board_section(k: int, b: Mapping[str, Any], data: Mapping[str, Any], lang: str) -> str:
    """One game's section: its leaderboard, mu and sigma behind a toggle, partnerships, rating chart, cards."""
    key = f"game-{k + 1}"
    n = ngettext("{n} game", "{n} games", b["games"]).format(n=b["games"])
    parts = [f'<section id="{key}" data-ruleset="{esc(b["ruleset"])}"><h2>{esc(b["name"])} · {esc(n)}</h2>',
             table(f"{key}-board", board_cells(b), board_columns(b), lang, b.get("counter_words"), b["name"])]
    details = [{"player": r["player"], "mu": r["mu"], "sigma": r["sigma"]} for r in b["players"]]
    summary = _("Details: mu and sigma")
    parts.append(f'<details><summary>{esc(summary)}</summary><p>'
                 + esc(_("The rating is mu − 3 × sigma: mu is the estimated skill, sigma how unsure that "
                         "estimate still is (it shrinks with every game)."))
                 + "</p>" + table(f"{key}-details", details, ["player", "mu", "sigma"], lang) + "</details>")
    if b["pairs"]:
        heading = _("Partnerships")
        parts.append(f"<h3>{esc(heading)}</h3>" + table(f"{key}-pairs", b["pairs"], PAIRS, lang))
    if b.get("statistics"):
        heading = _("Statistics")
        parts.append(f"<h3>{esc(heading)}</h3>" + table(f"{key}-statistics", statistics_cells(b),
                                                         statistics_columns(b), lang, b.get("statistic_names"),
                                                         _("Statistics: {game}").format(game=b["name"])))
    form = form_list(b, lang)
    if form:
        heading = _("Places, game by game")
        parts.append(f"<h3>{esc(heading)}</h3>{form}")
    position = {gid: i + 1 for i, gid in enumerate(b.get("order", []))}
    series = [(name, [(float(position.get(gid, i + 1)), v) for i, (gid, v) in enumerate(points)])
              for name, points in b.get("history", {}).items()]
    chart = line_chart(series, lang=lang, title=_("ratings: {game}").format(game=b["name"]))
    if chart:
        heading = _("Rating over time")
        parts.append(f"<h3>{esc(heading)}</h3><p>"
                     + esc(_("Each point is a finished game of this kind, in the order played; lines that "
                             "coincide are drawn once, with all their names.")) + f"</p>{chart}")
    cards = [game_card(g, lang) for g in data.get("cards", []) if g["board"] == b["ruleset"]]
    if cards:
        heading = _("Games")
        parts.append(f'<h3>{esc(heading)}</h3><div class="games">{"".join(cards)}</div>')
    return "".join(parts) + "</section>"


def season_html(data: Mapping[str, Any]) -> str:
    """The page: a section per game (most played first) and, for a season of several, everyone over all."""
    lang = current()
    title = _("Season {season}").format(season=data["season"])
    boards = data["rulesets"]
    players = ngettext("{n} player", "{n} players", len(data["players"])).format(n=len(data["players"]))
    n_games = ngettext("{n} game", "{n} games", data["games"]).format(n=data["games"])
    intro = [f"{players}, {n_games}."]
    if data["unfinished"]:
        intro.append(unfinished_sentence(data["unfinished"]))
    if boards:
        intro.append(rating_sentence())
        if any(r["provisional"] for b in boards for r in b["players"]):
            intro.append(provisional_sentence(data["filters"]["min_games"]))
    sections = [board_section(k, b, data, lang) for k, b in enumerate(boards)]
    nav = overall = ""
    all_games, games_word = _("All games"), _("Games")
    if len(boards) > 1:
        links = [f'<li><a href="#game-{k + 1}">{esc(b["name"])}</a></li>' for k, b in enumerate(boards)]
        links.append(f'<li><a href="#overall">{esc(all_games)}</a></li>')
        nav = f'<nav aria-label="{esc(games_word)}"><ul>{"".join(links)}</ul></nav>'
        overall = (f'<section id="overall"><h2>{esc(all_games)}</h2><p>'
                   + esc(_("Wins, games and evenings over every game of the season; ratings are per game above."))
                   + "</p>" + table("overall-table", data["players"], OVERALL, lang, caption=all_games)
                   + "</section>")
    no_games = _("No finished games yet.")
    empty = "" if boards else f"<p>{esc(no_games)}</p>"
    return f"""<!DOCTYPE html>
<html lang="{esc(lang)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title><style>{STYLE}</style></head>
<body><main><h1>{esc(title)}</h1>
<p>{esc(" ".join(intro))}</p>{nav}{empty}{"".join(sections)}{overall}
<script type="application/json" id="season-data">{embedded_json(data["players"])}</script>
</main><script>{SCRIPT}</script>
</body></html>
"""
