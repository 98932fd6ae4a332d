"""`scorepad stats`: the statistics each game's ruleset declares, over a season's finished games, per
kind of game (a ruleset, its variants together) and per player; read only, from the stored hands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from scorepad.app.rows import game_title, season_name
from scorepad.app.season import selected, tally
from scorepad.app.statistics import statistics_over
from scorepad.errors import UserError
from scorepad.locale import _
from scorepad.names import closest, did_you_mean
from scorepad.rules.registry import ruleset_id
from scorepad.store import GameRow

if TYPE_CHECKING:
    from scorepad.store import Store


def stats_report(store: Store, season: str | None, *, ruleset: str | None = None, player: str | None = None,
                 rules_dirs: Sequence[str] = (), aliases: Mapping[str, str] | None = None,
                 lang: str | None = None) -> dict[str, Any]:
    """Per kind of game whose ruleset declares statistics: its games (finished, in the season), the
    statistics (id, name in the language of the call, kind), the kind's title in `lang`, and each
    player's games and totals, by id; `player` (a name, an alias or the start of one name) and `ruleset`
    (id, alias or native name) narrow it down. A name, a game or a season that means nothing is refused
    with a sentence."""
    season = season_name(store, season)
    if ruleset is not None:
        ruleset = ruleset_id(ruleset, rules_dirs, {g.ruleset_id for g in store.games()})
    finished = tally(selected(store.games(season), ruleset, None, None), False).counted
    if player is not None:
        player = _player(store, player, finished, season, aliases or {})
        finished = [g for g in finished if player in g.players]
    kinds: dict[str, list[GameRow]] = {}
    for g in finished:
        kinds.setdefault(g.ruleset_id, []).append(g)
    out = []
    for rid, rows in sorted(kinds.items()):
        declared, totals = statistics_over(store, rows, None if player is None else [player])
        if not declared:
            continue
        played = {p: sum(p in g.players for g in rows) for p in totals}
        out.append({"ruleset": rid, "name": game_title(replace(rows[-1], variant=None), lang), "games": len(rows),
                    "statistics": declared,
                    "players": [{"player": p, "games": played[p], "statistics": totals[p]}
                                for p in sorted(totals, key=lambda p: (-played[p], p.casefold()))]})
    return {"season": season, "ruleset": ruleset, "player": player, "games": out}


def _player(store: Store, text: str, games: Sequence[GameRow], season: str, aliases: Mapping[str, str]) -> str:
    """A player of these games by name or alias (any case), else by the start of exactly one name; a
    sentence (exit 2) for a name no game of them has, or one that starts several."""
    want = {k.casefold(): v for k, v in aliases.items()}.get(text.strip().casefold(), text.strip())
    names = sorted({p for g in games for p in g.players}, key=str.casefold)
    exact = [p for p in names if p.casefold() == want.casefold()]
    starting = [p for p in names if p.casefold().startswith(want.casefold())] if want else []
    if exact or len(starting) == 1:
        return (exact or starting)[0]
    if starting:
        raise UserError(_("{name} could be {names}: give more of the name").format(
            name=repr(want), names=", ".join(starting)))
    if any(p.casefold() == want.casefold() for g in store.games() for p in g.players):
        raise UserError(_("{value} played no counted game in season {season} with these filters").format(
            value=want, season=season))
    guess = did_you_mean(closest(want, [p for g in store.games() for p in g.players]))
    raise UserError(_("no player called {want}{guess}; `scorepad season` lists the players").format(
        want=repr(want), guess=guess))
