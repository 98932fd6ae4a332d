"""Choosing the language: --lang, SCOREPAD_LANG, the config, the locale; unknown codes; JSON stays neutral."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from scorepad.locale import choose, from_locale
from tests.conftest import Run


@pytest.mark.parametrize(("flag", "config", "env", "want"), [
    ("ru", "et", {"SCOREPAD_LANG": "uk", "LANG": "en_US.UTF-8"}, "ru"),
    (None, "et", {"SCOREPAD_LANG": "uk", "LANG": "ru_RU.UTF-8"}, "uk"),   # the environment beats the config
    (None, "et", {"LANG": "ru_RU.UTF-8"}, "et"),
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
    assert choose(flag, config, env)[:2] == (want, None)


def test_unknown_codes_fall_back_to_english_with_a_warning() -> None:
    code, warning, _source = choose("xx", None, {})
    assert code == "en" and warning is not None and "'xx'" in warning and "English" in warning
    code, warning, _source = choose(None, None, {"SCOREPAD_LANG": "de"})
    assert code == "en" and warning is not None and "SCOREPAD_LANG" in warning
    # a locale scorepad has no catalog for is simply English (every command would warn otherwise)
    assert choose(None, None, {"LANG": "de_DE.UTF-8"}) == ("en", None, "default")
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


# --------------------------------------------------------------------------- transcripts

WORDS = {   # what each language says, from its catalog: a refusal, an event, headings, the season table
    "et": {"refused": "segamised: peab olema täisarv, mitte 'x'", "hand": "Jagamine 1", "over": "mäng läbi: võitis ann",
           "after": "Pärast iga jagamist kirjuta:", "season": "Hooaeg s1: 1 mäng", "player": "mängija",
           "won": "võitis", "out": "väljas", "game": "marjas"},
    "ru": {"refused": "перетасовки: нужно целое число, а не 'x'", "hand": "Раздача 1",
           "over": "игра окончена: победа — ann", "after": "После каждой раздачи введите:",
           "season": "Сезон s1: 1 игра", "player": "игрок", "won": "победа", "out": "вне игры", "game": "thousand"},
    "uk": {"refused": "тасування: потрібне ціле число, а не 'x'", "hand": "Роздача 1",
           "over": "гру закінчено: перемога — ann", "after": "Після кожної роздачі введіть:",
           "season": "Сезон s1: 1 гра", "player": "гравець", "won": "перемога", "out": "поза грою", "game": "skid"},
}


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_a_game_in_each_language(cli: Callable[..., Run], lang: str) -> None:
    from scorepad.rules.registry import load
    from scorepad.rules.translations import languages, translate

    w = WORDS[lang]
    assert cli("new", "skid", "ann", "bob", "--season", "s1").code == 0
    # a refused hand: a plain sentence in the language, exit 2, nothing stored
    r = cli("--lang", lang, "hand", "out=ann", "reshuffles=x", "bob.cards=QS JH AH")
    assert r.code == 2 and w["refused"] in r.err, r.err
    # a hand with an event: x3 for 4 reshuffles, (50 + 20 + 15) x 3 = 255 puts bob past 125: out, ann wins
    r = cli("--lang", lang, "hand", "out=ann", "reshuffles=4", "bob.cards=QS JH AH")
    assert r.code == 0, r.err
    assert r.out.startswith(w["hand"]) and f"* {w['over']}" in r.out, r.out
    assert w["won"] in r.out and w["out"] in r.out
    # a season table
    r = cli("--lang", lang, "season", "s1")
    assert r.code == 0 and r.out.startswith(w["season"]) and w["player"] in r.out.splitlines()[1], r.out
    # `rules show` of a game of that language
    r = cli("--lang", lang, "rules", "show", w["game"])
    assert r.code == 0 and w["after"] in r.out
    rs = load(w["game"])
    if lang in languages(rs):   # the game's own texts, where its ruleset carries them
        assert r.out.startswith(translate(rs, lang).name)


def test_english_is_unchanged_by_the_machinery(cli: Callable[..., Run]) -> None:
    """`--lang en` and no language at all print the same, and the English texts are the ids themselves."""
    assert cli("new", "skid", "ann", "bob", "cat").code == 0
    assert cli("hand", "out=ann", "bob.cards=QS JH", "cat.cards=9S").code == 0
    for args in (["standings"], ["sheet"], ["rules", "show", "marjas"], ["season"], ["log"]):
        assert cli(*args).out == cli("--lang", "en", *args).out
    out = cli("standings").out
    assert "Game 1: Skid, after 1 hand\n" in out and "Next: hand 2; bob deals" in out


def test_the_html_report_names_its_language(cli: Callable[..., Run], tmp_path: Path) -> None:
    assert cli("new", "skid", "ann", "bob", "--season", "s1").code == 0
    assert cli("hand", "out=ann", "reshuffles=4", "bob.cards=QS JH AH").code == 0
    for lang, words in (("ru", ["Сезон s1", "игрок", "Рейтинг"]), ("en", ["Season s1", "player", "Rating"])):
        out = tmp_path / f"{lang}.html"
        assert cli("--lang", lang, "season", "s1", "--format", "html", "--output", str(out)).code == 0
        page = out.read_text(encoding="utf-8")
        assert f'<html lang="{lang}">' in page and all(w in page for w in words)


@pytest.mark.parametrize(("lang", "no", "yes"), [("en", "no", "yes"), ("et", "ei", "jah"), ("ru", "нет", "да"),
                                                 ("uk", "ні", "так")])
def test_yes_no_columns_read_in_the_language(cli: Callable[..., Run], lang: str, no: str, yes: str) -> None:
    """A side's yes/no value (bridge's vulnerable) in the reader's words; --json keeps true/false."""
    assert cli("new", "bridge", "ann", "bob", "cat", "dan").code == 0
    # NS make 4 spades: 120 below the line, a game, so NS become vulnerable
    assert cli("hand", "contract=4S", "by=ann", "result=made").code == 0
    rows = cli("--lang", lang, "standings").out.splitlines()
    ns = next(r for r in rows if r.startswith("NS"))
    ew = next(r for r in rows if r.startswith("EW"))
    assert f" {yes} " in ns and f" {no} " in ew, rows
    sides = json.loads(cli("--lang", lang, "standings", "--json").out)["sides"]
    assert [s["shown"]["vulnerable"] for s in sides] == [True, False]


@pytest.mark.parametrize(("lang", "draw", "won"), [(None, "draw", "won"), ("et", "viik", "võitis"),
                                                   ("ru", "ничья", "победа"), ("uk", "нічия", "перемога")])
def test_a_drawn_game_shows_no_winner(cli: Callable[..., Run], lang: str | None, draw: str, won: str) -> None:
    """Piquet, 126-126 after eight deals: the sides share a draw; nobody is shown as having won."""
    import tomllib

    scenario = tomllib.loads((Path(__file__).parents[1] / "scenarios" / "piquet" / "tie_draw.toml").read_text())
    assert cli("new", "piquet", "a", "b").code == 0
    for hand in scenario["hand"]:
        assert cli("hand", *hand["input"]).code == 0
    flag = ["--lang", lang] if lang else []
    for command in ("standings", "sheet"):
        out = cli(*flag, command).out
        assert draw in out.lower() and won not in out.lower(), out
    assert json.loads(cli("standings", "--json").out)["draw"] is True


@pytest.mark.parametrize("word", ["ні", "нет", "ei", "no"])
def test_a_yes_no_option_takes_the_words_of_every_language(cli: Callable[..., Run], word: str) -> None:
    """`rules show` writes the option as «ні» in Ukrainian: the same word is read back."""
    r = cli("new", "skid", "a", "b", "--opt", f"floor_at_zero={word}")
    assert r.code == 0, r.err
    assert json.loads(cli("standings", "--json").out)["options"]["floor_at_zero"] is False
    assert cli("new", "skid", "a", "b", "--opt", "floor_at_zero=так").code == 0
    assert json.loads(cli("standings", "--json").out)["options"]["floor_at_zero"] is True
