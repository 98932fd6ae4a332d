"""Scenario files: hands in, expected numbers out. The project's tests and `rules test` both use them.

A scenario is TOML: the ruleset, the players, then `[[hand]]` entries with the assignments as
typed on the command line and what must follow (this hand's points, the totals, counters, events,
or a refusal). `[result]` says how the game must stand at the end. See docs/rulesets.md.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorepad.app.breakdown import stored_breakdown
from scorepad.app.games import type_and_score
from scorepad.app.statistics import Totals, credit, starting_totals
from scorepad.engine.game import (
    Game,
    HandResult,
    State,
    finish_game,
    initial_state,
    make_game,
    next_hand_info,
    side_display,
)
from scorepad.engine.scoring import hand_statistics
from scorepad.errors import ScorepadError, UserError
from scorepad.locale import N_, _, neutral
from scorepad.rules.loader import load_text
from scorepad.rules.model import Ruleset
from scorepad.rules.registry import load

SCENARIO_KEYS = {"ruleset", "variant", "players", "teams", "options", "description", "hand", "result"}
HAND_KEYS = {"input", "points", "totals", "state", "events", "no_events", "error", "finish", "note", "display",
             "next"}
RESULT_KEYS = {"finished", "winner", "draw", "totals", "status", "state", "display", "stats"}


@dataclass
class Mismatch:
    """One way a game differs from its scenario: a message (marked with N_) and its values, so the report
    reads in the user's language while the game itself is played in the scenario's (English)."""

    hand: int
    template: str
    values: dict[str, Any] = field(default_factory=dict)
    breakdown: str = ""

    @property
    def what(self) -> str:
        """The mismatch in English, as the scenario files are written."""
        return self.template.format(**self.values)

    def __str__(self) -> str:
        where = _("hand {n}").format(n=self.hand) if self.hand else _("result")
        text = f"{where}: {_(self.template).format(**self.values)}"
        return text + (f"\n      {self.breakdown}" if self.breakdown else "")


_EXPECTED = N_("{key}: expected {want}, got {got}")


def record(game: Game, state: State, args: Sequence[str]) -> HandResult:
    """Type and apply one hand from its typed assignments, exactly as `scorepad hand` does (no prompts)."""

    return type_and_score(game, state, args)[2]


def load_scenario(path: Path, ruleset: Ruleset | None = None,
                  extra_dirs: Sequence[str] = ()) -> tuple[dict[str, Any], Game]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UserError(_("{path}: cannot read the scenario ({exc})").format(path=path, exc=exc)) from None
    unknown = set(data) - SCENARIO_KEYS
    if unknown:
        raise UserError(_("{path}: unknown keys {value}").format(path=path, value=sorted(unknown)))
    if ruleset is None:
        ruleset = load(str(data["ruleset"]), extra_dirs, data.get("variant"))
    elif data.get("variant") and data.get("variant") != ruleset.variant:

        ruleset = load_text(ruleset.text, ruleset.source, data["variant"])
    options = {k: v for k, v in data.get("options", {}).items()}
    game = make_game(ruleset, data["players"], data.get("teams"), options)
    return data, game


def _fmt_breakdown(game: Game, result: HandResult | None) -> str:
    if result is None:
        return ""
    parts = []
    for side, items, pts in zip(game.sides, result.breakdown, result.points, strict=False):
        inner = ", ".join(f"{line.label} {line.points:+}" for line in items) or "nothing"
        parts.append(f"{side.name} {pts:+} ({inner})")
    return "; ".join(parts)


def _compare_state(expected: dict[str, Any], state: State, hand_no: int, out: list[Mismatch],
                   game: Game, result: HandResult | None) -> None:
    for key, want in expected.items():
        if key in state["game"]:
            got = state["game"][key]
        elif key in state["sides"][0]:
            got = [s[key] for s in state["sides"]]
        else:
            out.append(Mismatch(hand_no, N_("no counter {key}"), {"key": repr(key)}))
            continue
        if got != want:
            out.append(Mismatch(hand_no, _EXPECTED, {"key": key, "want": want, "got": got},
                                _fmt_breakdown(game, result)))


def run_scenario(path: Path, ruleset: Ruleset | None = None,
                 extra_dirs: Sequence[str] = ()) -> list[Mismatch]:
    """Play a scenario; every way the game differs from the expected numbers, in order. The game is
    played with the program's texts in English, the language the scenario's expected refusals and events
    are written in, whatever language the report is shown in."""
    data, game = load_scenario(path, ruleset, extra_dirs)
    with neutral():
        return _play(data, game)


def _play(data: dict[str, Any], game: Game) -> list[Mismatch]:
    """Every hand of the scenario in turn, each compared with what it expects; then [result]."""
    state = initial_state(game)
    out: list[Mismatch] = []
    stats = starting_totals(game)
    for n, spec in enumerate(data.get("hand", []), start=1):
        unknown = set(spec) - HAND_KEYS
        if unknown:
            out.append(Mismatch(n, N_("unknown keys {keys}"), {"keys": sorted(unknown)}))
            continue
        try:
            if spec.get("finish"):
                result = finish_game(game, state)
            else:
                _raw, hand, result = type_and_score(game, state, [str(a) for a in spec.get("input", [])])
                if "error" not in spec:   # as `scorepad stats` reads the stored hand: with its breakdown
                    credit(game, stats, hand_statistics(game, state, hand, stored_breakdown(result)))
        except ScorepadError as exc:
            if _refusal_mismatch(spec, exc, n, out):
                return out
            continue
        if "error" in spec:
            out.append(Mismatch(n, N_("expected a refusal containing {want}, but the hand was accepted"),
                                {"want": repr(spec["error"])}, _fmt_breakdown(game, result)))
            continue
        state = result.state
        _compare_hand(spec, game, result, n, out)
    _compare_result(data.get("result", {}), game, state, out)
    _compare_statistics(data.get("result", {}).get("stats", {}), stats, out)
    return out


def _compare_statistics(expect: Any, got: Totals, out: list[Mismatch]) -> None:
    """`[result.stats]`: per player, his totals of the declared statistics over the scenario's hands, by
    id, as `scorepad stats --json` gives them (a number; a mean {sum, hands}; a rate {made, of}; a first
    {sum, games})."""
    if not isinstance(expect, dict):
        out.append(Mismatch(0, N_("[result.stats] must be a table of player = {{statistic = value}}")))
        return
    for player, wants in expect.items():
        if player not in got or not isinstance(wants, dict):
            out.append(Mismatch(0, N_("[result.stats]: no player {name} (players: {players})"),
                                {"name": repr(player), "players": list(got)}))
            continue
        for sid, want in wants.items():
            if sid not in got[player]:
                out.append(Mismatch(0, N_("[result.stats]: the ruleset has no statistic {id} (it has: {ids})"),
                                    {"id": repr(sid), "ids": list(got[player])}))
            elif got[player][sid] != want:
                out.append(Mismatch(0, _EXPECTED, {"key": f"stats.{player}.{sid}", "want": want,
                                                   "got": got[player][sid]}))


def _refusal_mismatch(spec: dict[str, Any], exc: ScorepadError, n: int, out: list[Mismatch]) -> bool:
    """A refused hand against what the scenario says of it; True when the scenario cannot go on."""
    want = spec.get("error")
    text = "\n".join([exc.message, *exc.problems])
    if want is None:
        out.append(Mismatch(n, N_("refused: {text}"), {"text": text}))
        return True
    if str(want).lower() not in text.lower():
        out.append(Mismatch(n, N_("refused with {text}, expected a message containing {want}"),
                            {"text": repr(text), "want": repr(want)}))
    return False


def _compare_hand(spec: dict[str, Any], game: Game, result: HandResult, n: int, out: list[Mismatch]) -> None:
    """One scored hand against its points, totals, counters, display and events."""
    state = result.state
    if "points" in spec and list(result.points) != spec["points"]:
        out.append(Mismatch(n, _EXPECTED, {"key": "points", "want": spec["points"], "got": result.points},
                            _fmt_breakdown(game, result)))
    totals = [s["score"] for s in state["sides"]]
    if "totals" in spec and totals != spec["totals"]:
        out.append(Mismatch(n, _EXPECTED, {"key": "totals", "want": spec["totals"], "got": totals},
                            _fmt_breakdown(game, result)))
    _compare_state(spec.get("state", {}), state, n, out, game, result)
    _compare_display(spec, game, state, n, out)
    for text in spec.get("events", []):
        if not any(str(text).lower() in e.lower() for e in result.events):
            out.append(Mismatch(n, N_("no event containing {text} (events: {events})"),
                                {"text": repr(text), "events": result.events}))
    for text in spec.get("no_events", []):
        if any(str(text).lower() in e.lower() for e in result.events):
            out.append(Mismatch(n, N_("an event contains {text}, which must not be said (events: {events})"),
                                {"text": repr(text), "events": result.events}))


def _compare_result(expect: dict[str, Any], game: Game, state: State, out: list[Mismatch]) -> None:
    """The game at the end against [result]: finished, winner, draw, totals, statuses, counters, display."""
    unknown_result = set(expect) - RESULT_KEYS
    if unknown_result:
        out.append(Mismatch(0, N_("unknown keys in [result]: {keys}"), {"keys": sorted(unknown_result)}))
    got = {"finished": state["finished"], "winner": state["winners"], "draw": state["draw"],
           "totals": [s["score"] for s in state["sides"]], "status": [s["status"] for s in state["sides"]]}
    for key, value in got.items():
        if key in expect and value != expect[key]:
            out.append(Mismatch(0, _EXPECTED, {"key": key, "want": expect[key], "got": value}))
    _compare_state(expect.get("state", {}), state, 0, out, game, None)
    _compare_display(expect, game, state, 0, out)


def _compare_display(spec: dict[str, Any], game: Game, state: State, n: int, out: list[Mismatch]) -> None:
    """What standings show: `display` (per side, from [display.side]) and `next` ([display.next])."""
    if "display" in spec:
        shown = side_display(game, state)
        for label, want in spec["display"].items():
            got = [s.get(label) for s in shown]
            if got != want:
                out.append(Mismatch(n, N_("display {label}: expected {want}, got {got}"),
                                    {"label": repr(label), "want": want, "got": got}))
    if "next" in spec:
        info = next_hand_info(game, state)
        for label, want in spec["next"].items():
            if info.get(label) != want:
                out.append(Mismatch(n, N_("next {label}: expected {want}, got {got}"),
                                    {"label": repr(label), "want": repr(want), "got": repr(info.get(label))}))
