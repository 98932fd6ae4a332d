"""Choosing the language: --lang, the config, SCOREPAD_LANG, the locale; unknown codes; JSON stays neutral."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from scorepad.locale import choose, from_locale
from tests.conftest import Run


@pytest.mark.parametrize(("flag", "config", "env", "want"), [
    ("ru", "et", {"SCOREPAD_LANG": "uk", "LANG": "en_US.UTF-8"}, "ru"),
    (None, "et", {"SCOREPAD_LANG": "uk", "LANG": "ru_RU.UTF-8"}, "et"),
    (None, None, {"SCOREPAD_LANG": "uk", "LANG": "ru_RU.UTF-8"}, "uk"),
    (None, None, {"LANG": "ru_RU.UTF-8"}, "ru"),
    (None, None, {"LC_MESSAGES": "et_EE.UTF-8", "LANG": "ru_RU.UTF-8"}, "et"),
    (None, None, {"LC_ALL": "uk_UA.UTF-8", "LC_MESSAGES": "et_EE.UTF-8"}, "uk"),
    (None, None, {"LANG": "C.UTF-8"}, "en"),
    (None, None, {}, "en"),
    ("RU", None, {}, "ru"),
    ("ru-RU", None, {}, "ru"),
])
def test_the_order_of_choice(flag: str | None, config: str | None, env: dict[str, str], want: str) -> None:
    assert choose(flag, config, env) == (want, None)


def test_unknown_codes_fall_back_to_english_with_a_warning() -> None:
    code, warning = choose("xx", None, {})
    assert code == "en" and warning is not None and "'xx'" in warning and "English" in warning
    code, warning = choose(None, None, {"SCOREPAD_LANG": "de"})
    assert code == "en" and warning is not None and "SCOREPAD_LANG" in warning
    # a locale scorepad has no catalog for is simply English (every command would warn otherwise)
    assert choose(None, None, {"LANG": "de_DE.UTF-8"}) == ("en", None)
    assert from_locale({"LANG": "POSIX"}) is None


def test_the_warning_is_printed_once(cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREPAD_CONFIG", str(tmp_path / "config.toml"))
    r = cli("--lang", "xx", "rules", "list")
    assert r.code == 0 and r.err.count("warning: --lang asks for language 'xx'") == 1
    assert "hearts" in r.out


def test_json_is_the_same_in_every_language(cli: Callable[..., Run], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREPAD_CONFIG", str(tmp_path / "config.toml"))
    outputs: dict[str, list[str]] = {}
    for lang in ("en", "et", "ru", "uk"):
        monkeypatch.setenv("SCOREPAD_DB", str(tmp_path / f"{lang}.db"))
        outs = [cli("--lang", lang, "new", "skid", "ann", "bob", "cat", "--json").out,
                cli("--lang", lang, "hand", "out=ann", "bob.cards=QS JH", "cat.cards=9S", "--json").out,
                cli("--lang", lang, "standings", "--json").out,
                cli("--lang", lang, "sheet", "--json").out,
                cli("--lang", lang, "rules", "show", "marjas", "--json").out,
                cli("--lang", lang, "rules", "list", "--json").out]
        outputs[lang] = [o.replace(f"{lang}.db", "X.db") for o in outs]
        assert all(json.loads(o) is not None for o in outs)
    assert outputs["et"] == outputs["en"] and outputs["ru"] == outputs["en"] and outputs["uk"] == outputs["en"]
