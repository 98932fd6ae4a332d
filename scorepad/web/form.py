"""The scorer's hand form, for now the argument form on a page: one input per field of the ruleset (one
per player, or per side, for their fields), the legal values in the page's language, read back into
the `FIELD=VALUE` words that `scorepad hand` takes. Kept apart so that the hand model the prompt
drives can take its place: only `form_html` and `typed_from` know the fields."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorepad.engine.assignments import asking_order, describe_field, field_label
from scorepad.engine.game import Game
from scorepad.web.pages import esc

State = dict[str, Any]


def _inputs(game: Game, fdef: Any, state: State) -> list[tuple[str, str]]:
    """(input name, who) of a field: one for the hand, or one per player (side) in the order asked."""
    if fdef.scope == "hand":
        return [(f"v.{fdef.name}", "")]
    names = list(game.players) if fdef.scope == "player" else [s.name for s in game.sides]
    return [(f"v.{fdef.name}.{i}", names[i]) for i in asking_order(game, fdef, state)]


def form_html(game: Game, state: State, values: Mapping[str, str], key: str, version: int, record: str) -> str:
    """The fields as inputs (with what was typed, after a refusal), the form's idempotency key and the
    game's version it was shown at, and the button."""
    groups = []
    for fdef in game.ruleset.fields.values():
        label = field_label(game.ruleset, fdef.name)
        legal = describe_field(game, fdef, state)
        rows = []
        for name, who in _inputs(game, fdef, state):
            text = f"{who}: {label}" if who else label
            rows.append(f'<label class="f"><span>{esc(text)}</span><input name="{esc(name)}" '
                        f'value="{esc(values.get(name, ""))}" autocomplete="off" autocapitalize="off"></label>')
        groups.append(f'<fieldset><legend>{esc(label)} <small>({esc(legal)})</small></legend>{"".join(rows)}</fieldset>')
    return (f'<form method="post" action="hand" class="hand-form">{"".join(groups)}'
            f'<input type="hidden" name="key" value="{esc(key)}"><input type="hidden" name="expect" value="{version}">'
            f'<button type="submit">{esc(record)}</button></form>')


def typed_from(game: Game, state: State, values: Mapping[str, str]) -> list[str]:
    """The `FIELD=VALUE` words of what was typed: a row (`bid=4,3,3,3`) when every player's value is
    there, else `who.field=value` for each one typed; blank inputs are not typed."""
    typed = []
    for fdef in game.ruleset.fields.values():
        inputs = _inputs(game, fdef, state)
        given = [(who, values.get(name, "").strip()) for name, who in inputs]
        if fdef.scope == "hand":
            if given[0][1]:
                typed.append(f"{fdef.name}={given[0][1]}")
            continue
        by_seat = sorted(zip([int(name.rsplit(".", 1)[1]) for name, _who in inputs], given, strict=True))
        if all(value for _seat, (_who, value) in by_seat) and not any("," in v for _s, (_w, v) in by_seat):
            typed.append(f"{fdef.name}=" + ",".join(value for _seat, (_who, value) in by_seat))
        else:
            typed += [f"{who}.{fdef.name}={value}" for _seat, (who, value) in by_seat if value]
    return typed
