"""The season's own Plackett-Luce update gives openskill's ratings: game by game, and over whole seasons."""

from __future__ import annotations

import math
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scorepad.app.season import compute, rate, selected
from scorepad.store import GameRow

SIDES = st.integers(2, 8).flatmap(lambda k: st.tuples(
    st.lists(st.lists(st.tuples(st.floats(-20, 70), st.floats(0.05, 12)), min_size=1, max_size=4),
             min_size=k, max_size=k),
    st.lists(st.integers(1, k), min_size=k, max_size=k)))


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


@given(SIDES)
@settings(max_examples=400, deadline=None)
def test_one_game_is_rated_as_openskill_rates_it(game: tuple[list[list[tuple[float, float]]], list[int]]) -> None:
    teams, ranks = game
    model = PlackettLuce()
    theirs = model.rate([[model.rating(mu=mu, sigma=sigma) for mu, sigma in t] for t in teams], ranks=list(ranks))
    ours = rate(teams, ranks)
    assert [len(t) for t in ours] == [len(t) for t in teams]
    for their_team, our_team in zip(theirs, ours, strict=True):
        for p, (mu, sigma) in zip(their_team, our_team, strict=True):
            assert close(p.mu, mu) and close(p.sigma, sigma), (p.mu, mu, p.sigma, sigma)


def random_season(seed: int) -> list[GameRow]:
    """Games of 2-6 sides of 1-3 players out of 12, some lowest-wins, some drawn, some unfinished."""
    rng = random.Random(seed)
    people = [f"p{i}" for i in range(12)]
    games = []
    for gid in range(1, 61):
        k = rng.randint(2, 6)
        size = rng.randint(1, 3) if k <= 4 else 1
        chosen = rng.sample(people, k * size)
        sides = [{"name": "+".join(chosen[s * size:(s + 1) * size]), "members": list(range(s * size, (s + 1) * size))}
                 for s in range(k)]
        scores = [rng.choice([rng.randint(-50, 200), 100]) for _ in range(k)]
        finished = rng.random() > 0.15
        best = max(scores)
        top = [s["name"] for s, v in zip(sides, scores, strict=True) if v == best]
        state: dict[str, Any] = {"sides": [{"score": v, "status": "playing"} for v in scores],
                                 "finished": finished, "winners": top if finished else None,
                                 "draw": finished and len(top) > 1}
        text = '[end]\nwinner = "lowest"\n' if gid % 5 == 0 else ""
        games.append(GameRow(gid, f"u{gid}", "r", f"h{gid % 5 == 0}", text, "test", None, None, "s", chosen, sides,
                             {}, f"2026-01-{1 + gid % 28:02d}T20:00:00", finished, 3, state))
    return games


def openskill_season(games: list[GameRow], include_unfinished: bool) -> dict[str, tuple[float, float, list[Any]]]:
    """The ratings as the season computed them with openskill's own model (the code before our update)."""
    from scorepad.app.season import results_of

    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    history: dict[str, list[Any]] = {}
    for g in selected(games, None, None, None):
        results = results_of(g, include_unfinished)
        if not all(r.outcome for r in results) or len(results) < 2:
            continue
        teams = [[ratings.setdefault(p, model.rating(name=p)) for p in r.players] for r in results]
        for team in model.rate(teams, ranks=[r.place for r in results]):
            for rating in team:
                ratings[str(rating.name)] = rating
                history.setdefault(str(rating.name), []).append((g.id, round(rating.mu - 3 * rating.sigma, 2)))
    return {name: (r.mu, r.sigma, history[name]) for name, r in ratings.items()}


@given(st.integers(0, 10**6), st.booleans())
@settings(max_examples=25, deadline=None)
def test_a_season_is_rated_as_openskill_rates_it(seed: int, include_unfinished: bool) -> None:
    games = random_season(seed)
    lines = compute(games, include_unfinished=include_unfinished).boards["r"].lines
    reference = openskill_season(games, include_unfinished)
    assert set(reference) <= set(lines)
    for name, line in lines.items():
        if name not in reference:  # played only unrated games: the prior
            assert (line.mu, line.sigma, line.history) == (25.0, 25.0 / 3, [])
            continue
        mu, sigma, history = reference[name]
        assert close(line.mu, mu) and close(line.sigma, sigma)
        assert line.history == history


@given(st.integers(0, 10**6), st.booleans())
@settings(max_examples=25, deadline=None)
def test_wins_draws_and_losses_add_up_to_games(seed: int, include_unfinished: bool) -> None:
    """Over a random season (draws, partnerships, lowest-wins, unfinished games): every line's games are the
    games it counts, wins + draws + losses, on every board and over all; an unfinished game counts for no
    one (unless asked) and is listed apart; places are 1-based."""
    games = random_season(seed)
    tally = compute(games, include_unfinished=include_unfinished)
    counted = [g for g in games if g.state["finished"] or include_unfinished]
    assert sorted(g.id for g in tally.counted) == [g.id for g in counted]
    assert sorted(g.id for g in tally.unfinished) == [g.id for g in games if g not in counted]
    for lines in (tally.overall, *(b.lines for b in tally.boards.values())):
        for name, line in lines.items():
            played = [g for g in counted if name in g.players]
            assert line.games == line.wins + line.draws + line.losses == len(played) == len(line.places), name
            assert all(1 <= p <= 6 for p in line.places)
            assert line.points == sum(g.state["sides"][k]["score"] for g in played
                                      for k, s in enumerate(g.sides) if name in s["name"].split("+"))
