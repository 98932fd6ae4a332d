"""The library behind the commands: start a game, record, undo, edit, finish, and report.

Each function makes one call into the store for its write, so every command is one transaction,
and uses the pure engine for the scoring. Games are scored with the ruleset text pinned when they
started, never with whatever the ruleset file says today.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

import scorepad.rules.cards as cardlib
from scorepad.app.rows import abandon as abandon  # re-exported: the commands that need no engine import gamerows
from scorepad.app.rows import current_season, totals
from scorepad.app.rows import delete as delete
from scorepad.app.rows import game_log as game_log
from scorepad.app.rows import season_name as season_name
from scorepad.app.rulesets import parse_opts as parse_opts  # re-exported: `rules derive` needs it without the engine
from scorepad.engine.assignments import (
    Missing,
    RawHand,
    convert,
    copies_problems,
    describe_field,
    missing_sentence,
    split_assignments,
    type_hand,
)
from scorepad.engine.game import (
    Game,
    HandResult,
    Side,
    State,
    active_players,
    apply_hand,
    finish_game,
    initial_state,
    make_game,
    next_hand_info,
    side_display,
)
from scorepad.errors import HandError, ScorepadError, StoreConflict, UserError
from scorepad.locale import _, ngettext
from scorepad.names import MAX_GAME_NAME, check_name
from scorepad.record import field, mutable_record
from scorepad.rules.loader import load_text
from scorepad.rules.model import Ruleset
from scorepad.rules.registry import load
from scorepad.rules.values import format_value
from scorepad.store import GameRow, HandRow, Store, now

Prompt = Callable[[str, str], str]


@lru_cache(maxsize=32)
def pinned_ruleset(text: str, source: str, variant: str | None) -> Ruleset:
    return load_text(text, source, variant, pinned=True)


def game_of(row: GameRow, lang: str | None = None) -> Game:
    """The game of a stored row; with `lang`, its ruleset's texts and input words in that language."""
    rs = pinned_ruleset(row.ruleset_text, row.ruleset_source, row.variant)
    table = rs.data.get("translations")
    if lang and isinstance(table, dict) and lang in table:   # the module only when there is something to do
        from scorepad.rules.translations import translate

        rs = translate(rs, lang)
    sides = tuple(Side(s["name"], tuple(s["members"])) for s in row.sides)
    return Game(rs, tuple(row.players), sides, dict(row.options))


def parse_teams(items: Sequence[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for item in items:
        name, eq, members = item.partition("=")
        if not eq or not name.strip() or not members.strip():
            raise UserError(_("--team {item}: write NAME=PLAYER,PLAYER, e.g. --team us=ann,cat").format(
                item=repr(item)))
        out[name.strip()] = [m.strip() for m in members.split(",") if m.strip()]
    return out


def new_game(store: Store, spec: str, players: Sequence[str], teams: Sequence[str] = (),
             opts: Sequence[str] = (), name: str | None = None, season: str | None = None,
             rules_dirs: Sequence[str] = (), config: Mapping[str, Any] | None = None) -> GameRow:
    """Start a game; the user's config supplies default options per game and player aliases."""
    config = config or {}
    name = check_name(name, "a game name", MAX_GAME_NAME) if name is not None else None
    season = check_name(season, "a season name") if season is not None else None
    options = parse_opts(opts)
    variant = options.pop("variant", None)
    rs = load(spec, rules_dirs, variant)
    defaults = {k: v for k, v in config.get("defaults", {}).get(rs.id, {}).items() if k in rs.options}
    aliases = {k.lower(): v for k, v in config.get("aliases", {}).items()}
    players = [aliases.get(p.lower(), p) for p in players]
    teams = [_alias_team(t, aliases) for t in teams]
    game = make_game(rs, players, parse_teams(teams) or None, {**defaults, **options})
    state = initial_state(game)
    gid = store.create_game(
        ruleset_id=rs.id, ruleset_hash=rs.hash, ruleset_text=rs.text, ruleset_source=rs.source,
        variant=rs.variant, name=name, season=season or current_season(store), players=game.players,
        sides=[{"name": s.name, "members": list(s.members)} for s in game.sides],
        options=dict(game.options), state=state)
    return store.game(gid)


def _alias_team(team: str, aliases: Mapping[str, str]) -> str:
    name, eq, members = team.partition("=")
    if not eq:
        return team
    return name + "=" + ",".join(aliases.get(m.strip().lower(), m.strip()) for m in members.split(","))


@mutable_record
class Recorded:
    row: GameRow
    game: Game
    n: int
    result: HandResult
    cards_read: list[dict[str, Any]] = field(default_factory=list)
    worked_out: list[str] = field(default_factory=list)   # values filled in from totals and default_from


def type_and_score(game: Game, state: State, args: Sequence[str],
                   prompt: Prompt | None, strict: bool = False, bid: int = 0) -> tuple[RawHand, dict[str, Any], HandResult]:
    """Typed text → typed hand (asking for what is missing when a prompt is given) → scored hand.

    `strict` for what a person types now: a value given twice with two different values is refused
    (the first `bid` of `args` were written down by `scorepad bid`).
    """
    if state["finished"]:
        raise UserError(_('this game has ended and takes no more hands (undo or edit still work)'))
    raw = split_assignments(game, args, strict, bid)
    hand, missing = type_hand(game, raw, active_players(game, state), state)
    if missing and prompt is not None:
        raw = ask_missing(game, raw, missing, prompt)
        hand, missing = type_hand(game, raw, active_players(game, state), state)
    if missing:
        sentences = missing_sentence(game, missing)
        raise HandError(sentences[0] if len(sentences) == 1 else f"{len(sentences)} values are missing", sentences)
    problems = copies_problems(game, hand)
    if problems:
        raise HandError(problems[0], problems)
    return raw, hand, apply_hand(game, state, hand)


def ask_missing(game: Game, raw: RawHand, missing: Sequence[Missing], prompt: Prompt) -> RawHand:
    """Ask for each missing value on the terminal, repeating a question until the answer is legal."""
    for m in missing:
        fdef = game.ruleset.fields[m.field]
        who = None
        if m.who is not None:
            who = game.players[m.who] if fdef.scope == "player" else game.sides[m.who].name
        label = f"{who}.{m.field}" if who else m.field
        while True:
            answer = prompt(label, describe_field(game, fdef))
            try:
                convert(game, fdef, answer, who)
            except UserError as exc:
                prompt_error(exc.message)
                continue
            break
        if m.who is None:
            raw.values[m.field] = answer
        else:
            count = len(game.players) if fdef.scope == "player" else len(game.sides)
            slot = raw.values.setdefault(m.field, [None] * count)
            slot[m.who] = answer
        raw.typed.append(f"{label}={answer}")
    return raw


def prompt_error(message: str) -> None:
    import sys

    print(f"  {message}", file=sys.stderr)


def open_game(row: GameRow) -> GameRow:
    """Refuse a game that takes no more hands because it was abandoned."""
    if row.abandoned:
        raise UserError(_("game {id} was abandoned and takes no more hands (`scorepad rematch` starts it "
                           "again with the same players)").format(id=row.id))
    return row


def record_hand(store: Store, game_id: int | str | None, args: Sequence[str],
                prompt: Prompt | None = None, lang: str | None = None, *, expect: int | None = None,
                key: str | None = None) -> Recorded:
    """Record a hand, applied to the game as it stands when the write gets its turn.

    Several tables may append to one game at once: each hand is scored inside the write, which holds
    the game, against the state the previous one left (the typed text is scored again if the game
    moved since it was read), so a plain `hand` never has to be repeated. What was decided on a view
    of the game (answers given at the prompt, or `expect`, the version a script was shown) is
    refused instead if the game moved meanwhile. `key` makes the write idempotent: a repeat of a
    write already stored is answered with the stored hand. With `lang` the input takes that
    language's field names and words and the result shown speaks it, while the stored hand keeps the
    ruleset's own texts.
    """
    row = open_game(store.game(game_id))
    game = game_of(row, lang)
    bid = store.pending_bid(row.id)
    args = [*(bid or []), *args]  # a bid written down before completes this hand
    asked: list[str] = []

    def noted(label: str, legal: str) -> str:
        asked.append(label)
        assert prompt is not None
        return prompt(label, legal)

    raw, hand, result = type_and_score(game, row.state, args, noted if prompt is not None else None, strict=True,
                                       bid=len(bid or []))
    if (asked or bid) and expect is None:
        expect = row.version  # decided on this view of the game (answers at the prompt, the bid written down)
    with store.write() as db:
        store.lock_game(db, row.id)
        done = store.written(db, key) if key is not None else None
        if done is None:
            fresh = open_game(store.game(row.id))
            if expect is not None and fresh.version != expect:
                raise StoreConflict(moved(store, fresh, expect))
            if fresh.version != row.version:
                row, game = fresh, game_of(fresh, lang)
                raw, hand, result = type_and_score(game, fresh.state, raw.typed, None, strict=True, bid=len(bid or []))
            n = fresh.hands + 1
            stored = result
            if game.ruleset is not game_of(row).ruleset:
                stored = apply_hand(game_of(row), row.state, hand)
            store.append_hand(db, row.id, hand_row(n, raw.typed, hand, stored), key)
    if done is not None:
        return repeated(store, row.id, done, key or "")
    return Recorded(store.game(row.id), game, n, result, cards_read(game, raw.typed, hand),
                    list(raw.worked_out))


@contextmanager
def decided_on(store: Store, row: GameRow) -> Iterator[None]:
    """A write decided on the game as `row` showed it: if the game moved meanwhile, say what changed."""
    try:
        yield
    except StoreConflict:
        raise StoreConflict(_("another scorepad command changed this game at the same moment: {what}").format(
                                what=moved(store, store.game(row.id), row.version))) from None


def moved(store: Store, row: GameRow, expect: int) -> str:
    """What changed in a game since the version a command was decided on."""
    hands = store.hands(row.id)
    audit = store.audit(row.id)
    last = [(h.created, _("hand {n} recorded ({typed})").format(n=h.n, typed=" ".join(h.typed))) for h in hands[-1:]]
    last += [(a["at"], _("{action} of hand {n}").format(action=a["action"], n=a["hand"]) if a["hand"]
              else a["action"]) for a in audit[-1:] if a["action"] != "new"]
    latest = max(last)[1] if last else _("a change")
    return ngettext("game {id} changed since version {expect}: it is at version {version} with {n} hand (latest: "
                    "{latest}); nothing was stored, look again and repeat",
                    "game {id} changed since version {expect}: it is at version {version} with {n} hands (latest: "
                    "{latest}); nothing was stored, look again and repeat", row.hands).format(
                        id=row.id, expect=expect, version=row.version, n=row.hands, latest=latest)


def repeated(store: Store, game_id: int, done: tuple[int, int], key: str) -> Recorded:
    """The answer to a write repeated with the key of one already stored: the stored hand, scored again."""
    gid, n = done
    if gid != game_id:
        raise UserError(_("the key {key} was already used for hand {n} of game {gid}; use a new key").format(
                            key=repr(key), n=n, gid=gid))
    row = store.game(gid)
    game = game_of(row)
    hands = store.hands(gid)
    if n > len(hands) or hands[n - 1].n != n:
        raise UserError(_("this hand (key {key}) was stored as hand {n} of game {gid} and has since been "
                           "undone or replaced; nothing was stored again").format(key=repr(key), n=n, gid=gid))
    before = hands[n - 2].state if n > 1 else initial_state(game)
    result = apply_hand(game, before, hands[n - 1].hand)
    return Recorded(row, game, n, result, cards_read(game, hands[n - 1].typed, hands[n - 1].hand))


def cards_read(game: Game, typed: Sequence[str], hand: Mapping[str, Any]) -> list[dict[str, Any]]:
    """How every typed card was read ("bob: ДП 10Ч read as Q♠ 10♥ = 60"), so that a card that
    means something else in another alphabet (Cyrillic Т an ace, Latin T a ten) is seen at once."""
    rs = game.ruleset
    card_fields = [f for f in rs.fields.values() if f.type == "cards"]
    if not card_fields:
        return []
    try:
        raw = split_assignments(game, typed)
    except ScorepadError:
        return []
    out: list[dict[str, Any]] = []
    for fdef in card_fields:
        given = raw.values.get(fdef.name)
        if given is None:
            continue
        names = list(game.players) if fdef.scope == "player" else [s.name for s in game.sides]
        texts = [(None, given)] if fdef.scope == "hand" else list(zip(names, given, strict=False))
        for who, text in texts:
            if text is None or text.strip().lower() in fdef.words:
                continue
            try:
                pairs = cardlib.read_cards(text, rs.deck)
            except UserError:
                continue
            if not pairs:
                continue
            labels = [cardlib.card_label(card) for _, card in pairs]
            value = sum(cardlib.card_value(card, rs.card_values) for _, card in pairs) if rs.card_values else None
            head = " ".join(x for x in (who, fdef.name if len(card_fields) > 1 or who is None else None) if x)
            line = _("{who}: {typed} read as {cards}").format(who=head, typed=text.strip(), cards=" ".join(labels))
            if value is not None:
                line += f" = {format_value(value)}"
            out.append({"field": fdef.name, "who": who, "typed": text.strip(), "read": labels,
                        "value": value, "text": line})
    return out


def _jsonable_breakdown(result: HandResult) -> list[list[list[Any]]]:
    return [[[line.label, line.points, list(line.to)] for line in items] for items in result.breakdown]


def hand_row(n: int, typed: list[str], hand: dict[str, Any], result: HandResult, created: str | None = None) -> HandRow:
    """The stored form of a scored hand: as typed, the typed values, and what the engine made of them."""
    return HandRow(n, typed, hand, result.points, _jsonable_breakdown(result), result.events, result.state,
                   created or now())


def undo(store: Store, game_id: int | str | None) -> tuple[GameRow, int]:
    row = store.game(game_id)
    if row.hands == 0:
        raise UserError(_('this game has no hands to undo'))
    hands = store.hands(row.id)
    last = hands[-1]
    before = hands[-2].state if len(hands) > 1 else initial_state(game_of(row))
    with decided_on(store, row):
        store.replace_from(row.id, row.version, last.n, [], "undo",
                           {"removed": {"n": last.n, "typed": last.typed, "hand": last.hand}}, before)
    return store.game(row.id), last.n


def edit(store: Store, game_id: int | str | None, n: int, args: Sequence[str],
         lang: str | None = None) -> tuple[GameRow, list[HandRow]]:
    """Correct hand n with new assignments over the old ones; re-score every later hand.
    With `lang` the assignments may use that language's field names and words."""
    row = store.game(game_id)
    game = game_of(row)
    typing = game_of(row, lang)
    hands = store.hands(row.id)
    if not 1 <= n <= len(hands):
        raise UserError(ngettext("there is no hand {n} in game {id} (it has {count} hand)",
                                 "there is no hand {n} in game {id} (it has {count} hands)", len(hands)).format(
                                     n=n, id=row.id, count=len(hands)))
    if not args:
        raise UserError(_('say what to change, e.g. `scorepad edit 3 tricks=5,3,3,2`'))
    state = hands[n - 2].state if n > 1 else initial_state(game)
    old = hands[n - 1]
    try:
        split_assignments(typing, args, strict=True)  # the new values once each; they replace the old ones
        _raw, hand, result = type_and_score(typing, state, [*old.typed, *args], None)
        if typing.ruleset is not game.ruleset:
            result = apply_hand(game, state, hand)
    except ScorepadError as exc:
        raise HandError(_("hand {n} cannot be changed like that: {message}").format(n=n, message=exc.message),
                        exc.problems) from None
    new_rows = [hand_row(n, [*old.typed, *args], hand, result)]
    state = result.state
    for later in hands[n:]:
        if state["finished"]:
            raise HandError(_("with that change the game ends at hand {n}, but hands {n2}-{n3} follow; undo "
                               "them first").format(n=new_rows[-1].n, n2=later.n, n3=hands[-1].n))
        try:
            res = apply_hand(game, state, later.hand)
        except ScorepadError as exc:
            raise HandError(_("with that change hand {n} is no longer legal: {message}").format(
                                n=later.n, message=exc.message),
                            exc.problems) from None
        new_rows.append(hand_row(later.n, later.typed, later.hand, res, later.created))
        state = res.state
    with decided_on(store, row):
        store.replace_from(row.id, row.version, n, new_rows, "edit",
                           {"hand": n, "old": {"typed": old.typed, "hand": old.hand},
                            "new": {"typed": new_rows[0].typed, "hand": hand}}, state)
    return store.game(row.id), new_rows


def finish(store: Store, game_id: int | str | None, lang: str | None = None) -> tuple[GameRow, HandResult]:
    """End the game by the ruleset's rule; the result shown speaks `lang`, the stored one the ruleset's texts."""
    row = open_game(store.game(game_id))
    game = game_of(row)
    result = finish_game(game, row.state)
    shown_game = game_of(row, lang)
    shown = finish_game(shown_game, row.state) if shown_game.ruleset is not game.ruleset else result
    with decided_on(store, row):
        store.set_state(row.id, result.state, "finish",
                        {"points": result.points, "breakdown": _jsonable_breakdown(result), "events": result.events},
                        expected_version=row.version)
    return store.game(row.id), shown


def standings(row: GameRow, game: Game | None = None, lang: str | None = None) -> dict[str, Any]:
    """The standings object of the CLI contract (`standings --json`); labels and info in `lang`."""
    game = game or game_of(row, lang)
    state = row.state
    shown = side_display(game, state)
    sides = []
    for k, side in enumerate(game.sides):
        counters = state["sides"][k]
        sides.append({
            "name": side.name,
            "players": [game.players[i] for i in side.members],
            "score": counters["score"],
            "status": counters["status"],
            "state": {key: v for key, v in counters.items() if key not in ("score", "status")},
            "shown": shown[k],
        })
    out: dict[str, Any] = {
        "game": str(row.id), "ruleset": row.ruleset_id, "variant": row.variant, "name": row.name,
        "season": row.season, "hands": row.hands, "version": row.version, "finished": bool(state["finished"]),
        "winner": state["winners"], "draw": bool(state.get("draw")), "abandoned": row.abandoned, "sides": sides,
        "game_state": state["game"], "options": row.options,
        "info": list(game.ruleset.display_info),
    }
    if not state["finished"] and not row.abandoned:
        out["next"] = next_hand_info(game, state)
    return out


def hand_json(rec: Recorded) -> dict[str, Any]:
    game = rec.game
    return {
        "hand": rec.n,
        "sides": [{"name": s.name, "points": rec.result.points[k],
                   "breakdown": [{"label": line.label, "points": line.points, "to": list(line.to)}
                                 for line in rec.result.breakdown[k]]}
                  for k, s in enumerate(game.sides)],
        "events": rec.result.events,
        "cards_read": [c["text"] for c in rec.cards_read],
        "worked_out": rec.worked_out,
        "standings": standings(rec.row, game),
    }


def sheet(store: Store, row: GameRow, lang: str | None = None) -> dict[str, Any]:
    """Hand by hand: each side's points, breakdown and running total, like the paper pad.

    The stored hands hold the ruleset's own labels and events; with `lang` each hand is replayed
    from the stored state before it with the translated ruleset, for the same numbers in that language."""
    game = game_of(row, lang)
    hands = store.hands(row.id)
    texts: list[tuple[list[list[list[Any]]], list[str]]] = [(h.breakdown, h.events) for h in hands]
    if game.ruleset is not game_of(row).ruleset:
        before = initial_state(game)
        for i, h in enumerate(hands):
            try:
                res = apply_hand(game, before, h.hand)
                texts[i] = (_jsonable_breakdown(res), res.events)
            except ScorepadError:
                pass
            before = h.state
    out_hands = []
    for h, (breakdown, events) in zip(hands, texts, strict=True):
        out_hands.append({
            "hand": h.n, "typed": h.typed,
            "points": h.points,
            "totals": [s["score"] for s in h.state["sides"]],
            "breakdown": breakdown,
            "events": events,
            "cards_read": [c["text"] for c in cards_read(game, h.typed, h.hand)],
        })
    out = {"game": str(row.id), "ruleset": row.ruleset_id, "variant": row.variant,
           "sides": [s.name for s in game.sides], "hands": out_hands,
           "totals": [s["score"] for s in row.state["sides"]], "finished": row.state["finished"],
           "winner": row.state["winners"]}
    if game.ruleset.sheet_below:
        out["pad"] = rubber_pad(game, hands, game.ruleset.sheet_below, row.state)
    return out


def rubber_pad(game: Game, hands: Sequence[HandRow], below: str, final: State) -> dict[str, Any]:
    """The paper pad of rubber bridge: entries above the line, and below it game by game.

    A line's points go below when they went to the `below` counter; a game is ruled off when every
    side's `below` counter is back to 0 after a hand that wrote below the line.
    """
    n = len(game.sides)
    above: list[list[dict[str, Any]]] = [[] for _ in range(n)]
    games: list[dict[str, Any]] = []
    current: list[list[dict[str, Any]]] = [[] for _ in range(n)]
    for h in hands:
        for k, lines in enumerate(h.breakdown):
            for line in lines:
                label, points = line[0], line[1]
                to = line[2] if len(line) > 2 else ["score"]
                entry = {"hand": h.n, "label": label, "points": points}
                (current if below in to else above)[k].append(entry)
        if any(current) and all(s[below] == 0 for s in h.state["sides"]):
            totals = [sum(e["points"] for e in side) for side in current]
            best = max(range(n), key=lambda k: totals[k])
            games.append({"below": current, "won_by": game.sides[best].name, "hand": h.n})
            current = [[] for _ in range(n)]
    if any(current):
        games.append({"below": current, "won_by": None, "hand": None})
    finish_lines: list[list[dict[str, Any]]] = [[] for _ in range(n)]
    if final.get("finished") and hands:
        extra = [final["sides"][k]["score"] - hands[-1].state["sides"][k]["score"] for k in range(n)]
        for k, pts in enumerate(extra):
            if pts:
                finish_lines[k].append({"hand": None, "label": "unfinished rubber", "points": pts})
                above[k].append(finish_lines[k][-1])
    return {"above": above, "games": games,
            "above_totals": [sum(e["points"] for e in side) for side in above],
            "below_totals": [sum(e["points"] for g in games for e in g["below"][k]) for k in range(n)]}


PARALLEL_HANDS = 5000  # a database with more hands than this is verified by one process per core
CHUNKS_PER_WORKER = 16  # the games go out in runs of about this share of the hands, to whichever process is free


def verify(store: Store, workers: int | None = None) -> list[str]:
    """Replay every game from its stored hands and pinned ruleset; one line per difference.

    Games replay independently, so a large database is shared out among `workers` processes (one
    per core by default, where processes can be forked): in runs of consecutive games of about equal
    numbers of hands, each to whichever process is free, so a process slowed by other work on the
    machine, or given the long games, does not hold up the end; the lines come back in the order of
    the games."""
    problems = [f"ruleset {rid}: the text pinned as {rhash} is not the text with that hash (the database "
                f"was altered; starting a new {rid} game pins the real text)"
                for rhash, rid in store.misfiled_rulesets()]
    rows = store.games()
    total = sum(r.hands for r in rows)
    if workers is None:
        workers = (os.cpu_count() or 1) if total > PARALLEL_HANDS else 1
    import multiprocessing

    if (workers <= 1 or len(rows) < 2 or "fork" not in multiprocessing.get_all_start_methods()
            or type(store) is not Store):  # a SQLite file each worker can open (a server store: one process)
        return problems + _verify_rows(store, rows)
    global _VERIFY_JOB
    _VERIFY_JOB = (store.path, rows)
    chunks = _runs(rows, max(1, total // (workers * CHUNKS_PER_WORKER)))
    try:
        with multiprocessing.get_context("fork").Pool(min(workers, len(chunks))) as pool:
            found = pool.imap(_verify_chunk, chunks)  # in order, each run to the first free process
            return problems + [line for per_run in found for line in per_run]
    finally:
        _VERIFY_JOB = None


def _runs(rows: Sequence[GameRow], hands: int) -> list[range]:
    """Consecutive games in runs of at least `hands` hands (a run of one long game may hold more)."""
    out, start, count = [], 0, 0
    for i, row in enumerate(rows):
        count += row.hands + 1  # + 1: a game without hands still costs its set-up
        if count >= hands:
            out.append(range(start, i + 1))
            start, count = i + 1, 0
    if start < len(rows):
        out.append(range(start, len(rows)))
    return out


_VERIFY_JOB: tuple[Path, list[GameRow]] | None = None  # what forked workers inherit
_WORKER_STORE: list[Store] = []  # a worker's own connection, opened for its first run


def _verify_chunk(indexes: range) -> list[str]:
    """In a worker: the problems of a run of games (by their index in the job), in order."""
    assert _VERIFY_JOB is not None
    path, rows = _VERIFY_JOB
    if not _WORKER_STORE:  # a connection of its own: the parent's is not shared across a fork
        _WORKER_STORE.append(Store(path))
    return _verify_rows(_WORKER_STORE[0], [rows[i] for i in indexes])


def _verify_rows(store: Store, rows: Sequence[GameRow]) -> list[str]:
    return [line for row in rows for line in _verify_game(store, row)]


def _verify_game(store: Store, row: GameRow) -> list[str]:
    problems = []
    if row.damaged is not None:
        problems.append(_("game {id}: its cached totals are damaged ({value}); they are read from its last "
                          "hand until the next hand is recorded").format(id=row.id, value=row.damaged))
    try:
        game = game_of(row)
        from scorepad.rules.translations import check_translations

        check_translations(game.ruleset)   # every language's texts, as when the game began
        state = initial_state(game)
        for n, hand, stored in store.replay_hands(row.id):
            state = apply_hand(game, state, hand).state
            if state != stored:
                problems.append(_("game {id}: hand {n} replays to a different state").format(id=row.id, n=n))
                break
        if row.state.get("finished") and not state["finished"]:
            replayed_finish = finish_game(game, state).state
            state = replayed_finish
        if state != row.state:
            problems.append(_("game {id}: the cached totals differ from a replay ({value} stored, {value2} "
                               "replayed)").format(
                                id=row.id, value=[s['score'] for s in row.state['sides']],
                                value2=[s['score'] for s in state['sides']]))
    except ScorepadError as exc:
        problems.append(_("game {id}: cannot be replayed: {message}").format(id=row.id, message=exc.message))
    return problems


@mutable_record
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
    from pathlib import Path

    from scorepad.rules.registry import resolved_text

    row = store.game(game_id)
    text, _warnings = resolved_text(Path(path), rules_dirs)
    rs = load_text(text, str(path), row.variant)
    old_game = game_of(row)
    if rs.id != row.ruleset_id:
        raise UserError(_("{path} is the ruleset {id}, but game {id2} is {ruleset_id}").format(
                            path=path, id=repr(rs.id), id2=row.id, ruleset_id=repr(row.ruleset_id)))
    game = Game(rs, old_game.players, old_game.sides, {**{n: o.default for n, o in rs.options.items()},
                                                       **{k: v for k, v in row.options.items() if k in rs.options}})
    state = initial_state(game)
    rows: list[HandRow] = []
    lines = []
    changed = False
    for old in store.hands(row.id):
        try:
            raw, hand, result = type_and_score(game, state, old.typed, None)
        except ScorepadError as exc:
            raise HandError(_("with {path}, hand {n} is refused: {message}").format(
                                path=path, n=old.n, message=exc.message), exc.problems) from None
        rows.append(hand_row(old.n, raw.typed, hand, result, old.created))
        before = [s["score"] for s in old.state["sides"]]
        after = [s["score"] for s in result.state["sides"]]
        if before != after:
            changed = True
            changes = zip(game.sides, before, after, strict=True)
            lines.append(_("hand {n}: {changes}").format(n=old.n, changes=", ".join(f"{s.name} {b} -> {a}"
                                                                                     for s, b, a in changes)))
        state = result.state
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

def rematch(store: Store, game_id: int | str | None, name: str | None = None,
            season: str | None = None) -> GameRow:
    """A new game like this one (pinned ruleset text, variant, options, players and sides); the next
    player in seating order deals first, so the players are listed from that seat on."""
    row = store.game(game_id)
    old = game_of(row)
    rs = old.ruleset
    players = [*row.players[1:], *row.players[:1]]
    partners = sorted(sorted(row.players[i] for i in s["members"]) for s in row.sides)
    teams = {s["name"]: [row.players[i] for i in s["members"]] for s in row.sides}
    # Partnerships keep their names and order; sides named after seats (NS, EW) go with the seats.
    seat_named = rs.sides_kind != "partnership" or bool(rs.side_names)
    game = make_game(rs, players, None if seat_named else teams)
    if sorted(sorted(game.players[i] for i in s.members) for s in game.sides) != partners:
        game = make_game(rs, players, teams)   # the seats alone would break the partnerships up
    game = Game(rs, game.players, game.sides, dict(row.options))
    gid = store.create_game(
        ruleset_id=row.ruleset_id, ruleset_hash=row.ruleset_hash, ruleset_text=row.ruleset_text,
        ruleset_source=row.ruleset_source, variant=row.variant, name=name, season=season or current_season(store),
        players=game.players, sides=[{"name": s.name, "members": list(s.members)} for s in game.sides],
        options=dict(game.options), state=initial_state(game))
    return store.game(gid)


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
    from scorepad.names import closest, did_you_mean

    return did_you_mean(closest(name, [p for g in rows for p in g.players]))


def _renamed(store: Store, row: GameRow, old: str, new: str) -> Any:
    """One game with `old` renamed `new`: players, sides named after players, every hand retyped and replayed."""
    from scorepad.store import Rewrite

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
    renamed = Game(rs, tuple(players), tuple(Side(s["name"], tuple(s["members"])) for s in sides), game.options)
    state = initial_state(renamed)
    rows: list[HandRow] = []
    for h in store.hands(row.id):
        typed = [retype(game, renamed, item) for item in h.typed]
        try:
            _raw, hand, result = type_and_score(renamed, state, typed, None)
        except ScorepadError as exc:
            raise UserError(_("game {id}, hand {n} cannot be read with the new name: {message}").format(
                                id=row.id, n=h.n, message=exc.message)) from None
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
    from scorepad.engine.assignments import _find_field, resolve_who

    left, eq, right = item.partition("=")
    fdef = _find_field(before.ruleset.fields, left.rpartition(".")[2].strip().lower()) if eq else None
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
