"""`[game]`: id, names, description and notes."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from scorepad.locale import N_, Said
from scorepad.rules.format import GAME, ID_PATTERN
from scorepad.rules.problems import Problems
from scorepad.rules.sections import section

ID_RE = re.compile(ID_PATTERN)


@dataclass(frozen=True)
class Game:
    id: str
    name: str
    names: dict[str, str]
    aliases: tuple[str, ...]
    description: str
    notes: tuple[str, ...]


def read_game(data: dict[str, Any], p: Problems) -> Game:
    game = section(data, "game", GAME, p)
    rid = game.get("id")
    if not isinstance(rid, str) or not ID_RE.match(rid):
        p.add("game.id", Said(N_("needs an id of lower-case letters, digits and - (like 'spades')")))
        rid = "invalid"
    name = game.get("name", "")
    raw = data.get("game")
    if not isinstance(raw, dict) or raw.get("name") is None:
        p.add("game.name", Said(N_("is required")))
    return Game(rid, name or rid, dict(game.get("names", {})), tuple(game.get("aliases", [])),
                game.get("description", ""), tuple(game.get("notes", [])))
