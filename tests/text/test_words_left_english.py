"""Sentences an independent tester found in English inside et, ru and uk output: a missing game, an
unknown variant, an unreadable ruleset, refused imports, the log's actions, the season's last5 letters,
a user's broken ruleset and click's usage errors. Each reads in the chosen language; English is unchanged
and JSON keeps the English ids."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run

HOSTILE = Path(__file__).resolve().parents[1] / "hostile" / "import"


def test_a_missing_game_reads_in_the_language(cli: Callable[..., Run]) -> None:
    assert cli("new", "skid", "ann", "bob").code == 0
    english = "there is no game 99 (the last game is 1); `scorepad games` lists them"
    assert english in cli("use", "99").err
    for lang, args, said in (("et", ["use", "99"], "mängu 99 pole (viimane mäng on 1)"),
                             ("ru", ["abandon", "--game", "99"], "нет игры 99 (последняя игра — 1)"),
                             ("uk", ["hand", "--game", "99", "out=ann"], "немає гри 99 (остання гра — 1)")):
        r = cli("--lang", lang, *args)
        assert r.code == 2 and said in r.err and "the last game" not in r.err, r.err
    r = cli("--lang", "ru", "use", "sundy")
    assert r.code == 2 and "нет игры с названием 'sundy'" in r.err, r.err


@pytest.mark.parametrize(("lang", "said"), [("en", "skid.toml: unknown variant 'nosuch' (variants: none)"),
                                            ("et", "skid.toml: tundmatu variant 'nosuch' (variante pole)"),
                                            ("ru", "skid.toml: неизвестный вариант 'nosuch' (вариантов нет)"),
                                            ("uk", "skid.toml: невідомий варіант 'nosuch' (варіантів немає)")])
def test_an_unknown_variant_reads_in_the_language(cli: Callable[..., Run], lang: str, said: str) -> None:
    r = cli("--lang", lang, "new", "skid:nosuch", "a", "b", "c")
    assert r.code == 2 and said in r.err, r.err
    r = cli("--lang", lang, "new", "spades:nosuch", "a", "b", "c", "d")
    assert r.code == 2 and "'nosuch'" in r.err and "standard, blind-nil" in r.err, r.err
    assert ("unknown variant" in r.err) == (lang == "en"), r.err


@pytest.mark.parametrize(("lang", "said"), [("et", "faili ei saa lugeda"), ("ru", "не удаётся прочитать файл"),
                                            ("uk", "не вдається прочитати файл")])
def test_an_unreadable_ruleset_reads_in_the_language(cli: Callable[..., Run], tmp_path: Path, lang: str,
                                                     said: str) -> None:
    missing = str(tmp_path / "nonexist.toml")
    r = cli("--lang", lang, "rules", "check", missing)
    assert r.code == 2 and said in r.err and "cannot read" not in r.err, r.err
    assert cli("new", "skid", "ann", "bob").code == 0
    r = cli("--lang", lang, "rescore", "1", "--ruleset", missing)
    assert r.code == 2 and said in r.err and "cannot read" not in r.err, r.err


@pytest.mark.parametrize(("name", "english", "said"), [
    ("state_score_altered.json", "differs from a replay of its hands", "не совпадает с пересчётом раздач"),
    ("typed_differs_from_hand.json", "games[0].hand_rows[4].hand: not the values typed in games[0].hand_rows[4].typed",
     "games[0].hand_rows[4].hand: не те значения, что введены в games[0].hand_rows[4].typed"),
    ("bad_second_hand.toml", "the hand cannot be replayed", "hand[1]: раздачу не удаётся пересчитать: "),
])
def test_import_refusals_read_in_the_language(cli: Callable[..., Run], name: str, english: str, said: str) -> None:
    path = str(HOSTILE / name)
    assert english in cli("import", path).err
    r = cli("--lang", "ru", "import", path)
    assert r.code == 2 and said in r.err and english not in r.err, r.err


def finished_skid(cli: Callable[..., Run]) -> None:
    assert cli("new", "skid", "ann", "bob", "--season", "s1").code == 0
    assert cli("hand", "out=ann", "reshuffles=4", "bob.cards=QS JH AH").code == 0   # bob is out: ann wins


@pytest.mark.parametrize(("lang", "new", "win", "loss"), [("en", "new", "W", "L"), ("et", "algus", "V", "K"),
                                                          ("ru", "начало", "В", "П"), ("uk", "початок", "В", "П")])
def test_log_actions_and_last5_letters_in_the_language(cli: Callable[..., Run], lang: str, new: str, win: str,
                                                       loss: str) -> None:
    finished_skid(cli)
    log = cli("--lang", lang, "log").out.splitlines()
    assert log[0].split()[2] == new, log
    actions = [e["action"] for e in json.loads(cli("--lang", lang, "log", "--json").out)]
    assert actions[0] == "new", actions
    table = cli("--lang", lang, "season", "s1", "--min-games", "1").out.split("\n\n")[0]
    rows = {line.split()[1]: line.split()[-1] for line in table.splitlines()[3:]}
    assert rows == {"ann": win, "bob": loss}, rows
    players = json.loads(cli("--lang", lang, "season", "s1", "--format", "json").out)["players"]
    assert {p["player"]: p["last5"] for p in players} == {"ann": "W", "bob": "L"}
    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(cli("--lang", lang, "season", "s1", "--format", "csv").out))}
    assert {p: (r["game"], r["games"], r["wins"], r["last5"]) for p, r in rows.items()} == {
        "ann": ("skid", "1", "1", "W"), "bob": ("skid", "1", "0", "L")}


def test_the_last5_letters_are_explained_in_the_season_help(cli: Callable[..., Run]) -> None:
    def help_text(*lang: str) -> str:
        return " ".join(cli(*lang, "season", "--help").out.split())

    assert "V võit, R viik (remiis), K kaotus" in help_text("--lang", "et")
    assert "В — выигрыш, Н — ничья, П — проигрыш" in help_text("--lang", "ru")
    assert "W a win, D a draw, L a loss" in help_text()


BROKEN = """[game]
id = "mine"
name = "Mine"
[players]
min = 0
foo = 1
[[score]]
points = "tricks * 2"
[[check]]
ok = "1 +"
message = "x"
[bogus]
"""


@pytest.mark.parametrize(("lang", "words"), [
    ("et", ["bogus: tundmatu jaotis (tuntud: ", "players.min: peab olema täisarv 1..12",
            "players.foo: tundmatu võti (tuntud: ", "score[0].points: tundmatu nimi 'tricks' (tuntud: ",
            "check[0].ok: pole korrektne valem ("]),
    ("ru", ["bogus: неизвестный раздел", "players.min: должно быть целым числом 1..12", "players.foo: неизвестный ключ",
            "score[0].points: неизвестное имя 'tricks'", "check[0].ok: неправильная формула ("]),
    ("uk", ["bogus: невідомий розділ", "players.min: має бути цілим числом 1..12", "players.foo: невідомий ключ",
            "score[0].points: невідоме ім'я 'tricks'", "check[0].ok: неправильна формула ("]),
])
def test_a_first_ruleset_s_mistakes_read_in_the_language(cli: Callable[..., Run], tmp_path: Path, lang: str,
                                                         words: list[str]) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(BROKEN, encoding="utf-8")
    r = cli("--lang", lang, "rules", "check", str(path))
    assert r.code == 2 and all(w in r.err for w in words), r.err
    assert "unknown" not in r.err and "must be" not in r.err
    located = json.loads(cli("--lang", lang, "rules", "check", "--format", "json", str(path)).out)[0]["problems"]
    assert {p["key"]: p["message"].split(" (")[0] for p in located}["players.min"] == "must be a whole number 1..12"
    r = cli("--lang", lang, "new", str(path), "ann", "bob")   # the same problems as a refusal
    assert r.code == 2 and all(w in r.err for w in words[1:]), r.err
    toml = tmp_path / "syntax.toml"
    toml.write_text("[game\n", encoding="utf-8")
    r = cli("--lang", lang, "rules", "check", str(toml))
    assert r.code == 2 and "TOML" in r.err and "not valid TOML" not in r.err, r.err


def test_a_first_ruleset_s_mistakes_in_english_read_as_before(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(BROKEN, encoding="utf-8")
    err = cli("rules", "check", str(path)).err
    for words in ("players.min: must be a whole number 1..12", "players.foo: unknown key (known: max, min,",
                  "bogus: unknown section (known: cards,", "score[0].points: unknown name 'tricks' (known: ",
                  "check[0].ok: not a valid formula ("):
        assert words in err, err
    assert "5 problems in" in cli("new", str(path), "ann", "bob").err


def prog(err: str) -> str:
    """The program's name as a shell runs it (in process, click calls it after the test runner)."""
    return err.replace("python -m pytest.scorepad", "scorepad")


@pytest.mark.parametrize(("lang", "words"), [
    ("et", ["Kasutus: scorepad backup [OPTIONS] TARGET", "Abi saab käsuga 'scorepad backup -h'.",
            "Viga: Sellist võtit pole: --bogus"]),
    ("ru", ["Использование: scorepad backup", "Справка: 'scorepad backup -h'.", "Ошибка: Нет такого параметра: --bogus"]),
    ("uk", ["Використання: scorepad backup", "Довідка: 'scorepad backup -h'.", "Помилка: Немає такого параметра: --bogus"]),
])
def test_click_usage_errors_read_in_the_language(cli: Callable[..., Run], lang: str, words: list[str]) -> None:
    r = cli("--lang", lang, "backup", "--bogus", "x")
    assert r.code == 2 and all(w in prog(r.err) for w in words), r.err
    assert "Usage:" not in r.err and "Try " not in r.err and "Error:" not in r.err
    r = cli("--lang", lang, "backup")
    assert r.code == 2 and "'TARGET'" in r.err and "Missing" not in r.err, r.err


def test_click_usage_errors_in_english_read_as_before(cli: Callable[..., Run]) -> None:
    r = cli("backup", "--bogus", "x")
    assert r.code == 2
    assert prog(r.err) == ("Usage: scorepad backup [OPTIONS] TARGET\nTry 'scorepad backup -h' for help.\n\n"
                     "Error: No such option: --bogus\n"), r.err
