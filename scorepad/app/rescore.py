"""`scorepad rescore`: a game's hands scored again with another ruleset text, shown hand by hand,
then stored as one audited change."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorepad.app.games import decided_on, ended_by_finish, finished_again, game_of, hand_row, type_and_score
from scorepad.engine.game import (
    Game,
    State,
    initial_state,
)
from scorepad.errors import HandError, ScorepadError, UserError
from scorepad.locale import _, shown
from scorepad.rules.loader import load_text
from scorepad.rules.model import Ruleset
from scorepad.rules.registry import resolved_text
from scorepad.store import GameRow, HandRow, Store


@dataclass
class RescorePlan:
    """What re-scoring a game with another ruleset would change, hand by hand."""

    row: GameRow
    ruleset: Ruleset
    rows: list[HandRow]
    final: State
    changed: bool
    text: str


def rescore_preview(store: Store, game_id: int | str, path: Any, rules_dirs: Sequence[str] = ()) -> RescorePlan:
    """Replay a game's hands (as typed) with the ruleset in `path`; show old and new totals per hand."""


    row = store.game(game_id)
    text, _warnings = resolved_text(Path(path), rules_dirs)
    rs = load_text(text, str(path), row.variant)
    old_game = game_of(row)
    if rs.id != row.ruleset_id:
        raise UserError(_("{path} is the ruleset {id}, but game {id2} is {ruleset_id}").format(
                            path=path, id=repr(rs.id), id2=row.id, ruleset_id=repr(row.ruleset_id)))
    game = Game(rs, old_game.players, old_game.sides, {**{n: o.default for n, o in rs.options.items()},
                                                       **{k: v for k, v in row.options.items() if k in rs.options}},
                old_game.first_dealer)
    state = initial_state(game)
    rows: list[HandRow] = []
    lines = []
    changed = False
    hands = store.hands(row.id)
    for old in hands:
        try:
            raw, hand, result = type_and_score(game, state, old.typed)
        except ScorepadError as exc:
            raise HandError(_("with {path}, hand {n} is refused: {message}").format(
                                path=path, n=old.n, message=shown(exc.message)), exc.problems) from None
        rows.append(hand_row(old.n, raw.typed, hand, result, old.created))
        before = [s["score"] for s in old.state["sides"]]
        after = [s["score"] for s in result.state["sides"]]
        if before != after:
            changed = True
            changes = zip(game.sides, before, after, strict=True)
            lines.append(_("hand {n}: {changes}").format(n=old.n, changes=", ".join(f"{s.name} {b} -> {a}"
                                                                                     for s, b, a in changes)))
        state = result.state
    if ended_by_finish(row.state, hands):
        state = finished_again(game, state)
    elif row.state.get("finished") and not state["finished"]:
        lines.append(_("the game no longer ends: with {path} no hand ends it").format(path=path))
    if rs.hash != row.ruleset_hash and not lines:
        lines.append(_('the ruleset text differs, but every total stays the same'))
    changed = changed or state != row.state or rs.hash != row.ruleset_hash
    text_out = (_("Game {id} re-scored with {path}:").format(id=row.id, path=path) + "\n"
                + ("\n".join(f"  {line}" for line in lines) or "  " + _("no differences")))
    return RescorePlan(row, rs, rows, state, changed, text_out)


def rescore_apply(store: Store, plan: RescorePlan) -> GameRow:
    rs = plan.ruleset
    with decided_on(store, plan.row):
        store.replace_from(plan.row.id, plan.row.version, 1, plan.rows, "rescore",
                           {"old_ruleset": plan.row.ruleset_hash, "new_ruleset": rs.hash}, plan.final,
                           repin=(rs.id, rs.hash, rs.text, rs.source))
    return store.game(plan.row.id)


# ------------------------------------------------------------------ housekeeping
