"""The short answers of the table's questions (Record? Rematch?) in the player's language.

Each answer has words in each language, its first letter shown in brackets: `[Y/n/e]` in English,
`[J/e/m]` in Estonian, `[Д/н/и]` in Russian, `[Т/н/з]` in Ukrainian. The language's own words and
letters come first (Estonian "e" is "ei", no, while English "e" is edit); then English ones, and a
whole yes or no of any language.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorepad.locale import N_, NO_WORDS, YES_WORDS, _

# The words of each answer, "|"-separated, the first one's first letter is the answer's letter.
WORDS = {"yes": N_("yes|y"), "no": N_("no|n"), "edit": N_("edit|e")}
ENGLISH = {name: words.split("|") for name, words in WORDS.items()}


def words(answer: str) -> list[str]:
    """The words of an answer in the language shown (its letter first)."""
    return [w.strip().lower() for w in _(WORDS[answer]).split("|") if w.strip()]


def hint(answers: Sequence[str], default: str | None = None) -> str:
    """`[Y/n/e]`: each answer's letter, the one Enter gives (`default`, else the first) in capitals."""
    given = default or answers[0]
    letters = [words(a)[0][0].upper() if a == given else words(a)[0][0] for a in answers]
    return "[" + "/".join(letters) + "]"


def question(text: str, answers: Sequence[str], default: str | None = None) -> str:
    """The question with its letters: `Record? [Y/n/e] `, `Finish the game now? [y/N] `."""
    return f"{text} {hint(answers, default)} "


def read(text: str, answers: Sequence[str], default: str | None = None) -> str | None:
    """Which answer `text` gives: Enter is `default`, else the first; None when it is none of them."""
    typed = text.strip().lower()
    if not typed:
        return default or answers[0]
    for answer in answers:
        own = words(answer)
        if typed in own or typed == own[0][0]:
            return answer
    for answer in answers:                     # English, its letters too where the language's own differ
        if typed in ENGLISH[answer]:
            return answer
    other = {"yes": YES_WORDS, "no": NO_WORDS}
    for answer in answers:                     # a whole yes or no of another language, never a letter
        if len(typed) > 1 and typed in other.get(answer, ()):
            return answer
    return None


def candidates(answers: Sequence[str]) -> list[str]:
    """What Tab completes: the answers' words in the language shown."""
    return [words(a)[-1] if len(words(a)[-1]) > 1 else words(a)[0] for a in answers]
