"""Finding rulesets: the bundled ones, user directories, and files by path; by id, alias or native name.

A user ruleset with the same id as a bundled one overrides it. Names match case-insensitively and
also without diacritics, so `ärtuandmine`, `artuandmine`, `тысяча` and `1000` all find their game.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from scorepad.errors import RulesetError, UserError
from scorepad.ruleset import Ruleset, load_text, parse_toml, read_text


@dataclass(frozen=True)
class Entry:
    id: str
    path: Path
    names: tuple[str, ...]


def bundled_dir() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here / "rulesets", here.parent / "rulesets"):
        if candidate.is_dir():
            return candidate
    try:
        from importlib.resources import files

        return Path(str(files("scorepad.rulesets")))
    except (ImportError, ModuleNotFoundError):  # pragma: no cover - broken install
        return here / "rulesets"


def user_dirs(extra: Sequence[str] = ()) -> list[Path]:
    dirs = [Path(d) for d in extra]
    env = os.environ.get("SCOREPAD_RULES", "")
    dirs += [Path(d) for d in env.split(os.pathsep) if d]
    return dirs


def fold(text: str) -> str:
    """Case- and accent-insensitive form of a name (ä → a, й stays a Cyrillic letter)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c) or c in "\u0306")


@lru_cache(maxsize=64)
def _entry(path: Path, mtime: float) -> Entry | None:
    try:
        data = parse_toml(read_text(path), str(path))
    except RulesetError:
        return None
    game = data.get("game")
    if not isinstance(game, dict) or not isinstance(game.get("id"), str):
        return None
    names = [game["id"], str(game.get("name", ""))]
    if isinstance(game.get("aliases"), list):
        names += [str(a) for a in game["aliases"]]
    if isinstance(game.get("names"), dict):
        names += [str(n) for n in game["names"].values()]
    return Entry(game["id"], path, tuple(fold(n) for n in names if n))


def entries(extra_dirs: Sequence[str] = ()) -> dict[str, Entry]:
    """Every known ruleset by id; user directories override the bundled ones."""
    found: dict[str, Entry] = {}
    for directory in [bundled_dir(), *user_dirs(extra_dirs)]:
        if not directory.is_dir():
            continue
        for path in sorted(directory.glob("*.toml")):
            entry = _entry(path, path.stat().st_mtime)
            if entry is not None:
                found[entry.id] = entry
    return found


def resolve(spec: str, extra_dirs: Sequence[str] = ()) -> tuple[Path, str | None]:
    """A RULESET argument (id, alias, native name or path, optionally `:VARIANT`) to a file and variant."""
    name, variant = spec, None
    if ":" in spec and not Path(spec).exists():
        name, _, variant = spec.rpartition(":")
        variant = variant or None
    path = Path(name)
    if name.endswith(".toml") or os.sep in name:
        if not path.is_file():
            raise UserError(f"no ruleset file {name}")
        return path, variant
    want = fold(name)
    known = entries(extra_dirs)
    if name in known:
        return known[name].path, variant
    hits = [e for e in known.values() if want in e.names]
    if len(hits) == 1:
        return hits[0].path, variant
    if not hits:
        raise UserError(f"unknown game {name!r}; `scorepad rules list` shows the games")
    raise UserError(f"{name!r} could mean {', '.join(e.id for e in hits)}; use the id")


def load(spec: str, extra_dirs: Sequence[str] = (), variant: str | None = None) -> Ruleset:
    """Load a ruleset by RULESET argument; `variant` (from --opt variant=) wins over `:VARIANT`."""
    path, spec_variant = resolve(spec, extra_dirs)
    text = read_text(path)
    return load_text(text, str(path), variant or spec_variant)
