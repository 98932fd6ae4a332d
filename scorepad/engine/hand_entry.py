"""Typing one hand, question by question: the one model that every front end drives (the terminal's
prompt, `play`, `bid` and `edit` at the terminal, a form on a page). There is no console here: the
model says the next question, takes an answer and says in plain sentences what is wrong with it,
goes back one question, takes a whole retyped line, and gives the summary and the typed hand ready to
be stored. Reading keys and printing are the front end's.

Every field that applies to this hand is asked in the ruleset's question order (Ruleset.question_order:
the bids first, each field after the fields that decide whether and how it is asked), with its legal
values and its default (an empty answer keeps it). Per-player and per-side fields are asked player by
player, a bidding field from the dealer's left round to the dealer (asking_order), or take the whole
row, in the order asked, at the first player's question ("4,3,3,3"); an answer there that is one legal
value for that player is that player's (1000's marriages `H,C,D` are never spread over the others).
Where a ruleset declares a total, the last value is filled in; a value that follows from typed ones
(a count from combinations) is filled in, not asked, and an empty answer at a field that may still
follow from later answers leaves it to them. The checks that need only the fields typed so far run as
soon as those are typed (a bid the rules refuse is refused at the bid).

A line of FIELD=VALUE assignments replaces the hand's typed values as a whole, read as the argument
form reads it. After the last field the hand is scored; a check that fails says its sentences and asks
again only the fields it uses, with what was typed as defaults; a value missing for some players asks
only those players. Nothing is stored here: the outcome's RawHand goes to `app.games.write_hand`.

The model works in passes: the first pass asks what was not given beforehand (in `edit`, every field
and every player again, with the old values as defaults), a fixing pass asks what a refusal names,
and `fix(field)` asks one field again from the summary.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from scorepad.engine.assignments import (
    Missing,
    RawHand,
    asking_order,
    check_field_names,
    checks_on,
    convert,
    copies_problems,
    describe_field,
    field_applies,
    field_candidates,
    field_label,
    field_required,
    fill_total,
    missing_sentence,
    question_legal,
    resolve_who,
    split_assignments,
    type_bids,
    type_hand,
    typed_assignments,
    value_shown,
    value_text,
    whole_hand,
)
from scorepad.engine.game import (
    Game,
    Hand,
    HandResult,
    State,
    active_players,
    checks_in_force,
    own_game,
    run_checks_on,
)
from scorepad.engine.scoring import apply_hand
from scorepad.errors import HandError, UserError
from scorepad.locale import NO_WORDS, _, shown
from scorepad.rules.cards import card_shown
from scorepad.rules.model import Check, FieldDef
from scorepad.rules.values import format_value

Mode = Literal["hand", "bids", "edit"]
LINE = 80          # a question said with its legal values fits this many characters where it can
SINGLE = object()  # an answer with commas that is one value, not a row of values


@dataclass(frozen=True)
class Question:
    """One question: the field, the player or side asked, what may be typed, and what Enter keeps."""

    field: str               # the field's id
    label: str               # its name in the language shown
    who: str | None          # the player (side) asked, for a per-player (per-side) field
    seat: int | None         # that player's (side's) place
    legal: str               # the legal values in the language shown
    show_legal: bool         # said with the question (once per row of a per-player field)
    default: str | None      # what an empty answer keeps, in the language shown ("-": nothing)
    help: str                # the field's help in the language shown
    candidates: tuple[str, ...]   # what may be completed
    row_order: tuple[str, ...]    # where the whole row may be typed at once: the names in the order asked
    pick: bool = False            # a yes/no of each player that at most one may have, asked once: who?

    @property
    def text(self) -> str:
        """`ann: bid (0-13) [4]: ` — the question as a line of text."""
        label = f"{self.who}: {self.label}" if self.who is not None else self.label
        default = f" [{self.default}]" if self.default is not None else ""
        return f"{label} ({self.legal}){default}: " if self.show_legal else f"{label}{default}: "


@dataclass(frozen=True)
class Note:
    """What the model says beside a question: a value it filled in ("worked"), a remark ("info"), or
    why the hand cannot be scored yet ("problem")."""

    text: str
    kind: Literal["worked", "info", "problem"]


@dataclass
class Reply:
    """What became of an answer: taken when there are no problems. `not_a_value`: the text is no
    value of the field (a front end may read it as one of its own commands)."""

    problems: list[str] = field(default_factory=list)
    not_a_value: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class Outcome:
    """A hand as it was typed: the typed text, the typed values, and how it scores."""

    raw: RawHand
    hand: Hand
    result: HandResult


@dataclass
class _Row:
    """A per-player or per-side field under way: its values (the answers' own list), the seats asked
    in order, where the questions are, and the places asked so far (for going back)."""

    fdef: FieldDef
    names: list[str]
    seats: list[int]
    values: list[str | None]
    j: int = 0
    asked: list[int] = field(default_factory=list)
    answered: bool = False


@dataclass
class _Pass:
    """The fields asked in one go. `only` narrows a per-player field to some seats; `fixing`: asked
    again because the hand was refused, so each needs its value now; `hold`: stop after it."""

    names: list[str]
    only: dict[str, set[int]]
    fixing: bool
    first: bool = False
    hold: bool = False
    i: int = 0
    history: list[int] = field(default_factory=list)
    row: _Row | None = None
    posed: bool = False


class HandEntry:
    """The questions for one hand against a game as it stands. `given` holds values typed beforehand
    (on the command line, or the bid written down before the play: `base`, which a retyped line
    completes); the fields in `keep` are not asked in the first pass. `mode`: "hand" asks what is
    missing, "bids" only the bidding fields, "edit" every field and every player again."""

    def __init__(self, game: Game, state: State, given: RawHand | None = None, keep: Collection[str] = (),
                 hand_no: int | None = None, base: Sequence[str] = (), mode: Mode = "hand") -> None:
        self.game = game
        self.rs = game.ruleset
        self.state = state
        self.base = list(base)
        self.given = given if given is not None else RawHand({}, [])   # as typed: what `as_given` stores
        self._given_typed: tuple[Hand, list[Missing]] | None = None     # type_hand of `given` (next_hand)
        self.hand_no = hand_no
        self.mode = mode
        self.answers: dict[str, Any] = {k: (list(v) if isinstance(v, list) else v)
                                        for k, v in (given.values if given else {}).items()}
        self.keep = set(keep)
        self.asked = False            # the first pass is over
        self.short_row = False        # a row given on the command line short by one: its total gave the rest
        self._known: set[str] = set(self.keep)   # fields typed or asked so far (their checks can run)
        self._refused: list[str] = []            # the fields to ask again when typing the hand failed
        self._seats: dict[str, set[int]] = {}    # of those, the players/sides whose value is missing
        self._missing = False                    # it failed only because values are not typed yet
        self._notes: list[Note] = []
        self._refusals: list[str] = []
        self._pass: _Pass | None = None
        self._current: Question | None = None
        self._default: tuple[str | None, str] = (None, "none")
        self._may_wait = False
        self._outcome: Outcome | None = None
        self._held = False
        self._idle = False

    @classmethod
    def next_hand(cls, game: Game, state: State, pending: Sequence[str] = (), args: Sequence[str] = (),
                  hand_no: int | None = None) -> HandEntry:
        """The entry for the next hand of a game as it stands: the bid written down before (`pending`)
        and the values given on the command line (`args`) stand, read as `hand` reads them (HandError
        as it refuses them), and are not asked. Given whole, nothing is asked (`asked`): the hand goes
        to its summary, or straight to the store when `score()` takes it."""
        given = split_assignments(game, [*pending, *args], strict=True, bid=len(pending))
        entry = cls(game, state, given, keep=set(given.values), hand_no=hand_no, base=pending)
        if args:
            entry._given_typed = type_hand(game, given, active_players(game, state), state)
            missing = entry._given_typed[1]
            entry.short_row = bool(given.rest_of_total)   # shown as worked out, and Record? asked
            if not missing:
                entry.keep, entry._known = set(game.ruleset.fields), set(game.ruleset.fields)
                entry.asked = True
        return entry

    # ------------------------------------------------------------------ what a front end calls
    def question(self) -> Question | None:
        """The next question; None when the hand is read (its `outcome` is ready; in "bids" mode and
        after `ask`, when those fields are asked). Scoring happens here: a refusal says its sentences
        (notes) and asks again the fields it names."""
        while True:
            if self._current is not None:
                return self._current
            if self._pass is not None:
                self._walk()
                continue
            if self._held or self._outcome is not None:
                return None
            if not self.asked:
                self._first_pass()
                continue
            if self.mode == "bids":
                return None
            self._settle()

    @property
    def outcome(self) -> Outcome | None:
        """The hand read and scored, once no question is left."""
        return self._outcome

    def notes(self) -> list[Note]:
        """What was said since last asked (values filled in, why a hand was refused), in order."""
        out, self._notes = self._notes, []
        return out

    def answer(self, text: str) -> Reply:
        """Take an answer to the current question: its problems, or nothing when it was taken. A value
        a rule already breaks where it is typed is refused, and the question is asked again."""
        q = self._current
        if q is None or self._pass is None:
            raise RuntimeError("an answer with no question asked")   # a front end's mistake, not a person's
        fdef = self.rs.fields[q.field]
        text = text.strip()
        if q.pick:
            return self._picked(q, text)
        if q.row_order and text:
            row = self._pass.row
            assert row is not None
            whole = self.whole_row(fdef, row.names, row.seats, text)
            if isinstance(whole, Reply):
                return whole
            if whole is not SINGLE:
                return self._accept(whole)
        if text == "":
            typed, source = self._default
            if source in ("typed", "worked"):
                text = typed or ""
            elif source == "ruleset" or fdef.optional or self._may_wait:
                return self._accept(None)      # not typed: the default, or what later answers give, applies
            else:
                label = f"{q.who}: {q.label}" if q.who is not None else q.label
                return Reply([_("  {label} needs a value ({value})").format(label=label, value=q.legal).strip()])
        if text == "-" and fdef.optional and "-" not in fdef.words and fdef.type != "cards":
            return self._accept(None)
        try:
            convert(self.game, fdef, text, q.who, self.state)
        except UserError as exc:
            return Reply([shown(exc.message)], not_a_value=True)
        return self._accept(text)

    def back(self) -> bool:
        """Go back one question (within the pass under way); False, with a note, at the first."""
        p = self._pass
        if p is None or self._current is None:
            return False
        if p.row is not None and p.row.asked:
            p.row.j = p.row.asked.pop()
        elif p.history:
            p.i = p.history.pop()
            p.row = None
        else:
            self._note(_("  (this is the first question)"), "info")
            return False
        self._current = None
        self._walk()
        return True

    def retype(self, words: Sequence[str]) -> list[str]:
        """The whole hand typed again (`bid=4,3,3,3 tricks=5,3,3,2`): its values replace every value
        typed before (the bid written down before stays, as on the command line). The problems of a
        line the argument form would refuse, else nothing: a complete line goes to the summary;
        otherwise the fields not on it are asked as in a first pass, and the values a field on it lacks."""
        try:
            raw = split_assignments(self.game, [*self.base, *words], strict=True, bid=len(self.base))
        except HandError as exc:
            return [shown(line) for line in exc.problems or [exc.message]]
        try:
            __, missing = type_hand(self.game, raw, active_players(self.game, self.state), self.state)
        except UserError:
            missing = []          # refused when the hand is scored: its message, then its fields asked
        self.answers = {k: (list(v) if isinstance(v, list) else v) for k, v in raw.values.items()}
        self.keep = set(self.rs.fields) if not missing else set(raw.values)
        self._known = set(self.keep)
        self.asked = not missing
        self._restart()
        return []

    def ask(self, names: Sequence[str], only: dict[str, set[int]] | None = None, fixing: bool = False) -> None:
        """Ask just these fields, in this order, then stop (`question` gives None after them)."""
        self._restart()
        self._pass = _Pass(list(names), dict(only or {}), fixing, hold=True)

    def fix(self, name: str) -> None:
        """Ask one field again (chosen at the summary), then score the hand again."""
        self._restart()
        self._pass = _Pass([name], {}, fixing=True)

    def rebase(self, state: State, hand_no: int | None) -> None:
        """The game moved on meanwhile (a hand typed elsewhere): the answers stay and are checked
        and scored again against the game as it stands."""
        self.state, self.hand_no = state, hand_no
        self._given_typed = None   # typed against the state before
        self._restart()

    def fields_shown(self) -> list[str]:
        """The fields that apply to this hand as typed: those the summary shows and `fix` may ask."""
        return [f for f in self.rs.fields if self.applies(self.rs.fields[f])]

    def help_line(self, q: Question) -> str:
        """`?` at a question: the field's name and its help in the language shown."""
        return f"{q.label}: {q.help}"

    # ------------------------------------------------------------------ the result
    def raw(self, full: bool = False) -> RawHand:
        """The answers as RawHand, with the assignments a person would have typed for them
        (values equal to the field's default left out, unless `full`)."""
        values = {name: self.answers[name] for name in self.rs.fields if self.answers.get(name) is not None}
        return RawHand(values, typed_assignments(self.game, values, skip_defaults=not full))

    def as_given(self) -> Outcome:
        """The hand as the command line (and the bid written down) gave it, with nothing asked: its typed
        text kept as typed, scored against the game's state; HandError (every value missing named) as
        `hand` refuses it."""
        if self.state["finished"]:
            raise UserError(_('this game has ended and takes no more hands (undo or edit still work)'))
        hand = whole_hand(self.game, self.state, self.given, self._given_typed)   # typed once, in next_hand
        return Outcome(self.given, hand, apply_hand(own_game(self.game), self.state, hand))

    def score(self) -> Outcome:
        """The answers typed and scored against the game's state; HandError says what to fix."""
        if self.state["finished"]:
            raise UserError(_('this game has ended and takes no more hands (undo or edit still work)'))
        raw = self.raw()
        self._refused, self._seats, self._missing = [], {}, False
        hand, missing = type_hand(self.game, raw, active_players(self.game, self.state), self.state)
        if missing:
            self._missing = True
            sentences = missing_sentence(self.game, missing)
            self._refused = list(dict.fromkeys(m.field for m in missing))
            for m in missing:
                if m.who is not None:
                    self._seats.setdefault(m.field, set()).add(m.who)
            raise HandError(sentences[0], sentences)
        problems = copies_problems(self.game, hand)
        if problems:
            self._refused = [f for f, d in self.rs.fields.items() if d.type == "cards"]
            raise HandError(problems[0], problems)
        return Outcome(raw, hand, apply_hand(own_game(self.game), self.state, hand))

    def title(self) -> str:
        """`Hand 3, as read:`"""
        title = _("Hand {n}").format(n=self.hand_no) if self.hand_no else _("The hand")
        return _("{title}, as read:").format(title=title)

    def summary(self) -> list[str]:
        """The fields that apply, each on a line in the language shown, exactly as they are stored."""
        hand = self._outcome.hand if self._outcome is not None else self.typed_values()
        return summary_lines(self.game, hand, set(self.fields_shown()))

    def bid_summary(self) -> list[str]:
        """The bids as read, each player's by name (a bidding field that does not apply under the game's
        options, Spades' blind bid while blind bids are off, is not said)."""
        bids, __ = type_bids(self.game, self.raw(), active_players(self.game, self.state), self.state)
        return summary_lines(self.game, bids, [n for n, f in self.rs.fields.items()
                                               if f.bidding and field_applies(self.game, f, bids, self.state)])

    # ------------------------------------------------------------------ the passes
    def _restart(self) -> None:
        self._pass, self._current, self._outcome = None, None, None
        self._held = self._idle = False

    def _note(self, text: str, kind: Literal["worked", "info", "problem"]) -> None:
        self._notes.append(Note(text.strip(), kind))

    def _first_pass(self) -> None:
        """What was not given beforehand (`bob.bid=0` typed: the others' bids in their turn); in
        "bids" mode the bidding fields, each player's again (a bid written down before in brackets);
        in "edit" mode every field, every player."""
        partly = {} if self.mode in ("edit", "bids") else self.partly_typed()
        names = [f for f in self.rs.question_order
                 if (f not in self.keep or f in partly) and (self.mode != "bids" or self.rs.fields[f].bidding)]
        self._pass = _Pass(names, partly, fixing=False, first=True)

    def _end_pass(self) -> None:
        p = self._pass
        assert p is not None
        self._pass = None
        self.asked = self.asked or p.first
        self._held = p.hold
        self._idle = p.fixing and not p.posed

    def _settle(self) -> None:
        """Score the answers; while something is missing or a check fails, ask its fields again."""
        try:
            self._outcome = self.score()
        except HandError as exc:
            if self._idle:
                raise     # asked again, and nothing could be asked: the refusal stands
            kind: Literal["info", "problem"] = "info" if self._missing else "problem"
            for line in exc.problems or [exc.message]:
                self._note(shown(line), kind)   # a value not typed yet is asked now, not refused
            self._pass = _Pass(self.fields_to_fix(exc), dict(self._seats), fixing=True)

    def _walk(self) -> None:
        """Go on through the pass under way to its next question, or to its end."""
        p = self._pass
        assert p is not None
        while p.i < len(p.names):
            fdef = self.rs.fields[p.names[p.i]]
            if p.row is None and self._skipped(fdef, p):
                p.i += 1
                continue
            if fdef.scope == "hand":
                if self._pose_hand(fdef, p):
                    return
                self._field_done(fdef, p, asked=False)     # worked out: shown, not asked
                continue
            if p.row is None:
                p.row = self._start_row(fdef, p)
            if self._pose_seat(fdef, p):
                return
            self._field_done(fdef, p, asked=p.row.answered)
        self._end_pass()

    def _skipped(self, fdef: FieldDef, p: _Pass) -> bool:
        if not self.applies(fdef):
            self.answers.pop(fdef.name, None)
            return True
        return not p.fixing and (self.not_needed(fdef) or self.forbidden(fdef))

    def _field_done(self, fdef: FieldDef, p: _Pass, asked: bool) -> None:
        """A field asked (or filled in): its checks that can run now refuse it, or the pass goes on."""
        if p.row is not None:
            self._finish_row(fdef, p)
            p.row = None
        self._known.add(fdef.name)
        if asked and not p.fixing:
            problems = self.refused_now(fdef)
            if problems:
                self._refusals += problems    # the same field again: a rule refuses it from what is typed so far
                return
        if asked:
            p.history.append(p.i)
        p.i += 1

    def _accept(self, value: str | list[str | None] | None) -> Reply:
        p, q = self._pass, self._current
        assert p is not None and q is not None
        fdef = self.rs.fields[q.field]
        self._current = None
        if p.row is None:
            if value is None:
                self.answers.pop(fdef.name, None)
            else:
                self.answers[fdef.name] = value
            self._field_done(fdef, p, asked=True)
        elif isinstance(value, list):       # the whole row on one line
            p.row.values[:] = value
            p.row.j, p.row.answered = len(p.row.seats), True
        else:
            row = p.row
            row.values[row.seats[row.j]] = value
            refused = (self.refused_at(fdef, row.values, row.seats, row.j)
                       if value is not None and not p.fixing else [])
            if refused:
                row.values[row.seats[row.j]] = None     # asked again, without the refused value as default
                self._refusals += refused
            else:
                row.asked.append(row.j)
                row.j, row.answered = row.j + 1, True
        self._walk()
        problems, self._refusals = self._refusals, []
        return Reply([shown(line) for line in problems])   # a rule's sentence in the language shown, as `hand` says it

    # ------------------------------------------------------------------ questions
    def _pose(self, fdef: FieldDef, seat: int | None, who: str | None, default: tuple[str | None, str],
              legal: bool, row_order: Sequence[str], p: _Pass) -> None:
        shown_default = default[0]
        if shown_default is None and fdef.optional:
            shown_default = "-"
        question = Question(
            field=fdef.name, label=field_label(self.rs, fdef.name), who=who, seat=seat, legal="",
            show_legal=legal, default=self.in_language(fdef, shown_default) if shown_default is not None else None,
            help="", candidates=tuple(field_candidates(self.game, fdef, self.state)), row_order=tuple(row_order))
        described = question_legal(self.game, fdef, self.state, room=LINE - len(question.text))
        self._current = replace(question, legal=described, help=fdef.help or describe_field(self.game, fdef, self.state))
        self._default = default
        self._may_wait = not p.fixing and (fdef.default_from is not None or fdef.total is not None)
        p.posed = True

    def _pose_hand(self, fdef: FieldDef, p: _Pass) -> bool:
        default = self.default_text(fdef, None)
        if default[1] == "worked" and not p.fixing:
            self._note(_("{name} = {value} (follows from what is typed)").format(
                           name=field_label(self.rs, fdef.name), value=default[0]), "worked")
            return False
        self._pose(fdef, None, None, default, True, (), p)
        return True

    def _start_row(self, fdef: FieldDef, p: _Pass) -> _Row:
        names = self.who_names(fdef)
        values: list[str | None] = list(self.answers.get(fdef.name) or [None] * len(names))
        self.answers[fdef.name] = values
        return _Row(fdef, names, self.turn(fdef, p.only.get(fdef.name)), values)

    def _pose_seat(self, fdef: FieldDef, p: _Pass) -> bool:
        """The next player (side) of the row to ask; the values that follow are filled in on the way."""
        row = p.row
        assert row is not None
        whole_allowed = fdef.name not in p.only and fdef.type != "combos"
        if row.j == 0 and not row.asked and fdef.name not in p.only and self.picks_one(fdef, row):
            self._pose_pick(fdef, row, p)
            return True
        while row.j < len(row.seats):
            i = row.seats[row.j]
            if self._filled_in(fdef, row, i, p):
                row.j += 1
                continue
            order = [row.names[k] for k in row.seats] if whole_allowed and not row.asked else []
            self._pose(fdef, i, row.names[i], self.default_text(fdef, i), not row.asked, order, p)
            return True
        return False

    def _filled_in(self, fdef: FieldDef, row: _Row, i: int, p: _Pass) -> bool:
        """The last value of a row with a total (whatever it was), or a value that follows from the
        answers so far: filled in, and said, not asked."""
        name = field_label(self.rs, fdef.name)
        if row.j == len(row.seats) - 1 and row.j > 0 and fdef.total is not None and fdef.name not in p.only:
            filled = self.fill(fdef, [None if k == i else v for k, v in enumerate(row.values)])
            if filled is not None:
                row.values[i] = filled
                self._note(_("{value}: {name} = {filled} (the rest of the total)").format(
                               value=row.names[i], name=name, filled=filled), "worked")
                return True
        if row.values[i] is None and not p.fixing and self.forbidden_at(fdef, i):
            self._note(_("{value}: {name} = {filled} (follows from what is typed)").format(
                           value=row.names[i], name=name, filled="-"), "worked")
            return True
        if row.values[i] is None and not p.fixing and self.listed(fdef, i):
            given = self.from_list(fdef, i)
            if given is not None:        # the counts the list leaves at none are not said, one by one
                self._note(_("{value}: {name} = {filled} (follows from what is typed)").format(
                               value=row.names[i], name=name, filled=given), "worked")
            return True
        if row.values[i] is None and not p.fixing:
            worked = self.worked_out(fdef, i)
            if worked is not None:
                row.values[i] = worked
                self._note(_("{value}: {name} = {filled} (follows from what is typed)").format(
                               value=row.names[i], name=name, filled=worked), "worked")
                return True
        return False

    def picks_one(self, fdef: FieldDef, row: _Row) -> bool:
        """A yes/no of each player that the rules let at most one player have (1000's four nines: the
        deck has four nines): asked once, as who has it. Found by trial: a check of this field alone
        refuses it for two players and takes it for one."""
        if fdef.scope != "player" or fdef.type != "bool" or fdef.bidding or fdef.default is not False:
            return False
        checks = [c for c in self.rs.checks if check_field_names(self.game, c) == {fdef.name}]
        if len(row.seats) < 2 or not checks:
            return False
        saved = list(row.values)
        try:
            row.values[:] = [None] * len(row.values)
            row.values[row.seats[0]] = "yes"
            one = self.problems_so_far(checks)
            row.values[row.seats[1]] = "yes"
            two = self.problems_so_far(checks)
        finally:
            row.values[:] = saved
        return not one and bool(two)

    def _pose_pick(self, fdef: FieldDef, row: _Row, p: _Pass) -> None:
        """`nines (a player: ann, bob, cat) [-]: `: the player who has it, - for nobody."""
        names = [row.names[i] for i in row.seats]
        has = [row.names[i] for i in row.seats if self._yes(fdef, row, i)]
        self._pose(fdef, None, None, (has[0] if has else None, "typed" if has else "none"), True, (), p)
        assert self._current is not None
        legal = _("a player: {names}").format(names=", ".join(names)) + ", " + _("or - for none")
        self._current = replace(self._current, legal=legal, default=has[0] if has else "-",
                                candidates=tuple(names), pick=True)

    def _yes(self, fdef: FieldDef, row: _Row, i: int) -> bool:
        text = row.values[i]
        if text is None:
            return False
        try:
            return bool(convert(self.game, fdef, text, row.names[i], self.state)[0])
        except UserError:
            return False

    def _picked(self, q: Question, text: str) -> Reply:
        """The answer to a pick: the row gets yes for that player and no value (no) for the others."""
        p = self._pass
        assert p is not None and p.row is not None
        row = p.row
        if text == "":
            text = q.default or "-"
        who: int | None = None
        if text != "-" and text.lower() not in NO_WORDS:
            try:
                who = resolve_who(self.game, text, "player")
            except UserError as exc:
                return Reply([shown(exc.message)], not_a_value=True)
            if who not in row.seats:
                return Reply([_("{text} is not a player ({names})").format(
                    text=repr(text), names=", ".join(q.candidates))], not_a_value=True)
        for i in row.seats:
            row.values[i] = "yes" if i == who else None
        return self._accept(list(row.values))

    def _finish_row(self, fdef: FieldDef, p: _Pass) -> None:
        row = p.row
        assert row is not None
        if fdef.total is not None and fdef.name not in p.only:
            self.fill_last(fdef, row.values)
        if all(v is None for v in row.values):
            self.answers.pop(fdef.name, None)

    # ------------------------------------------------------------------ fields
    def typed_values(self) -> dict[str, Any]:
        """The values answered so far, converted (what `applies_if` and totals are evaluated on)."""
        out: dict[str, Any] = {}
        for name, text in self.answers.items():
            fdef = self.rs.fields.get(name)
            if fdef is None or text is None:
                continue
            try:
                if fdef.scope == "hand":
                    value, parts = convert(self.game, fdef, text, None, self.state)
                    out[name] = value
                    if parts is not None:
                        out[f"_{name}_parts"] = parts
                else:
                    who = self.who_names(fdef)
                    out[name] = [convert(self.game, fdef, t, who[i], self.state)[0] if t is not None else None
                                 for i, t in enumerate(text)]
            except UserError:
                continue
        return out

    def applies(self, fdef: FieldDef) -> bool:
        return field_applies(self.game, fdef, self.typed_values(), self.state)

    def who_names(self, fdef: FieldDef) -> list[str]:
        return list(self.game.players) if fdef.scope == "player" else [s.name for s in self.game.sides]

    def who_active(self, fdef: FieldDef) -> list[bool]:
        active = active_players(self.game, self.state)
        if fdef.scope == "player":
            return active
        return [any(active[j] for j in side.members) for side in self.game.sides]

    def turn(self, fdef: FieldDef, only: Collection[int] | None = None) -> list[int]:
        """The players (sides) a per-player (per-side) field is asked of, in the order asked: those who
        play this hand, in asking_order, narrowed to `only` when given."""
        active = self.who_active(fdef)
        return [i for i in asking_order(self.game, fdef, self.state) if active[i] and (only is None or i in only)]

    def partly_typed(self) -> dict[str, set[int]]:
        """The per-player or per-side fields typed for some of the players (or sides) who play this hand
        and not for others: the seats still to ask."""
        out: dict[str, set[int]] = {}
        for name, value in self.answers.items():
            fdef = self.rs.fields.get(name)
            if fdef is None or fdef.scope == "hand" or not isinstance(value, list):
                continue
            active = self.who_active(fdef)
            missing = {i for i, v in enumerate(value) if v is None and i < len(active) and active[i]}
            if missing and len(missing) < sum(active):
                out[name] = missing
        return out

    def fields_to_fix(self, exc: HandError) -> list[str]:
        """The fields a failed check uses (those the person can change), in the ruleset's order;
        every field that applies when the problem names no check."""
        if self._refused:
            return list(self._refused)
        checks = {c.id: c for c in self.rs.checks}
        used: set[str] = set()
        for cid in exc.checks:
            if cid in checks:
                used |= check_field_names(self.game, checks[cid])
        if not exc.checks:  # a problem of typing (a total, a value that follows from others): its fields
            text = " ".join(exc.problems or [exc.message])
            used = {f for f in self.rs.fields if re.search(rf"\b{re.escape(f)}\b", text)}
        fields = [f for f in self.rs.fields if f in used and self.applies(self.rs.fields[f])]
        return fields or self.fields_shown()

    def not_needed(self, fdef: FieldDef) -> bool:
        """A required field that earlier answers made unnecessary (its required_if is false, it has no
        default and nothing is typed for it): not asked, as the argument form does not ask it either."""
        if (fdef.required_if is None or fdef.optional or fdef.default is not None
                or self.answers.get(fdef.name) is not None):
            return False
        return not field_required(self.game, fdef, self.typed_values(), self.state)

    def forbidden(self, fdef: FieldDef) -> bool:
        """An optional field the answers so far leave no room for: a rule that already applies to what
        is typed (the optional fields not yet answered counting as not typed) passes without it and
        refuses every value tried in it (Pope Joan: a turn-up that ends the round, so nobody played an
        honour and no card is left). Not asked, as the argument form takes the hand without it."""
        if not fdef.optional or self.answers.get(fdef.name) is not None:
            return False
        samples = _samples(self.game, fdef)
        empty = {name for name, f in self.rs.fields.items() if f.optional and self.answers.get(name) is None}
        checks = [c for c in checks_on(self.game, self._known | empty) if fdef.name in check_field_names(self.game, c)]
        if not samples or not checks:
            return False
        try:
            if fdef.scope == "hand":
                return self._refuses_every(fdef, samples, checks)
            self.answers[fdef.name] = [None] * len(self.who_names(fdef))   # every player's place, in turn
            try:
                return all(self._refuses_every(fdef, samples, checks, seat) for seat in self.turn(fdef))
            finally:
                self.answers.pop(fdef.name, None)
        except UserError:
            return False

    def _refuses_every(self, fdef: FieldDef, samples: Sequence[str], checks: list[Check],
                       seat: int | None = None) -> bool:
        """Whether the checks that pass without a value here refuse every sample tried in its place
        (at `seat` of a per-player row under way, else the field's first place). A check that fails
        anyway (the cards not typed yet for the others) has no say."""
        active = active_players(self.game, self.state)
        row = self.answers.get(fdef.name) if seat is not None else None
        seats = 1 if fdef.scope == "hand" else len(self.who_names(fdef))
        without, __ = type_hand(self.game, self.raw(), active, self.state)
        checks = checks_in_force(self.game, self.state, without, checks)   # they apply to what is typed
        checks = [c for c in checks if not run_checks_on(self.game, self.state, without, [c])]
        if not checks:
            return False
        for one in samples:
            if isinstance(row, list) and seat is not None:
                saved, row[seat] = row[seat], one
            else:
                self.answers[fdef.name] = one if fdef.scope == "hand" else [one, *[None] * (seats - 1)]
            try:
                trial, __ = type_hand(self.game, self.raw(), active, self.state)
            finally:
                if isinstance(row, list) and seat is not None:
                    row[seat] = saved
                else:
                    self.answers.pop(fdef.name, None)
            if not run_checks_on(self.game, self.state, trial, checks):
                return False      # a value the rules take: the field is asked
        return True

    def forbidden_at(self, fdef: FieldDef, seat: int) -> bool:
        """An optional per-player (per-side) field whose value for this player the answers so far leave
        no room for: a rule that passes without it refuses every value tried there (Skid: the cards of
        the player who went out). Its value follows (none, no cards): shown, not asked. Only for a
        field whose value left out is no value at all (cards, a player, a side): a number left out
        is no number, and the one a rule leaves may be any."""
        row = self.answers.get(fdef.name)
        if (not fdef.optional or fdef.type not in ("cards", "player", "side") or not isinstance(row, list)
                or row[seat] is not None):
            return False
        samples = _samples(self.game, fdef)
        empty = {name for name, f in self.rs.fields.items() if f.optional and self.answers.get(name) is None}
        checks = [c for c in checks_on(self.game, self._known | empty | {fdef.name})
                  if fdef.name in check_field_names(self.game, c)]
        if not samples or not checks:
            return False
        try:
            return self._refuses_every(fdef, samples, checks, seat)
        except UserError:
            return False

    def refused_now(self, fdef: FieldDef) -> list[str]:
        """What the checks that need only the fields typed so far and use this one refuse. (The bids
        alone can break a rule: a redouble where none is allowed, the dealer's bid.)"""
        checks = self.checks_using(fdef)
        return self.problems_so_far(checks) if checks else []

    def checks_using(self, fdef: FieldDef) -> list[Check]:
        """The checks that use this field and need no field not typed or asked yet."""
        known = self._known | {fdef.name}
        return [c for c in checks_on(self.game, known) if fdef.name in check_field_names(self.game, c)]

    def problems_so_far(self, checks: Sequence[Check]) -> list[str]:
        """What these checks say of the hand as typed so far. A value not typed (yet) is no value: not
        the 0 or empty placeholder a hand's missing value gets (two tricks left blank do not make the
        tricks add up to 8), so a check that reads it says nothing until the hand is scored."""
        try:
            hand, missing = type_hand(self.game, self.raw(), active_players(self.game, self.state), self.state)
            for m in missing:
                if m.who is None:
                    hand[m.field] = None
                else:
                    hand[m.field][m.who] = None
            return run_checks_on(self.game, self.state, hand, checks)
        except UserError:
            return []          # the whole hand is checked when it is scored

    def refused_at(self, fdef: FieldDef, row: list[str | None], seats: Sequence[int], j: int) -> list[str]:
        """The value just typed for seats[j], player by player: refused where it is typed when a rule of
        each player (each side, for a side's field) is broken by it (a blind nil while not 200 behind),
        the seats still to be asked counting as not typed; the rule's sentences. A rule of the whole
        hand is checked when the row is complete: at the last bid of a bidding field, asked in the turn
        of the table, it refuses that bid (the dealer bids last and may not make the bids add up to the
        tricks); for any other field the row is asked again."""
        last_bid = fdef.bidding and j == len(seats) - 1 and j > 0
        checks = [c for c in self.checks_using(fdef) if c.per == fdef.scope or (last_bid and c.per == "hand")]
        if not checks:
            return []
        saved = list(row)
        try:
            for k in seats[j + 1:]:
                row[k] = None
            with_it = self.problems_so_far(checks)
            row[seats[j]] = None
            without = self.problems_so_far(checks) if with_it else []
        finally:
            row[:] = saved
        return [line for line in with_it if line not in without]

    def default_text(self, fdef: FieldDef, who: int | None) -> tuple[str | None, str]:
        """The default an empty answer keeps and where it comes from: "typed" (an answer given before),
        "worked" (it follows from typed values), "ruleset" (the field's default) or "none"."""
        answer = self.answers.get(fdef.name)
        if who is not None and isinstance(answer, list):
            answer = answer[who]
        if answer is not None:
            return str(answer), "typed"
        worked = self.worked_out(fdef, who)
        if worked is not None:
            return worked, "worked"
        if fdef.default is not None:
            return value_text(fdef.default), "ruleset"
        return None, "none"

    def worked_out(self, fdef: FieldDef, who: int | None) -> str | None:
        """The value that follows from the answers so far (default_from, a total's rest), if any."""
        if fdef.default_from is None and fdef.total is None:
            return None
        raw = self.raw()
        try:
            hand, __ = type_hand(self.game, raw, active_players(self.game, self.state), self.state)
        except UserError:
            return None
        prefix = f"{fdef.name}=" if who is None else f"{self.who_names(fdef)[who]}.{fdef.name}="
        if not any(w.startswith(prefix) for w in raw.worked_out):
            return None
        value = hand.get(fdef.name) if who is None else hand.get(fdef.name, [None] * (who + 1))[who]
        return value_text(value) if value is not None else None

    def listed(self, fdef: FieldDef, who: int) -> bool:
        """Whether a list of combinations typed for this player (side) sets this field: a count or the
        points of a combination it has codes for (Pinochle's aces, Piquet's sequences). The list is
        the whole call, so the field follows from it, none where the list names no such combination."""
        for cdef in self.rs.fields.values():
            if cdef.type != "combos" or cdef.scope != fdef.scope:
                continue
            if fdef.name != cdef.rest and all(c.field != fdef.name for c in cdef.combos.values()):
                continue
            typed = self.answers.get(cdef.name)
            if isinstance(typed, list) and who < len(typed) and typed[who] is not None:
                return True
        return False

    def from_list(self, fdef: FieldDef, who: int) -> str | None:
        """The value a typed list of combinations gives this field for this player, as the hand is read
        (`4A p`: aces 1, pinochles 1); None where it is the field's default (none) or cannot be read yet."""
        try:
            hand, __ = type_hand(self.game, self.raw(), active_players(self.game, self.state), self.state)
        except UserError:
            return None
        values = hand.get(fdef.name)
        value = values[who] if isinstance(values, list) and who < len(values) else None
        return None if value is None or value == fdef.default else value_text(value)

    def in_language(self, fdef: FieldDef, text: str) -> str:
        """A default as the language shown writes it where the value has a word there (`[ні]` for no at
        the Ukrainian prompt), when that word reads back as the same value; else as it is."""
        try:
            value, __ = convert(self.game, fdef, text, None, self.state)
            word = value_shown(self.rs, fdef, value)
            if word is None or word == text or convert(self.game, fdef, word, None, self.state)[0] != value:
                return text
        except UserError:
            return text
        return word

    # ------------------------------------------------------------------ rows
    def whole_row(self, fdef: FieldDef, names: list[str], seats: list[int], text: str) -> Any:
        """'4,3,3,3' (cards: 'QS 10H/-/A 7'): a value per playing seat, one fewer where a total fills
        the last; the row, or a Reply with its problems. An answer that is one legal value for the
        player asked is that player's (SINGLE): a list of one player's (marriages `H,C,D`) is never
        spread over the others."""
        sep = "/" if fdef.type == "cards" else ","
        if sep not in text:
            return SINGLE
        try:
            convert(self.game, fdef, text, names[seats[0]], self.state)
            return SINGLE
        except UserError:
            pass
        items = [t.strip() for t in text.split(sep)]
        row: list[str | None] = [None] * len(names)
        short = len(items) == len(seats) - 1 and fdef.total is not None and len(seats) > 1
        if not short and len(items) != len(seats):
            who = ", ".join(names[i] for i in seats)
            return Reply([_("  {name} needs {n} values, one each for {who}; got {n2}").format(
                              name=field_label(self.rs, fdef.name), n=len(seats), who=who, n2=len(items)).strip()])
        for i, t in zip(seats, items, strict=False):
            row[i] = t
        problems = self._row_problems(fdef, names, row)
        if problems:
            return Reply(problems)
        if short:
            filled = self.fill(fdef, row)
            if filled is None:
                return Reply([_("  the last value of {name} cannot be filled in from the total").format(
                                  name=field_label(self.rs, fdef.name)).strip()])
            row[seats[-1]] = filled
            self._note(_("{value}: {name} = {filled} (the rest of the total)").format(
                           value=names[seats[-1]], name=field_label(self.rs, fdef.name), filled=filled), "worked")
        if seats != sorted(seats):   # asked from the dealer's left: said back as read, to be seen
            self._note(_("  read as {values}").format(values=", ".join(f"{names[i]} {row[i]}" for i in seats)), "info")
        return row

    def _row_problems(self, fdef: FieldDef, names: list[str], row: list[str | None]) -> list[str]:
        problems = []
        for i, t in enumerate(row):
            if t is None:
                continue
            try:
                convert(self.game, fdef, t, names[i], self.state)
            except UserError as exc:
                problems.append(shown(exc.message))
        return problems

    def fill_last(self, fdef: FieldDef, row: list[str | None]) -> None:
        """One value of a row with a total left out: fill it in and say so."""
        filled = self.fill(fdef, row)
        if filled is None:
            return
        gap = next(i for i, t in enumerate(row) if t is None and self.who_active(fdef)[i])
        row[gap] = filled
        self._note(_("{value}: {name} = {filled} (the rest of the total)").format(
                       value=self.who_names(fdef)[gap], name=field_label(self.rs, fdef.name), filled=filled), "worked")

    def fill(self, fdef: FieldDef, row: list[str | None]) -> str | None:
        """The one value of a row with a declared total left out, as text; None when it cannot be filled."""
        names = self.who_names(fdef)
        active = self.who_active(fdef)
        if sum(1 for i, t in enumerate(row) if t is None and active[i]) != 1:
            return None
        values: list[Any] = []
        for i, t in enumerate(row):
            try:
                values.append(convert(self.game, fdef, t, names[i], self.state)[0] if t is not None else None)
            except UserError:
                return None
        out = fill_total(self.game, fdef, values, active, self.typed_values(), self.state)
        if out is None:
            return None
        missing = [i for i, t in enumerate(row) if t is None and active[i]]
        return value_text(out[missing[0]])


def _samples(game: Game, fdef: FieldDef) -> list[str]:
    """The values to try whether the rules leave room for any: every player, side, word or yes/no;
    for a number, 1 and 2 (a count where the rules want none; an odd and an even one); for a pattern,
    its words. Empty: not tried."""
    if fdef.type == "player":
        return list(game.players)
    if fdef.type == "side":
        return [s.name for s in game.sides]
    if fdef.type == "bool":
        return ["yes", "no"]
    if fdef.type == "word" and fdef.values:
        return [str(v) for v in fdef.values]
    if fdef.type in ("int", "number"):
        return ["1", "2"]
    if fdef.type == "cards":         # a low and a high card of the deck (a rule that wants none refuses both)
        ranks = game.ruleset.deck.ranks
        return [f"{ranks[0]}H", f"{ranks[-1]}C"] if ranks else []
    if fdef.type == "pattern":       # a word of each value it stands for (bridge's result: made)
        firsts: dict[str, str] = {}
        for word, value in fdef.words.items():
            firsts.setdefault(str(value), str(word))
        return list(firsts.values())
    return []


def summary_lines(game: Game, hand: Hand, shown: Collection[str] | None = None) -> list[str]:
    """One line per field with a value (of those `shown`): `bid: ann 4, bob 3` or `contract: 4HX`,
    the field and its words in the language shown (`trumbitegija: pole`, `jack: ні`)."""
    rs = game.ruleset
    lines = []

    def said(fdef: FieldDef, value: Any) -> str:
        if isinstance(value, (list, tuple)) and fdef.type == "cards":   # Д♠ 10♥ in Russian, QS 10H in English
            return " ".join(card_shown(c) if isinstance(c, str) else str(c) for c in value) or "-"
        if isinstance(value, list):
            return value_text(value)
        return value_shown(rs, fdef, value) or format_value(value)

    for name, fdef in rs.fields.items():
        if shown is not None and name not in shown:
            continue
        value = hand.get(name)
        if fdef.scope == "hand":
            if value is not None:
                lines.append(f"{field_label(rs, name)}: {said(fdef, value)}")
            continue
        if value is None or all(v is None for v in value):
            continue
        who = list(game.players) if fdef.scope == "player" else [s.name for s in game.sides]
        parts = [f"{who[i]} {said(fdef, v)}" for i, v in enumerate(value) if v is not None]
        lines.append(f"{field_label(rs, name)}: {', '.join(parts)}")
    return lines
