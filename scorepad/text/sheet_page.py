"""A game's story as one self-contained HTML page: who won, a chart of every side's total after each
hand, and the score sheet. Inline CSS and SVG, no script, no network: a file to share or print.

The chart (text/chart.py) draws the ruleset's thresholds as dashed lines (Spades' target, Skid's
limit, Marjas' 12: read from the ruleset, see rules/thresholds.py) and rings each hand's events on the
side they concern (app/story.py); numbers read as the season page writes them (text/numbers.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorepad.locale import _, current, shown
from scorepad.text.chart import esc, line_chart
from scorepad.text.local_time import local_stamp
from scorepad.text.numbers import local_date, local_number
from scorepad.text.sheet_table import headers, result, rows

STYLE = """
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;margin:0;color:#222;line-height:1.4}
main{margin:0 auto;padding:1rem;max-width:60rem}
h1{font-size:1.4rem;overflow-wrap:break-word}h2{font-size:1.2rem;margin-top:1.5rem;border-bottom:2px solid #ddd}
.result{font-size:1.05rem}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-size:.9rem;font-variant-numeric:tabular-nums}
th,td{padding:.3rem .5rem;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}
th{background:#f3f3f3;vertical-align:bottom}
tbody th{vertical-align:baseline}
td{vertical-align:baseline}
td.notes,th.notes{text-align:left;white-space:normal;min-width:12rem}
tr.finish td{border-top:2px solid #888}
svg{display:block;width:100%;height:auto;background:#fafafa;border:1px solid #eee}
.legend{display:flex;flex-wrap:wrap;gap:.2rem .8rem;margin:.3rem 0;font-size:.9rem}
.legend span{overflow-wrap:anywhere;min-width:0}
.legend i{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:-.05em}
.key{font-size:.9rem;color:#444}
"""


def chart(data: Mapping[str, Any], lang: str) -> str:
    """Every side's total after each hand (hand 0: the start), thresholds as lines, events ringed."""
    hands = list(data["hands"])
    if data.get("finish"):
        hands.append({"hand": len(hands) + 1, "totals": data["finish"]["totals"]})
    if not hands:
        return ""
    at = {h["hand"]: i + 1 for i, h in enumerate(hands)}
    series = [(side, [(0.0, 0.0), *((float(i + 1), float(h["totals"][k])) for i, h in enumerate(hands))])
              for k, side in enumerate(data["sides"])]
    labels = [f"{esc(side)} {esc(local_number(total, lang, 2))}"
              for side, total in zip(data["sides"], data["totals"], strict=False)]
    lines = [(float(v), local_number(v, lang)) for v in data.get("thresholds", ())]
    marks = []
    for m in data.get("marks", ()):
        x = at.get(m["hand"])
        if x is None:
            continue
        totals = hands[x - 1]["totals"]
        k = m["side"]
        y = totals[k] if k is not None else max(totals)
        marks.append((k if k is not None else -1, float(x), float(y),
                      _("hand {n}").format(n=m["hand"]) + ": " + shown(m["text"])))
    return line_chart(series, lang=lang, width=480, height=280, title=_("Running totals"), labels=labels,
                      lines=lines, marks=marks, font=14)


def sheet_table(data: Mapping[str, Any], lang: str) -> str:
    """The score sheet: a row per hand, the hand's number as the row's heading."""
    head = headers(data)
    cells = "".join(f'<th scope="col"{" class=notes" if i == len(head) - 1 else ""}>{esc(h)}</th>'
                    for i, h in enumerate(head))
    body = []
    for row in rows(data, lang):
        finish = ' class="finish"' if not isinstance(row[0], int) else ""
        tds = "".join(f"<td>{esc(v)}</td>" for v in row[1:-1])
        body.append(f'<tr{finish}><th scope="row">{esc(row[0])}</th>{tds}<td class="notes">{esc(row[-1])}</td></tr>')
    label = esc(_("Score sheet"))
    return (f'<div class="scroll" role="region" aria-label="{label}" tabindex="0"><table>'
            f'<thead><tr>{cells}</tr></thead><tbody>{"".join(body)}</tbody></table></div>')


def sheet_html(data: Mapping[str, Any]) -> str:
    """The page in the language shown (<html lang>), headings, table and chart alike."""
    lang = current()
    title = _("Game {id}: {ruleset}, {date}").format(id=data["game"], ruleset=data.get("title") or data["ruleset"],
                                                     date=local_date(local_stamp(str(data.get("created", "")))[:10], lang))
    if data.get("name"):
        title += f" — {data['name']}"
    totals = ", ".join(f"{s} {local_number(t, lang, 2)}" for s, t in zip(data["sides"], data["totals"], strict=False))
    won = result(data)
    summary = (f"<strong>{esc(won)}</strong> · " if won else "") + esc(_("Totals: {totals}").format(totals=totals))
    drawn = chart(data, lang)
    story = ""
    if drawn:
        keys = []
        if data.get("thresholds"):
            values = ", ".join(local_number(v, lang) for v in data["thresholds"])
            keys.append(_("Dashed lines: the totals that matter in this game ({values}).").format(values=values))
        if data.get("marks"):
            keys.append(_("A ring marks a hand with an event; its notes in the sheet say what happened."))
        key = f'<p class="key">{esc(" ".join(keys))}</p>' if keys else ""
        heading = _("Running totals")
        story = f'<section aria-labelledby="story"><h2 id="story">{esc(heading)}</h2>{drawn}{key}</section>'
    sheet_heading = _("Score sheet")
    return f"""<!DOCTYPE html>
<html lang="{esc(lang)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title><style>{STYLE}</style></head>
<body><main><h1>{esc(title)}</h1>
<p class="result">{summary}</p>{story}
<section aria-labelledby="sheet"><h2 id="sheet">{esc(sheet_heading)}</h2>{sheet_table(data, lang)}</section>
</main></body></html>
"""
