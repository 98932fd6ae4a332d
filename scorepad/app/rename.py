"""`scorepad rename`: a player renamed in one game or everywhere, every hand typed again under the new
name and audited, so the season counts one player."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorepad.app.games import game_of, hand_row, type_and_score
from scorepad.app.rows import totals
from scorepad.engine.assignments import field_or_none, resolve_who
from scorepad.engine.game import (
    Game,
    Side,
    finish_game,
    initial_state,
    make_game,
)
from scorepad.errors import ScorepadError, UserError
from scorepad.locale import _, shown
from scorepad.names import closest, did_you_mean
from scorepad.store import GameRow, HandRow, Rewrite, Store


def rename(store: Store, old: str, new: str, game_id: int | str | None = None,
           everywhere: bool = False) -> list[GameRow]:
    """Rename a player in one game, or in every game (`everywhere`), so the season counts one person once.

    Every hand is typed again with the new name where the old one was typed, and replayed; the old
    hands stay in the audit trail. Refused whole when the new name is taken in one of the games.
    """
    old, new = old.strip(), new.strip()
    if old == new:
        raise UserError(_("{old} is already called that").format(old=repr(old)))
    if everywhere:
        rows = [g for g in store.games() if any(p.casefold() == old.casefold() for p in g.players)]
        if not rows:
            raise UserError(_("no game has a player called {old}{value}").format(
                                old=repr(old), value=_closest_player(old, store.games())))
    else:
        rows = [store.game(game_id)]
        if not any(p.casefold() == old.casefold() for p in rows[0].players):
            raise UserError(_("game {id} has no player called {old}{value} (players: {value2})").format(
                                id=rows[0].id, old=repr(old), value=_closest_player(old, rows),
                                value2=', '.join(rows[0].players)))
    changes = [_renamed(store, row, old, new) for row in rows]
    store.rewrite_games(changes, "rename", {"old": old, "new": new})
    return [store.game(row.id) for row in rows]


def _closest_player(name: str, rows: Sequence[GameRow]) -> str:

    return did_you_mean(closest(name, [p for g in rows for p in g.players]))


def _renamed(store: Store, row: GameRow, old: str, new: str) -> Any:
    """One game with `old` renamed `new`: players, sides named after players, every hand retyped and replayed."""

    game = game_of(row)
    rs = game.ruleset
    k = next(i for i, p in enumerate(row.players) if p.casefold() == old.casefold())
    clash = [p for i, p in enumerate(row.players) if i != k and p.casefold() == new.casefold()]
    if clash:
        raise UserError(_("{value} is already a player in game {id}; two players cannot share a name").format(
                            value=clash[0], id=row.id))
    players = list(row.players)
    players[k] = new
    make_game(rs, players)   # the new name is checked as `new` checks the names it is given
    sides = []
    for side in row.sides:
        name = side["name"]
        members = side["members"]
        if rs.sides_kind != "partnership" or name == "+".join(row.players[i] for i in members):
            name = "+".join(players[i] for i in members)   # a side named after its players follows them
        sides.append({"name": name, "members": list(members)})
    renamed = Game(rs, tuple(players), tuple(Side(s["name"], tuple(s["members"])) for s in sides), game.options,
                   game.first_dealer)
    state = initial_state(renamed)
    rows: list[HandRow] = []
    for h in store.hands(row.id):
        typed = [retype(game, renamed, item) for item in h.typed]
        try:
            _raw, hand, result = type_and_score(renamed, state, typed)
        except ScorepadError as exc:
            raise UserError(_("game {id}, hand {n} cannot be read with the new name: {message}").format(
                                id=row.id, n=h.n, message=shown(exc.message))) from None
        if result.points != h.points:
            raise UserError(_("game {id}, hand {n} would score differently with the new name; not renamed").format(
                                id=row.id, n=h.n))
        rows.append(hand_row(h.n, typed, hand, result, h.created))
        state = result.state
    if row.state["finished"] and not state["finished"]:
        state = finish_game(renamed, state).state
    if [s["score"] for s in state["sides"]] != totals(row):
        raise UserError(_("game {id} would end with other totals with the new name; not renamed").format(id=row.id))
    pending = store.pending_bid(row.id)
    bid = None if pending is None else [retype(game, renamed, item) for item in pending]
    return Rewrite(row, players, sides, rows, state, bid)


def retype(before: Game, after: Game, item: str) -> str:
    """One typed assignment of `before`, written so that it means the same in `after` (players renamed).

    Only a name that no longer finds the same player or side is replaced, by that player's or side's
    new name; everything else stays as it was typed.
    """

    left, eq, right = item.partition("=")
    fdef = field_or_none(before.ruleset, left.rpartition(".")[2]) if eq else None
    if fdef is None:
        return item

    def finds(game: Game, text: str, scope: str) -> int | None:
        try:
            return resolve_who(game, text, scope)
        except UserError:
            return None

    def same(text: str, scope: str, squeeze: bool = False) -> str:
        idx = finds(before, text, scope)
        if idx is None or finds(after, text, scope) == idx:
            return text
        # the new name of the player typed (also for a side typed by one of its players), else the side's
        # name, else a seat letter: the first that finds the same player or side (inside a pattern
        # without spaces, as the pattern reads it)
        player = finds(before, text, "player")
        names = [after.players[player]] if player is not None else []
        names += [after.players[idx]] if scope == "player" else [after.sides[idx].name]
        seats = after.ruleset.seats
        names += [seats[i] for i in ([idx] if scope == "player" else after.sides[idx].members) if i < len(seats)]
        for name in names:
            name = name.replace(" ", "") if squeeze else name
            if finds(after, name, scope) == idx:
                return name
        return names[0]

    who, dot, name = left.rpartition(".")
    if dot and fdef.scope in ("player", "side"):
        left = f"{same(who, fdef.scope)}.{name}"
    value = right.strip()
    if fdef.type in ("player", "side"):
        items = value.split(",") if fdef.scope != "hand" and not dot else [value]
        right = ",".join(v if v.strip().lower() in fdef.words else same(v.strip(), fdef.type) for v in items)
    elif fdef.type == "pattern" and fdef.pattern is not None and fdef.resolve:
        text = value.replace(" ", "")
        m = fdef.pattern.fullmatch(text.upper())
        if m is not None:
            for part in sorted(fdef.resolve, key=lambda p: -(m.start(p) if m.group(p) else -1)):
                if m.group(part) and m.group(part).upper() not in fdef.maps.get(part, {}):
                    start, end = m.start(part), m.end(part)
                    text = text[:start] + same(text[start:end], fdef.resolve[part], squeeze=True) + text[end:]
            right = text
    return f"{left}={right}"
