"""The season table: per player games, wins, draws, losses, places, points, rating, recent form.

Places come from each game's final standings (winners first, then by total in the direction the
ruleset ranks). The rating is openskill's Plackett-Luce model, which handles 2-8 players,
partnerships and draws, updated in game order; we show mu and sigma and sort by the
conservative ordinal (mu - 3 sigma).
"""

from __future__ import annotations

import io
import json
import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from scorepad.app.games import pinned_ruleset
from scorepad.app.rows import game_title, season_name
from scorepad.errors import UserError
from scorepad.locale import _, current, ngettext
from scorepad.names import closest, did_you_mean
from scorepad.rules.registry import ruleset_id
from scorepad.rules.vocabulary import Vocabulary
from scorepad.store import GameRow
from scorepad.store.sqlite import gc_paused
from scorepad.text.local_time import local_date, local_day, utc_key
from scorepad.text.output import markdown_cell, spreadsheet_safe
from scorepad.text.report import MAX_GAME_CHARTS, season_html
from scorepad.text.season_lines import PlayerLine, cell, column_label

if TYPE_CHECKING:
    from scorepad.store import Store


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


def season_table(lines: dict[str, PlayerLine], player: str | None = None) -> list[dict[str, Any]]:
    """The season's rows from `compute`, best first (by rating ordinal, then wins, then average place)."""
    rows = [line.row() for line in lines.values()]
    if player:
        rows = [r for r in rows if r["player"].lower() == player.lower()]
    rows.sort(key=lambda r: (-r["ordinal"], -r["wins"], 1 if r["avg_place"] is None else r["avg_place"], r["player"]))
    return rows


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


def compute(games: Sequence[GameRow], *, ruleset: str | None = None, since: str | date | None = None,
            until: str | date | None = None, include_unfinished: bool = False) -> dict[str, PlayerLine]:
    """Every player's line over the selected games, ratings updated in the order the games were played."""
    with gc_paused():   # thousands of small results and no cycles among them
        return _compute(selected(games, ruleset, since, until), include_unfinished)


def _compute(chosen: Sequence[GameRow], include_unfinished: bool) -> dict[str, PlayerLine]:
    """The lines over games `selected` has chosen and put in order."""
    lines: dict[str, PlayerLine] = {}
    ratings: dict[str, tuple[float, float]] = {}
    unrated = (MU, SIGMA)
    for g in chosen:
        if not played(g):   # no standings: not a game played, nor points, with or without include_unfinished
            continue
        results = results_of(g, include_unfinished)
        decided = len(results) >= 2
        for res in results:
            score = res.score if isinstance(res.score, (int, float)) else 0
            outcome = res.outcome
            decided = decided and bool(outcome)
            place = (res.place - 1) / (res.n_sides - 1) if res.n_sides > 1 else 0.0
            for p in res.players:
                line = lines.get(p)
                if line is None:
                    line = lines[p] = PlayerLine(p)
                line.games += 1
                line.points += score
                kind = line.by_ruleset.get(res.ruleset)
                if kind is None:
                    kind = line.by_ruleset[res.ruleset] = [0, 0]
                kind[0] += score
                kind[1] += 1
                counters = line.counters.get(res.ruleset)
                if counters is None:
                    counters = line.counters[res.ruleset] = {}
                for key, value in res.counters.items():   # per ruleset: bags of one game are not of another
                    counters[key] = counters.get(key, 0) + value
                if outcome:
                    line.recent.append(outcome)
                    if outcome == "W":
                        line.wins += 1
                    elif outcome == "D":
                        line.draws += 1
                    else:
                        line.losses += 1
                    line.places.append(place)
        if not decided:
            continue
        new = rate([[ratings.get(p, unrated) for p in r.players] for r in results], [r.place for r in results])
        for res, team in zip(results, new, strict=True):
            for name, (mu, sigma) in zip(res.players, team, strict=True):
                ratings[name] = (mu, sigma)
                line = lines[name]
                line.mu, line.sigma = mu, sigma
                line.history.append((g.id, round(mu - 3 * sigma, 2)))
    return lines


def player_history(games: Sequence[GameRow], name: str) -> list[dict[str, Any]]:
    """One player's games: date, game, partners, score, place, outcome."""
    out = []
    for g in selected(games, None, None, None, abandoned=True):
        for res in results_of(g, include_unfinished=False):
            if any(p.lower() == name.lower() for p in res.players):
                out.append({"game": g.id, "date": local_day(g.created), "ruleset": g.ruleset_id,
                            "season": g.season, "side": res.players, "score": res.score,
                            "place": res.place, "of": res.n_sides,
                            "result": "abandoned" if g.abandoned else res.outcome or "unfinished"})
    return out


COLUMNS = ["player", "games", "wins", "draws", "losses", "win_rate", "avg_place", "points", "avg_points",
           "rating", "uncertainty", "last5"]


def report_columns(rows: list[dict[str, Any]], rulesets: Sequence[str]) -> list[str]:
    """The columns of the season table, filling `rows` in for the extra ones.

    Points of different games do not add up to anything (100 in Spades is a game, in Canasta a
    meld), so a season of several rulesets shows each ruleset's points in a column of its own;
    a season of one ruleset shows points and average points, and that ruleset's side counters
    summed (Asshole's titles, Spades' bags ...).
    """
    kinds = sorted(set(rulesets))
    if len(kinds) > 1:
        columns = [c for c in COLUMNS if c not in ("points", "avg_points")] + [f"{k} points" for k in kinds]
        for r in rows:
            r.pop("points", None)
            r.pop("avg_points", None)
            r["counters"] = {}   # each ruleset's own are in points_by_ruleset: a counter of one game is not of another
            for k in kinds:
                played = r["points_by_ruleset"].get(k)
                r[f"{k} points"] = played["points"] if played else None
        return columns
    extra = sorted({k for r in rows for k in r["counters"]}) if kinds else []
    for r in rows:
        r.update({f"total {k}": r["counters"].get(k, 0) for k in extra})
    return [*COLUMNS, *(f"total {k}" for k in extra)]


# tabulate formats that copy a cell's text into markup unescaped: a name could add HTML or LaTeX of its own
RAW_MARKUP_FORMATS = {"unsafehtml", "latex_raw"}


def table_formats() -> list[str]:
    """The tabulate formats `season --format` offers (html is scorepad's own page)."""
    from tabulate import tabulate_formats  # start-up: tabulate ~45 ms; the hot commands print with simple_table

    return sorted(f for f in tabulate_formats if f not in RAW_MARKUP_FORMATS and f != "html")


def counter_words(games: Sequence[GameRow], columns: Sequence[str]) -> dict[str, str]:
    """The language's words for the counters of the `total …` columns (a season of one ruleset): the
    label its translation gives each on the score display (Spades' bags: «мешки»); none in English."""
    counters = [c[len("total "):] for c in columns if c.startswith("total ")]
    if not counters or not games or current() == "en":
        return {}

    last = games[-1]
    words = Vocabulary(pinned_ruleset(last.ruleset_text, last.ruleset_source, last.variant), {})
    return {c: label for c in counters if (label := words.display_label(c))}


def table_text(fmt: str, rows: Sequence[dict[str, Any]], columns: Sequence[str],
               counters: Mapping[str, str] | None = None) -> str:
    """The table as csv, markdown or a tabulate format; cells are made safe for where each format goes."""

    if fmt == "csv":
        import csv  # start-up: only the CSV form needs it

        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\r\n")
        writer.writerow([spreadsheet_safe(c) for c in columns])
        for r in rows:
            writer.writerow([spreadsheet_safe("" if r.get(c) is None else r.get(c)) for c in columns])
        return buf.getvalue()
    table_fmt = {"text": "simple", "markdown": "github"}.get(fmt, fmt)
    if table_fmt not in table_formats():
        raise UserError(_("unknown format {fmt} (text, markdown, csv, json, html, or a tabulate format: "
                          "{value})").format(fmt=repr(fmt), value=", ".join(table_formats())))
    cells = [[cell(c, r.get(c)) for c in columns] for r in rows]
    headers = [column_label(c, counters) for c in columns]
    if table_fmt in ("github", "pipe"):
        cells = [[markdown_cell(v) for v in row] for row in cells]
        headers = [markdown_cell(h) for h in headers]
    from tabulate import tabulate  # start-up: tabulate ~45 ms; the hot commands print with simple_table

    return str(tabulate(cells, headers=headers, tablefmt=table_fmt, missingval="-")) + "\n"


# --------------------------------------------------------------------------- the report

def season_report(store: Store, name: str | None, fmt: str = "text", *, ruleset: str | None = None,
                  since: str | None = None, until: str | None = None, player: str | None = None,
                  include_unfinished: bool = False, rules_dirs: Sequence[str] = (),
                  aliases: Mapping[str, str] | None = None) -> str:
    """The season table in one of the formats (or any tabulate table format by name).

    `ruleset` and `player` are found as `new` finds them (ids, aliases, native names; the config's
    player aliases); a name that means nothing is refused with the nearest ones, never an empty table.
    """

    season = season_name(store, name)
    first, last = date_range(since, until)
    since, until = (None if d is None else d.isoformat() for d in (first, last))
    games = store.games(season)
    if ruleset is not None:

        ruleset = ruleset_id(ruleset, rules_dirs, {g.ruleset_id for g in store.games()})
    chosen = [g for g in selected(games, ruleset, first, last) if played(g)]   # the title counts what the columns count
    if player is not None:
        player = season_player(store, player, chosen, season, aliases or {})
    with gc_paused():   # thousands of small results and no cycles among them
        lines = _compute(chosen, include_unfinished)
    rows = season_table(lines, player)
    columns = report_columns(rows, [g.ruleset_id for g in chosen])
    if fmt == "json":
        return json.dumps({"season": season, "filters": {"ruleset": ruleset, "since": since, "until": until,
                                                         "player": player, "include_unfinished": include_unfinished},
                           "games": len(chosen), "players": rows},
                          ensure_ascii=False, indent=2, allow_nan=False) + "\n"
    if fmt == "html":

        if player:
            lines = {k: v for k, v in lines.items() if k.lower() == player.lower()}
        drawn = [{"id": g.id, "ruleset": game_title(g, current()), "date": local_day(g.created), "name": g.name,
                  "sides": [s["name"] for s in g.sides],
                  "finished": bool(g.state.get("finished")), "draw": bool(g.state.get("draw")),
                  "winners": list(g.state.get("winners") or []),
                  "final": [s["score"] for s in g.state["sides"]],
                  "totals": [[s["score"] for s in h.state["sides"]] for h in store.hands(g.id)]}
                 for g in chosen[-MAX_GAME_CHARTS:]]
        return season_html(_("Season {season}").format(season=season), rows, columns, lines, drawn, len(chosen),
                           [g.id for g in chosen], counter_words(chosen, columns))
    body = table_text(fmt, rows, columns, counter_words(chosen, columns) if fmt != "csv" else None)
    if fmt == "text":
        title = ngettext("Season {season}: {n} game", "Season {season}: {n} games", len(chosen))
        return title.format(season=season, n=len(chosen)) + f"\n{body}"
    return body


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
