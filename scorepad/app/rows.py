"""The commands that read or change a game's stored rows only, never score a hand: `games`, `log`,
`delete`, `abandon` and the season names. They import no ruleset loader and no engine, so these
commands start as fast as the store allows; scorepad.app.games re-exports them.
"""

from __future__ import annotations

from datetime import date
from functools import lru_cache
from typing import Any

from scorepad.errors import UserError
from scorepad.locale import _
from scorepad.names import closest, did_you_mean
from scorepad.store import GameRow, Store

__all__ = ["abandon", "current_season", "delete", "game_log", "game_title", "season_name", "totals"]


def game_title(row: GameRow, lang: str | None, name: str | None = None) -> str:
    """The name of a game's ruleset (and variant) in `lang`, as `rules list` shows it: a bundled
    ruleset's from the index, without loading it; else the loaded ruleset's `name` when the caller
    has it, else the id."""
    found = _title(row.ruleset_text, row.variant, lang)
    if found:
        return found
    if name:
        return name + (f" ({row.variant})" if row.variant else "")
    return row.ruleset_id + (f":{row.variant}" if row.variant else "")


@lru_cache(maxsize=64)
def _title(text: str, variant: str | None, lang: str | None) -> str | None:
    from scorepad.rules.bundled import digest, summary  # start-up: ~7 ms; only a bundled title needs it

    found = summary(digest(text), lang)
    if not found or not isinstance(found.get("name"), str):
        return None
    if variant is None:
        return str(found["name"])
    named = (found.get("variants") or {}).get(variant)
    name = named.get("name") if isinstance(named, dict) else named
    return str(name) if isinstance(name, str) and name else f"{found['name']} ({variant})"


def current_season(store: Store) -> str:
    return store.get_meta("current_season") or str(date.today().year)


def season_name(store: Store, name: str | None) -> str:
    """A season to report on: the current one, or one that has games (else a sentence and exit 2)."""
    current = current_season(store)
    if name is None or name == current:
        return current
    seasons = store.seasons()
    if name in seasons:
        return name

    folded = [s for s in seasons if s.casefold() == name.casefold()]
    if len(folded) == 1:
        return folded[0]
    raise UserError(_("there are no games in season {name}{value}; seasons: {value2}").format(
                        name=repr(name), value=did_you_mean(closest(name, seasons)), value2=', '.join(seasons) or 'none yet'))


def totals(row: GameRow) -> list[Any]:
    return [s["score"] for s in row.state["sides"]]


def abandon(store: Store, game_id: int | str | None) -> GameRow:
    """Mark an unfinished game abandoned: kept, but out of the season tables, not a draw, no more hands."""
    row = store.game(game_id)
    if row.abandoned:
        raise UserError(_("game {id} is already abandoned").format(id=row.id))
    if row.state["finished"]:
        raise UserError(_("game {id} has ended; abandon is for a game left unfinished (`scorepad delete` "
                           "removes a game typed by mistake)").format(id=row.id))
    store.record_action(row.id, row.version, "abandon", {"hands": row.hands, "totals": totals(row)})
    return store.game(row.id)


def delete(store: Store, game_id: int | str) -> GameRow:
    """Remove a game typed by mistake; the audit trail keeps what it was, hand by hand as typed."""
    row = store.game(game_id)
    detail = {"uid": row.uid, "ruleset": row.ruleset_id, "variant": row.variant, "name": row.name,
              "season": row.season, "created": row.created, "players": row.players, "sides": row.sides,
              "options": row.options, "totals": totals(row),
              "hands": [{"n": h.n, "typed": h.typed} for h in store.hands(row.id)]}
    store.delete_game(row.id, row.version, detail)
    return row


def game_log(store: Store, game_id: int | str | None) -> tuple[int, list[dict[str, Any]], bool]:
    """A game's audit trail: (id, entries, deleted?); a deleted game's trail is still there by its number."""
    try:
        row = store.game(game_id)
    except UserError:
        number = str(game_id).strip() if game_id is not None else ""
        entries = store.deleted_audit(int(number)) if number.isdigit() and int(number) < 2**63 else []
        if not entries:
            raise
        return int(number), entries, True
    return row.id, store.audit(row.id), False
