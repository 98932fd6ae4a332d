"""Inline SVG line charts for the HTML pages (the season's, a game's sheet): no script, no library.

Every line has a colour of its own and a marker at each point (a series of one point still shows);
lines that coincide are drawn once with all their names; numbers on the axis are written as the
tables write them (142, Estonian 0,5); lines across the chart mark a ruleset's thresholds (a target,
a limit), and events (a bust, a nil) are marked on the hand they happened in.
"""

from __future__ import annotations

import colorsys
import html
from collections.abc import Sequence
from typing import Any

from scorepad.text.numbers import local_number

# Well-separated colours (Tableau 10 and two more); beyond them, hues spread evenly around the wheel.
PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
           "#7f7f7f", "#bcbd22", "#393b79", "#637939"]


def esc(value: Any) -> str:
    return html.escape("" if value is None else str(value))


def colours(n: int) -> list[str]:
    """n colours, no two alike: the palette first, then evenly spread hues in two lightnesses."""
    if n <= len(PALETTE):
        return PALETTE[:n]
    out = []
    for k in range(n):
        r, g, b = colorsys.hls_to_rgb(k / n, 0.38 if k % 2 else 0.5, 0.75)
        out.append(f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}")
    return out


def _threshold(y: float, text: str, py: float, left: float, right: float, font: int) -> str:
    """A line across the chart at `y` (the zero line grey; a named threshold red, with its name)."""
    label = f"<title>{esc(text)}</title>" if text else ""
    out = (f'<g class="threshold" data-value="{esc(y)}">{label}<line x1="{left}" x2="{right}" '
           f'y1="{py:.1f}" y2="{py:.1f}" stroke="{"#b00" if text else "#bbb"}" stroke-dasharray="4"/>')
    if text:
        out += f'<text x="{right}" y="{py - 3:.1f}" font-size="{font}" text-anchor="end" fill="#900">{esc(text)}</text>'
    return out + "</g>"


def _series(names: str, xy: Sequence[tuple[float, float]], colour: str, radius: float) -> str:
    """One line of the chart with a marker at each of its points."""
    out = f'<g class="series" data-names="{esc(names)}"><title>{esc(names)}</title>'
    if len(xy) > 1:
        pts = " ".join(f"{px:.1f},{py:.1f}" for px, py in xy)
        out += f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{pts}"/>'
    out += "".join(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{radius}" fill="{colour}"/>' for px, py in xy)
    return out + "</g>"


def _swatch(colour: str, inline_style: bool) -> str:
    """A legend's colour key: styled inline, or a small SVG square where style attributes are forbidden."""
    if inline_style:
        return f'<i style="background:{colour}"></i>'
    return (f'<svg class="swatch" viewBox="0 0 10 10" aria-hidden="true">'
            f'<rect width="10" height="10" fill="{colour}"/></svg>')


def line_chart(series: Sequence[tuple[str, Sequence[tuple[float, float]]]], *, lang: str, width: int = 360,
               height: int = 200, title: str = "", labels: Sequence[str] | None = None,
               lines: Sequence[tuple[float, str]] = (), marks: Sequence[tuple[int, float, float, str]] = (),
               font: int = 12, inline_style: bool = True) -> str:
    """An inline SVG line chart with a legend: one line and markers per named series of (x, y) points.

    Series with the same points are one line, with all their names in its legend entry. `labels`
    (HTML) replaces the legend text of each series, in the order given. `lines`: (y, label) drawn
    across the chart (a threshold); `marks`: (series, x, y, label) ringed points with the label as
    their tooltip (an event). `font` is in the chart's units: the chart is meant to be drawn about
    `width` pixels wide, so its text stays readable on a phone. Without `inline_style` no element has a
    style attribute (a page whose Content-Security-Policy forbids them: the page's style sheet sizes
    the chart) and each legend key is a small SVG square.
    """
    points = [p for _, values in series for p in values]
    if not points:
        return ""
    ys = [y for _, y in points] + [y for y, _ in lines]
    xs = [x for x, _ in points]
    lo, hi = min(ys), max(ys)
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    x0, x1 = min(xs), max(xs)
    left, pad = font * 4, font + 4

    def at(x: float, y: float) -> tuple[float, float]:
        px = left + (width - left - pad) * ((x - x0) / (x1 - x0) if x1 > x0 else 0.5)
        py = height - pad - (height - 2 * pad) * ((y - lo) / (hi - lo))
        return px, py

    groups: dict[tuple[tuple[float, float], ...], list[int]] = {}
    for k, (_name, values) in enumerate(series):
        groups.setdefault(tuple(values), []).append(k)
    palette = colours(len(groups))
    sized = f' style="max-width:{width * 2}px"' if inline_style else ""
    svg = f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="{esc(title)}"{sized}>'
    parts = [svg]
    for y, text in ([(0.0, "")] if lo < 0 < hi else []) + list(lines):
        parts.append(_threshold(y, text, at(x0, y)[1], left, width - pad, font))
    for y in (hi, lo):
        _x, py = at(x0, y)
        parts.append(f'<text class="axis" x="{left - 4}" y="{py + font / 3:.1f}" font-size="{font}" '
                     f'text-anchor="end">{esc(local_number(y, lang, 1))}</text>')
    legend = []
    radius = 3.5
    member_of = {k: colour for colour, members in zip(palette, groups.values(), strict=True) for k in members}
    for colour, (values, members) in zip(palette, groups.items(), strict=True):
        names = ", ".join(series[k][0] for k in members)
        xy = [at(x, y) for x, y in values]
        parts.append(_series(names, xy, colour, radius))
        text = " = ".join(labels[k] for k in members) if labels else esc(names)
        legend.append(f'<span>{_swatch(colour, inline_style)}{text}</span>')
    for k, x, y, text in marks:
        px, py = at(x, y)
        parts.append(f'<g class="event"><title>{esc(text)}</title><circle cx="{px:.1f}" cy="{py:.1f}" r="7" '
                     f'fill="none" stroke="{member_of.get(k, "#222")}" stroke-width="2"/></g>')
    parts.append("</svg>")
    return "".join(parts) + f'<div class="legend">{"".join(legend)}</div>'


def sparkline(places: Sequence[int], worst: int, label: str, width: int = 96, height: int = 20) -> str:
    """A player's places game by game as a small line (first place at the top, `worst` at the bottom), a
    dot on each game, a larger one on each game won; `label` (the places in words) is what a screen
    reader says."""
    if not places:
        return ""
    step = (width - 6) / max(len(places) - 1, 1)
    span = max(worst - 1, 1)
    xy = [(3 + i * step if len(places) > 1 else width / 2, 3 + (height - 6) * (p - 1) / span)
          for i, p in enumerate(places)]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
    dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{3 if p == 1 else 1.5}"/>'
                   for (x, y), p in zip(xy, places, strict=True))
    return (f'<svg class="spark" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
            f'aria-label="{esc(label)}"><polyline points="{line}" fill="none" stroke="currentColor" '
            f'stroke-width="1.5"/>{dots}</svg>')
