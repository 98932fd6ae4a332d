"""The season table: per player games, wins, draws, losses, places, points, rating, recent form.

Places come from each game's final standings (winners first, then by total in the direction the
ruleset ranks). The rating is openskill's Plackett-Luce model, which handles 2-8 players,
partnerships and draws, updated in game order; we show mu and sigma and sort by the
conservative ordinal (mu - 3 sigma).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from scorepad.store import GameRow


@dataclass
class Result:
    """One side's result in one game, as the season counts it."""

    game: int
    ruleset: str
    created: str
    players: list[str]
    score: Any
    place: int
    n_sides: int
    outcome: str  # W, D, L or '' (unfinished, not counted)
    counters: dict[str, float] = field(default_factory=dict)  # the side's numeric counters at the end


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
    counters: dict[str, float] = field(default_factory=dict)
    mu: float = 25.0
    sigma: float = 25.0 / 3
    history: list[tuple[int, float]] = field(default_factory=list)

    def row(self) -> dict[str, Any]:
        decided = self.wins + self.draws + self.losses
        return {
            "player": self.name, "games": self.games, "wins": self.wins, "draws": self.draws,
            "losses": self.losses, "win_rate": round(self.wins / decided, 3) if decided else 0.0,
            "avg_place": round(sum(self.places) / len(self.places), 3) if self.places else None,
            "points": _clean(self.points), "avg_points": round(self.points / self.games, 1) if self.games else 0,
            "rating": round(self.mu, 2), "uncertainty": round(self.sigma, 2),
            "ordinal": round(self.mu - 3 * self.sigma, 2), "last5": "".join(self.recent[-5:]),
            "counters": {k: _clean(v) for k, v in sorted(self.counters.items())},
        }


def _clean(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(x, 2)


@lru_cache(maxsize=256)
def rank_direction(text: str) -> str:
    """Which total is better in a pinned ruleset: 'highest' or 'lowest' (read from [end] only)."""
    try:
        end = tomllib.loads(text).get("end", {})
    except tomllib.TOMLDecodeError:
        return "highest"
    winner = end.get("winner", "highest")
    return str(end.get("rank", "lowest" if winner == "lowest" else "highest"))


def results_of(row: GameRow, include_unfinished: bool) -> list[Result]:
    """Each side's place and outcome in one game."""
    state = row.state
    sides = state["sides"]
    lowest = rank_direction(row.ruleset_text) == "lowest"
    winners = set(state.get("winners") or [])
    names = [s["name"] for s in row.sides]

    def key(k: int) -> tuple[int, Any]:
        score = sides[k]["score"]
        won = names[k] in winners or sides[k]["status"] == "won"
        number = score if isinstance(score, (int, float)) else 0
        return (0 if won else 1, number if lowest else -number)

    order = sorted(range(len(sides)), key=key)
    places = [0] * len(sides)
    for pos, k in enumerate(order):
        if pos and key(order[pos - 1]) == key(k):
            places[k] = places[order[pos - 1]]
        else:
            places[k] = pos + 1
    out = []
    finished = bool(state.get("finished"))
    for k, side in enumerate(row.sides):
        if finished:
            outcome = ("D" if state.get("draw") else "W") if names[k] in winners else "L"
        elif include_unfinished:
            top = [j for j in range(len(sides)) if places[j] == 1]
            outcome = ("D" if len(top) > 1 else "W") if places[k] == 1 else "L"
        else:
            outcome = ""
        counters = {key: value for key, value in sides[k].items()
                    if key not in ("score", "status") and isinstance(value, (int, float)) and not isinstance(value, bool)}
        out.append(Result(row.id, row.ruleset_id, row.created, [row.players[i] for i in side["members"]],
                          sides[k]["score"], places[k], len(sides), outcome, counters))
    return out


def season_table(lines: dict[str, PlayerLine], player: str | None = None) -> list[dict[str, Any]]:
    """The season's rows from `compute`, best first (by rating ordinal, then wins, then points)."""
    rows = [line.row() for line in lines.values()]
    if player:
        rows = [r for r in rows if r["player"].lower() == player.lower()]
    rows.sort(key=lambda r: (-r["ordinal"], -r["wins"], -r["points"], r["player"]))
    return rows


def selected(games: Sequence[GameRow], ruleset: str | None, since: str | None, until: str | None,
             abandoned: bool = False) -> list[GameRow]:
    """The games a season report counts, in the order they were played; abandoned games count for nothing
    (not even with --include-unfinished) unless `abandoned` asks for them."""
    out = []
    for g in games:
        if g.abandoned and not abandoned:
            continue
        if ruleset and g.ruleset_id != ruleset:
            continue
        day = g.created[:10]
        if since and day < since:
            continue
        if until and day > until:
            continue
        out.append(g)
    out.sort(key=lambda g: (g.created, g.id))
    return out


def compute(games: Sequence[GameRow], *, ruleset: str | None = None, since: str | None = None,
            until: str | None = None, include_unfinished: bool = False) -> dict[str, PlayerLine]:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    lines: dict[str, PlayerLine] = {}
    ratings: dict[str, Any] = {}
    for g in selected(games, ruleset, since, until):
        results = results_of(g, include_unfinished)
        for res in results:
            for p in res.players:
                line = lines.setdefault(p, PlayerLine(p))
                line.games += 1
                line.points += res.score if isinstance(res.score, (int, float)) else 0
                for key, value in res.counters.items():
                    line.counters[key] = line.counters.get(key, 0) + value
                if res.outcome:
                    line.recent.append(res.outcome)
                    line.wins += res.outcome == "W"
                    line.draws += res.outcome == "D"
                    line.losses += res.outcome == "L"
                    line.places.append((res.place - 1) / (res.n_sides - 1) if res.n_sides > 1 else 0.0)
        if not all(r.outcome for r in results) or len(results) < 2:
            continue
        teams = [[ratings.setdefault(p, model.rating(name=p)) for p in r.players] for r in results]
        new = model.rate(teams, ranks=[r.place for r in results])
        for team in new:
            for rating in team:
                name = str(rating.name)
                ratings[name] = rating
                line = lines[name]
                line.mu, line.sigma = rating.mu, rating.sigma
                line.history.append((g.id, round(rating.mu - 3 * rating.sigma, 2)))
    return lines


def player_history(games: Sequence[GameRow], name: str) -> list[dict[str, Any]]:
    """One player's games: date, game, partners, score, place, outcome."""
    out = []
    for g in selected(games, None, None, None, abandoned=True):
        for res in results_of(g, include_unfinished=False):
            if any(p.lower() == name.lower() for p in res.players):
                out.append({"game": g.id, "date": g.created[:10], "ruleset": g.ruleset_id,
                            "season": g.season, "side": res.players, "score": res.score,
                            "place": res.place, "of": res.n_sides,
                            "result": "abandoned" if g.abandoned else res.outcome or "unfinished"})
    return out


COLUMNS = ["player", "games", "wins", "draws", "losses", "win_rate", "avg_place", "points", "avg_points",
           "rating", "uncertainty", "last5"]
