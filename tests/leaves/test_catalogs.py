"""The gettext catalogs: complete in et, ru and uk, the same placeholders, the right plural forms,
the template up to date with the code and the shipped .mo files up to date with the .po files."""

from __future__ import annotations

import re
from collections.abc import Callable
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from tests.conftest import Run

LOCALE = Path(__file__).parents[2] / "scorepad" / "locale"
PACKAGE = LOCALE.parent
PLURALS = {"et": 2, "ru": 3, "uk": 3}
FIELD = re.compile(r"(?<!\{)\{([^{}]*)\}(?!\})")


def catalog(lang: str) -> Catalog:
    with (LOCALE / lang / "LC_MESSAGES" / "scorepad.po").open("rb") as fh:
        return read_po(fh, locale=lang)


def template() -> Catalog:
    with (LOCALE / "scorepad.pot").open("rb") as fh:
        return read_po(fh)


def ids(cat: Catalog) -> set[object]:
    return {m.id for m in cat if m.id}


def test_the_template_holds_every_marked_message() -> None:
    """A message marked in the code but missing from scorepad.pot was never extracted (docs/translating.md)."""
    from babel.messages.frontend import parse_mapping_cfg

    with (PACKAGE.parent / "babel.cfg").open(encoding="utf-8") as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    marked = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(PACKAGE.parent), method_map=method_map, options_map=options_map,
            keywords={"_": None, "N_": None, "ngettext": (1, 2)}):
        marked.add(message)
    assert marked, "nothing marked?"
    assert marked == ids(template())


@pytest.mark.parametrize("lang", sorted(PLURALS))
def test_every_message_is_translated_with_the_same_placeholders(lang: str) -> None:
    cat = catalog(lang)
    assert ids(cat) == ids(template()), f"{lang}: run pybabel update (docs/translating.md)"
    assert cat.num_plurals == PLURALS[lang]
    for m in cat:
        if not m.id:
            continue
        sources = list(m.id) if isinstance(m.id, tuple) else [m.id]
        strings = list(m.string) if isinstance(m.string, tuple) else [m.string]
        if isinstance(m.id, tuple):
            assert len(strings) == PLURALS[lang], f"{lang}: {m.id[0]!r} needs {PLURALS[lang]} plural forms"
        assert all(s.strip() for s in strings), f"{lang}: {sources[0]!r} is not translated"
        assert not m.fuzzy, f"{lang}: {sources[0]!r} is marked fuzzy"
        want = sorted(set(FIELD.findall(sources[-1])))
        for s in strings:
            assert sorted(set(FIELD.findall(s))) == want, f"{lang}: {sources[0]!r} -> {s!r}: placeholders differ"


def as_dict(cat: Catalog) -> dict[object, object]:
    def norm(x: object) -> object:
        return tuple(x) if isinstance(x, (list, tuple)) else x

    return {norm(m.id): norm(m.string) for m in cat if m.id}


@pytest.mark.parametrize("lang", sorted(PLURALS))
def test_the_shipped_mo_is_the_compiled_po(lang: str) -> None:
    po = catalog(lang)
    with (LOCALE / lang / "LC_MESSAGES" / "scorepad.mo").open("rb") as fh:
        mo = read_mo(fh)
    fresh = BytesIO()
    write_mo(fresh, po)
    fresh.seek(0)
    compiled = read_mo(fresh)
    assert as_dict(mo) == as_dict(compiled), \
        f"{lang}: run pybabel compile -d scorepad/locale -D scorepad"


@pytest.mark.parametrize(("lang", "n", "want"), [
    ("ru", 1, "1 игра"), ("ru", 3, "3 игры"), ("ru", 5, "5 игр"), ("ru", 11, "11 игр"), ("ru", 21, "21 игра"),
    ("ru", 22, "22 игры"), ("uk", 1, "1 гра"), ("uk", 4, "4 гри"), ("uk", 12, "12 ігор"), ("uk", 101, "101 гра"),
    ("et", 1, "1 mäng"), ("et", 2, "2 mängu"),
])
def test_plural_forms(lang: str, n: int, want: str) -> None:
    from scorepad.locale import ngettext, set_language

    set_language(lang)
    assert ngettext("{n} game", "{n} games", n).format(n=n) == want


def test_help_in_each_language(cli: Callable[..., Run]) -> None:
    """--help is translated too (Typer reads the texts when it builds the commands), and English stays English."""
    out = cli("--lang", "ru", "standings", "--help").out
    assert "Текущие итоги" in out and "вывод в JSON" in out
    out = cli("--lang", "uk", "--help").out
    assert "Запис очок для карткових ігор" in out
    out = cli("standings", "--help").out
    assert "Current totals" in out and "Текущие" not in out
    # the example line: its label translated, the command itself as typed, on one line
    out = cli("--lang", "et", "hand", "--help").out
    assert "  Näide: scorepad hand bid=4,3,3,3 tricks=5,3,3,2   (terminalis küsib `scorepad hand` iga välja)\n" in out
    assert out.startswith("Kasutus: ") and "Näita seda abi ja välju." in out
    assert "Show this message and exit." in cli("hand", "--help").out       # English again after Estonian


def test_no_marked_message_hides_from_the_extractor() -> None:
    """Babel's extractor does not look inside f-strings; every `_("...")` the code holds must be in the template."""
    import ast

    in_template = {m.id[0] if isinstance(m.id, tuple) else m.id for m in template() if m.id}
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_", "N_", "ngettext")
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
                    and node.args[0].value not in in_template):
                missing.append(f"{path.name}:{node.lineno}: {node.args[0].value!r}")
    assert not missing, missing


_QUOTED = re.compile(r"[«„“\"']\{(\w+)\}[»“”\"']")


@pytest.mark.parametrize("lang", sorted(PLURALS))
def test_a_translation_quotes_no_value_the_program_quotes_already(lang: str) -> None:
    """Where the English message leaves a placeholder bare, the program passes a value already quoted
    (`repr` of a typed word): a translation that puts quotes around it shows «'кварта'»."""
    found = []
    for m in catalog(lang):
        if not m.id or not m.string:
            continue
        msgid = " ".join(m.id) if isinstance(m.id, tuple) else m.id
        quoted_in_english = set(_QUOTED.findall(msgid))
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for text in strings:
            found += [(msgid, name) for name in _QUOTED.findall(text) if name not in quoted_in_english]
    assert not found
