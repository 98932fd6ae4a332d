"""A player's line in a season table and the names of its columns: what the season counts
(scorepad/app/season.py) and what its tables and page show (season_table.py, report.py) both read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scorepad.locale import N_, _


def clean(x: float) -> float | int:
    """A number as people write it: 142, not 142.0; at most two decimals."""
    return int(x) if float(x).is_integer() else round(x, 2)


@dataclass
class PlayerLine:
    name: str
    games: int = 0          # counted games: wins + draws + losses
    wins: int = 0
    draws: int = 0
    losses: int = 0
    places: list[int] = field(default_factory=list)   # 1 = first
    points: float = 0
    recent: list[str] = field(default_factory=list)
    counters: dict[str, dict[str, float]] = field(default_factory=dict)   # ruleset -> side counter -> sum
    mu: float = 25.0
    sigma: float = 25.0 / 3
    history: list[tuple[int, float]] = field(default_factory=list)
    by_ruleset: dict[str, list[float]] = field(default_factory=dict)   # ruleset -> [points, games]
    evenings: set[str] = field(default_factory=set)   # the local days he played a counted game

    def win_rate(self) -> float | None:
        """Wins over games; None (no rate of nothing) for a player with no counted game."""
        return round(self.wins / self.games, 3) if self.games else None

    def overall_row(self) -> dict[str, Any]:
        """The player over every game of the season: what adds up across games (no rating, no points;
        each ruleset's own points and counters under `points_by_ruleset`)."""
        counters = {rs: {k: clean(v) for k, v in sorted(c.items())} for rs, c in self.counters.items()}
        return {
            "player": self.name, "games": self.games, "wins": self.wins, "draws": self.draws,
            "losses": self.losses, "win_rate": self.win_rate(), "evenings": len(self.evenings),
            "last5": "".join(self.recent[-5:]),
            "points_by_ruleset": {rs: {"games": int(n), "points": clean(p), "avg_points": clean(round(p / n, 1)),
                                       "counters": counters.get(rs, {})}
                                  for rs, (p, n) in sorted(self.by_ruleset.items())},
        }

    def board_row(self) -> dict[str, Any]:
        """The player on one game's leaderboard. `rating` is the number the board is sorted by, the
        cautious estimate mu - 3 sigma (0 for a new player); mu and sigma are beside it for who wants them."""
        counters = next(iter(self.counters.values()), {})
        return {
            "player": self.name, "rating": clean(round(self.mu - 3 * self.sigma, 1)),
            "games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses,
            "win_rate": self.win_rate(),
            "avg_place": round(sum(self.places) / len(self.places), 2) if self.places else None,
            "points": clean(self.points), "avg_points": clean(round(self.points / self.games, 1)) if self.games else 0,
            "last5": "".join(self.recent[-5:]),
            "mu": round(self.mu, 2), "sigma": round(self.sigma, 2),
            "counters": {k: clean(v) for k, v in sorted(counters.items())},
        }


COLUMN_LABELS = {"rank": N_("rank"), "player": N_("player"), "games": N_("games"), "wins": N_("wins"),
                 "draws": N_("draws"), "losses": N_("losses"), "win_rate": N_("win_rate"),
                 "avg_place": N_("avg_place"), "points": N_("points"), "avg_points": N_("avg_points"),
                 "rating": N_("rating"), "mu": N_("mu"), "sigma": N_("sigma"), "last5": N_("last5"),
                 "evenings": N_("evenings"), "game": N_("game"), "pair": N_("pair")}
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
    if column.startswith("statistic "):   # a declared statistic: `counters` gives its name in the language
        sid = column[len("statistic "):]
        return (counters or {}).get(sid, sid)
    if column.startswith("total "):
        counter = column[len("total "):]
        return _("total {counter}").format(counter=(counters or {}).get(counter, counter))
    return _(COLUMN_LABELS[column]) if column in COLUMN_LABELS else column
