"""scorepad.locale.mo answers as gettext.GNUTranslations does: every message of every shipped
catalog, its plural forms, and the catalogs it leaves to gettext."""

from __future__ import annotations

import gettext
import io
import struct
from pathlib import Path

import pytest

from scorepad import locale
from scorepad.locale import mo

CATALOGS = sorted(Path(locale.__file__).parent.glob("*/LC_MESSAGES/scorepad.mo"))


def _gnu(data: bytes) -> gettext.GNUTranslations:
    return gettext.GNUTranslations(io.BytesIO(data))


def test_every_language_has_a_catalog() -> None:
    assert {p.parent.parent.name for p in CATALOGS} == set(locale.LANGUAGES) - {"en"}


@pytest.mark.parametrize("path", CATALOGS, ids=[p.parent.parent.name for p in CATALOGS])
def test_every_message_as_gettext_gives_it(path: Path) -> None:
    data = path.read_bytes()
    ours, gnu = mo.read(data), _gnu(data)
    assert ours is not None, "the shipped catalogs are read without gettext"
    plurals = 0
    for key in gnu._catalog:  # type: ignore[attr-defined]
        if isinstance(key, tuple):
            plurals += 1
            msgid = key[0]
            assert ours.gettext(msgid) == gnu.gettext(msgid)
            for n in (*range(0, 130), 1001, 1011, 1012, 1021, 1111, 10**6 + 2):
                assert ours.ngettext(msgid, "many", n) == gnu.ngettext(msgid, "many", n), (msgid, n)
        else:
            assert ours.gettext(key) == gnu.gettext(key), key
    assert plurals > 0 and len(gnu._catalog) > 500  # type: ignore[attr-defined]
    for missing in ("no such message", "", "\udcff", "Game {n}\x00"):
        assert ours.gettext(missing) == gnu.gettext(missing)
        assert ours.ngettext(missing, "others", 3) == gnu.ngettext(missing, "others", 3)


@pytest.mark.parametrize("formula", sorted(mo.PLURALS))
def test_the_known_plural_formulas_are_gettexts(formula: str) -> None:
    ours, gnu = mo.PLURALS[formula], gettext.c2py(formula)
    assert [ours(n) for n in range(10001)] == [gnu(n) for n in range(10001)]


def _mo(pairs: dict[str, str], header: str, magic: int = 0x950412DE, revision: int = 0) -> bytes:
    """A .mo file (as msgfmt writes it) of `pairs` and a header."""
    items = sorted({"": header, **pairs}.items())
    ids = b"".join(k.encode() + b"\x00" for k, _ in items)
    strs = b"".join(v.encode() + b"\x00" for _, v in items)
    start = 7 * 4 + 16 * len(items)
    offsets, o = [], 0
    for k, _ in items:
        offsets += [len(k.encode()), start + o]
        o += len(k.encode()) + 1
    toffsets, o = [], 0
    for _, v in items:
        toffsets += [len(v.encode()), start + len(ids) + o]
        o += len(v.encode()) + 1
    order = ">" if magic == 0xDE120495 else "<"
    head = struct.pack("<I", 0x950412DE) if order == "<" else struct.pack(">I", 0x950412DE)
    head += struct.pack(f"{order}6I", revision, len(items), 28, 28 + 8 * len(items), 0, 0)
    return (head + struct.pack(f"{order}{len(offsets)}I", *offsets) + struct.pack(f"{order}{len(toffsets)}I", *toffsets)
            + ids + strs)


UTF8 = "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=(n != 1);\n"


def test_a_made_catalog_reads_as_gettext_reads_it() -> None:
    data = _mo({"a": "б", "one\x00many": "одна\x00много", "ü": "x"}, UTF8)
    ours, gnu = mo.read(data), _gnu(data)
    assert ours is not None
    for n in range(5):
        assert ours.ngettext("one", "many", n) == gnu.ngettext("one", "many", n)
    for msg in ("a", "ü", "one", "", "b"):
        assert ours.gettext(msg) == gnu.gettext(msg)


@pytest.mark.parametrize("data", [
    _mo({"a": "b"}, "Content-Type: text/plain; charset=latin-1\n"),                       # another charset
    _mo({"a": "b"}, "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=n>1;\n"),  # formula
    _mo({"ctx\x04a": "b"}, UTF8),                                                           # a message context
    _mo({"a": "b"}, UTF8, magic=0xDE120495),                                                # big-endian
    _mo({"a": "b"}, UTF8, revision=5 << 16),                                                # unknown revision
    _mo({"a": "b"}, UTF8)[:-3],                                                             # cut short
    b"not a catalog at all",
], ids=["charset", "plural", "context", "big-endian", "revision", "truncated", "garbage"])
def test_what_it_does_not_understand_is_left_to_gettext(data: bytes, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    assert mo.read(data) is None
    where = tmp_path / "ru" / "LC_MESSAGES"
    where.mkdir(parents=True)
    (where / "scorepad.mo").write_bytes(data)
    monkeypatch.setattr(locale, "LOCALE_DIR", tmp_path)
    try:
        gnu: gettext.GNUTranslations | None = _gnu(data)
    except OSError:
        gnu = None
    try:
        locale.set_language("ru")
        catalog = locale._STATE.catalog
        assert (catalog is None) == (gnu is None)
        if gnu is not None:
            assert isinstance(catalog, gettext.GNUTranslations)
            assert locale._("a") == gnu.gettext("a")
    finally:
        locale.set_language(None)


def test_set_language_reads_without_gettext(monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        locale.set_language("uk")
        assert isinstance(locale._STATE.catalog, mo.Catalog)
        assert locale._("error:") != "error:"
    finally:
        locale.set_language(None)
