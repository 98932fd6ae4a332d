"""The library behind the commands: start a game, record, undo, edit, finish, and report.

Each function makes one call into the store for its write, so every command is one transaction,
and uses the pure engine for the scoring. Games are scored with the ruleset text pinned when they
started, never with whatever the ruleset file says today.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field, replace
from typing import Any

import scorepad.rules.cards as cardlib
from scorepad.app.answer_lost import CommitHeld, change_done, change_unknown, hand_unknown, key_written, new_key
from scorepad.app.breakdown import shown_breakdown, stored_breakdown
from scorepad.app.events import shown_events, stored_events
from scorepad.app.pinned import pinned_ruleset as pinned_ruleset  # re-exported: season reads games with it
from scorepad.app.rows import abandon as abandon  # re-exported: the commands that need no engine import gamerows
from scorepad.app.rows import current_season, game_title
from scorepad.app.rows import delete as delete
from scorepad.app.rows import game_log as game_log
from scorepad.app.rows import season_name as season_name
from scorepad.app.rulesets import parse_opts as parse_opts  # re-exported: `rules derive` needs it without the engine
from scorepad.app.story import story
from scorepad.engine.assignments import (
    RawHand,
    field_label,
    split_assignments,
    typed_assignments,
    whole_hand,
)
from scorepad.engine.game import (
    Game,
    HandResult,
    Side,
    State,
    current_dealer,
    finish_game,
    info_lines,
    initial_state,
    make_game,
    next_hand_info,
    own_game,
    ruleset_shown,
    side_display,
)
from scorepad.engine.hand_entry import HandEntry
from scorepad.engine.scoring import apply_hand
from scorepad.errors import HandError, ScorepadError, StoreConflict, StoreError, StoreUnreachable, UserError
from scorepad.locale import _, current, ngettext, shown, texts_language
from scorepad.names import MAX_GAME_NAME, check_name
from scorepad.rules.registry import load
from scorepad.rules.values import format_value
from scorepad.store import GameRow, HandRow, Store, now


def game_of(row: GameRow) -> Game:
    """The game of a stored row, with its pinned ruleset in the ruleset's own texts."""
    rs = pinned_ruleset(row.ruleset_text, row.ruleset_source, row.variant)
    sides = tuple(Side(s["name"], tuple(s["members"])) for s in row.sides)
    return Game(rs, tuple(row.players), sides, dict(row.options), row.first_dealer)


def in_language(game: Game) -> Game:
    """The game as the language of the call shows it: its ruleset's labels, messages, help and input words
    in that language (the view of the ruleset built once per language, its formulas the ruleset's own);
    the game itself when the ruleset has no texts in that language."""
    view = ruleset_shown(game.ruleset)
    return game if game.ruleset is view else replace(game, ruleset=view)


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


@dataclass
class Recorded:
    row: GameRow
    game: Game
    n: int
    result: HandResult
    cards_read: list[dict[str, Any]] = field(default_factory=list)
    worked_out: list[str] = field(default_factory=list)   # values filled in from totals and default_from


def type_and_score(game: Game, state: State, args: Sequence[str],
                   strict: bool = False, bid: int = 0) -> tuple[RawHand, dict[str, Any], HandResult]:
    """Typed text (read in `game`'s language) → typed hand → hand scored with the ruleset itself (a
    value missing refuses the hand).

    `strict` for what a person types now: a value given twice with two different values is refused
    (the first `bid` of `args` were written down by `scorepad bid`).
    """
    if state["finished"]:
        raise UserError(_('this game has ended and takes no more hands (undo or edit still work)'))
    raw = split_assignments(game, args, strict, bid)
    hand = whole_hand(game, state, raw)
    return raw, hand, apply_hand(own_game(game), state, hand)   # scored with the ruleset itself, shown by id


def typed_again(game: Game, state: State, typed: Sequence[str]) -> dict[str, Any]:
    """A stored hand's typed text typed again as `type_and_score` typed it, against the state before
    the hand: the values it gives (which must be the ones stored with it). `import` and `verify`
    check every stored hand this way; raises what typing the text now would."""
    return whole_hand(game, state, split_assignments(game, typed))


def open_game(row: GameRow) -> GameRow:
    """Refuse a game that takes no more hands because it was abandoned."""
    if row.abandoned:
        raise UserError(_("game {id} was abandoned and takes no more hands (`scorepad rematch` starts it "
                           "again with the same players)").format(id=row.id))
    return row


def record_hand(store: Store, game_id: int | str | None, args: Sequence[str], *, expect: int | None = None,
                key: str | None = None) -> Recorded:
    """Record a hand, applied to the game as it stands when the write gets its turn.

    Several tables may append to one game at once: each hand is scored inside the write, which holds
    the game, against the state the previous one left (the typed text is scored again if the game
    moved since it was read), so a plain `hand` never has to be repeated. What was decided on a view
    of the game (`expect`, the version a script was shown, or a bid written down) is refused
    instead if the game moved meanwhile. `key` makes the write idempotent: a repeat of a
    write already stored is answered with the stored hand. The result shown speaks the language of the
    call; the stored hand keeps the ids of its lines and events, the same in every language.
    """
    return record_given(store, start_hand(store, game_id, args), expect=expect, key=key)


@dataclass
class HandStart:
    """The next hand of a stored game, begun: the game as read, and its entry holding the bid written
    down and the values given on the command line (read as `hand` reads them)."""
    row: GameRow
    game: Game
    entry: HandEntry


def start_hand(store: Store, game_id: int | str | None, args: Sequence[str]) -> HandStart:
    """Every front end's first step with a hand typed: the game (one that takes hands) in the language of
    the call, to read what is typed and show words (the entry scores with the ruleset itself), and the
    typed text read once, into a HandEntry (which the prompt goes on to ask, or which is stored as
    given)."""
    row = open_game(store.game(game_id))
    if row.state["finished"]:
        raise UserError(_('this game has ended and takes no more hands (undo or edit still work)'))
    game = in_language(game_of(row))
    pending = store.pending_bid(row.id) or []   # a bid written down before completes this hand
    entry = HandEntry.next_hand(game, row.state, pending, args, hand_no=row.hands + 1)
    return HandStart(row, game, entry)


def record_given(store: Store, start: HandStart, *, expect: int | None = None, key: str | None = None) -> Recorded:
    """Store the hand exactly as given (no question asked): refused as `hand` refuses a value missing."""
    outcome = start.entry.as_given()
    bid = len(start.entry.base)
    if bid and expect is None:
        expect = start.row.version  # decided on this view of the game (the bid written down)
    return write_hand(store, start.row, start.game, Typed(outcome.raw, outcome.hand, outcome.result),
                      expect=expect, key=key, bid=bid)


@dataclass
class Typed:
    """A hand as read and scored against the game as it stood: what a front end offers to store."""
    raw: RawHand
    hand: dict[str, Any]
    result: HandResult


def write_hand(store: Store, row: GameRow, game: Game, typed: Typed, *, expect: int | None = None,
               key: str | None = None, bid: int = 0) -> Recorded:
    """The one way a hand is stored, whichever front end typed it: one transaction holding the game;
    without `expect`, the typed text is scored again if the game moved since it was read; with it, a
    game that moved is refused (StoreConflict). `key` (every front end gives one) makes the write
    idempotent, and lets a lost answer to the commit be asked about again before anything is offered
    again (scorepad.app.answer_lost)."""
    key = key or new_key()
    held = CommitHeld()
    raw, hand, result = typed.raw, typed.hand, typed.result
    try:
        with ExitStack() as holding, store.write() as db:
            store.lock_game(db, row.id)
            done = store.written(db, key)
            if done is None:
                fresh = open_game(store.game(row.id))
                if expect is not None and fresh.version != expect:
                    raise StoreConflict(moved(store, fresh, expect))
                if fresh.version != row.version:
                    row, game = fresh, in_language(game_of(fresh))
                    raw, hand, result = type_and_score(game, fresh.state, raw.typed, strict=True, bid=bid)
                n = fresh.hands + 1
                store.append_hand(db, row.id, hand_row(n, raw.typed, hand, result), key)
            holding.enter_context(held.holding())   # the commit: a Ctrl-C now waits for its answer
    except (StoreUnreachable, KeyboardInterrupt) as exc:
        if isinstance(exc, KeyboardInterrupt) and not held.reached:
            raise   # before the commit: the transaction was rolled back, nothing was stored
        lost = exc if isinstance(exc, StoreUnreachable) else StoreUnreachable(_("interrupted"))
        try:
            done = key_written(store, row.id, key)
        except (StoreError, KeyboardInterrupt):
            raise hand_unknown(lost, key, " ".join(raw.typed)) from None
        if done is None:
            raise StoreUnreachable(_("{error}; the hand was not stored").format(error=lost.message)) from None
    if done is not None:
        return repeated(store, row.id, done, key, hand)
    return Recorded(store.game(row.id), game, n, result, cards_read(game, raw.typed, hand),
                    list(raw.worked_out_shown))


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
    from scorepad.text.render import action_word  # start-up: only a refused write needs it

    last += [(a["at"], _("{action} of hand {n}").format(action=action_word(a["action"]), n=a["hand"]) if a["hand"]
              else action_word(a["action"])) for a in audit[-1:] if a["action"] != "new"]
    latest = max(last)[1] if last else _("a change")
    return ngettext("game {id} changed since version {expect}: it is at version {version} with {n} hand (latest: "
                    "{latest}); nothing was stored, look again and repeat",
                    "game {id} changed since version {expect}: it is at version {version} with {n} hands (latest: "
                    "{latest}); nothing was stored, look again and repeat", row.hands).format(
                        id=row.id, expect=expect, version=row.version, n=row.hands, latest=latest)


def repeated(store: Store, game_id: int, done: tuple[int, int], key: str,
             hand: Mapping[str, Any] | None = None) -> Recorded:
    """The answer to a write repeated with the key of one already stored: the stored hand, scored again.
    A key is one hand: the same key with other values (`hand`, as typed now) is refused, since saying
    "stored" would lose the new hand."""
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
    if hand is not None and hand != hands[n - 1].hand:
        raise UserError(_("the key {key} was already used for hand {n} of game {gid}, typed as {typed}; this hand "
                           "has other values and was not stored: use a new key").format(
                               key=repr(key), n=n, gid=gid, typed=" ".join(hands[n - 1].typed)))
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
            name = field_label(rs, fdef.name)
            head = " ".join(x for x in (who, name if len(card_fields) > 1 or who is None else None) if x)
            # in the notation of the language shown (English: the suits' signs, Q♠)
            said = " ".join(labels) if current() == "en" else " ".join(cardlib.card_shown(card) for _, card in pairs)
            line = _("{who}: {typed} read as {cards}").format(who=head, typed=text.strip(), cards=said)
            if value is not None:
                line += f" = {format_value(value)}"
            out.append({"field": fdef.name, "who": who, "typed": text.strip(), "read": labels,
                        "value": value, "text": line})
    return out


def hand_row(n: int, typed: list[str], hand: dict[str, Any], result: HandResult, created: str | None = None) -> HandRow:
    """The stored form of a scored hand: as typed, the typed values, and what the engine made of them."""
    return HandRow(n, typed, hand, result.points, stored_breakdown(result), stored_events(result), result.state,
                   created or now())


@dataclass
class Undone:
    """What undo took back: the last hand (`n`), or, when `scorepad finish` ended the game, only that
    finish (`finish`; `n` is then the hand that stays the last)."""

    row: GameRow
    n: int
    finish: bool = False


def undo(store: Store, game_id: int | str | None, expect: int | None = None) -> Undone:
    """Take back the last change of the hands: the finish when `scorepad finish` ended the game (the
    hands stay as they were), else the last hand. `expect`: the version the person saw; a repeat of an
    undo already done (its answer lost) is then refused with what happened, instead of taking back more."""
    row = expected(store, store.game(game_id), expect)
    hands = store.hands(row.id)
    key = new_key()
    if ended_by_finish(row.state, hands):
        before = hands[-1].state if hands else initial_state(game_of(row))
        ended = [e for e in store.audit(row.id) if e["action"] == "finish"][-1:]
        events = list(ended[0]["detail"].get("events", [])) if ended else []
        changed_once(store, row, key, _("undo"), "scorepad undo", lambda: store.set_state(
            row.id, before, "undo finish", {"hands": row.hands, "events": events, "key": key},
            expected_version=row.version))
        return Undone(store.game(row.id), row.hands, finish=True)
    if row.hands == 0:
        raise UserError(_('this game has no hands to undo'))
    last = hands[-1]
    before = hands[-2].state if len(hands) > 1 else initial_state(game_of(row))
    changed_once(store, row, key, _("undo"), "scorepad undo", lambda: store.replace_from(
        row.id, row.version, last.n, [], "undo",
        {"removed": {"n": last.n, "typed": last.typed, "hand": last.hand}, "key": key}, before))
    return Undone(store.game(row.id), last.n)


def expected(store: Store, row: GameRow, expect: int | None) -> GameRow:
    """The game, if it is at the version `expect` a command was decided on (or no version was given)."""
    if expect is not None and row.version != expect:
        raise StoreConflict(moved(store, row, expect))
    return row


def changed_once(store: Store, row: GameRow, key: str, what: str, again: str, write: Callable[[], None]) -> None:
    """Run `write`, one change of the game as `row` shows it whose audit entry carries `key`. A Ctrl-C
    meanwhile waits for the store's answer; when the answer is lost, the store is asked whether the
    change was stored before anything is said: done, not done, or (unreachable) how to repeat it safely."""
    held = CommitHeld()
    try:
        with decided_on(store, row), held.holding():
            write()
    except (StoreUnreachable, KeyboardInterrupt) as exc:
        lost = exc if isinstance(exc, StoreUnreachable) else StoreUnreachable(_("interrupted"))
        try:
            done = change_done(store, row, key)
        except (StoreError, KeyboardInterrupt):
            raise change_unknown(lost, what, row.version, again) from None
        if done is None:
            raise StoreConflict(moved(store, store.game(row.id), row.version)) from None
        if not done:
            raise StoreUnreachable(_("{error}; nothing was changed").format(error=lost.message)) from None


def ended_by_finish(final: State, hands: Sequence[HandRow]) -> bool:
    """Whether `scorepad finish` ended the game whose state is `final` (it is over, and its last hand
    did not end it): a change to its hands keeps it ended, its result worked out again."""
    return bool(final.get("finished")) and not any(h.state.get("finished") for h in hands[-1:])


def finished_again(game: Game, state: State) -> State:
    """The state after the hands, ended again as `scorepad finish` ended it (when no hand ends it now)."""
    if state["finished"]:
        return state
    try:
        return finish_game(game, state).state
    except ScorepadError as exc:
        raise HandError(_("the game was ended with `scorepad finish`, and with that change it cannot be: {message}")
                        .format(message=shown(exc.message))) from None


def edit(store: Store, game_id: int | str | None, n: int, args: Sequence[str],
         expect: int | None = None) -> tuple[GameRow, list[HandRow]]:
    """Correct hand n with new assignments over the old ones; re-score every later hand. Returns the
    game and the rows written (none when every value is as it was: nothing is stored).
    What is refused is said in the language of the call; `expect`, as for undo."""
    row = expected(store, store.game(game_id), expect)
    game = game_of(row)
    typing = in_language(game)
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
        _raw, hand, result = type_and_score(typing, state, [*old.typed, *args])
        # what is stored is the hand as it now reads, each value once (not the old text and the new)
        typed = typed_assignments(game, split_assignments(typing, [*old.typed, *args]).values, skip_defaults=False)
    except ScorepadError as exc:
        raise HandError(_("hand {n} cannot be changed like that: {message}").format(n=n, message=shown(exc.message)),
                        exc.problems) from None
    if hand == old.hand:
        return row, []   # every value as it was: nothing to store, nothing in the audit trail
    new_rows = [hand_row(n, typed, hand, result)]   # by id: scored with the ruleset itself in any language
    state = result.state
    for later in hands[n:]:
        if state["finished"]:
            raise HandError(_("with that change the game ends at hand {n}, but hands {n2}-{n3} follow; undo "
                               "them first").format(n=new_rows[-1].n, n2=later.n, n3=hands[-1].n))
        try:
            res = apply_hand(game, state, later.hand)
        except ScorepadError as exc:
            raise HandError(_("with that change hand {n} is no longer legal: {message}").format(
                                n=later.n, message=shown(exc.message)),
                            exc.problems) from None
        new_rows.append(hand_row(later.n, later.typed, later.hand, res, later.created))
        state = res.state
    if ended_by_finish(row.state, hands):
        state = finished_again(game, state)
    key = new_key()
    changed_once(store, row, key, _("edit"), f"scorepad edit {n} {' '.join(args)}", lambda: store.replace_from(
        row.id, row.version, n, new_rows, "edit", {"hand": n, "old": {"typed": old.typed, "hand": old.hand},
                                                   "new": {"typed": new_rows[0].typed, "hand": hand}, "key": key},
        state))
    return store.game(row.id), new_rows


def scored_hand(store: Store, row: GameRow, n: int) -> Recorded:
    """Hand n of the game as it scores now, its breakdown and events in the language of the call (what
    `play` shows of a hand it edited, as it shows a hand it recorded)."""
    game = game_of(row)
    hands = store.hands(row.id)
    state = hands[n - 2].state if n > 1 else initial_state(game)
    return Recorded(row, in_language(game), n, apply_hand(game, state, hands[n - 1].hand))


def edit_said(n: int, rows: Sequence[HandRow]) -> str:
    """What an edit did, in one sentence: hand n changed and how many later hands were re-scored, or
    that every value was as it was."""
    if not rows:
        return _("Hand {n} is as it was; nothing was stored.").format(n=n)
    return ngettext("Hand {n} changed; {later} later hand re-scored.",
                    "Hand {n} changed; {later} later hands re-scored.", len(rows) - 1).format(n=n, later=len(rows) - 1)


def finish(store: Store, game_id: int | str | None, expect: int | None = None) -> tuple[GameRow, HandResult]:
    """End the game by the ruleset's rule, worked out with the ruleset itself: its lines and events are
    stored by id and shown in the language of the call by result_shown. `expect`, as for undo."""
    row = expected(store, open_game(store.game(game_id)), expect)
    result = finish_game(game_of(row), row.state)
    key = new_key()
    changed_once(store, row, key, _("finish"), "scorepad finish", lambda: store.set_state(
        row.id, result.state, "finish", {"points": result.points, "breakdown": stored_breakdown(result),
                                         "events": stored_events(result), "key": key}, expected_version=row.version))
    return store.game(row.id), result


def standings(row: GameRow, game: Game | None = None) -> dict[str, Any]:
    """The standings object of the CLI contract (`standings --json`); labels and info in the language of
    the call (the ruleset's own with none: JSON)."""
    game = game or in_language(game_of(row))
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
        "info": info_lines(game),
        "title": game_title(row, texts_language(), game.ruleset.name),
    }
    if not state["finished"] and not row.abandoned:
        out["next"] = next_hand_info(game, state)
    return out


def standings_with_bid(store: Store, game_id: int | str | None) -> tuple[GameRow, dict[str, Any]]:
    """The game and what `standings --json` prints for it (in the language of the call): the standings
    object, and the bid written down for the coming hand under "bid". Every front end that shows the
    standings asks here."""
    row = store.game(game_id)
    data = standings(row)
    pending = store.pending_bid(row.id)
    if pending is not None:
        data["bid"] = pending  # the bid written down for the coming hand
    return row, data


def result_shown(game: Game, result: HandResult) -> tuple[list[list[list[Any]]], list[str]]:
    """A hand's (or a finish's) score lines as [label, points, to] per side and its events, in the
    language of the call: found by id, as the sheet finds a stored hand's, whichever texts scored it."""
    shown_game = in_language(game)
    return shown_breakdown(shown_game, stored_breakdown(result)), shown_events(shown_game, stored_events(result))


def hand_json(rec: Recorded) -> dict[str, Any]:
    """A hand just recorded (or scored again), as `hand --json` prints it: labels and events in the
    language of the call (result_shown)."""
    game = in_language(rec.game)
    breakdown, events = result_shown(game, rec.result)
    return {
        "hand": rec.n,
        "sides": [{"name": s.name, "points": rec.result.points[k],
                   "breakdown": [{"label": label, "points": points, "to": to} for label, points, to in breakdown[k]]}
                  for k, s in enumerate(game.sides)],
        "events": events,
        "cards_read": [c["text"] for c in rec.cards_read],
        "worked_out": rec.worked_out,
        "standings": standings(rec.row, game),
    }


def pad_fields(game: Game) -> list[str]:
    """The numbers a paper pad writes beside the points: in a game with bids, each player's (or
    side's) number fields, the bids and the tricks taken in Spades."""
    fields = game.ruleset.fields.values()
    if not any(f.bidding for f in fields):
        return []
    return [f.name for f in fields if f.scope in ("player", "side") and f.type in ("int", "number")]


def sheet(store: Store, row: GameRow) -> dict[str, Any]:
    """Hand by hand: each side's points, breakdown and running total, like the paper pad.

    A stored breakdown line and event hold their ids: their words are the ruleset's and the program's
    in the language of the call, no hand scored again."""
    game = in_language(game_of(row))
    hands = store.hands(row.id)
    texts = [(shown_breakdown(game, h.breakdown), shown_events(game, h.events)) for h in hands]
    out_hands = []
    pad = pad_fields(game)
    for h, (breakdown, events) in zip(hands, texts, strict=True):
        out_hands.append({
            "hand": h.n, "typed": h.typed,
            "points": h.points,
            "totals": [s["score"] for s in h.state["sides"]],
            "breakdown": breakdown,
            "events": events,
            "cards_read": [c["text"] for c in cards_read(game, h.typed, h.hand)],
            "fields": {name: h.hand.get(name) for name in pad},
        })
    out = {"game": str(row.id), "ruleset": row.ruleset_id, "variant": row.variant,
           "title": game_title(row, texts_language(), game.ruleset.name), "name": row.name,
           "sides": [s.name for s in game.sides], "hands": out_hands,
           "members": [list(s.members) for s in game.sides],
           "field_labels": {name: field_label(game.ruleset, name) for name in pad},
           "field_scopes": {name: game.ruleset.fields[name].scope for name in pad},
           "totals": [s["score"] for s in row.state["sides"]], "finished": row.state["finished"],
           "winner": row.state["winners"], "draw": bool(row.state.get("draw"))}
    out.update(story(game, out_hands))
    finish = finish_entry(game, hands, row.state)
    if finish is not None:
        out["finish"] = finish
    if game.ruleset.sheet_below:
        out["pad"] = rubber_pad(game, hands, game.ruleset.sheet_below, finish)
    return out


def finish_entry(game: Game, hands: Sequence[HandRow], final: State) -> dict[str, Any] | None:
    """What `scorepad finish` added to a game it ended (the ruleset's rules for an unfinished game:
    bridge's 300 for the only game), for the sheet's row after the hands; None when the game is not
    over or ended with a hand. The points are the stored totals' change; the labels and events come
    from the finish worked out again from the state before it, in the ruleset's language shown."""
    if not ended_by_finish(final, hands):
        return None
    before = hands[-1].state if hands else initial_state(game)
    n = len(game.sides)
    totals = [final["sides"][k]["score"] for k in range(n)]
    breakdown: list[list[list[Any]]] = [[] for _ in range(n)]
    events: list[str] = []
    with suppress(ScorepadError):
        breakdown, events = result_shown(game, finish_game(own_game(game), before))
    return {"points": [totals[k] - before["sides"][k]["score"] for k in range(n)], "totals": totals,
            "breakdown": breakdown, "events": events}


def finish_events_shown(store: Store, row: GameRow, events: Sequence[Any]) -> list[str]:
    """A finish's stored events in the language of the call: by id (as stored since schema 9), found in the ruleset's and
    the program's words; in words (the ruleset's own texts, stored before), the finish is worked out
    again from the state it ended, found as the state after some hand whose finish says exactly the
    stored events, with the translated ruleset. Events no state gives stay as stored."""
    game = game_of(row)
    shown_game = in_language(game)
    if not any(isinstance(e, str) for e in events):
        return shown_events(shown_game, events)
    stored = [str(e) for e in events]
    if shown_game.ruleset is game.ruleset or not stored:
        return stored
    states = [h.state for h in reversed(store.hands(row.id))] + [initial_state(game)]
    for state in states:
        if state.get("finished"):
            continue
        try:
            if [str(e) for e in finish_game(game, state).events] == [str(e) for e in stored]:
                return list(finish_game(shown_game, state).events)
        except ScorepadError:
            continue
    return stored


def rubber_pad(game: Game, hands: Sequence[HandRow], below: str,
               finish: Mapping[str, Any] | None) -> dict[str, Any]:
    """The paper pad of rubber bridge: entries above the line, and below it game by game.

    A line's points go below when they went to the `below` counter; a game is ruled off when every
    side's `below` counter is back to 0 after a hand that wrote below the line. What `scorepad finish`
    added (`finish`, from finish_entry) goes above the line under its rules' labels.
    """
    n = len(game.sides)
    above: list[list[dict[str, Any]]] = [[] for _ in range(n)]
    games: list[dict[str, Any]] = []
    current: list[list[dict[str, Any]]] = [[] for _ in range(n)]
    for h in hands:
        for k, lines in enumerate(h.breakdown):
            for label, points, to in shown_breakdown(game, [lines])[0]:
                entry = {"hand": h.n, "label": label, "points": points}
                (current if below in to else above)[k].append(entry)
        if any(current) and all(s[below] == 0 for s in h.state["sides"]):
            totals = [sum(e["points"] for e in side) for side in current]
            best = max(range(n), key=lambda k: totals[k])
            games.append({"below": current, "won_by": game.sides[best].name, "hand": h.n})
            current = [[] for _ in range(n)]
    if any(current):
        games.append({"below": current, "won_by": None, "hand": None})
    if finish is not None:
        for k, pts in enumerate(finish["points"]):
            entries = [{"hand": None, "label": line[0], "points": line[1]} for line in finish["breakdown"][k]
                       if line[1]]
            if sum(e["points"] for e in entries) != pts:   # not worked out again: the change, as one entry
                entries = [{"hand": None, "label": "unfinished rubber", "points": pts}] if pts else []
            above[k].extend(entries)
    return {"above": above, "games": games,
            "above_totals": [sum(e["points"] for e in side) for side in above],
            "below_totals": [sum(e["points"] for g in games for e in g["below"][k]) for k in range(n)]}


def rematch(store: Store, game_id: int | str | None, name: str | None = None,
            season: str | None = None) -> GameRow:
    """A new game like this one: pinned ruleset text, variant, options, and the same seats: players in
    the same order, the same sides under the same names. Nobody moves at the table, so a seat letter
    and a list typed in seating order (`bid=4,3,3,3`) mean the same people as in the game before. The
    deal passes on as at the table: the first hand is dealt by whoever would have dealt the next hand
    of the game before (the next seat, or whom the ruleset's `players.next_dealer` named); the game
    keeps that seat as its first dealer, so every replay of it starts there."""
    row = store.game(game_id)
    old = game_of(row)
    game = replace(old, first_dealer=current_dealer(row.state, len(old.players)) % len(old.players))
    gid = store.create_game(
        ruleset_id=row.ruleset_id, ruleset_hash=row.ruleset_hash, ruleset_text=row.ruleset_text,
        ruleset_source=row.ruleset_source, variant=row.variant, name=name, season=season or current_season(store),
        players=game.players, sides=[{"name": s.name, "members": list(s.members)} for s in game.sides],
        options=dict(game.options), state=initial_state(game), first_dealer=game.first_dealer)
    return store.game(gid)
