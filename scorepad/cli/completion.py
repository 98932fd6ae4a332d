"""Shell completion candidates (`scorepad --install-completion`): game ids and names, ruleset ids,
aliases and variants, the current game's players, and the `FIELD=` names of `hand`, `bid` and `edit`.

The shell asks while the person presses Tab, so every function here is quick, never writes (a
database that does not exist yet is not created), and answers nothing rather than fail.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from scorepad.app.config import load_config
from scorepad.app.games import game_of, in_language
from scorepad.app.settings import Settings, resolve
from scorepad.engine.assignments import describe_field, field_candidates, field_name_shown, field_or_none
from scorepad.errors import ScorepadError
from scorepad.locale import _
from scorepad.rules.registry import entries
from scorepad.rules.source import parse_toml, read_text
from scorepad.store import Store


def _root_param(ctx: Any, name: str) -> Any:
    try:
        return ctx.find_root().params.get(name)
    except AttributeError:
        return None


def _config() -> dict[str, Any]:
    try:

        return load_config()
    except ScorepadError:
        return {}


def _settings(ctx: Any, db: str | None = None) -> Settings:
    """The settings the command being completed would use (its --db and --rules-dir, as far as typed)."""
    return resolve(db=db or _root_param(ctx, "db"), rules_dirs=_root_param(ctx, "rules_dir") or [],
                   read_config=lambda _path: _config())


def _store(ctx: Any, db: str | None = None) -> Any:
    """The database the command would use (`db`: as --db named it), opened only if it exists."""

    path = _settings(ctx, db).db.value
    if not Path(path).exists():
        return None
    try:
        return Store(path)
    except ScorepadError:
        return None


def _matching(candidates: Iterable[str], incomplete: str) -> list[str]:
    low = incomplete.lower()
    return list(dict.fromkeys(c for c in candidates if c.lower().startswith(low)))


def games(ctx: Any, incomplete: str) -> list[str]:
    """Game ids and names, the newest first."""
    store = _store(ctx)
    if store is None:
        return []
    try:
        rows = store.games()
    except ScorepadError:
        return []
    out: list[str] = []
    for row in reversed(rows):
        out.append(str(row.id))
        if row.name:
            out.append(row.name)
    return _matching(out, incomplete)


def rulesets(ctx: Any, incomplete: str) -> list[str]:
    """Ruleset ids, aliases and native names, and ID:VARIANT for the variants."""

    dirs = _settings(ctx).rule_dir_list()
    out: list[str] = []
    try:
        found = entries(dirs)
    except ScorepadError:
        return []
    game = _bash_broken(":", incomplete)
    if game is not None:          # bash broke `marjas:ko` at the colon: the variant's name alone
        entry = found.get(game)
        return _matching(_variants(entry.path), "" if incomplete == ":" else incomplete) if entry else []
    for rid, entry in sorted(found.items()):
        out.append(rid)
        out += [n for n in entry.names if " " not in n]
        out += [f"{rid}:{v}" for v in _variants(entry.path)]
    return _matching(out, incomplete)


def _variants(path: Path) -> list[str]:

    try:
        data = parse_toml(read_text(path), str(path))
    except ScorepadError:
        return []
    variants = data.get("variants")
    return [str(v) for v in variants] if isinstance(variants, dict) else []


def _current(ctx: Any, db: str | None = None, game: str | None = None) -> Any:
    store = _store(ctx, db)
    if store is None:
        return None
    if game is None and ctx is not None and hasattr(ctx, "params"):
        game = ctx.params.get("game")
    try:
        return store.game(game)
    except ScorepadError:
        return None


def players(ctx: Any, incomplete: str) -> list[str]:
    """The current game's players (then everyone who ever played, for `new`)."""
    if _bash_broken(":", incomplete) is not None:   # `new marjas:` broken by bash: still the game's word
        return rulesets(ctx, incomplete)
    store = _store(ctx)
    if store is None:
        return []
    row = _current(ctx)
    names = list(row.players) if row is not None else []
    try:
        for g in reversed(store.games()):
            names += g.players
    except ScorepadError:
        pass
    return _matching(names, incomplete)


def _bash_broken(mark: str, incomplete: str) -> str | None:
    """The word before a `mark` (`=` or `:`) at which bash broke the word being completed (`bid`, `=`,
    `bl`), from the words bash passed; None when the word being completed does not follow one."""
    if "bash" not in os.environ.get("_SCOREPAD_COMPLETE", ""):
        return None
    words = os.environ.get("COMP_WORDS", "").split()
    try:
        at = int(os.environ.get("COMP_CWORD", ""))
    except ValueError:
        return None
    if at < len(words) and words[at] == mark and at >= 2:    # click hands a lone "=" over as ""
        return words[at - 1]
    if 2 <= at - 1 < len(words) and words[at - 1] == mark:
        return words[at - 2]
    return None


def assignments(ctx: Any, incomplete: str) -> list[str]:
    """`FIELD=`, `player.FIELD=`, and after the `=` the field's words, players or sides.

    Bash breaks words at `=`: `bid=bl` reaches us as the words `bid`, `=` and `bl`, and its
    candidates replace only the part after the `=`; other shells pass `bid=bl` whole."""
    row = _current(ctx)
    if row is None:
        return []

    game = game_of(row)
    rs = game.ruleset
    bidding_only = getattr(ctx, "info_name", "") == "bid"
    fields = [f for f in rs.fields.values() if f.bidding or not bidding_only]
    left = _bash_broken("=", incomplete)
    if left is not None:                         # bash: the value alone, after the field's own word
        typed = "" if incomplete in ("", "=") else incomplete
        fdef = rs.fields.get(left.rpartition(".")[2].lower())
        return _matching(field_candidates(game, fdef), typed) if fdef is not None else []
    left, eq, _ = incomplete.partition("=")
    if eq:
        fdef = field_or_none(rs, left.rpartition(".")[2])   # a name of any language the ruleset knows
        if fdef is None:
            return []
        return _matching([f"{left}={v}" for v in field_candidates(game, fdef)], incomplete)
    out = [f"{f.name}=" for f in fields]
    who_fields = [f for f in fields if f.scope != "hand"]
    if "." in incomplete or any(p.lower().startswith(incomplete.lower()) for p in game.players):
        for f in who_fields:
            names = game.players if f.scope == "player" else [s.name for s in game.sides]
            out += [f"{who}.{f.name}=" for who in names]
    return _matching(out, incomplete)


def current_fields(db: str | None = None, game_name: str | None = None) -> str:
    """The fields of the game `hand` would record into (--db, --game, else the current one) in words,
    for `hand --help` ('' when there is no game)."""
    row = _current(None, db, game_name)
    if row is None:
        return ""
    game = in_language(game_of(row))  # the ruleset's own words for its fields in the language shown
    parts = []
    for fdef in game.ruleset.fields.values():
        who = {"hand": "", "player": _("each player: "), "side": _("each side: ")}[fdef.scope]
        parts.append(f"{field_name_shown(game.ruleset, fdef.name)} ({who}{describe_field(game, fdef)})")
    return _("Fields of game {id} ({name}): {fields}.").format(id=row.id, name=game.ruleset.name, fields="; ".join(parts))


BY_PARAMETER = {"game": games, "game_id": games, "ruleset": rulesets, "base": rulesets, "players": players,
                "assignments": assignments, "old": players, "name_of_player": players}


def attach(*apps: Any) -> None:
    """Give every command's GAME, RULESET, PLAYER and FIELD=VALUE parameters their candidates, by
    parameter name, so a new command gets completion without remembering to ask for it."""
    import inspect  # start-up: ~8 ms; only attaching completions needs it

    for app in apps:
        for info in app.registered_commands:
            if info.callback is None:
                continue
            for name, parameter in inspect.signature(info.callback).parameters.items():
                default = parameter.default
                finder = BY_PARAMETER.get(name)
                if finder is not None and hasattr(default, "autocompletion") and default.autocompletion is None:
                    default.autocompletion = finder
