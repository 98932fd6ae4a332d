"""Typing one hand at the terminal, the way `hledger add` takes a transaction: the reading and
printing around the hand model (scorepad/engine/hand_entry.py: HandEntry), which decides the order
of the questions, what applies, rows and totals, what is worked out, and what a rule refuses.

Each question is shown with its legal values in parentheses and its default in brackets (Enter keeps
it); `<` steps back one question, `?` shows the field's name and help in the language shown. A line of
FIELD=VALUE assignments typed at any question replaces the hand's typed values as a whole. After the
last field the hand is summarised exactly as it is stored, and "Record? [Y/n/e]" (the letters of the
language: scorepad/table/answers.py) lets it be stored, thrown away, or a field asked again. Nothing is
stored here. Ctrl-C, Ctrl-D, "n", or `quit` typed where it is no value of the field raise `Cancelled`;
the other commands of `play` typed at a question say how to get to them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from scorepad.app.games import result_shown
from scorepad.engine.assignments import RawHand, assignment_words, looks_like_assignments
from scorepad.engine.game import Game, State
from scorepad.engine.hand_entry import HandEntry, Mode, Outcome, Question, Reply
from scorepad.locale import _, current, shown
from scorepad.rules.model import FieldDef
from scorepad.table import answers
from scorepad.table.commands import command
from scorepad.table.console import Console
from scorepad.text.render import num

BACK = "<"
HELP = "?"
# Typed at a question where it is no value of the field: `quit` (or `exit`, or the language's word,
# commands.py) leaves the hand unrecorded; the other commands of `play` are refused with a sentence
# that says how to get to them


def leaves(text: str) -> bool:
    """Whether an answer is `quit` (`exit`, or the language's word for it): the hand is left unrecorded.
    `q` alone is a letter a value may start with, so it does not leave a question."""
    return text.strip().lower() != "q" and command(text, current()) == "quit"


class Cancelled(Exception):
    """The person stopped typing the hand (Ctrl-C, Ctrl-D, or "n" at Record?): nothing is stored.
    `interrupted` tells Ctrl-C/Ctrl-D (exit status 130) from a plain "n"."""

    def __init__(self, interrupted: bool = True) -> None:
        super().__init__("nothing was stored")
        self.interrupted = interrupted


STYLES = {"worked": ("", "dim"), "info": ("  ", "dim"), "problem": ("  ", "bad")}


class HandPrompt:
    """The questions of a HandEntry read from a console and its sentences printed there. The
    arguments are the HandEntry's: values typed beforehand (`given`), the fields not asked in the
    first pass (`keep`), the bid written down before (`base`), and what is asked (`mode`)."""

    def __init__(self, game: Game, state: State, console: Console, given: RawHand | None = None,
                 keep: Collection[str] = (), hand_no: int | None = None, base: Sequence[str] = (),
                 mode: Mode = "hand") -> None:
        self.entry = HandEntry(game, state, given, keep=keep, hand_no=hand_no, base=base, mode=mode)
        self.console = console

    @classmethod
    def driving(cls, entry: HandEntry, console: Console) -> HandPrompt:
        """The prompt of an entry built elsewhere (HandEntry.next_hand)."""
        prompt = cls.__new__(cls)
        prompt.entry, prompt.console = entry, console
        return prompt

    @property
    def game(self) -> Game:
        return self.entry.game

    @property
    def answers(self) -> dict[str, Any]:
        return self.entry.answers

    # ------------------------------------------------------------------ the whole hand
    def run(self) -> Outcome:
        """Ask, score, fix, summarise, confirm. Call again after the entry was rebased (a hand typed
        elsewhere meanwhile): the answers stay and are checked against the new state."""
        try:
            while True:
                self.drive()
                outcome = self.confirm()
                if outcome is not None:
                    return outcome
        except (KeyboardInterrupt, EOFError):
            raise Cancelled() from None

    def drive(self) -> None:
        """Ask the entry's questions until it has none left."""
        while True:
            question = self.entry.question()
            self.say_notes()
            if question is None:
                return
            self.ask(question)

    def ask_fields(self, names: Sequence[str]) -> None:
        """Ask just these fields, in order."""
        self.entry.ask(names)
        self.drive()

    def confirm(self) -> Outcome | None:
        """The summary and "Record?": the outcome to store, or None when something was asked again."""
        outcome = self.entry.outcome
        assert outcome is not None
        self.show_summary(outcome)
        choices = ("yes", "no", "edit")
        text = self._ask(answers.question(_("Record?"), choices), answers.candidates(choices))
        if text is None:
            return None
        answer = answers.read(text, choices)
        if answer == "yes":
            return outcome
        if answer == "no" or (answer is None and leaves(text)):
            raise Cancelled(interrupted=False)
        if answer == "edit":
            self.edit_one()
        else:
            yes, no, edit = (answers.words(c)[0] for c in choices)
            self.console.say(_("  {yes} records the hand, {no} throws it away, {edit} goes back to a field").format(
                yes=yes, no=no, edit=edit), "dim")
        return None

    def edit_one(self) -> None:
        names = self.entry.fields_shown()
        while True:
            text = self._ask(_("Which field? ({value}) ").format(value=', '.join(names)), names)
            if text is None:
                return
            text = text.strip().lower()
            if not text:
                return
            hits = [n for n in names if n == text] or [n for n in names if n.startswith(text)]
            if not hits and leaves(text):
                raise Cancelled(interrupted=False)
            if len(hits) == 1:
                self.entry.fix(hits[0])
                return
            self.console.say(_("  {text} is not one of {value}").format(text=repr(text), value=', '.join(names)), "bad")

    def _ask(self, question: str, cands: Sequence[str] = ()) -> str | None:
        """One answer; None when a line of assignments replaced the hand's typed values (the entry
        starts its questions again). A line the argument form would refuse is refused here with its
        sentences, and asked again."""
        while True:
            text = self.console.ask(question, cands)
            if not looks_like_assignments(text):
                return text
            problems = self.entry.retype(assignment_words(text))
            if not problems:
                return None
            for line in problems:
                self.console.say(f"  {line}", "bad")

    # ------------------------------------------------------------------ one question
    def ask(self, q: Question) -> None:
        """Read one answer to `q` and hand it to the entry; say what it refused."""
        text = self._ask(q.text, q.candidates)
        if text is None:
            return
        text = text.strip()
        if text == BACK:
            self.entry.back()
            return
        if text == HELP:
            self.show_help(q)
            return
        reply = self.entry.answer(text)
        self.say_notes()
        if reply.not_a_value and self.a_command(q, text):
            return
        for line in reply.problems:
            self.console.say(f"  {line}", "bad")

    def a_command(self, q: Question, text: str) -> bool:
        """`quit`, `help` or another command of `play` typed where it is no value of the field."""
        word = text.split()[0].lower() if text.split() else ""
        if leaves(text):
            raise Cancelled(interrupted=False)   # a value of the field would have been taken
        if command(text, current()) == "help":
            self.show_help(q)
            return True
        if command(word, current()) is not None:
            label = f"{q.who}.{q.label}" if q.who else q.label
            self.console.say(_("  {word} is not a value of {label}: record this hand first, or leave it "
                               "with quit or Ctrl-C (nothing is stored)").format(word=repr(word), label=label), "bad")
            return True
        return False

    def show_help(self, q: Question) -> None:
        """`?` at a question: the field's name and help in the language shown, and the keys of the prompt."""
        self.console.say(f"  {self.entry.help_line(q)}", "dim")
        more = ""
        if q.row_order:     # in the order asked (bids from the dealer's left): `4,3,3,3 (bob, cat, dan, ann)`
            more = _("; or all values at once: 4,3,3,3") + f" ({', '.join(q.row_order)})"
        self.console.say(_("  Enter keeps the value in [brackets]; < goes back one question{more}").format(
                             more=more), "dim")
        self.console.say(_("  quit or Ctrl-C leaves this hand; nothing is stored"), "dim")

    def whole_row(self, fdef: FieldDef, names: list[str], seats: list[int], text: str) -> Any:
        """A row typed on one line, read by the entry: the row, or None (its problems said)."""
        row = self.entry.whole_row(fdef, names, seats, text)
        self.say_notes()
        if isinstance(row, Reply):
            for line in row.problems:
                self.console.say(f"  {line}", "bad")
            return None
        return row

    def say_notes(self) -> None:
        for note in self.entry.notes():
            indent, style = STYLES[note.kind]
            self.console.say(f"{indent}{note.text}", style)

    def show_summary(self, outcome: Outcome) -> None:
        self.console.say(self.entry.title(), "bold")
        for line in self.entry.summary():
            self.console.say(f"  {line}")
        if outcome.raw.rest_of_total:   # a row typed short by one: whose value its total gave
            self.console.say("  " + _("worked out, the rest of the total: {values}").format(
                values=", ".join(outcome.raw.rest_of_total)), "event")
        breakdown, events = result_shown(self.game, outcome.result)
        for k, side in enumerate(self.game.sides):
            why = ", ".join(f"{label} {num(points)}" for label, points, _to in breakdown[k]) or _("nothing")
            self.console.say(f"  = {side.name}: {num(outcome.result.points[k])} ({why})")
        for event in events:
            self.console.say(f"  * {shown(event)}", "event")
