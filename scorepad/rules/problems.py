"""The one problems collector every section reader of a file shares."""

from __future__ import annotations

from scorepad.errors import FormulaError, RulesetError


class Problems:
    """Collects every problem of one file before failing, as `file: key: sentence`."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.items: list[str] = []

    def add(self, key: str, message: str) -> None:
        self.items.append(f"{self.source}: {key}: {message}" if key else f"{self.source}: {message}")

    def formula(self, exc: FormulaError) -> None:
        self.items.append(f"{self.source}: {exc.message}")

    def fail_if_any(self) -> None:
        """Raise the RulesetError listing every problem so far (one: its sentence; more: how many)."""
        if self.items:
            first = self.items[0] if len(self.items) == 1 else f"{len(self.items)} problems in {self.source}"
            raise RulesetError(first, self.items)
