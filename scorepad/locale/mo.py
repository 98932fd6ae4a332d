"""A compiled catalog (.mo) read as gettext.GNUTranslations reads it, decoding only what is shown.

gettext.GNUTranslations decodes every message of a catalog when it opens it (some 740 pairs,
93 kB for Russian), and `import gettext` compiles a tokenizer for plural formulas: together
~3 ms of a `scorepad --lang ru standings` that shows a dozen sentences. This reader indexes the
message ids as bytes and decodes a translation when it is asked for. It answers `gettext` and
`ngettext` exactly as GNUTranslations does (tests/leaves/test_mo_catalog.py compares them over every
message of every catalog); a catalog it does not understand in every detail (another charset,
another plural formula than the known ones, a message context, a format revision it does not
know) is left to GNUTranslations: `read()` returns None for it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

_LE_MAGIC = 0x950412DE

# The plural formulas of the shipped catalogs ("Plural-Forms: ... plural=EXPR;"), as Python:
# gettext.c2py gives the same numbers for them (tests/leaves/test_mo_catalog.py checks 0..10,000).
PLURALS: dict[str, Callable[[int], int]] = {
    "(n != 1)": lambda n: int(n != 1),
    "n != 1": lambda n: int(n != 1),
    "n % 10 == 1 && n % 100 != 11 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2":
        lambda n: 0 if n % 10 == 1 and n % 100 != 11 else 1 if 2 <= n % 10 <= 4 and (n % 100 < 12 or n % 100 > 14) else 2,
}


class Catalog:
    """The translations of one .mo file, decoded on demand."""

    def __init__(self, data: bytes, index: dict[bytes, tuple[int, int]], plural_index: dict[bytes, tuple[int, int]],
                 plural: Callable[[int], int]) -> None:
        self._data = data
        self._index = index                 # msgid -> (offset, length) of its translation
        self._plural_index = plural_index   # singular msgid of a plural entry -> its translations
        self.plural = plural

    def gettext(self, message: str) -> str:
        key = message.encode("utf-8", "surrogatepass")
        where = self._index.get(key)
        if where is not None:
            start, length = where
            return self._data[start:start + length].decode("utf-8")
        found = self._form(key, 1)   # GNUTranslations: a plural entry's form for 1
        return message if found is None else found

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        found = self._form(singular.encode("utf-8", "surrogatepass"), n)
        if found is not None:
            return found
        return singular if n == 1 else plural

    def _form(self, key: bytes, n: int) -> str | None:
        where = self._plural_index.get(key)
        if where is None:
            return None
        start, length = where
        forms = self._data[start:start + length].split(b"\x00")
        form = self.plural(n)
        return forms[form].decode("utf-8") if 0 <= form < len(forms) else None


def read(data: bytes) -> Catalog | None:
    """The catalog of a .mo file's bytes; None when GNUTranslations should read it instead."""
    if len(data) < 20 or int.from_bytes(data[:4], "little") != _LE_MAGIC:
        return None   # big-endian or not a catalog: as GNUTranslations decides
    version, count, originals, translations = (int.from_bytes(data[i:i + 4], "little") for i in range(4, 20, 4))
    if version >> 16 not in (0, 1):
        return None
    table_end = max(originals, translations) + 8 * count
    if table_end > len(data):
        return None
    if sys.byteorder != "little":   # pragma: no cover - the tables are read in the machine's order below
        return None
    view = memoryview(data)
    keys = view[originals:originals + 8 * count].cast("I")
    values = view[translations:translations + 8 * count].cast("I")
    if keys.itemsize != 4:   # pragma: no cover - a machine whose unsigned int is not 4 bytes
        return None
    k, v = keys.tolist(), values.tolist()
    size = len(data)
    if any(start + length >= size for start, length in zip(k[1::2] + v[1::2], k[0::2] + v[0::2], strict=True)):
        return None   # GNUTranslations calls the file corrupt
    index: dict[bytes, tuple[int, int]] = {}
    plural_index: dict[bytes, tuple[int, int]] = {}
    for klen, kstart, vlen, vstart in zip(k[0::2], k[1::2], v[0::2], v[1::2], strict=True):
        key = data[kstart:kstart + klen]
        if b"\x00" in key or b"\x04" in key:
            if b"\x04" in key or key.count(b"\x00") != 1:
                return None   # a message context (scorepad's catalogs have none), or not a plural pair
            plural_index[key.partition(b"\x00")[0]] = (vstart, vlen)
        else:
            index[key] = (vstart, vlen)
    start, length = index.get(b"", (0, 0))
    header = data[start:start + length]
    plural = _plural_of(header)
    if plural is None:
        return None
    return Catalog(data, index, plural_index, plural)


def _plural_of(header: bytes) -> Callable[[int], int] | None:
    """The plural function of the header, when its charset is UTF-8 and its formula a known one."""
    charset_ok = False
    formula = "n != 1"   # GNUTranslations' default without a Plural-Forms line
    for raw in header.split(b"\n"):
        line = raw.decode("ascii", "replace").strip()
        name, _, value = line.partition(":")
        name = name.strip().lower()
        if name == "content-type":
            charset_ok = value.strip().lower().replace(" ", "") in ("text/plain;charset=utf-8",)
        elif name == "plural-forms":
            expr = value.split("plural=", 1)[1] if "plural=" in value else None
            if expr is None:
                return None
            formula = expr.strip().rstrip(";").strip()
    if not charset_ok:
        return None
    return PLURALS.get(formula)
