"""A player's line in a season table and the names of its columns: what the season counts
(scorepad/app/season.py) and what its reports draw (scorepad/text/report.py) both read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scorepad.locale import N_, _, current
from scorepad.rules.bundled import name_of


def _clean(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(x, 2)


@dataclass
class PlayerLine:
    name: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    places: list[float] = field(default_factory=list)
    points: float = 0
    recent: list[str] = field(default_factory=list)
    counters: dict[str, dict[str, float]] = field(default_factory=dict)   # ruleset -> side counter -> sum
    mu: float = 25.0
    sigma: float = 25.0 / 3
    history: list[tuple[int, float]] = field(default_factory=list)
    by_ruleset: dict[str, list[float]] = field(default_factory=dict)   # ruleset -> [points, games]

    def row(self) -> dict[str, Any]:
        """The player's row. `counters` are the side counters of a player of one ruleset (a counter of one
        game is not a counter of another: Spades' bags and another game's bags do not add up); each
        ruleset's own are under `points_by_ruleset`. `win_rate` and `avg_place` are None (no rate of
        nothing) for a player with no finished game."""
        decided = self.wins + self.draws + self.losses
        counters = {rs: {k: _clean(v) for k, v in sorted(c.items())} for rs, c in self.counters.items()}
        return {
            "player": self.name, "games": self.games, "wins": self.wins, "draws": self.draws,
            "losses": self.losses, "win_rate": round(self.wins / decided, 3) if decided else None,
            "avg_place": round(sum(self.places) / len(self.places), 3) if self.places else None,
            "points": _clean(self.points), "avg_points": round(self.points / self.games, 1) if self.games else 0,
            "rating": round(self.mu, 2), "uncertainty": round(self.sigma, 2),
            "ordinal": round(self.mu - 3 * self.sigma, 2), "last5": "".join(self.recent[-5:]),
            "counters": dict(next(iter(counters.values()), {})) if len(self.by_ruleset) == 1 else {},
            "points_by_ruleset": {rs: {"games": int(n), "points": _clean(p), "avg_points": round(p / n, 1),
                                       "counters": counters.get(rs, {})}
                                  for rs, (p, n) in sorted(self.by_ruleset.items())},
        }


COLUMN_LABELS = {"player": N_("player"), "games": N_("games"), "wins": N_("wins"), "draws": N_("draws"),
                 "losses": N_("losses"), "win_rate": N_("win_rate"), "avg_place": N_("avg_place"),
                 "points": N_("points"), "avg_points": N_("avg_points"), "rating": N_("rating"),
                 "uncertainty": N_("uncertainty"), "last5": N_("last5")}
"""The columns as headed in the text tables (CSV and JSON keep the ids; English shows the ids)."""

RESULT_LETTERS = {"W": N_("W"), "D": N_("D"), "L": N_("L")}
"""The letters of the `last5` column (a win, a draw, a loss) in the text tables and the html page, each
language's own (et V/R/K: võit and viik share a V; ru and uk В/Н/П); CSV and JSON keep W, D, L."""


def cell(column: str, value: Any) -> Any:
    """A value of the season table as shown in the language shown (the `last5` letters)."""
    if column == "last5" and isinstance(value, str):
        return "".join(_(RESULT_LETTERS[c]) if c in RESULT_LETTERS else c for c in value)
    return value


def column_label(column: str, counters: Mapping[str, str] | None = None) -> str:
    """A column's heading in the language shown; `counters`: the language's words for the counters of
    the `total …` columns (season.counter_words), else their ids."""
    if column.startswith("total "):
        counter = column[len("total "):]
        return _("total {counter}").format(counter=(counters or {}).get(counter, counter))
    if column.endswith(" points") and column not in COLUMN_LABELS:
        ruleset = column[: -len(" points")]
        return _("{ruleset} points").format(ruleset=name_of(ruleset, current()) or ruleset)
    return _(COLUMN_LABELS[column]) if column in COLUMN_LABELS else column
