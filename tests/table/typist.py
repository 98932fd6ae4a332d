"""Consoles the tests type with: a player answering from the values the argument form was given
(Typist), and a fixed list of answers (Script).

Typist:

Each question is answered from the scenario's own values: the field and player are read from the
question (`ann: bid (0-13) [4]: `), a value typed on the command line is typed here, and Enter is
pressed where the command line typed nothing (a default, or a value that follows from others).
"Record?" is answered yes. A question asked a fourth time, or a hand that takes more questions
than a person would sit through, means the prompt is stuck in a loop.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scorepad.engine.assignments import RawHand
from scorepad.engine.game import Game
from scorepad.locale import YES_WORDS

MAX_QUESTIONS = 400
QUESTION = re.compile(r"^(?:(?P<who>[^:]+): )?(?P<field>[^ :(\[]+)(?: \(.*\))?(?: \[[^\]]*\])?: $")


class Stuck(AssertionError):
    """The prompt asked the same question again and again, or far too many questions."""


class Typist:
    def __init__(self, game: Game, raw: RawHand) -> None:
        self.game = game
        self.raw = raw
        self.transcript: list[str] = []
        self.times: dict[str, int] = {}

    def answer(self, question: str) -> str:
        self.times[question] = self.times.get(question, 0) + 1
        if self.times[question] > 3 or len(self.transcript) > MAX_QUESTIONS:
            raise Stuck(f"asked {question!r} again and again:\n" + "\n".join(self.transcript[-20:]))
        text = "y" if question.startswith("Record?") else self.value_for(question)
        self.transcript.append(question + text)
        return text

    def value_for(self, question: str) -> str:
        m = QUESTION.match(question)
        if m is None:
            raise AssertionError(f"a question the typist cannot read: {question!r}")
        name, who = m["field"], m["who"]
        value = self.raw.values.get(name)
        if value is None:
            return ""
        if who is None and isinstance(value, list):   # a yes/no of each player asked once: who has it
            names = list(self.game.players)
            return next((names[i] for i, v in enumerate(value) if v is not None and str(v).lower() in YES_WORDS), "-")
        if who is None:
            return str(value)
        fdef = self.game.ruleset.fields[name]
        names = list(self.game.players) if fdef.scope == "player" else [s.name for s in self.game.sides]
        one = value[names.index(who)]
        return "" if one is None else str(one)

    # the Console protocol, for the prompt run in this process
    def ask(self, question: str, candidates: Sequence[str] = ()) -> str:
        return self.answer(question)

    def say(self, text: str, style: str = "") -> None:
        self.transcript.append("  " + text)


class Script:
    """A console that answers from a list and keeps the transcript."""

    def __init__(self, answers: Sequence[str | type[BaseException]]) -> None:
        self.answers = list(answers)
        self.questions: list[str] = []
        self.said: list[str] = []
        self.styles: list[str] = []       # the style of each line said ('bad' is an error, in red)

    def ask(self, question: str, candidates: Sequence[str] = ()) -> str:
        self.questions.append(question)
        if not self.answers:
            raise AssertionError(f"no answer scripted for {question!r}; asked so far: {self.questions}")
        answer = self.answers.pop(0)
        if isinstance(answer, type):
            raise answer()
        return answer

    def say(self, text: str, style: str = "") -> None:
        self.said.append(text)
        self.styles.append(style)
