"""One game as a readable TOML file (players, options, pinned ruleset, every hand as typed), and back.

Importing replays the hands as typed with the pinned ruleset, so the imported game is scored
exactly as it was; a game whose uid is already in the database is skipped.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from scorepad.errors import ScorepadError, UserError
from scorepad.store import Store

FORMAT = "scorepad-game"
VERSION = 1


def game_toml(store: Store, game_id: int | str | None) -> str:
    import tomli_w

    row = store.game(game_id)
    data: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "uid": row.uid, "ruleset": row.ruleset_id,
        "variant": row.variant or "", "name": row.name or "", "season": row.season or "",
        "created": row.created, "players": row.players,
        "sides": [{"name": s["name"], "members": [row.players[i] for i in s["members"]]} for s in row.sides],
        "options": row.options,
        "finished_by_command": bool(row.state.get("finished")) and not any(
            h.state.get("finished") for h in store.hands(row.id)[-1:]),
        "hand": [{"n": h.n, "typed": h.typed} for h in store.hands(row.id)],
        "ruleset_text": row.ruleset_text,
    }
    return tomli_w.dumps(data, multiline_strings=True)


def import_game_toml(store: Store, path: Path) -> tuple[int, int]:
    """Add the game in a TOML game file; returns (added, already present)."""
    from scorepad.engine import Side, initial_state
    from scorepad.play import finish, hand_row, type_and_score
    from scorepad.ruleset import load_text

    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UserError(f"{path}: not a scorepad game file ({exc})") from None
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise UserError(f"{path}: not a scorepad game file (format {FORMAT!r}, version {VERSION})")
    if data["uid"] in store.game_ids_by_uid():
        return 0, 1
    try:
        variant = data.get("variant") or None
        rs = load_text(data["ruleset_text"], f"{path}:ruleset_text", variant)
        players = list(data["players"])
        sides = [{"name": s["name"], "members": [players.index(m) for m in s["members"]]} for s in data["sides"]]
        from scorepad.engine import Game

        game = Game(rs, tuple(players), tuple(Side(s["name"], tuple(s["members"])) for s in sides),
                    dict(data["options"]))
        state = initial_state(game)
        rows = []
        for h in data.get("hand", []):
            raw, hand, result = type_and_score(game, state, list(h["typed"]), None)
            rows.append(hand_row(int(h["n"]), raw.typed, hand, result))
            state = result.state
    except ScorepadError as exc:
        raise UserError(f"{path}: the game cannot be replayed: {exc.message}", exc.problems) from None
    except (KeyError, TypeError, ValueError) as exc:
        raise UserError(f"{path}: the game file is incomplete ({exc})") from None
    gid = store.create_game(ruleset_id=rs.id, ruleset_hash=rs.hash, ruleset_text=rs.text,
                            ruleset_source=f"{rs.id}.toml", variant=variant, name=data.get("name") or None,
                            season=data.get("season") or None, players=players, sides=sides,
                            options=dict(data["options"]), state=initial_state(game), uid=data["uid"],
                            created=data.get("created"), make_current=False)
    if rows:
        store.replace_from(gid, 0, 1, rows, "import", {"file": str(path)}, rows[-1].state)
    if data.get("finished_by_command"):
        finish(store, gid)
    return 1, 0
