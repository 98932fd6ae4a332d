"""The few options read from the command line before Typer parses it: the one place the argument
list is read ahead of a parser (the quick route's parser and Typer read it as parsers).

Typer needs three answers before any callback of ours runs, so before the options reach us parsed:
the language of the help texts it builds first (`--lang`), the game whose fields `hand --help` lists
(`--db`, `--game`; help is printed while parsing) and, when parsing fails, whether the error is for a
script (`--json` or `--format json`: such errors are in English, docs/translating.md). Completion
scripts (`--install-completion`, `--show-completion`) are Typer's words and reach the terminal as
they are. Everything else comes from the parsed options and the settings resolver (app/settings.py).
"""

from __future__ import annotations

from collections.abc import Sequence


class Early:
    """What the command line says before it is parsed (an option: its last value before a `--`)."""

    __slots__ = ("completion_script", "db", "game", "hand_help", "json", "lang")

    def __init__(self, args: Sequence[str]) -> None:
        words = list(args[:list(args).index("--")] if "--" in args else args)
        self.db = _option(words, "--db")
        self.game = _option(words, "--game")
        self.lang = _option(words, "--lang")
        self.json = "--json" in words or _option(words, "--format") == "json"
        self.hand_help = "hand" in words and bool({"-h", "--help"} & set(words))
        self.completion_script = bool({"--install-completion", "--show-completion"} & set(words))


def _option(words: Sequence[str], name: str) -> str | None:
    """`--name X` or `--name=X`; the last one given wins, as it does for Typer."""
    value = None
    for i, word in enumerate(words):
        if word == name and i + 1 < len(words):
            value = words[i + 1]
        elif word.startswith(name + "="):
            value = word.partition("=")[2]
    return value
