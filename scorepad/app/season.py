"""The season: who played what, who won, and a rating per game, as data the text layer shows.

Places come from each game's final standings (winners first, then by total in the direction the
ruleset ranks), 1 = first. Only finished games count (unless `include_unfinished` counts the others
by their standings); the unfinished are listed apart. The rating is openskill's Plackett-Luce model,
which handles 2-8 players, partnerships and draws, updated in game order, one per game (ruleset;
variants together unless asked): Skid players and bridge players never met, so no rating mixes them.
The number shown is the one the table is sorted by: the cautious estimate mu - 3 sigma.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from scorepad.app.games import pinned_ruleset
from scorepad.app.rows import game_title, season_name
from scorepad.errors import ScorepadError, UserError
from scorepad.locale import _, current
from scorepad.names import closest, did_you_mean
from scorepad.rules.registry import ruleset_id
from scorepad.rules.thresholds import thresholds
from scorepad.rules.vocabulary import Vocabulary
from scorepad.store import GameRow
from scorepad.store.sqlite import gc_paused
from scorepad.text.local_time import local_date, local_day, utc_key
from scorepad.text.season_lines import PlayerLine

if TYPE_CHECKING:
    from scorepad.store import Store

MIN_GAMES = 3
"""Games of one kind a player needs to be ranked; below it he is listed apart, as provisional."""

MAX_GAME_CHARTS = 40
"""The game cards a season page draws (the last ones played)."""


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


@lru_cache(maxsize=256)
def rank_direction(text: str) -> str:
    """Which total is better in a pinned ruleset: 'highest' or 'lowest' (read from [end] only)."""
    try:
        end = tomllib.loads(text).get("end", {})
    except tomllib.TOMLDecodeError:
        return "highest"
    winner = end.get("winner", "highest")
    return str(end.get("rank", "lowest" if winner == "lowest" else "highest"))


def played(row: GameRow) -> bool:
    """Whether a game has standings: a hand is played, or the game is over (ended by `finish`). A game with
    no hand yet has none (all at 0 is no draw): it is no result, and no game played in the season table."""
    return row.hands > 0 or bool(row.state.get("finished"))


def results_of(row: GameRow, include_unfinished: bool) -> list[Result]:
    """Each side's place and outcome in one game. An unfinished game is a result only with
    `include_unfinished`, by its current standings, and only once it is `played`, so a game with no
    hand yet counts for no result and no rating."""
    state = row.state
    sides = state["sides"]
    lowest = rank_direction(row.ruleset_text) == "lowest"
    winners = set(state.get("winners") or [])
    names = [s["name"] for s in row.sides]

    keys = []   # winners first, then by total in the ruleset's direction
    for k, side in enumerate(sides):
        score = side["score"]
        won = names[k] in winners or side["status"] == "won"
        number = score if isinstance(score, (int, float)) else 0
        keys.append((0 if won else 1, number if lowest else -number))
    order = sorted(range(len(sides)), key=keys.__getitem__)
    places = [0] * len(sides)
    for pos, k in enumerate(order):
        if pos and keys[order[pos - 1]] == keys[k]:
            places[k] = places[order[pos - 1]]
        else:
            places[k] = pos + 1
    out = []
    finished = bool(state.get("finished"))
    for k, side in enumerate(row.sides):
        if finished:
            outcome = ("D" if state.get("draw") else "W") if names[k] in winners else "L"
        elif include_unfinished and played(row):
            top = [j for j in range(len(sides)) if places[j] == 1]
            outcome = ("D" if len(top) > 1 else "W") if places[k] == 1 else "L"
        else:
            outcome = ""
        counters = {key: value for key, value in sides[k].items()
                    if key not in ("score", "status") and isinstance(value, (int, float)) and not isinstance(value, bool)}
        out.append(Result(row.id, row.ruleset_id, row.created, [row.players[i] for i in side["members"]],
                          sides[k]["score"], places[k], len(sides), outcome, counters))
    return out


def day_of(text: str | date | None, label: str = "--since") -> date | None:
    """A --since or --until day (YYYY-MM-DD) as a date; a sentence and exit 2 for anything else."""
    if text is None or isinstance(text, date):
        return text
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise UserError(_("{label} {day}: write a date as YYYY-MM-DD").format(label=label, day=repr(text))) from None


def date_range(since: str | date | None, until: str | date | None) -> tuple[date | None, date | None]:
    """--since and --until as dates; refused (exit 2) when no day can be in both."""
    first, last = day_of(since, "--since"), day_of(until, "--until")
    if first is not None and last is not None and first > last:
        raise UserError(_("--since {since} is after --until {until}; --since takes the first day and --until "
                          "the last").format(since=first.isoformat(), until=last.isoformat()))
    return first, last


def selected(games: Sequence[GameRow], ruleset: str | None, since: str | date | None, until: str | date | None,
             abandoned: bool = False) -> list[GameRow]:
    """The games a season report counts, in the order they were played; abandoned games count for nothing
    (not even with --include-unfinished) unless `abandoned` asks for them.

    --since and --until compare the day a game started on this machine's clock (its time zone): a game
    started at 00:30 on 1 January in Tallinn (22:30 UTC on 31 December) is a game of 1 January.
    """
    first, last = day_of(since, "--since"), day_of(until, "--until")
    out = []
    for g in games:
        if g.abandoned and not abandoned:
            continue
        if ruleset and g.ruleset_id != ruleset:
            continue
        if first is not None or last is not None:
            day = local_date(g.created)
            if day is None or (first is not None and day < first) or (last is not None and day > last):
                continue
        out.append(g)
    out.sort(key=lambda g: (utc_key(g.created), g.id))
    return out


MU, SIGMA = 25.0, 25.0 / 3.0          # openskill's PlackettLuce() defaults, which the season uses
_BETA_SQUARED = (25.0 / 6.0) ** 2
_TAU_SQUARED = (25.0 / 300.0) * (25.0 / 300.0)
_KAPPA = 0.0001


def rate(teams: Sequence[Sequence[tuple[float, float]]], ranks: Sequence[int]) -> list[list[tuple[float, float]]]:
    """Each player's (mu, sigma) after one game: openskill's `PlackettLuce().rate(teams, ranks=ranks)`.

    The same operations in the same order as openskill 6 (default model, no weights, scores or
    limit_sigma), so the same floats; without its deep copy of every rating and the uuid4 each
    rating is born with, which were a third of a 5,000-game season (tests compare on random seasons).
    """
    k = len(teams)
    order = sorted(range(k), key=ranks.__getitem__)    # best first; ties keep their order (a stable sort)
    team_rank = [int(ranks[i]) for i in order]
    players = [[(mu, math.sqrt(sigma * sigma + _TAU_SQUARED)) for mu, sigma in teams[i]] for i in order]
    team_mu, team_s2 = [], []
    for team in players:
        mu_sum = s2_sum = 0.0
        for mu, sigma in sorted(team, key=lambda p: p[0] - 3.0 * p[1], reverse=True):  # openskill's order
            mu_sum += mu
            s2_sum += sigma ** 2
        team_mu.append(mu_sum)
        team_s2.append(s2_sum)
    collective = 0.0
    for s2 in team_s2:
        collective += s2 + _BETA_SQUARED
    c = math.sqrt(collective)
    sum_q = [0.0] * k
    for i in range(k):
        summed = math.exp(team_mu[i] / c)
        for q in range(k):
            if team_rank[i] >= team_rank[q]:
                sum_q[q] += summed
    a = [team_rank.count(r) for r in team_rank]
    out: list[list[tuple[float, float]]] = [[] for _ in range(k)]
    for i in range(k):
        omega = delta = 0.0
        e = math.exp(team_mu[i] / c)
        for q in range(k):
            x = e / sum_q[q]
            if team_rank[q] <= team_rank[i]:
                delta += x * (1 - x) / a[q]
                if q == i:
                    omega += (1 - x) / a[q]
                else:
                    omega -= x / a[q]
        s2 = team_s2[i]
        omega *= s2 / c
        delta *= s2 / c ** 2
        delta *= math.sqrt(s2) / c
        new = []
        for mu, sigma in players[i]:
            share = sigma ** 2 / s2
            new.append((mu + share * omega, sigma * math.sqrt(max(1 - share * delta, _KAPPA))))
        out[order[i]] = new
    return out


@dataclass
class Board:
    """One game's (ruleset's) leaderboard: its players' lines and ratings, and its partnerships."""

    key: str                  # the ruleset id, or id:variant when variants are kept apart
    games: list[int] = field(default_factory=list)
    lines: dict[str, PlayerLine] = field(default_factory=dict)
    ratings: dict[str, tuple[float, float]] = field(default_factory=dict)
    pairs: dict[tuple[str, ...], list[int]] = field(default_factory=dict)   # partners -> [games, W, D, L]


@dataclass
class Tally:
    """What a season counted: every player over all games (no rating), and a board per game."""

    overall: dict[str, PlayerLine] = field(default_factory=dict)
    boards: dict[str, Board] = field(default_factory=dict)
    counted: list[GameRow] = field(default_factory=list)
    unfinished: list[GameRow] = field(default_factory=list)


def board_key(row: GameRow, by_variant: bool) -> str:
    """The leaderboard a game is rated on: its ruleset, with the variant only when asked."""
    return f"{row.ruleset_id}:{row.variant}" if by_variant and row.variant else row.ruleset_id


def compute(games: Sequence[GameRow], *, ruleset: str | None = None, since: str | date | None = None,
            until: str | date | None = None, include_unfinished: bool = False, by_variant: bool = False) -> Tally:
    """Every player's lines over the selected games, ratings updated per game in the order played."""
    with gc_paused():   # thousands of small results and no cycles among them
        return tally(selected(games, ruleset, since, until), include_unfinished, by_variant)


def _credit(line: PlayerLine, res: Result, day: str) -> None:
    """One counted result on a player's line: a game, its outcome, place, points and counters."""
    score = res.score if isinstance(res.score, (int, float)) else 0
    line.games += 1
    line.points += score
    line.evenings.add(day)
    kind = line.by_ruleset.setdefault(res.ruleset, [0, 0])
    kind[0] += score
    kind[1] += 1
    counters = line.counters.setdefault(res.ruleset, {})
    for key, value in res.counters.items():   # per ruleset: bags of one game are not of another
        counters[key] = counters.get(key, 0) + value
    line.recent.append(res.outcome)
    if res.outcome == "W":
        line.wins += 1
    elif res.outcome == "D":
        line.draws += 1
    else:
        line.losses += 1
    line.places.append(res.place)


def tally(chosen: Sequence[GameRow], include_unfinished: bool, by_variant: bool = False) -> Tally:
    """The lines over games `selected` has chosen and put in order. A game counts when every side has an
    outcome (finished, or by its standings with `include_unfinished`): then wins + draws + losses = games."""
    out = Tally()
    for g in chosen:
        if not played(g):   # no standings: not a game played, nor points, with or without include_unfinished
            continue
        results = results_of(g, include_unfinished)
        if not results or not all(r.outcome for r in results):
            out.unfinished.append(g)
            continue
        out.counted.append(g)
        board = out.boards.setdefault(board_key(g, by_variant), Board(board_key(g, by_variant)))
        board.games.append(g.id)
        day = local_day(g.created)
        for res in results:
            for p in res.players:
                _credit(out.overall.setdefault(p, PlayerLine(p)), res, day)
                _credit(board.lines.setdefault(p, PlayerLine(p)), res, day)
            if len(res.players) > 1:
                record = board.pairs.setdefault(tuple(sorted(res.players)), [0, 0, 0, 0])
                record[0] += 1
                record["WDL".index(res.outcome) + 1] += 1
        if len(results) >= 2:
            _rate(board, g.id, results)
    return out


def _rate(board: Board, game: int, results: Sequence[Result]) -> None:
    """One game's rating update on its own board."""
    unrated = (MU, SIGMA)
    new = rate([[board.ratings.get(p, unrated) for p in r.players] for r in results], [r.place for r in results])
    for res, team in zip(results, new, strict=True):
        for name, (mu, sigma) in zip(res.players, team, strict=True):
            board.ratings[name] = (mu, sigma)
            line = board.lines[name]
            line.mu, line.sigma = mu, sigma
            line.history.append((game, round(mu - 3 * sigma, 2)))


def ranked(lines: Mapping[str, PlayerLine], min_games: int) -> list[dict[str, Any]]:
    """A board's rows, best first: by the rating shown, then wins, then average place; `rank` 1, 2, 3 ...
    among players with `min_games` or more (equal keys share a rank), the others after them, provisional."""
    rows = [line.board_row() for line in lines.values()]

    def key(r: dict[str, Any]) -> tuple[float, int, float]:
        return (-r["rating"], -r["wins"], r["avg_place"] if r["avg_place"] is not None else math.inf)

    rows.sort(key=lambda r: (r["games"] < min_games, *key(r), r["player"]))
    rank, previous = 0, None
    for k, r in enumerate(rows):
        r["provisional"] = r["games"] < min_games
        if r["provisional"]:
            r["rank"] = None
            continue
        if key(r) != previous:
            rank, previous = k + 1, key(r)
        r["rank"] = rank
    return [{"rank": r.pop("rank"), **r} for r in rows]


def overall_rows(lines: Mapping[str, PlayerLine]) -> list[dict[str, Any]]:
    """Every player over all the season's games, by wins, then games, then name: no rating across games."""
    rows = [line.overall_row() for line in lines.values()]
    rows.sort(key=lambda r: (-r["wins"], -(r["win_rate"] or 0), -r["games"], r["player"]))
    return rows


def pair_rows(pairs: Mapping[tuple[str, ...], list[int]]) -> list[dict[str, Any]]:
    """Each partnership's record on a board, most wins first."""
    ordered = sorted(pairs.items(), key=lambda kv: (-kv[1][1], -kv[1][1] / kv[1][0], kv[0]))
    return [{"pair": list(k), "games": n, "wins": w, "draws": d, "losses": lost, "win_rate": round(w / n, 3)}
            for k, (n, w, d, lost) in ordered]


def counter_words(row: GameRow, counters: Sequence[str]) -> dict[str, str]:
    """The language's words for a board's counters: the label its translation gives each on the score
    display (Spades' bags: «мешки»); none in English."""
    if not counters or current() == "en":
        return {}
    words = Vocabulary(pinned_ruleset(row.ruleset_text, row.ruleset_source, row.variant), {})
    return {c: label for c in counters if (label := words.display_label(c))}


# --------------------------------------------------------------------------- the report

def season_report(store: Store, name: str | None, *, ruleset: str | None = None,
                  since: str | None = None, until: str | None = None, player: str | None = None,
                  include_unfinished: bool = False, rules_dirs: Sequence[str] = (),
                  aliases: Mapping[str, str] | None = None, min_games: int = MIN_GAMES,
                  by_variant: bool = False, charts: bool = False) -> dict[str, Any]:
    """The season as data for `text.season_table` and `text.report`: the overall rows and a board per game.

    `ruleset` and `player` are found as `new` finds them (ids, aliases, native names; the config's
    player aliases); a name that means nothing is refused with the nearest ones, never an empty table.
    `charts` adds what the HTML page draws (rating histories, the last games' running totals).
    """
    if min_games < 1:
        raise UserError(_("--min-games {n}: give a number of games, 1 or more").format(n=min_games))
    season = season_name(store, name)
    first, last = date_range(since, until)
    games = store.games(season)
    if ruleset is not None:
        ruleset = ruleset_id(ruleset, rules_dirs, {g.ruleset_id for g in store.games()})
    chosen = selected(games, ruleset, first, last)
    if player is not None:
        player = season_player(store, player, [g for g in chosen if played(g)], season, aliases or {})
    with gc_paused():   # thousands of small results and no cycles among them
        counted = tally(chosen, include_unfinished, by_variant)
    lang = current()
    boards = []
    for key, board in sorted(counted.boards.items(), key=lambda kv: (-len(kv[1].games), kv[0])):
        last_game = next(g for g in reversed(counted.counted) if board_key(g, by_variant) == key)
        rows = ranked(board.lines, min_games)
        names = sorted({c for r in rows for c in r["counters"]})
        entry: dict[str, Any] = {
            "ruleset": last_game.ruleset_id, "variant": last_game.variant if by_variant else None,
            "name": game_title(last_game, lang) if by_variant else game_title(_no_variant(last_game), lang),
            "games": len(board.games), "players": _only(rows, player), "pairs": pair_rows(board.pairs),
            "counter_words": counter_words(last_game, names)}
        if player:
            entry["pairs"] = [p for p in entry["pairs"] if player in p["pair"]]
        _add_statistics(store, entry, [g for g in counted.counted if board_key(g, by_variant) == key])
        if charts:
            entry["history"] = {n: line.history for n, line in board.lines.items()
                                if line.history and (not player or n == player)}
            entry["order"] = list(board.games)
            entry["places"] = {n: line.places for n, line in board.lines.items()
                               if line.places and (not player or n == player)}
        boards.append(entry)
    out: dict[str, Any] = {
        "season": season,
        "filters": {"ruleset": ruleset, "since": None if first is None else first.isoformat(),
                    "until": None if last is None else last.isoformat(), "player": player,
                    "include_unfinished": include_unfinished, "min_games": min_games, "by_variant": by_variant},
        "games": len(counted.counted), "unfinished": [g.id for g in counted.unfinished],
        "players": _only(overall_rows(counted.overall), player), "rulesets": boards}
    if charts:
        out["cards"] = [game_card_data(store, g, lang) for g in counted.counted[-MAX_GAME_CHARTS:]]
    return out


def _add_statistics(store: Store, entry: dict[str, Any], rows: Sequence[GameRow]) -> None:
    """The statistics the game's ruleset declares, added up over the board's counted games: their ids
    and kinds, their names in the language of the call (apart, as the counters' words), and each player row's totals."""
    from scorepad.app.statistics import statistics_over, zero  # only a season with such rulesets reads its hands

    declared, totals = statistics_over(store, rows, [r["player"] for r in entry["players"]])
    if not declared:
        return
    entry["statistics"] = [{"id": s["id"], "kind": s["kind"]} for s in declared]
    entry["statistic_names"] = {s["id"]: s["name"] for s in declared}
    for r in entry["players"]:
        r["statistics"] = totals.get(r["player"], {s["id"]: zero(s["kind"]) for s in declared})


def _no_variant(row: GameRow) -> GameRow:
    """The row with no variant: a board of all variants is headed by the ruleset's name alone."""
    return replace(row, variant=None) if row.variant else row


def _only(rows: list[dict[str, Any]], player: str | None) -> list[dict[str, Any]]:
    return [r for r in rows if r["player"] == player] if player else rows


def game_card_data(store: Store, g: GameRow, lang: str) -> dict[str, Any]:
    """What a game's card on the season page shows: its sides, result, running totals and the totals its
    ruleset makes a threshold (drawn as lines, as on the game's sheet)."""
    return {"id": g.id, "ruleset": game_title(g, lang), "board": g.ruleset_id, "date": local_day(g.created),
            "name": g.name, "sides": [s["name"] for s in g.sides],
            "finished": bool(g.state.get("finished")), "draw": bool(g.state.get("draw")),
            "winners": list(g.state.get("winners") or []),
            "final": [s["score"] for s in g.state["sides"]],
            "totals": [[s["score"] for s in h.state["sides"]] for h in store.hands(g.id)],
            "thresholds": game_thresholds(g)}


def game_thresholds(g: GameRow) -> list[int | float]:
    """The stored game's thresholds under its options (none when its pinned ruleset no longer reads)."""
    try:
        rs = pinned_ruleset(g.ruleset_text, g.ruleset_source, g.variant)
    except ScorepadError:
        return []
    return thresholds(rs, g.options)   # option defaults under the stored options


# --------------------------------------------------------------------------- one player

def player_history(games: Sequence[GameRow], name: str) -> list[dict[str, Any]]:
    """One player's games: date, game, partners, score, place, outcome."""
    out = []
    for g in selected(games, None, None, None, abandoned=True):
        for res in results_of(g, include_unfinished=False):
            if any(p.lower() == name.lower() for p in res.players):
                out.append({"game": g.id, "date": local_day(g.created), "ruleset": g.ruleset_id,
                            "name": game_title(g, current()),
                            "season": g.season, "side": res.players, "score": res.score,
                            "place": res.place, "of": res.n_sides,
                            "result": "abandoned" if g.abandoned else res.outcome or "unfinished"})
    return out


def partners(history: Sequence[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """A player's record with each partner over the counted (finished) partnership games, most wins
    first: the first is his best partner."""
    record: dict[str, list[int]] = {}
    for h in history:
        if h["result"] not in ("W", "D", "L") or len(h["side"]) < 2:
            continue
        for other in h["side"]:
            if other.lower() != name.lower():
                r = record.setdefault(other, [0, 0, 0, 0])
                r[0] += 1
                r["WDL".index(h["result"]) + 1] += 1
    ordered = sorted(record.items(), key=lambda kv: (-kv[1][1], -kv[1][1] / kv[1][0], -kv[1][0], kv[0]))
    return [{"partner": p, "games": n, "wins": w, "draws": d, "losses": lost, "win_rate": round(w / n, 3)}
            for p, (n, w, d, lost) in ordered]


def head_to_head(games: Sequence[GameRow], name: str, other: str) -> dict[str, Any]:
    """Two players over the finished games both played: who finished ahead of whom when opponents, and
    their record together when partners."""
    rows = []
    ahead = {name: 0, other: 0, "level": 0}
    together = [0, 0, 0, 0]
    for g in selected(games, None, None, None):
        results = results_of(g, include_unfinished=False)
        mine = next((r for r in results if any(p.lower() == name.lower() for p in r.players)), None)
        theirs = next((r for r in results if any(p.lower() == other.lower() for p in r.players)), None)
        if mine is None or theirs is None or not mine.outcome:
            continue
        same = mine is theirs
        if same:
            together[0] += 1
            together["WDL".index(mine.outcome) + 1] += 1
        else:
            who = name if mine.place < theirs.place else other if theirs.place < mine.place else "level"
            ahead[who] += 1
        rows.append({"game": g.id, "date": local_day(g.created), "ruleset": g.ruleset_id,
                     "name": game_title(g, current()), "partners": same,
                     "places": [mine.place, theirs.place], "of": mine.n_sides, "scores": [mine.score, theirs.score],
                     "results": [mine.outcome, theirs.outcome]})
    return {"player": name, "other": other, "games": rows, "ahead": ahead[name], "behind": ahead[other],
            "level": ahead["level"],
            "together": dict(zip(("games", "wins", "draws", "losses"), together, strict=True))}


def known_player(games: Sequence[GameRow], text: str, aliases: Mapping[str, str]) -> str:
    """A player's name as the games know it (by a config alias, any case); a sentence and exit 2 else."""
    want = {k.lower(): v for k, v in aliases.items()}.get(text.strip().lower(), text.strip())
    for g in games:
        for p in g.players:
            if p.casefold() == want.casefold():
                return p
    guess = did_you_mean(closest(want, [p for g in games for p in g.players]))
    raise UserError(_("no games with a player called {name}{guess}").format(name=repr(want), guess=guess))


def season_player(store: Store, text: str, chosen: Sequence[GameRow], season: str,
                  aliases: Mapping[str, str]) -> str:
    """A --player name as the season knows it: by its config alias, any case; else a sentence and exit 2."""

    want = {k.lower(): v for k, v in aliases.items()}.get(text.strip().lower(), text.strip())
    for g in chosen:
        for p in g.players:
            if p.casefold() == want.casefold():
                return p
    known = [p for g in store.games() for p in g.players if p.casefold() == want.casefold()]
    if known:
        raise UserError(_("{value} played no counted game in season {season} with these filters").format(
                            value=known[0], season=season))
    guess = did_you_mean(closest(want, [p for g in store.games() for p in g.players]))
    raise UserError(_("no player called {want}{guess}; `scorepad season` lists the players").format(
                        want=repr(want), guess=guess))
