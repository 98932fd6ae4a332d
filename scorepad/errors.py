"""The one exception hierarchy; the CLI turns each kind into a message and an exit status."""


class ScorepadError(Exception):
    """Base of every error scorepad reports to a person."""

    exit_code = 1

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.problems = problems or []


class UserError(ScorepadError):
    """Bad input from the person at the table: usage, validation, unknown names. Exit 2."""

    exit_code = 2


class RulesetError(UserError):
    """A ruleset file that cannot be used; `problems` holds one line per problem."""


class FormulaError(RulesetError):
    """A formula that is not allowed or cannot be evaluated; names the TOML key."""


class HandError(UserError):
    """A hand that breaks a rule; `problems` holds one sentence per broken rule.

    `checks` names the ruleset checks that failed, so the prompt can ask again only their fields.
    """

    checks: tuple[str, ...] = ()


class StoreError(ScorepadError):
    """The database could not do what was asked (exit 1)."""


class StoreUnreachable(StoreError):
    """The database server could not be reached: whether the last write was stored is not known."""


class StoreRefused(StoreError):
    """The database refused a statement by its own rules (the role's privileges, a trigger)."""


class StoreConflict(StoreError):
    """Another command changed the game between reading it and writing; nothing was stored."""
