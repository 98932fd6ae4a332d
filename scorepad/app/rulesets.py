"""House rules and home-made games: derived rulesets, the starter, checking files, running scenarios.

Everything a player does with ruleset files lives here, so the CLI only parses and prints.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorepad.errors import RulesetError, ScorepadError, UserError
from scorepad.locale import Said, _, current
from scorepad.names import utf8_text
from scorepad.rules import bundled as rules_index
from scorepad.rules.bundled import bundled_dir
from scorepad.rules.registry import Unreadable, bundled_entry, load, loaded_from, resolve, resolved_text, scan, text_hash
from scorepad.text.output import write_output

# scorepad.rules.loader (the loader and every formula's compiler) is imported in the functions that load a
# ruleset: `rules export` only reads a file's text and needs none of it.

ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,40}$")


def write_new(path: Path, text: str | Iterable[str], force: bool) -> None:
    """Write a file atomically; an existing file is replaced only with `force` (see scorepad.text.output)."""
    write_output(path, text, force=force)


def _check_id(new_id: str, example: str) -> None:
    if not ID_RE.match(new_id):
        raise UserError(_("{new_id}: an id is lower-case letters, digits and - (like {example})").format(
                            new_id=repr(new_id), example=example))


def parse_opts(items: Sequence[str]) -> dict[str, str]:
    """`--opt KEY=VALUE` items as a table (keys lower-cased), for `new` and `rules derive`."""
    out: dict[str, str] = {}
    typed: dict[str, str] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise UserError(_("--opt {item}: write KEY=VALUE, e.g. --opt target=300").format(item=repr(item)))
        key, value = key.strip().lower(), value.strip()
        if key in out and out[key].casefold() != value.casefold():
            # the words of a value typed twice in `hand`: which of the two was meant is not a guess to make
            raise UserError(_("{label} is given twice, as {first} ({first_typed}) and as {second} ({second_typed}); "
                              "type it once").format(label=f"--opt {key}", first=out[key], first_typed=typed[key],
                                                     second=value, second_typed=item))
        out[key], typed[key] = value, item
    return out


def _check_texts(texts: Mapping[str, Sequence[str]]) -> None:
    """The texts a new ruleset file is written with: UTF-8, as the file is."""
    for option, values in texts.items():
        for value in values:
            utf8_text(value, option)


def derive(base: str, new_id: str, options: Mapping[str, str], name: str | None, aliases: Sequence[str],
           rules_dirs: Sequence[str], target_dir: Path, force: bool) -> Path:
    """Write `target_dir/NEW.toml`: only what differs from BASE, the base's id and the hash of its text."""
    import tempfile  # start-up: ~6 ms; only writing a file needs it

    import tomli_w  # start-up: only writing needs tomli_w (~1 ms)

    from scorepad.engine.game import resolve_options  # start-up: `rules list` and `rules export` load no engine
    from scorepad.rules.format import SCHEMA_FILE  # start-up: only writing a ruleset needs the format
    from scorepad.rules.loader import load_text  # start-up: loader and compiler, not needed by `rules list`/`export`

    _check_id(new_id, "skid-505")
    _check_texts({"--name": [name or ""], "--alias": list(aliases), "--opt": [f"{k}={v}" for k, v in options.items()]})
    if "variant" in options:
        raise UserError(_('a derived ruleset changes options; start it with GAME:VARIANT instead of --opt variant='))
    path = target_dir / f"{new_id}.toml"
    base_path, variant = resolve(base, rules_dirs)
    if base_path.resolve() == path.resolve():
        # new house rules of a game under its own id, replacing the ones written before: over the bundled game
        bundled = bundled_entry(new_id)
        base_path = bundled.path if bundled is not None else base_path
    rs = load(str(base_path), rules_dirs)
    if variant:
        raise UserError(_("{base}: a ruleset is derived from a whole game, never from one of its variants; derive "
                          "it from {id}, then start it with {new_id}:{variant}").format(
                              base=base, id=rs.id, new_id=new_id, variant=variant))
    _check_not_bundled(new_id, rs.id)
    _check_found(path, new_id, rules_dirs)
    typed = resolve_options(rs, options)
    base_text, _warnings = resolved_text(base_path, rules_dirs)
    changed = ", ".join(f"{k} {v}" for k, v in options.items())
    data: dict[str, Any] = {
        "format": 1, "base": rs.id, "base_hash": text_hash(base_text),
        "game": {"id": new_id, "name": name or f"{rs.name} ({changed or 'house rules'})", "aliases": list(aliases),
                 "notes": [f"Derived from {rs.id}: " + (changed or "no option changed") + "."]},
        "options": {k: {"default": typed[k]} for k in options},
    }
    text = f"#:schema ./{SCHEMA_FILE}\n" + tomli_w.dumps(data)
    with tempfile.TemporaryDirectory() as tmp:   # load it before writing: nothing is written if it fails
        probe = Path(tmp) / path.name
        probe.write_text(text, encoding="utf-8")
        merged, _warnings = resolved_text(probe, rules_dirs, standing_for=path)
    load_text(merged, str(path))
    target_dir.mkdir(parents=True, exist_ok=True)
    write_new(path, text, force)
    write_schema(target_dir)
    return path


def _check_not_bundled(new_id: str, base_id: str) -> None:
    """A derived ruleset under a bundled game's id (or alias) would be played instead of that game; only
    house rules of the game itself may take its id."""
    other = bundled_entry(new_id)
    if other is not None and other.id != base_id:
        name = rules_index.name_of(other.id, current()) or rules_index.name_of(other.id, None) or other.id
        raise UserError(_("{new_id} already names the bundled game {name}, and a ruleset of that id would be "
                          "played instead of it; choose another id").format(new_id=repr(new_id), name=name))


def _check_found(path: Path, new_id: str, rules_dirs: Sequence[str]) -> None:
    """A ruleset is written only where it is the one loaded under its id: a file of the same id read after
    it (a later rules directory, or a later name in the same one) would be played instead."""
    found = loaded_from(path, new_id, rules_dirs)
    if found is None:
        raise UserError(_("{directory} is not one of the rules directories scorepad reads, so {new_id} written "
                          "there would not be found").format(directory=path.parent, new_id=repr(new_id)))
    if found.resolve() != path.resolve():
        raise UserError(_("{path} would be hidden: {other}, read after it, also has the id {new_id} and would be "
                          "played instead; remove that file or choose another id").format(
                              path=path, other=found, new_id=repr(new_id)))


def write_starter(new_id: str, name: str | None, rules_dirs: Sequence[str], target_dir: Path,
                  force: bool) -> tuple[Path, Path]:
    """The starter ruleset and its example scenario, both checked before anything is written."""
    from scorepad.rules.loader import load_text  # start-up: loader and compiler, not needed by `rules list`/`export`
    from scorepad.rules.starter import SCENARIO, STARTER  # start-up: only `rules new` needs it

    _check_id(new_id, "my-game")
    _check_texts({"--name": [name or ""]})
    path = target_dir / f"{new_id}.toml"
    scenario = target_dir / f"{new_id}.scenario.toml"
    _check_found(path, new_id, rules_dirs)
    for target in (path, scenario):
        if target.exists() and not force:
            raise UserError(_("{target} exists; use --force to replace it").format(target=target))
    text = STARTER.format(id=new_id, name=name or new_id.replace("-", " ").title())
    load_text(text, str(path))
    target_dir.mkdir(parents=True, exist_ok=True)
    write_new(path, text, force)
    write_new(scenario, SCENARIO.format(path=path.name), force)
    write_schema(target_dir)
    return path, scenario


def write_schema(target_dir: Path) -> Path:
    """The format's JSON Schema beside a starter, which names it in its `#:schema` line for editors;
    rewritten when this scorepad's schema differs (it is generated, never edited by hand)."""
    from scorepad.rules.format import SCHEMA_FILE, schema_text  # start-up: only writing a ruleset needs the format

    path = target_dir / SCHEMA_FILE
    try:   # the shipped copy (a test keeps it equal to the generated one), cheaper than generating it
        text = (bundled_dir() / SCHEMA_FILE).read_text(encoding="utf-8")
    except OSError:
        text = schema_text()
    try:
        if path.read_text(encoding="utf-8") == text:
            return path
    except (OSError, UnicodeDecodeError):
        pass
    write_new(path, text, True)
    return path


@dataclass
class FileCheck:
    path: Path
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def check_file(path: Path, rules_dirs: Sequence[str]) -> FileCheck:
    """Load a ruleset file and every variant of it; collect problems and warnings instead of failing."""
    from scorepad.rules.loader import load_text  # start-up: loader and compiler, not needed by `rules list`/`export`
    from scorepad.rules.source import parse_toml  # start-up: TOML parsed only for a file that is loaded

    result = FileCheck(path)
    try:
        text, result.warnings = resolved_text(path, rules_dirs)
        data = parse_toml(text, str(path))
        load_text(text, str(path))
        variants = data.get("variants", {})
        for v in variants if isinstance(variants, dict) else {}:
            load_text(text, str(path), v)
    except RulesetError as exc:
        result.problems = exc.problems or [exc.message]
    except UserError as exc:
        result.problems = [Said("{path}: {message}", path=str(path), message=exc.message)]
    return result


def locate_problems(result: FileCheck) -> list[Any]:
    """The problems of a checked file with line and column (`rules check`; imports tomlkit)."""
    from scorepad.rules.locate import locate  # start-up: only locating a mistake needs it
    from scorepad.rules.source import MAX_FILE_BYTES  # start-up: TOML parsed only for a file that is loaded

    try:
        raw = result.path.read_bytes() if result.path.stat().st_size <= MAX_FILE_BYTES else b""
    except OSError:
        raw = b""
    return locate(str(result.path), raw.decode("utf-8", "replace"), result.problems)


def scenario_files(spec: str, given: Sequence[Path], rules_dirs: Sequence[str]) -> tuple[Any, list[Path]]:
    """The ruleset to test and its scenario files: those named, else the ones found beside it."""
    from scorepad.rules.loader import load_text  # start-up: loader and compiler, not needed by `rules list`/`export`

    path, variant = resolve(spec, rules_dirs)
    text, _warnings = resolved_text(path, rules_dirs)
    rs = load_text(text, str(path), variant)
    files = list(given)
    if not files:
        files = sorted(path.parent.glob(f"{path.stem}.scenario*.toml"))
        files += sorted((path.parent / "scenarios" / rs.id).glob("*.toml"))
        files += sorted((Path("tests") / "scenarios" / rs.id).glob("*.toml"))
    if not files:
        raise UserError(_("no scenarios for {id}: name them, or put {stem}.scenario.toml beside the ruleset").format(
                            id=rs.id, stem=path.stem))
    return rs, files


def summaries(extra_dirs: Sequence[str], language: str | None) -> tuple[list[dict[str, Any]], list[str]]:
    """`rules list`: every known ruleset's entry (sorted by id) and a problem line per file that does not load.

    A ruleset whose text is in the bundled index is answered from it; any other file is loaded and checked."""

    items: list[dict[str, Any]] = []
    known, unreadable = scan(extra_dirs)
    problems = [u.problem for u in unreadable]
    for entry in known.values():
        if isinstance(entry, Unreadable):
            continue
        found = rules_index.summary(entry.digest, language)
        if found is not None:
            items.append(found)
            continue
        # here, not at the top: `rules list` answered from the index loads no engine (~20 ms)
        from scorepad.rules.translations import translate
        from scorepad.text.describe import summary

        try:
            items.append(summary(translate(load(str(entry.path)), language), language))
        except ScorepadError as exc:
            source = str(entry.path)
            problems.append(exc.message if exc.message.startswith(f"{source}: ") else f"{source}: {exc.message}")
    items.sort(key=lambda d: d["id"])
    return items, problems
