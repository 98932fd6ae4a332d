"""Finding rulesets: the bundled ones, user directories, and files by path; by id, alias or native name.

A user ruleset with the same id as a bundled one overrides it. Names match case-insensitively and
also without diacritics, so `ärtuandmine`, `artuandmine`, `тысяча` and `1000` all find their game.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorepad.errors import RulesetError, UserError
from scorepad.locale import _
from scorepad.names import closest, did_you_mean, fold
from scorepad.rules import bundled as rules_index
from scorepad.rules.bundled import bundled_dir

if TYPE_CHECKING:
    from scorepad.rules.model import Ruleset


@dataclass(frozen=True)
class Entry:
    id: str
    path: Path
    names: tuple[str, ...]
    digest: str = ""   # SHA-256 of the file's text: its key in the bundled summary index


def user_dirs(extra: Sequence[str] = ()) -> list[Path]:
    """The user's rules directories as given, weakest first (scorepad.app.settings resolves them once,
    SCOREPAD_RULES among them): a later directory's ruleset overrides an earlier one's of the same id."""
    return [Path(d) for d in extra]


def names_of(data: dict[str, Any]) -> tuple[str, tuple[str, ...]] | None:
    """A parsed ruleset's id and the folded names it is found by (id, name, aliases, native names)."""
    game = data.get("game")
    if not isinstance(game, dict) or not isinstance(game.get("id"), str):
        return None
    names = [game["id"], str(game.get("name", ""))]
    if isinstance(game.get("aliases"), list):
        names += [str(a) for a in game["aliases"]]
    if isinstance(game.get("names"), dict):
        names += [str(n) for n in game["names"].values()]
    return game["id"], tuple(fold(n) for n in names if n)


@dataclass(frozen=True)
class Unreadable:
    """A ruleset file that cannot be read (not TOML, not UTF-8, too large, no `[game] id`).

    It is found by its file name (`spades.toml` as `spades`), and by the names of the ruleset it takes the
    place of, so that asking for that game names the file and its problem instead of quietly playing the
    ruleset it was meant to override."""
    id: str                    # the file's stem
    path: Path
    problem: str               # the sentence that names the file and the place
    names: tuple[str, ...] = ()


@lru_cache(maxsize=64)
def _entry(path: Path, mtime: float) -> Entry | Unreadable | None:
    """A ruleset file's id and names: from the bundled index when its text is an indexed one, else parsed.
    None for a TOML file that is not a ruleset (a scenario beside its ruleset)."""
    from scorepad.rules.source import read_text  # start-up: `rules list` answered from the index parses no TOML

    try:
        text = read_text(path)
        key = rules_index.digest(text)
        found = rules_index.entry_names(key)
        if found is None:
            # start-up: `rules list` answered from the index parses no TOML
            from scorepad.rules.source import parse_toml

            data = parse_toml(text, str(path))
            found = names_of(data)
            if found is None:
                return None if _not_a_ruleset(path, data) else _unreadable(path, _missing_id(text, path))
    except RulesetError as exc:
        return None if _not_a_ruleset(path, None) else _unreadable(path, exc.message)
    return Entry(found[0], path, found[1], key)


def _not_a_ruleset(path: Path, data: dict[str, Any] | None) -> bool:
    """A scenario file (`NAME.scenario.toml`, or one naming its `ruleset`): kept beside rulesets, never one."""
    return ".scenario" in path.name or (data is not None and "ruleset" in data and "game" not in data)


def _unreadable(path: Path, problem: str) -> Unreadable:
    return Unreadable(path.stem, path, problem, (fold(path.stem),))


def _missing_id(text: str, path: Path) -> str:
    """The loader's sentence for a file without a usable `[game] id` (the loader only for such a file)."""
    from scorepad.rules.loader import load_text  # start-up: only a file that is not a ruleset needs it

    try:
        load_text(text, str(path))
    except RulesetError as exc:
        return exc.message
    return f"{path}: game.id: missing"  # pragma: no cover - the loader refuses a ruleset without an id


def scan(extra_dirs: Sequence[str] = ()) -> tuple[dict[str, Entry | Unreadable], list[Unreadable]]:
    """Every ruleset file by id (user directories override the bundled ones, later ones earlier ones),
    and the files that cannot be read. An unreadable file takes the place of the ruleset of its file
    name, as a readable one would: asking for that game is refused with the file's problem."""
    return _scan([bundled_dir(), *user_dirs(extra_dirs)])


def _files(directories: Sequence[Path], also: Path | None = None) -> Iterator[Path]:
    """The ruleset files in the order the search reads them, a later one overriding an earlier of the
    same id: directory by directory, by file name within one; `also` (a file about to be written) in
    the place it will take."""
    for directory in directories:
        files = sorted(directory.glob("*.toml")) if directory.is_dir() else []
        if also is not None and directory.resolve() == also.resolve().parent and all(f.name != also.name for f in files):
            files = sorted([*files, directory / also.name])
        yield from files


def _scan(directories: Sequence[Path]) -> tuple[dict[str, Entry | Unreadable], list[Unreadable]]:
    found: dict[str, Entry | Unreadable] = {}
    broken: list[Unreadable] = []
    for path in _files(directories):
        entry = _entry(path, path.stat().st_mtime)
        if isinstance(entry, Unreadable):
            broken.append(entry)
            before = found.get(entry.id)
            found[entry.id] = entry if before is None else Unreadable(
                entry.id, entry.path, entry.problem, (*entry.names, *before.names))
        elif entry is not None:
            found[entry.id] = entry
    return found, broken


def loaded_from(path: Path, ruleset_id: str, extra_dirs: Sequence[str] = ()) -> Path | None:
    """The file a ruleset of this id is loaded from once `path` (about to be written) holds it: `path`
    itself, a file after it in the search order that takes its id (see `_scan`: later directories win,
    and within one directory the later file name), or None when `path`'s directory is not searched."""
    target = path.resolve()
    winner: Path | None = None
    for file in _files([bundled_dir(), *user_dirs(extra_dirs)], also=path):
        if file.resolve() == target:
            winner = path
            continue
        entry = _entry(file, file.stat().st_mtime)
        if entry is not None and entry.id == ruleset_id:
            winner = file
    return winner


def entries(extra_dirs: Sequence[str] = ()) -> dict[str, Entry]:
    """Every usable ruleset by id; user directories override the bundled ones (a file that cannot be
    read hides the ruleset it overrides: see `scan`)."""
    return {k: e for k, e in scan(extra_dirs)[0].items() if isinstance(e, Entry)}


def bundled_entry(name: str) -> Entry | None:
    """The bundled ruleset with this id, alias or native name (one only), whatever user directories hold."""
    known = _scan([bundled_dir()])[0]
    found = known.get(name)
    if isinstance(found, Entry):
        return found
    hits = [e for e in known.values() if isinstance(e, Entry) and fold(name) in e.names]
    return hits[0] if len(hits) == 1 else None


def _usable(entry: Entry | Unreadable) -> Path:
    if isinstance(entry, Unreadable):
        raise RulesetError(entry.problem, [entry.problem])
    return entry.path


def resolve(spec: str, extra_dirs: Sequence[str] = ()) -> tuple[Path, str | None]:
    """A RULESET argument (id, alias, native name or path, optionally `:VARIANT`) to a file and variant."""
    name, variant = spec, None
    if ":" in spec and not Path(spec).exists():
        name, _colon, variant = spec.rpartition(":")
        variant = variant or None
    path = Path(name)
    if name.endswith(".toml") or os.sep in name:
        if not path.is_file():
            raise UserError(_("no ruleset file {name}").format(name=name))
        return path, variant
    want = fold(name)
    known = scan(extra_dirs)[0]
    if name in known:
        return _usable(known[name]), variant
    hits = [e for e in known.values() if want in e.names]
    if len(hits) == 1:
        return _usable(hits[0]), variant
    if not hits and variant is None:
        named = _variant_named(known, want)
        if named is not None:
            return named
    if not hits:
        guess = closest(name, [n for e in known.values() for n in (e.id, *e.names)], lambda n: _id_of(known, n))
        raise UserError(_("unknown game {name}{value}; `scorepad rules list` shows the games").format(
                            name=repr(name), value=did_you_mean(guess)))
    raise UserError(_("{name} could mean {value}; use the id").format(
                        name=repr(name), value=', '.join(e.id for e in hits)))


def _variant_named(known: Mapping[str, Entry | Unreadable], want: str) -> tuple[Path, str] | None:
    """A bundled variant's own name standing for its game and itself (`chicago` for `bridge:chicago`),
    when no game has that name and exactly one bundled game has a variant of it."""
    found = []
    for entry in known.values():
        if isinstance(entry, Entry) and entry.digest:
            variants = (rules_index.summary(entry.digest, None) or {}).get("variants") or {}
            found += [(entry, v) for v in variants if fold(v) == want]
    if len(found) != 1:
        return None
    return _usable(found[0][0]), found[0][1]


def _id_of(known: Mapping[str, Entry | Unreadable], name: str) -> str:
    return name if name in known else next((e.id for e in known.values() if name in e.names), name)


def display_source(path: Path) -> str:
    """How messages name a ruleset file: a bundled one by its file name, never by the installation path."""
    try:
        if path.resolve().is_relative_to(bundled_dir().resolve()):
            return path.name
    except OSError:  # pragma: no cover - an unreadable path is reported by whoever reads it
        pass
    return str(path)


def ruleset_id(spec: str, extra_dirs: Sequence[str] = (), stored: Iterable[str] = ()) -> str:
    """The ruleset id a RULESET argument means (id, alias, native name or path); ids of stored games count too,
    so games of a ruleset file that is gone can still be selected."""
    stored = set(stored)
    if spec in stored:
        return spec
    try:
        path, _variant = resolve(spec, extra_dirs)
    except UserError as exc:
        folded = {fold(s): s for s in stored}
        if fold(spec) in folded:
            return folded[fold(spec)]
        if isinstance(exc, RulesetError):
            raise   # the game's file is there and cannot be read: say so, not that the game is unknown
        known = entries(extra_dirs)
        guess = closest(spec, [*stored, *(n for e in known.values() for n in (e.id, *e.names))],
                        lambda n: _id_of(known, n))
        raise UserError(_("unknown game {spec}{value}; `scorepad rules list` shows the games").format(
                            spec=repr(spec), value=did_you_mean(guess))) from None
    found = next((e.id for e in entries(extra_dirs).values() if e.path == path), None)
    if found is None:
        found = load(str(path), extra_dirs).id
    return found


def load(spec: str, extra_dirs: Sequence[str] = (), variant: str | None = None) -> Ruleset:
    """Load a ruleset by RULESET argument and a variant, by `:VARIANT` or by `variant` (from --opt
    variant=); two different variants, one each way, are refused naming both."""
    from scorepad.rules.loader import load_text  # start-up: the loader and compiler only once a ruleset is loaded

    path, spec_variant = resolve(spec, extra_dirs)
    if variant and spec_variant and variant != spec_variant:
        # the words of a value typed twice in `hand`
        raise UserError(_("{label} is given twice, as {first} ({first_typed}) and as {second} ({second_typed}); "
                          "type it once").format(label="variant", first=spec_variant, first_typed=spec,
                                                 second=variant, second_typed=f"--opt variant={variant}"))
    text, _warnings = resolved_text(path, extra_dirs)
    return load_text(text, display_source(path), variant or spec_variant)


MAX_DERIVATION = 5


def resolved_text(path: Path, extra_dirs: Sequence[str] = (), depth: int = 0,
                  standing_for: Path | None = None) -> tuple[str, list[str]]:
    """A ruleset's self-contained text: a derived file (`base = "skid"`) merged over its base.

    Returns the text and warnings (a base whose text changed since the file was derived from it).
    Games pin this text, so a later change of the base never changes them. A file that overrides a
    bundled ruleset and names it as its base (`spades.toml` with `base = "spades"`: house rules under
    the game's own id) is merged over the bundled one. `standing_for`: the path `path` is a probe of
    (`rules derive` checks what it writes before writing it).
    """
    from scorepad.rules.source import parse_toml, read_text  # start-up: an indexed text is not parsed

    text = read_text(path)
    if rules_index.record(rules_index.digest(text)) is not None:
        return text, []   # an indexed text is a bundled ruleset's, and the index holds none with a base
    data = parse_toml(text, str(path))
    if "base" not in data:
        return text, []
    if depth >= MAX_DERIVATION:
        raise RulesetError(_("{path}: base: derived more than {MAX_DERIVATION} levels deep (a loop?)").format(
                               path=path, MAX_DERIVATION=MAX_DERIVATION))
    base_spec = data["base"]
    if not isinstance(base_spec, str) or not re.match(r"^[a-z0-9][a-z0-9-]{0,40}$", base_spec):
        # an id, never a path: a ruleset from a stranger must not make scorepad read other files
        raise RulesetError(_("{path}: base: must be the id of the ruleset this one is derived from, like "
                              "\"skid\"").format(path=path))
    base_path, _variant = resolve(base_spec, extra_dirs)
    itself = {Path(p).resolve() for p in (path, standing_for) if p is not None}
    if base_path.resolve() in itself:
        bundled = bundled_entry(base_spec)
        if bundled is not None and bundled.path.resolve() not in itself:
            base_path = bundled.path
    if base_path.resolve() in itself:
        raise RulesetError(_("{path}: base: a ruleset cannot be derived from itself").format(path=path))
    base_text, warnings = resolved_text(base_path, extra_dirs, depth + 1)
    want = data.get("base_hash")
    if want is not None and want != text_hash(base_text):
        warnings.append(_("{path}: warning: its base {base_spec} has changed since this ruleset was "
                           "derived from it; check that the overlay still does what you want (games already "
                           "played keep their rules)").format(path=path, base_spec=repr(base_spec)))
    from scorepad.rules.sections.variants import merge  # start-up: only a ruleset with a base needs it

    overlay = {k: v for k, v in data.items() if k not in ("base", "base_hash")}
    merged = merge(parse_toml(base_text, str(base_path)), overlay)
    if isinstance(overlay.get("game"), dict):
        game = dict(merged.get("game", {}))
        for key in ("names", "aliases"):
            game[key] = overlay["game"].get(key, {} if key == "names" else [])
        merged["game"] = game
    from scorepad.rules.translations import drop_stale  # start-up: ~30 ms; only a ruleset with translations needs it

    drop_stale(merged, overlay)
    import tomli_w  # start-up: only writing needs tomli_w (~1 ms)

    return tomli_w.dumps(merged), warnings


def text_hash(text: str) -> str:
    import hashlib  # start-up: ~6 ms; only pinning a text needs it

    return hashlib.sha256(text.encode()).hexdigest()[:16]
