"""One game as a readable TOML file (players, options, pinned ruleset, every hand as typed), and back.

Importing checks the file's shape (with a path in every message), replays the hands as typed with
the pinned ruleset, so the imported game is scored exactly as it was, and writes the game in one
transaction through the same code as the JSON import; any refusal stores nothing. A game whose uid
is already in the database is skipped.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from scorepad.app.breakdown import stored_breakdown
from scorepad.app.events import stored_events
from scorepad.app.games import ended_by_finish, hand_row, type_and_score
from scorepad.app.shapes import problems
from scorepad.app.transfer.checks import option_problems, pending_bid_problems, player_problems, side_problems
from scorepad.app.transfer.importing import refuse
from scorepad.app.transfer.pieces import A_GAME_FILE, read_document
from scorepad.app.transfer.schema import NAME, RULESET_ID, SIDE_NAME, TABLE, TYPED, UID
from scorepad.app.transfer.writing import audit_entry, insert_games
from scorepad.engine.game import Game, Side, finish_game, initial_state, resolve_options
from scorepad.errors import ScorepadError, UserError
from scorepad.locale import _, shown
from scorepad.names import MAX_GAME_NAME, MAX_NAME, name_problem
from scorepad.rules.loader import load_text
from scorepad.shape import Bool, Choice, Int, ListOf, Record, Text, Time
from scorepad.store import Store, now

FORMAT = "scorepad-game"
VERSION = 1
GAME_FILE = Record({
    "format": Choice(values=(FORMAT,)), "version": Int(), "uid": UID, "ruleset": RULESET_ID,
    "variant": Text(max_len=100), "name": Text(max_len=MAX_GAME_NAME), "season": Text(max_len=MAX_NAME),
    "created": Time(), "players": ListOf(NAME, 1, 64),
    "sides": ListOf(Record({"name": SIDE_NAME, "members": ListOf(NAME, 1, 64)}), 1, 64), "options": TABLE,
    "finished_by_command": Bool(), "abandoned": Bool(), "hand": ListOf(Record({"n": Int(1, 10**9), "typed": TYPED})),
    "ruleset_text": Text(), "pending_bid": TYPED, "first_dealer": NAME},
    frozenset({"ruleset", "variant", "name", "season", "created", "finished_by_command", "abandoned", "hand",
               "pending_bid", "first_dealer"}))


def game_toml(store: Store, game_id: int | str | None) -> str:
    import tomli_w  # start-up: only writing needs tomli_w (~1 ms)

    row = store.game(game_id)
    data: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "uid": row.uid, "ruleset": row.ruleset_id,
        "variant": row.variant or "", "name": row.name or "", "season": row.season or "",
        "created": row.created, "players": row.players,
        "sides": [{"name": s["name"], "members": [row.players[i] for i in s["members"]]} for s in row.sides],
        "options": row.options,
        "finished_by_command": ended_by_finish(row.state, store.hands(row.id)),
        "abandoned": row.abandoned,
        "hand": [{"n": h.n, "typed": h.typed} for h in store.hands(row.id)],
        "ruleset_text": row.ruleset_text,
    }
    if row.first_dealer:
        data["first_dealer"] = row.players[row.first_dealer]   # who dealt the first hand (else the first player)
    bid = store.pending_bid(row.id)
    if bid is not None:
        data["pending_bid"] = bid   # the bid written down for the coming hand (`scorepad bid`)
    return tomli_w.dumps(data, multiline_strings=True)


def import_game_toml(store: Store, path: Path) -> tuple[int, int]:
    """Add the game in a TOML game file; returns (added, already present)."""
    text = read_document(path, A_GAME_FILE)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(_("{path}: not a scorepad game file ({exc})").format(path=path, exc=exc)) from None
    except RecursionError:
        raise UserError(_("{path}: not a scorepad game file (the TOML nests too deeply)").format(path=path)) from None
    except ValueError:  # an integer beyond Python's digit limit
        raise UserError(_("{path}: not a scorepad game file (a number has thousands of digits)").format(path=path)) from None
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise UserError(_("{path}: not a scorepad game file (format {FORMAT}, version {VERSION})").format(
                            path=path, FORMAT=repr(FORMAT), VERSION=VERSION))
    found = problems(data, GAME_FILE)
    for key in ("name", "season"):
        value = data.get(key)
        if not found and value and (why := name_problem(value, MAX_GAME_NAME if key == "name" else MAX_NAME)) is not None:
            found.append(_("{key}: the name {why}").format(key=key, why=why))
    if found:
        raise refuse(path, found)
    game, pins = checked_game(data, path)
    return insert_games(store, [game], pins, {})


def _game_of(data: dict[str, Any], path: Path, variant: str | None) -> Any:
    """The file's game: its pinned ruleset, players, sides and options, each checked."""

    try:
        rs = load_text(data["ruleset_text"], "ruleset_text", variant, played=True)
    except ScorepadError as exc:
        raise refuse(path, [exc.message]) from None
    players = list(data["players"])
    found = [] if data.get("ruleset", rs.id) == rs.id else [f"ruleset: {data['ruleset']!r}, but ruleset_text is {rs.id!r}"]
    found += player_problems(rs, players, "players")
    sides = []
    for k, s in enumerate(data["sides"]):
        members = []
        for m, who in enumerate(s["members"]):
            if who not in players:
                found.append(_("sides[{k}].members[{m}]: {who} is not one of the players").format(k=k, m=m, who=repr(who)))
            else:
                members.append(players.index(who))
        sides.append({"name": s["name"], "members": members})
    if not found:
        found += side_problems(rs, players, sides, "sides")
    dealer = data.get("first_dealer", players[0])
    if dealer not in players:
        found.append(_("first_dealer: {who} is not one of the players").format(who=repr(dealer)))
    found += option_problems(rs, data["options"], "options", complete=False)
    if found:
        raise refuse(path, found)
    options = resolve_options(rs, data["options"])
    return Game(rs, tuple(players), tuple(Side(s["name"], tuple(s["members"])) for s in sides), options,
                players.index(dealer))


def _replayed(game: Any, data: dict[str, Any], path: Path) -> tuple[list[Any], dict[str, Any]]:
    """The file's hands typed again in order and scored: their rows and the state after them."""

    state = initial_state(game)
    rows = []
    for j, h in enumerate(data.get("hand", [])):
        if h["n"] != j + 1:
            raise refuse(path, [_("hand[{j}].n: {n}, but hands are numbered 1, 2, 3 ... in order (this is {want})")
                                .format(j=j, n=h["n"], want=j + 1)])
        try:
            raw, hand, result = type_and_score(game, state, list(h["typed"]))
        except ScorepadError as exc:
            raise refuse(path, [_("hand[{j}]: the hand cannot be replayed: {message}").format(
                                    j=j, message=shown(exc.message))]) from None
        rows.append(hand_row(h["n"], raw.typed, hand, result))
        state = result.state
    return rows, state


def checked_game(data: dict[str, Any], path: Path) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The game of a checked file in export form, its hands replayed as typed; UserError otherwise."""

    variant = data.get("variant") or None
    game = _game_of(data, path, variant)
    rs, players, options = game.ruleset, list(game.players), dict(game.options)
    sides = [{"name": s.name, "members": list(s.members)} for s in game.sides]
    rows, state = _replayed(game, data, path)
    audit = [audit_entry("new", None, {"players": players, "options": options})]
    if rows:
        audit.append(audit_entry("import", 1, {"file": Path(path).name}))
    if data.get("finished_by_command"):
        if state["finished"]:
            raise refuse(path, [_("finished_by_command: the game already ended with hand {n}; only a game its hands "
                                  "did not end can be finished by the command").format(n=len(rows))])
        result = finish_game(game, state)
        state = result.state
        audit.append(audit_entry("finish", None, {
            "points": result.points, "events": stored_events(result),
            "breakdown": stored_breakdown(result)}))
    if data.get("abandoned"):
        if state["finished"]:
            raise refuse(path, [_("abandoned: the game has ended; only an unfinished game can be abandoned")])
        audit.append(audit_entry("abandon", None, {"hands": len(rows), "totals": [s["score"] for s in state["sides"]]}))
    if "pending_bid" in data:
        bid = list(data["pending_bid"])
        found = pending_bid_problems(game, state, bid, "pending_bid")
        if found:
            raise refuse(path, found)
        audit.append(audit_entry("bid", None, {"bid": bid}))
    game_row = {
        "uid": data["uid"], "ruleset_id": rs.id, "ruleset_hash": rs.hash, "variant": variant,
        "name": data.get("name") or None, "season": data.get("season") or None,
        "created": data.get("created") or now(), "players": players, "sides": sides, "options": options,
        "finished": bool(state["finished"]), "hands": len(rows), "state": state,
        "hand_rows": [{"n": r.n, "status": "active", "typed": r.typed, "hand": r.hand, "points": r.points,
                       "breakdown": r.breakdown, "events": r.events, "state": r.state, "created": r.created}
                      for r in rows],
        "audit": audit,
        **({"pending_bid": list(data["pending_bid"])} if "pending_bid" in data else {}),
        **({"first_dealer": game.first_dealer} if game.first_dealer else {}),
    }
    pins = {rs.hash: {"hash": rs.hash, "ruleset_id": rs.id, "source": f"{rs.id}.toml", "text": rs.text}}
    return game_row, pins
