"""Typing one hand at the table, the way `hledger add` takes a transaction.

Every field that applies to this hand is asked in the ruleset's question order (Ruleset.question_order:
the bids first, each field after the fields that decide whether and how it is asked), with its legal
values in parentheses and its default in brackets (Enter keeps it); `<` steps back one question, `?`
shows the field's name and help in the language shown. A value is checked as it is typed and only
that question is asked again. Per-player and per-side fields are asked player by player ("ann: bid
(0-13):"), a bidding field from the dealer's left round to the dealer (asking_order), or take the
whole row, in the order asked, on the first question ("4,3,3,3"); at one player's question an
answer that is one legal value for that player is that player's (1000's marriages `H,C,D` are never
spread over the others). Where a ruleset declares a total, the last value is filled in and shown; a
value that follows from typed ones (a count from combinations) is shown, not asked, and Enter at a
field that may still follow from later answers leaves it to them. The checks that need only the
fields typed so far run as soon as those are typed (a bid the rules refuse is refused at the bid).

A line of FIELD=VALUE assignments typed at any question replaces the hand's typed values as a
whole, read as the argument form reads it. After the last field the hand is scored; a check that
fails shows its message and asks again only the fields it uses, with what was typed as defaults; a
value missing for some players asks only those players. Nothing is stored here: the caller stores
the outcome after "Record? [Y/n/e]" (the letters of the language: scorepad/table/answers.py), whose
summary is exactly what is stored. Ctrl-C, Ctrl-D, "n", or `quit` typed where it is no value of the
field raise `Cancelled`; the other commands of `play` typed at a question say how to get to them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from scorepad.engine.assignments import (
    RawHand,
    asking_order,
    assignment_words,
    check_field_names,
    checks_on,
    convert,
    copies_problems,
    describe_field,
    field_applies,
    field_label,
    field_required,
    fill_total,
    looks_like_assignments,
    missing_sentence,
    split_assignments,
    type_hand,
    typed_assignments,
    value_shown,
    value_text,
)
from scorepad.engine.assignments import (
    field_candidates as candidates,
)
from scorepad.engine.game import Game, Hand, HandResult, State, active_players, checks_in_force, run_checks_on
from scorepad.engine.scoring import apply_hand
from scorepad.errors import HandError, UserError
from scorepad.locale import _, current, shown
from scorepad.rules.model import Check, FieldDef
from scorepad.rules.values import format_value
from scorepad.table import answers
from scorepad.table.commands import command
from scorepad.table.console import Console
from scorepad.text.render import num

BACK = "<"
HELP = "?"
SINGLE = object()  # an answer with commas that is one value, not a row of values
# Typed at a question where it is no value of the field: `quit` (or `exit`, or the language's word,
# commands.py) leaves the hand unrecorded; the other commands of `play` are refused with a sentence
# that says how to get to them


def leaves(text: str) -> bool:
    """Whether an answer is `quit` (`exit`, or the language's word for it): the hand is left unrecorded.
    `q` alone is a letter a value may start with, so it does not leave a question."""
    return text.strip().lower() != "q" and command(text, current()) == "quit"


class Retyped(Exception):
    """A line of FIELD=VALUE assignments was typed at a question: it replaced the hand's typed values
    as a whole, so the questions of the pass under way no longer apply."""


class Cancelled(Exception):
    """The person stopped typing the hand (Ctrl-C, Ctrl-D, or "n" at Record?): nothing is stored.
    `interrupted` tells Ctrl-C/Ctrl-D (exit status 130) from a plain "n"."""

    def __init__(self, interrupted: bool = True) -> None:
        super().__init__("nothing was stored")
        self.interrupted = interrupted


@dataclass
class Outcome:
    """A hand as the prompt read it: the typed text, the typed values, and how it scores."""

    raw: RawHand
    hand: Hand
    result: HandResult


class HandPrompt:
    """The questions for one hand. `given` holds values typed beforehand (on the command line, or
    the bid written down before the play); the fields in `keep` are not asked in the first pass
    (their values stand unless a check or the person sends the prompt back to them)."""

    def __init__(self, game: Game, state: State, console: Console, given: RawHand | None = None,
                 keep: Collection[str] = (), hand_no: int | None = None, base: Sequence[str] = ()) -> None:
        self.game = game
        self.base = list(base)   # the bid written down before, which a retyped line completes
        self.state = state
        self.console = console
        self.rs = game.ruleset
        self.answers: dict[str, Any] = {k: (list(v) if isinstance(v, list) else v)
                                        for k, v in (given.values if given else {}).items()}
        self.keep = set(keep)
        self.hand_no = hand_no
        self.asked = False
        self._refused: list[str] = []   # the fields to ask again when typing the hand failed
        self._known: set[str] = set(self.keep)   # fields typed or asked so far (their checks can run)
        self._seats: dict[str, set[int]] = {}   # of those, the players/sides whose value is missing
        self._missing = False                    # it failed only because values are not typed yet

    # ------------------------------------------------------------------ the whole hand
    def run(self) -> Outcome:
        """Ask, score, fix, summarise, confirm. Call again after `state` changed (a hand typed
        elsewhere meanwhile): the answers stay and are checked against the new state."""
        try:
            while True:
                try:
                    return self._run_once()
                except Retyped:
                    continue
        except (KeyboardInterrupt, EOFError):
            raise Cancelled() from None

    def _run_once(self) -> Outcome:
        if not self.asked:
            partly = self.partly_typed()   # `bob.bid=0` typed: the other bids are asked in their turn, first
            self.ask_fields([f for f in self.rs.question_order if f not in self.keep or f in partly], partly)
            self.asked = True
        while True:
            outcome = self.settle()
            self.show_summary(outcome)
            choices = ("yes", "no", "edit")
            text = self._ask(answers.question(_("Record?"), choices), answers.candidates(choices))
            answer = answers.read(text, choices)
            if answer is None and leaves(text):
                raise Cancelled(interrupted=False)
            if answer == "yes":
                return outcome
            if answer == "no":
                raise Cancelled(interrupted=False)
            if answer == "edit":
                self.edit_one()
            else:
                yes, no, edit = (answers.words(c)[0] for c in choices)
                self.console.say(_("  {yes} records the hand, {no} throws it away, {edit} goes back to a field").format(
                    yes=yes, no=no, edit=edit), "dim")

    def _ask(self, question: str, cands: Sequence[str] = ()) -> str:
        """One answer; a line of assignments replaces the hand's typed values (raises Retyped), a
        line the argument form would refuse is refused here with its sentences, and asked again."""
        while True:
            text = self.console.ask(question, cands)
            if not looks_like_assignments(text):
                return text
            try:
                self.retype(assignment_words(text))
            except HandError as exc:
                for line in exc.problems or [exc.message]:
                    self.console.say(f"  {shown(line)}", "bad")

    def retype(self, words: Sequence[str]) -> None:
        """The whole hand typed again: its values replace every value typed before (the bid
        written down before stays, as on the command line)."""
        raw = split_assignments(self.game, [*self.base, *words], strict=True, bid=len(self.base))
        try:
            __, missing = type_hand(self.game, raw, active_players(self.game, self.state), self.state)
        except UserError:
            missing = []          # refused when the hand is scored: its message, then its fields asked
        self.answers = {k: (list(v) if isinstance(v, list) else v) for k, v in raw.values.items()}
        # as `hand FIELD=VALUE...` takes it: a complete line goes to the summary; otherwise the fields
        # not on it are asked as in a first pass (a whole row at the first question), and the values a
        # field on it lacks after that
        self.keep = set(self.rs.fields) if not missing else set(raw.values)
        self._known = set(self.keep)
        self.asked = not missing
        raise Retyped

    def edit_one(self) -> None:
        names = [f for f in self.rs.fields if self.applies(self.rs.fields[f])]
        while True:
            text = self._ask(_("Which field? ({value}) ").format(value=', '.join(names)), names).strip().lower()
            if not text:
                return
            hits = [n for n in names if n == text] or [n for n in names if n.startswith(text)]
            if not hits and leaves(text):
                raise Cancelled(interrupted=False)
            if len(hits) == 1:
                self.ask_fields([hits[0]], fixing=True)
                return
            self.console.say(_("  {text} is not one of {value}").format(text=repr(text), value=', '.join(names)), "bad")

    def settle(self) -> Outcome:
        """Score the answers; while something is missing or a check fails, ask its fields again."""
        while True:
            try:
                return self.score()
            except HandError as exc:
                style = "dim" if self._missing else "bad"   # a value not typed yet is asked now, not refused
                for line in exc.problems or [exc.message]:
                    self.console.say(f"  {shown(line)}", style)
                fields = self.fields_to_fix(exc)
                self.ask_fields(fields, dict(self._seats), fixing=True)

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
        return Outcome(raw, hand, apply_hand(self.game, self.state, hand))

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
        return fields or [f for f in self.rs.fields if self.applies(self.rs.fields[f])]

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

    def ask_fields(self, names: Sequence[str], only: dict[str, set[int]] | None = None, fixing: bool = False) -> None:
        """Ask these fields in order; `<` goes back to the one asked before. `only` narrows a
        per-player or per-side field to the seats named (the values that are missing). `fixing`:
        the fields are asked again because the hand was refused, so each needs its value now."""
        asked: list[int] = []
        i = 0
        while i < len(names):
            fdef = self.rs.fields[names[i]]
            if not self.applies(fdef):
                self.answers.pop(fdef.name, None)
                i += 1
                continue
            if not fixing and (self.not_needed(fdef) or self.forbidden(fdef)):
                i += 1
                continue
            step = (self.ask_field(fdef, fixing) if fdef.scope == "hand"
                    else self.ask_row(fdef, (only or {}).get(fdef.name), fixing))
            if step == BACK:
                if asked:
                    i = asked.pop()
                else:
                    self.console.say(_('  (this is the first question)'), "dim")
                continue
            self._known.add(fdef.name)
            if not fixing and self.refused_now(fdef):
                continue          # the same field again: a rule refuses it from what is typed so far
            asked.append(i)
            i += 1

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
        active = active_players(self.game, self.state)
        seats = 1 if fdef.scope == "hand" else len(self.who_names(fdef))
        try:
            without, __ = type_hand(self.game, self.raw(), active, self.state)
            checks = checks_in_force(self.game, self.state, without, checks)   # they apply to what is typed
            if not checks or run_checks_on(self.game, self.state, without, checks):
                return False
            for one in samples:
                self.answers[fdef.name] = one if fdef.scope == "hand" else [one, *[None] * (seats - 1)]
                try:
                    trial, __ = type_hand(self.game, self.raw(), active, self.state)
                finally:
                    self.answers.pop(fdef.name, None)
                if not run_checks_on(self.game, self.state, trial, checks):
                    return False      # a value the rules take: the field is asked
            return True
        except UserError:
            return False

    def refused_now(self, fdef: FieldDef) -> bool:
        """Run the checks that need only the fields typed so far and use this one; say what they
        refuse. (The bids alone can break a rule: a redouble where none is allowed, the dealer's bid.)"""
        checks = self.checks_using(fdef)
        if not checks:
            return False
        problems = self.problems_so_far(checks)
        for line in problems:
            self.console.say(f"  {line}", "bad")
        return bool(problems)

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

    def refused_at(self, fdef: FieldDef, row: list[str | None], seats: Sequence[int], j: int) -> bool:
        """The value just typed for seats[j], player by player: refused where it is typed when a rule of
        each player (each side, for a side's field) is broken by it (a blind nil while not 200 behind),
        the seats still to be asked counting as not typed. Says the rule's sentences. A rule of the whole
        hand is checked when the row is complete: at the last bid of a bidding field, asked in the turn
        of the table, it refuses that bid (the dealer bids last and may not make the bids add up to the
        tricks); for any other field the row is asked again."""
        last_bid = fdef.bidding and j == len(seats) - 1 and j > 0
        checks = [c for c in self.checks_using(fdef) if c.per == fdef.scope or (last_bid and c.per == "hand")]
        if not checks:
            return False
        saved = list(row)
        try:
            for k in seats[j + 1:]:
                row[k] = None
            with_it = self.problems_so_far(checks)
            row[seats[j]] = None
            without = self.problems_so_far(checks) if with_it else []
        finally:
            row[:] = saved
        new = [line for line in with_it if line not in without]
        for line in new:
            self.console.say(f"  {line}", "bad")
        return bool(new)

    def default_text(self, fdef: FieldDef, who: int | None) -> tuple[str | None, str]:
        """The default shown in brackets and where it comes from: "typed" (an answer given before),
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

    def question(self, label: str, fdef: FieldDef, default: str | None, legal: bool = True) -> str:
        """`label (legal values) [default]: ` — the legal values once per row of a per-player field."""
        if default is None and fdef.optional:
            default = "-"
        shown = f" [{self.in_language(fdef, default)}]" if default is not None else ""
        return f"{label} ({describe_field(self.game, fdef, self.state)}){shown}: " if legal else f"{label}{shown}: "

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

    def read(self, label: str, fdef: FieldDef, who: str | None, default: tuple[str | None, str],
             row: Any = None, legal: bool = True, may_wait: bool = False) -> Any:
        """One answer for one value, asked until it is legal: its text, BACK, or None for 'not typed'
        (the field's default applies, or a value that follows from later answers; `may_wait`).
        With `row` (a callable), an answer that is not one value is handed to it as a whole row."""
        typed_default, source = default
        while True:
            text = self._ask(self.question(label, fdef, typed_default, legal), candidates(self.game, fdef)).strip()
            if row is not None and text not in (BACK, HELP, ""):
                whole = row(text)
                if whole is SINGLE:
                    pass
                elif whole is not None:
                    return whole
                else:
                    continue
            if text == BACK:
                return BACK
            if text == HELP:
                self.show_help(fdef, row is not None)
                continue
            if text == "":
                if source in ("typed", "worked"):
                    text = typed_default or ""
                elif source == "ruleset" or fdef.optional or may_wait:
                    return None      # not typed: the default, or what later answers give, applies
                else:
                    self.console.say(_("  {label} needs a value ({value})").format(
                                         label=label, value=describe_field(self.game, fdef, self.state)), "bad")
                    continue
            if text == "-" and fdef.optional and "-" not in fdef.words and fdef.type != "cards":
                return None
            try:
                convert(self.game, fdef, text, who, self.state)
            except UserError as exc:
                word = text.split()[0].lower() if text.split() else ""
                if leaves(text):
                    raise Cancelled(interrupted=False) from None   # a value of the field would have been taken
                if command(text, current()) == "help":
                    self.show_help(fdef, row is not None)
                elif command(word, current()) is not None:
                    field = field_label(self.rs, fdef.name)
                    self.console.say(_("  {word} is not a value of {label}: record this hand first, or leave it "
                                       "with quit or Ctrl-C (nothing is stored)").format(
                                         word=repr(word), label=f"{who}.{field}" if who else field), "bad")
                else:
                    self.console.say(f"  {shown(exc.message)}", "bad")
                continue
            return text

    def show_help(self, fdef: FieldDef, row: bool) -> None:
        """`?` at a question: the field's name and help in the language shown, and the keys of the prompt."""
        self.console.say(f"  {field_label(self.rs, fdef.name)}: {fdef.help or describe_field(self.game, fdef, self.state)}",
                         "dim")
        more = ""
        if row:     # in the order asked (bids from the dealer's left): `4,3,3,3 (bob, cat, dan, ann)`
            names = self.who_names(fdef)
            more = _("; or all values at once: 4,3,3,3") + f" ({', '.join(names[i] for i in self.turn(fdef))})"
        self.console.say(_("  Enter keeps the value in [brackets]; < goes back one question{more}").format(
                             more=more), "dim")
        self.console.say(_("  quit or Ctrl-C leaves this hand; nothing is stored"), "dim")

    def may_wait(self, fdef: FieldDef, fixing: bool) -> bool:
        """May Enter leave this field to later answers? In the first pass, where it can follow from them."""
        return not fixing and (fdef.default_from is not None or fdef.total is not None)

    def ask_field(self, fdef: FieldDef, fixing: bool = False) -> str | None:
        default = self.default_text(fdef, None)
        if default[1] == "worked" and not fixing:
            self.console.say(_("{name} = {value} (follows from what is typed)").format(
                                 name=field_label(self.rs, fdef.name), value=default[0]), "dim")
            return None
        text = self.read(field_label(self.rs, fdef.name), fdef, None, default, may_wait=self.may_wait(fdef, fixing))
        if text == BACK:
            return BACK
        if text is None:
            self.answers.pop(fdef.name, None)
        else:
            self.answers[fdef.name] = text
        return None

    def ask_row(self, fdef: FieldDef, only: Collection[int] | None = None, fixing: bool = False) -> str | None:
        """A per-player or per-side field: one question per player, or the whole row at once. With
        `only`, just those players (or sides) are asked; the values typed for the others stand."""
        names = self.who_names(fdef)
        seats = self.turn(fdef, only)
        row: list[str | None] = list(self.answers.get(fdef.name) or [None] * len(names))
        self.answers[fdef.name] = row
        asked: list[int] = []     # the places of `seats` asked so far, for `<`
        j = 0
        while j < len(seats):
            i = seats[j]
            if j == len(seats) - 1 and j > 0 and fdef.total is not None and only is None:
                filled = self.fill(fdef, [None if k == i else v for k, v in enumerate(row)])
                if filled is not None:    # the last value is the rest of the total, whatever it was
                    row[i] = filled
                    self.console.say(_("{value}: {name} = {filled} (the rest of the total)").format(
                                         value=names[i], name=field_label(self.rs, fdef.name), filled=filled), "dim")
                    j += 1
                    continue
            if row[i] is None and not fixing:
                worked = self.worked_out(fdef, i)
                if worked is not None:
                    row[i] = worked
                    self.console.say(_("{value}: {name} = {filled} (follows from what is typed)").format(
                                         value=names[i], name=field_label(self.rs, fdef.name), filled=worked), "dim")
                    j += 1
                    continue
            whole = ((lambda t: self.whole_row(fdef, names, seats, t))
                     if not asked and only is None and fdef.type != "combos" else None)
            text = self.read(f"{names[i]}: {field_label(self.rs, fdef.name)}", fdef, names[i], self.default_text(fdef, i), whole,
                             legal=not asked, may_wait=self.may_wait(fdef, fixing))
            if text == BACK:
                if not asked:
                    return BACK
                j = asked.pop()
                continue
            if isinstance(text, list):  # the whole row on one line
                row[:] = text
                break
            row[i] = text
            if text is not None and not fixing and self.refused_at(fdef, row, seats, j):
                row[i] = None     # asked again, without the refused value in brackets
                continue
            asked.append(j)
            j += 1
        if fdef.total is not None and only is None:
            self.fill_last(fdef, row)
        if all(v is None for v in row):
            self.answers.pop(fdef.name)
        return None

    def fill_last(self, fdef: FieldDef, row: list[str | None]) -> None:
        """One value of a row with a total left out: fill it in and say so."""
        filled = self.fill(fdef, row)
        if filled is None:
            return
        gap = next(i for i, t in enumerate(row) if t is None and self.who_active(fdef)[i])
        row[gap] = filled
        self.console.say(_("{value}: {name} = {filled} (the rest of the total)").format(
                             value=self.who_names(fdef)[gap], name=field_label(self.rs, fdef.name), filled=filled), "dim")

    def whole_row(self, fdef: FieldDef, names: list[str], seats: list[int], text: str) -> Any:
        """'4,3,3,3' (cards: 'QS 10H/-/A 7'): a value per playing seat, one fewer where a total fills
        the last. An answer that is one legal value for the player asked is that player's (SINGLE):
        a list of one player's (marriages `H,C,D`) is never spread over the others."""
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
        if len(items) == len(seats) - 1 and fdef.total is not None and len(seats) > 1:
            for i, t in zip(seats, items, strict=False):
                row[i] = t
            if not self._convert_row(fdef, names, row):
                return None
            filled = self.fill(fdef, row)
            if filled is None:
                self.console.say(_("  the last value of {name} cannot be filled in from the total").format(
                    name=field_label(self.rs, fdef.name)), "bad")
                return None
            row[seats[-1]] = filled
            self.console.say(_("{value}: {name} = {filled} (the rest of the total)").format(
                                 value=names[seats[-1]], name=field_label(self.rs, fdef.name), filled=filled), "dim")
            self.say_read_as(names, seats, row)
            return row
        if len(items) != len(seats):
            who = ", ".join(names[i] for i in seats)
            self.console.say(_("  {name} needs {n} values, one each for {who}; got {n2}").format(
                                 name=field_label(self.rs, fdef.name), n=len(seats), who=who, n2=len(items)), "bad")
            return None
        for i, t in zip(seats, items, strict=False):
            row[i] = t
        if not self._convert_row(fdef, names, row):
            return None
        self.say_read_as(names, seats, row)
        return row

    def say_read_as(self, names: list[str], seats: list[int], row: list[str | None]) -> None:
        """A row asked from the dealer's left, not in seating order, said back as it was read, so that
        values typed in the order of the score sheet are seen to have gone to other players."""
        if seats != sorted(seats):
            self.console.say(_("  read as {values}").format(
                                 values=", ".join(f"{names[i]} {row[i]}" for i in seats)), "dim")

    def _convert_row(self, fdef: FieldDef, names: list[str], row: list[str | None]) -> bool:
        ok = True
        for i, t in enumerate(row):
            if t is None:
                continue
            try:
                convert(self.game, fdef, t, names[i], self.state)
            except UserError as exc:
                self.console.say(f"  {shown(exc.message)}", "bad")
                ok = False
        return ok

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

    # ------------------------------------------------------------------ the result
    def raw(self, full: bool = False) -> RawHand:
        """The answers as RawHand, with the assignments a person would have typed for them
        (values equal to the field's default left out, unless `full`)."""
        values = {name: self.answers[name] for name in self.rs.fields if self.answers.get(name) is not None}
        return RawHand(values, typed_assignments(self.game, values, skip_defaults=not full))

    def show_summary(self, outcome: Outcome) -> None:

        title = _("Hand {n}").format(n=self.hand_no) if self.hand_no else _("The hand")
        self.console.say(_("{title}, as read:").format(title=title), "bold")
        applying = {name for name, fdef in self.rs.fields.items() if self.applies(fdef)}
        for line in summary_lines(self.game, outcome.hand, applying):
            self.console.say(f"  {line}")
        if outcome.raw.rest_of_total:   # a row typed short by one: whose value its total gave
            self.console.say("  " + _("worked out, the rest of the total: {values}").format(
                values=", ".join(outcome.raw.rest_of_total)), "event")
        for k, side in enumerate(self.game.sides):
            why = ", ".join(f"{line.label} {num(line.points)}" for line in outcome.result.breakdown[k]) or _("nothing")
            self.console.say(f"  = {side.name}: {num(outcome.result.points[k])} ({why})")
        for event in outcome.result.events:
            self.console.say(f"  * {shown(event)}", "event")


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
