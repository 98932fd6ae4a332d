"""`scorepad play`: one session for the evening.

It shows the standings and who deals, then waits at a prompt: Enter types the next hand field by
field, a line of assignments (`bid=4,3,3,3 tricks=5,3,3,2`) records it at once, and the commands
bid, undo, redo, edit N, sheet, standings, rules, log, finish, rematch, use GAME, new, help and quit
(or the language's words for them, commands.py) do what their command-line namesakes do. After
each hand: the breakdown and a compact standings.
Every command reads the game afresh and writes in one short transaction, so nothing is held while
the table talks; a hand typed in another terminal meanwhile is shown before the next prompt.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scorepad.app import games as play
from scorepad.app.bids import record_bid, undo_bid
from scorepad.app.redo import redo
from scorepad.engine.assignments import assignment_words
from scorepad.errors import ScorepadError, UserError
from scorepad.locale import N_, Said, _, current, shown
from scorepad.store import GameRow, Store
from scorepad.table import answers, commands
from scorepad.table.console import Console
from scorepad.table.edits import edit_interactively
from scorepad.table.entry import enter_bid, enter_hand, show_changes
from scorepad.table.prompt import Cancelled
from scorepad.text.describe import details, details_text
from scorepad.text.local_time import local_stamp
from scorepad.text.render import audit_text, compact_standings, hand_lines, num, sheet_text, standings_text
from scorepad.text.typed import typed_said


class Session:
    """The `play` loop. `console` is the terminal; `new_game` starts a game from `new ...` words."""

    def __init__(self, store: Store, console: Console, game: str | None = None,
                 new_game: Callable[[Sequence[str]], GameRow] | None = None) -> None:
        self.store = store
        self.console = console
        self.new_game = new_game
        self.row: GameRow | None = None
        if game is not None:
            self.row = store.game(store.set_current(game))
        elif store.get_meta("current_game") is not None:
            self.row = store.game(None)

    # ------------------------------------------------------------------ the loop
    def run(self) -> int:
        say = self.console.say
        if self.row is None:
            say(_('No game yet. Start one: new GAME PLAYER...   (e.g. new spades ann bob cat dan)'))
        else:
            self.show_standings()
        while True:
            self.catch_up()
            try:
                line = self.console.ask(self.prompt_text(), self.candidates())
            except EOFError:
                say("")
                break
            except KeyboardInterrupt:
                say("")
                continue
            try:
                if self.dispatch(line.strip()) == "quit":
                    break
            except Cancelled:
                say(_('Not recorded; nothing was stored.'), "bad")
            except ScorepadError as exc:
                say(shown(exc.message), "bad")
                for p in exc.problems:
                    if p != exc.message:
                        say(f"  - {shown(p)}", "bad")
            except KeyboardInterrupt:
                say("")
                say(_('Interrupted; nothing was stored.'), "bad")
        say(_('Good night. Everything is stored.'))
        return 0

    def prompt_text(self) -> str:
        if self.row is None:
            return "scorepad> "
        if self.row.state["finished"]:
            return _("game {id} (over)> ").format(id=self.row.id)
        return _("hand {n}> ").format(n=self.row.hands + 1)

    def candidates(self) -> list[str]:
        out = commands.words(current())
        if self.row is not None:
            game = play.in_language(play.game_of(self.row))
            out += [f"{name}=" for name in game.ruleset.fields]
            out += list(game.players) + [s.name for s in game.sides]
            for fdef in game.ruleset.fields.values():
                out += [v for v in (*fdef.values, *fdef.words) if v not in out]
        return out

    def catch_up(self) -> None:
        """Show what another terminal changed in this game since we last looked."""
        if self.row is None:
            return
        fresh = self.store.game(self.row.id)
        if fresh.version != self.row.version:
            if fresh.hands != self.row.hands:
                show_changes(self.store, self.row, fresh, self.console)
            self.row = fresh

    def need_game(self) -> GameRow:
        if self.row is None:
            raise UserError(_('no game yet: start one with new GAME PLAYER...'))
        self.row = self.store.game(self.row.id)
        return self.row

    # ------------------------------------------------------------------ commands
    def dispatch(self, line: str) -> str | None:
        try:
            words = shlex.split(line)
        except ValueError:
            words = line.split()
        if not words:
            self.hand([])
            return None
        head = words[0].lower()
        if "=" in head:
            self.hand(assignment_words(line))   # `cards=QS 10H/-/A 7` as on the command line, quoted
            return None
        rest = words[1:]
        name = commands.command(head, current())   # `undo`, or the language's word: `отмена`, `tagasi`
        if name == "quit":
            return "quit"
        if name == "help":
            self.console.say(_('Enter: type the next hand field by field.  FIELD=VALUE ...: the whole hand on one line.'))
            for text in commands.help_lines(current()):
                self.console.say(f"  {text}")
            return None
        handler = getattr(self, f"cmd_{name}", None) if name is not None else None
        if handler is None:
            raise UserError(_("{value} is neither a command nor FIELD=VALUE (help lists the commands)").format(
                                value=repr(words[0])))
        handler(rest)
        return None

    def hand(self, args: Sequence[str]) -> None:
        row = self.need_game()
        rec = enter_hand(self.store, row.id, args, self.console)
        self.after_hand(rec)

    def after_hand(self, rec: play.Recorded) -> None:
        say = self.console.say
        shown_hand = play.hand_json(rec)
        say(_("Hand {n} recorded.").format(n=rec.n), "good")
        # what `hand` prints under its "Hand N": the cards as read, the values worked out, each side's
        # points with the why, the events
        for line in hand_lines(shown_hand)[1:]:
            say(line, "event" if line.startswith("  * ") else "")
        self.row = rec.row
        data = shown_hand["standings"]
        for line in compact_standings(data):
            say(line)
        if data["finished"]:
            self.game_over(data)
        elif data.get("next"):
            say(_("Next: hand {hand}, {dealer} deals.").format(hand=data['next']['hand'], dealer=data['next']['dealer']), "dim")
        if rec.n == 1:
            for line in data.get("info", []):  # the ruleset's reminders, with the first hand only
                say(line, "dim")

    def game_over(self, data: Mapping[str, Any]) -> None:
        say = self.console.say
        winners = data.get("winner") or []
        if data.get("draw"):
            say(_("The game is over: a draw between {value}.").format(value=_(' and ').join(winners)), "good")
        elif winners:
            say(_("The game is over: {value} won!").format(value=_(' and ').join(winners)), "good")
        else:
            say(_('The game is over.'), "good")
        say(standings_text(dict(data)))
        try:
            choices = ("yes", "no")
            answer = answers.read(self.console.ask(answers.question(_("Rematch?"), choices),
                                                   answers.candidates(choices)), choices)
        except (EOFError, KeyboardInterrupt):
            say("")
            answer = "no"
        if answer == "yes":
            self.cmd_rematch([])
        else:
            say(_('No rematch. undo takes back the last hand; new, use or quit.'), "dim")

    def show_standings(self) -> None:
        row = self.need_game()
        self.console.say(standings_text(play.standings(row)))
        pending = self.store.pending_bid(row.id)
        if pending:
            self.console.say(_("Bid for hand {value}: {value2}").format(value=row.hands + 1, value2=' '.join(pending)), "event")

    def cmd_standings(self, args: Sequence[str]) -> None:
        self.show_standings()

    def cmd_sheet(self, args: Sequence[str]) -> None:
        row = self.need_game()
        self.console.say(sheet_text(play.sheet(self.store, row)))

    def cmd_log(self, args: Sequence[str]) -> None:
        """The game's audit trail, as `scorepad log` prints it (its times in the local clock)."""
        row = self.need_game()
        entries = [{**e, "at": local_stamp(e["at"])} for e in self.store.audit(row.id)]
        shown_game = play.game_of(row)
        self.console.say(audit_text(entries, lambda typed: typed_said(shown_game, typed)))

    def cmd_rules(self, args: Sequence[str]) -> None:

        game = play.in_language(play.game_of(self.need_game()))
        self.console.say(details_text(details(game.ruleset, game=game)))    # its options in force

    def cmd_bid(self, args: Sequence[str]) -> None:

        row = self.need_game()
        done = (record_bid(self.store, row.id, assignment_words(' '.join(args))) if args
                else enter_bid(self.store, row.id, self.console))
        self.row = done.row
        if done.replaced:
            self.console.say(_("The bid written down before ({value}) is replaced.").format(
                                 value=' '.join(done.replaced)), "event")
        self.console.say(_("Bid for hand {n} written down: {value}").format(n=done.n, value=' '.join(done.typed)), "good")

    def cmd_undo(self, args: Sequence[str]) -> None:

        row = self.need_game()
        taken = undo_bid(self.store, row.id)
        if taken is not None:
            self.row, typed = taken
            self.console.say(_("The bid for hand {value} removed ({value2}).").format(
                                 value=self.row.hands + 1, value2=typed_said(play.game_of(self.row), typed)), "good")
            return
        before = self.store.hands(row.id)
        undone = play.undo(self.store, row.id, row.version)   # the game as shown: a repeat never undoes two
        self.row = undone.row
        if undone.finish:
            self.console.say(_("The finish is taken back; the game goes on at hand {n}.").format(n=undone.n + 1), "good")
        else:
            was = typed_said(play.game_of(self.row), before[-1].typed) if before else ""
            self.console.say(_("Hand {n} removed ({was}); redo puts it back.").format(n=undone.n, was=was), "good")
        for line in compact_standings(play.standings(self.row)):
            self.console.say(line)

    def cmd_redo(self, args: Sequence[str]) -> None:

        row = self.need_game()
        self.after_hand(redo(self.store, row.id, row.version))

    def cmd_edit(self, args: Sequence[str]) -> None:
        row = self.need_game()
        if not args or not args[0].isdigit():
            raise UserError(_('say which hand: edit N [FIELD=VALUE...]'))
        n = int(args[0])
        if args[1:]:
            self.row, rows = play.edit(self.store, row.id, n, list(args[1:]), expect=row.version)
        else:

            self.row, rows = edit_interactively(self.store, row.id, n, self.console)
        self.console.say(play.edit_said(n, rows), "good" if rows else "")
        if rows:   # the edited hand's new breakdown, as after a hand is recorded, then the totals
            for line in hand_lines(play.hand_json(play.scored_hand(self.store, self.row, n)))[1:]:
                self.console.say(line, "event" if line.startswith("  * ") else "")
        for line in compact_standings(play.standings(self.row)):
            self.console.say(line)

    def cmd_finish(self, args: Sequence[str]) -> None:
        row = self.need_game()
        if row.state["finished"]:
            raise UserError(Said(N_("this game has already ended")))   # before asking, as `finish` refuses it
        choices = ("yes", "no")
        while True:   # ending a game is asked, not done by a word typed in passing; Enter keeps playing
            try:
                answer = answers.read(self.console.ask(answers.question(_("Finish the game now?"), choices, "no"),
                                                       answers.candidates(choices)), choices, "no")
            except (EOFError, KeyboardInterrupt):
                self.console.say("")
                answer = "no"
            if answer is not None:
                break
        if answer == "no":
            self.console.say(_('The game goes on; nothing was stored.'), "dim")
            return
        self.row, result = play.finish(self.store, row.id, expect=row.version)
        breakdown, events = play.result_shown(play.game_of(self.row), result)
        for side, pts, items in zip(self.row.sides, result.points, breakdown, strict=False):
            if items:
                why = ", ".join(f"{label} {num(points)}" for label, points, _to in items)
                self.console.say(f"  {side['name']}: {num(pts)} ({why})")
        for event in events:
            self.console.say(f"  * {shown(event)}", "event")
        self.game_over(play.standings(self.row))

    def cmd_rematch(self, args: Sequence[str]) -> None:
        row = self.need_game()
        self.row = play.rematch(self.store, row.id)
        self.console.say(_("Game {id}: a rematch of game {id2}.").format(id=self.row.id, id2=row.id), "good")
        self.show_standings()

    def cmd_use(self, args: Sequence[str]) -> None:
        if len(args) != 1:
            raise UserError(_('say which game: use GAME (an id or a name; `scorepad games` lists them)'))
        self.row = self.store.game(self.store.set_current(args[0]))
        self.show_standings()

    def cmd_new(self, args: Sequence[str]) -> None:
        if self.new_game is None or len(args) < 2:
            raise UserError(_('new GAME PLAYER..., e.g. new spades ann bob cat dan'))
        self.row = self.new_game(args)
        self.console.say(_("Game {id} started.").format(id=self.row.id), "good")
        self.show_standings()

