"""The ruleset a game began with: its pinned text loaded once per process (a game is never scored with
whatever the ruleset file says today)."""

from __future__ import annotations

from functools import lru_cache

from scorepad.rules.loader import load_text
from scorepad.rules.model import Ruleset


@lru_cache(maxsize=32)
def pinned_ruleset(text: str, source: str, variant: str | None) -> Ruleset:
    return load_text(text, source, variant, pinned=True)
