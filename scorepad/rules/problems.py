"""The one problems collector every section reader of a file shares."""

from __future__ import annotations

from scorepad.errors import FormulaError, RulesetError
from scorepad.locale import N_, Said


class Problems:
    """Collects every problem of one file before failing, as `file: key: sentence`."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.items: list[str] = []

    def add(self, key: str, message: str) -> None:
        """`message`: a `Said` where the sentence is translated (shown in the language of `rules check`)."""
        self.items.append(Said("{source}: {key}: {message}", source=self.source, key=key, message=message) if key
                          else Said("{source}: {message}", source=self.source, message=message))

    def formula(self, exc: FormulaError) -> None:
        self.items.append(Said("{source}: {message}", source=self.source, message=exc.message))

    def fail_if_any(self) -> None:
        """Raise the RulesetError listing every problem so far (one: its sentence; more: how many)."""
        if self.items:
            first = self.items[0] if len(self.items) == 1 else Said(N_("{n} problems in {source}"), n=len(self.items),
                                                                         source=self.source)
            raise RulesetError(first, self.items)
