"""A declared statistic's total as the players read it: a count, a sum, a max or a min as the number, a
mean as the average with at most two decimals, a rate as a percentage (66,67% in Estonian), a first as
the average hand number over the games it held in; and the table of `scorepad stats`, one per game, a
row per player."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorepad.locale import _, current, ngettext
from scorepad.text.numbers import local_number, local_percent, plain
from scorepad.text.render import simple_table

PARTS = frozenset({"mean", "rate", "first"})
"""The kinds whose totals are kept as parts and shown worked out (an average, a percentage)."""
NONE_YET = frozenset({"max", "min"})
"""The kinds whose total is None before any hand: shown as "–"."""


def statistic_shown(kind: str, value: Any, lang: str | None = None) -> str:
    """A statistic's total in the language shown; a mean or a rate over no hands, a max or a min over
    none, a first that never held as "–"."""
    lang = lang or current()
    if isinstance(value, Mapping):
        if kind == "rate":
            return local_percent(value.get("made", 0), value.get("of", 0), lang)
        hands = value.get("games" if kind == "first" else "hands", 0)
        return local_number(value.get("sum", 0) / hands, lang, 2) if hands else "–"
    if value is None:
        return "–" if kind in NONE_YET else ""
    return local_number(plain(value), lang)


def stats_text(report: Mapping[str, Any]) -> str:
    """`scorepad stats` as text: a table per kind of game, a row per player (his finished games, then
    each statistic named in the language shown); a sentence when no game there declares any."""
    if not report["games"]:
        return _("No finished game of season {season} here declares statistics.").format(
            season=report["season"]) + "\n"
    parts = []
    for kind in report["games"]:
        games = ngettext("{n} game", "{n} games", kind["games"]).format(n=kind["games"])
        headers = [_("player"), _("games"), *(s["name"] for s in kind["statistics"])]
        rows = [[r["player"], str(r["games"]),
                 *(statistic_shown(s["kind"], r["statistics"].get(s["id"])) for s in kind["statistics"])]
                for r in kind["players"]]
        parts.append(f"{kind['name']} ({games}):\n" + simple_table(rows, headers, numparse=False))
    return "\n\n".join(parts) + "\n"


def stats_json(report: Mapping[str, Any]) -> dict[str, Any]:
    """`scorepad stats --json`: the same in every language (ids and kinds, no names); a mean's and a
    rate's totals as their parts ({"sum", "hands"}, {"made", "of"})."""
    games = [{**{k: v for k, v in kind.items() if k != "name"},
              "statistics": [{"id": s["id"], "kind": s["kind"]} for s in kind["statistics"]]}
             for kind in report["games"]]
    return {**report, "games": games}
