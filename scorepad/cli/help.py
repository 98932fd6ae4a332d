"""Help texts that name things in words (GAME, PLAYER, FIELD=VALUE), never Python types.

Typer prints an option's type as `<str>`, `<bool>` or `<list[str]>` and a required argument as
`{ruleset}`: fine for programmers, noise for a person holding cards. `words_not_types()` makes
options show their metavar (or nothing, for flags) and arguments their upper-case name. It touches
only Typer's help rendering, of the Typer pinned in pyproject.toml (tests/cli/test_typer_patches.py).
"""

from __future__ import annotations

import inspect
from typing import Any

from scorepad.locale import N_


def _option_type(self: Any, ctx: Any) -> str | None:
    if getattr(self, "is_flag", False) or getattr(self, "count", False):
        return None
    if self.metavar:
        return str(self.metavar)
    return str(self.name or "value").upper()


def _display_name(self: Any) -> str:
    return _argument_name(self)


def _argument_type(self: Any, ctx: Any) -> str | None:
    return None  # the name column already says what it is (RULESET, PLAYER...)


def _argument_name(self: Any) -> str:
    return str(self.metavar or (self.name or "value").upper())


def _argument_usage(self: Any) -> str:
    name = _argument_name(self)
    name += "..." if self.nargs != 1 and "..." not in name else ""
    return name if self.required else f"[{name}]"


def _argument_column(self: Any) -> str:
    name = _argument_name(self)
    return name + ("..." if self.nargs != 1 and "..." not in name else "")


def words_not_types() -> None:
    """Typer's help rendering of a parameter's type and name (private methods of TyperOption and
    TyperArgument) replaced by the words above.

    Measured gain: none in time (`hand --help` 0.95x, within the noise); what it gains is the help
    itself: `FIELD=VALUE...  field=value, ...` where Typer prints `FIELD=VALUE... <list[str]>` and a
    usage line ending in `[FIELD=VALUE...]...`. Checked against the Typer pinned in pyproject.toml;
    tests/cli/test_typer_patches.py fails when a replaced method changes or disappears."""
    from typer import core  # start-up: the quick route never loads typer (~75 ms)

    option, argument = core.TyperOption, core.TyperArgument
    option.display_type_rich = _option_type  # type: ignore[method-assign]
    argument.display_type_rich = _argument_type  # type: ignore[method-assign]
    argument._usage_display_name = _argument_usage  # type: ignore[method-assign]
    argument._rich_display_name = _argument_column  # type: ignore[method-assign]
    argument.display_name_raw = property(_display_name)  # type: ignore[method-assign,assignment]


EXAMPLES: dict[str, str] = {
    "rules list": "scorepad rules list",
    "rules show": "scorepad rules show marjas   (" + N_("--formulas adds the formulas") + ")",
    "rules check": "scorepad rules check my-hearts.toml",
    "rules schema": "scorepad rules schema > ruleset.schema.json",
    "rules derive": "scorepad rules derive skid skid-505 --opt limit=505",
    "rules new": "scorepad rules new my-game --name 'My game'",
    "rules export": "scorepad rules export spades --output spades.toml",
    "rules test": "scorepad rules test my-game.toml",
    "config list": "scorepad config list",
    "config get": "scorepad config get db",
    "config set": "scorepad config set alias.a ann",
    "new": "scorepad new spades ann bob cat dan --opt target=300",
    "hand": "scorepad hand bid=4,3,3,3 tricks=5,3,3,2   (" + N_("on a terminal, `scorepad hand` asks every field") + ")",
    "undo": "scorepad undo",
    "redo": "scorepad redo",
    "bid": "scorepad bid bid=4,3,3,3; scorepad hand tricks=5,3,3,2   (" + N_("the bids before the play, the tricks after it")
           + ")",
    "edit": "scorepad edit 3 ann.tricks=4 bob.tricks=5   (" + N_("or `scorepad edit 3` to be asked") + ")",
    "play": "scorepad play",
    "sheet": "scorepad sheet --chart",
    "standings": "scorepad standings --json",
    "games": "scorepad games --season 2026",
    "use": "scorepad use 12",
    "finish": "scorepad finish",
    "log": "scorepad log --game 12",
    "verify": "scorepad verify",
    "backup": "scorepad backup scorepad-copy.db",
    "season": "scorepad season 2026 --format html --output season.html",
    "player": "scorepad player ann",
    "export": "scorepad export --output all-games.json",
    "import": "scorepad import all-games.json",
    "rescore": "scorepad rescore 12 --ruleset my-spades.toml",
    "delete": "scorepad delete 12",
    "abandon": "scorepad abandon",
    "rename": "scorepad rename ann anne",
    "rematch": "scorepad rematch",
}


def add_examples(*groups: tuple[str, Any]) -> None:
    """End every command's help with an example (kept here, in one table, so none is forgotten:
    a test checks every command has one)."""
    for prefix, app in groups:
        for info in app.registered_commands:
            callback = info.callback
            name = info.name or (callback.__name__ if callback else "")
            key = f"{prefix} {name}".strip()
            text = inspect.cleandoc(info.help or (callback.__doc__ if callback else None) or "")
            example = EXAMPLES.get(key)
            if example and "Example:" not in text:
                text = f"{text}\n\n\b\nExample: {example}"   # \b: click keeps the example's line unwrapped
            info.help = text
