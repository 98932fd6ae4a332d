"""The statistics each ruleset declares (`[stats]`), totalled over the stored hands of a player or
of a season's games: read only, from each hand as stored and the state before it (no game is scored
again, nothing is written). A count adds 1 for each hand where its formula holds, a sum adds the
formula's value; a mean keeps its sum and its hands ({"sum": s, "hands": n}), a rate the hands made and
the hands taken ({"made": m, "of": n}), so that totals over games and players add up exactly (never an
average of averages); a max or a min keeps its largest (smallest) value, None over no hands (the max of
the games' maxes); a first keeps, per game, the number of the first hand where it held and over games
those numbers added up with the games they come from ({"sum": s, "games": g}: games where it never
held add nothing); a per-side statistic is credited to each player of the side."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from scorepad.app.games import game_of, in_language
from scorepad.app.rows import game_title
from scorepad.engine.game import initial_state
from scorepad.engine.scoring import hand_statistics
from scorepad.errors import ScorepadError
from scorepad.store import GameRow

if TYPE_CHECKING:
    from scorepad.engine.game import Game
    from scorepad.store import Store

Total = Any   # a number (count, sum; max, min or None) or {"sum", "hands"} (mean) or {"made", "of"}
# (rate) or {"sum", "games"} (first)
Totals = dict[str, dict[str, Total]]   # player -> statistic id -> total
PARTS = {"mean": ("sum", "hands"), "rate": ("made", "of"), "first": ("sum", "games")}
"""The parts a mean, a rate or a first keeps, in the order a hand's pair gives them
(engine.game.statistic_value)."""
EXTREMES = {"max": max, "min": min}
"""The kinds that keep one value of all, and how two of them give the one kept."""


def zero(kind: str) -> Total:
    """A statistic's total before any hand (a max or a min: None, no value yet)."""
    if kind in EXTREMES:
        return None
    return dict.fromkeys(PARTS[kind], 0) if kind in PARTS else 0


def added(kind: str, total: Total, value: Any) -> Total:
    """`total` with one hand's value (a number or a pair) or another total (a number or parts) added;
    a value of another shape (a game whose ruleset declared the statistic as another kind) adds nothing.
    A max or a min keeps the larger (smaller) of the two; None (no hand) keeps the other."""
    if (kind in PARTS) != isinstance(value, (dict, tuple, list)):
        return total
    if kind in EXTREMES:
        if value is None or isinstance(value, bool):
            return total
        return value if total is None else EXTREMES[kind](total, value)
    if kind not in PARTS:
        return total + value
    if isinstance(value, dict):
        value = [value.get(part, 0) for part in PARTS[kind]]
    return {part: total.get(part, 0) + v for part, v in zip(PARTS[kind], value, strict=True)}


def starting_totals(game: Game) -> Totals:
    """Each player's totals of the game's statistics before any hand."""
    return {p: {s.id: zero(s.kind) for s in game.ruleset.statistics} for p in game.players}


def credit(game: Game, totals: Totals, values: dict[str, list[Any]]) -> None:
    """One hand's statistic values (engine.scoring.hand_statistics) added to each player's totals of
    one game: a side's value to each of its players; a side out of the game adds nothing, nor does a
    hand after the one a first has held in (the game keeps the number of that hand)."""
    for s in game.ruleset.statistics:
        per_player = s.per == "player"
        first = s.kind == "first"
        for i, player in enumerate(game.players):
            v = values[s.id][i if per_player else game.side_of[i]]
            if v is not None and not (first and totals[player][s.id]["games"]):
                totals[player][s.id] = added(s.kind, totals[player][s.id], v)


def game_statistics(store: Store, row: GameRow) -> tuple[list[dict[str, str]], Totals]:
    """One game's declared statistics (id, name in the language of the call, kind; in the ruleset's
    order) and each of its players' totals over the game's active hands, counted with the ruleset itself.
    A game whose pinned ruleset declares none, or whose stored hands no longer read (which `scorepad
    verify` names), gives nothing."""
    try:
        game = game_of(row)
        stats = game.ruleset.statistics
        named = in_language(game).ruleset.statistics if stats else ()
    except ScorepadError:
        return [], {}
    if not stats:
        return [], {}
    declared = [{"id": s.id, "name": s.name, "kind": s.kind} for s in named]
    totals = starting_totals(game)
    state = initial_state(game)
    try:
        hands: list[tuple[dict[str, Any], list[list[Any]] | None, dict[str, Any]]]
        if any(s.reads_breakdown for s in stats):   # line(id), rule(id): the stored lines too
            hands = [(h.hand, h.breakdown, h.state) for h in store.hands(row.id)]
        else:
            hands = [(hand, None, after) for _n, hand, after in store.replay_hands(row.id)]
        for hand, breakdown, after in hands:
            credit(game, totals, hand_statistics(game, state, hand, breakdown))
            state = after
    except ScorepadError:
        return [], {}
    return declared, totals


def statistics_over(store: Store, rows: Iterable[GameRow],
                    players: Sequence[str] | None = None) -> tuple[list[dict[str, str]], Totals]:
    """The declared statistics of these games (of one kind) added up per player; `players` (any case):
    only these. The statistics are the union of what the games' pinned rulesets declare, named as the
    latest game names them."""
    declared: dict[str, dict[str, str]] = {}
    totals: Totals = {}
    wanted = {p.casefold() for p in players} if players is not None else None
    for row in rows:
        if wanted is not None and not any(p.casefold() in wanted for p in row.players):
            continue
        stats, game_totals = game_statistics(store, row)
        for s in stats:
            declared[s["id"]] = s   # the latest game's name and kind
        for player, values in game_totals.items():
            if wanted is not None and player.casefold() not in wanted:
                continue
            mine = totals.setdefault(player, {})
            for sid, v in values.items():
                kind = declared[sid]["kind"]
                mine[sid] = added(kind, mine.get(sid, zero(kind)), v)
    for mine in totals.values():
        for sid, s in declared.items():
            mine.setdefault(sid, zero(s["kind"]))
    return list(declared.values()), totals


def player_statistics(store: Store, games: Sequence[GameRow], name: str,
                      lang: str | None) -> tuple[list[dict[str, Any]], dict[int, dict[str, Total]]]:
    """The player's declared statistics: per kind of game (ruleset, variants together) whose ruleset
    declares any, its id, its title in `lang` (JSON names it in English), his games of it and each
    statistic's total; and per game (by id) his values in that game, by statistic id."""
    by_kind: dict[str, list[tuple[list[dict[str, str]], dict[str, Total]]]] = {}
    titles: dict[str, str] = {}
    per_game: dict[int, dict[str, Total]] = {}
    for row in games:
        if not any(p.casefold() == name.casefold() for p in row.players):
            continue
        declared, totals = game_statistics(store, row)
        if not declared:
            continue
        mine = next(v for p, v in totals.items() if p.casefold() == name.casefold())
        per_game[row.id] = mine
        by_kind.setdefault(row.ruleset_id, []).append((declared, mine))
        titles[row.ruleset_id] = game_title(replace(row, variant=None), lang)
    out = []
    for rid, played in sorted(by_kind.items()):
        named: dict[str, dict[str, str]] = {}
        sums: dict[str, Total] = {}
        for declared, mine in played:
            kinds = {s["id"]: s["kind"] for s in declared}
            for s in declared:
                named[s["id"]] = s   # the latest game's name and kind
            for sid, v in mine.items():
                sums[sid] = added(kinds[sid], sums.get(sid, zero(kinds[sid])), v)
        out.append({"ruleset": rid, "name": titles[rid], "games": len(played),
                    "statistics": [{**s, "value": sums.get(sid, zero(s["kind"]))} for sid, s in named.items()]})
    return out, per_game
