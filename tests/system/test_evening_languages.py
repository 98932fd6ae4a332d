"""A whole evening in Estonian, Russian and Ukrainian: a game through `play` on a real pseudo-terminal
(questions, a refusal, the sheet, the standings, the rules, an edit, the end of the game), `rules show`
of every bundled ruleset and `--help` of every command. It fails on any English word of the program's
own sentences (tests/system/english.py); ids, names, numbers and card codes may stay."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pexpect
import pytest

from tests.conftest import Run
from tests.system.english import english_in

pytestmark = pytest.mark.slow  # an evening in three languages on a pseudo-terminal: `python -m pytest -m slow` (CI runs it)

RULESETS = sorted(p.stem for p in (Path(__file__).parents[2] / "rulesets").glob("*.toml"))
LANGS = ["et", "ru", "uk"]
PLAYERS = ["ann", "bob", "cid", "dan", "cat", "alice", "anne", "lisa", "аня", "боря", "вова", "оля", "петро", "ганна"]
PROMPT = r"(?:> |: |\] |\? )$"

# What a table types, line by line, at each prompt of `play` (the first line starts the game).
EVENINGS = {
    "et": ["new marjas ann bob cid dan",
           "",                                   # hand 1, asked field by field
           "ann", "ann", "ann", "3", "0",        # trump, matt, last, extra (each side)
           "",                                   # Record? Enter records
           "trump=ann extra=9,0 matt=ann last=ann",            # refused: extra is 0-3
           "sheet", "standings", "rules",
           "edit 1 extra=2,0",
           "log",
           "trump=ann extra=2,0 matt=ann last=ann",            # 6 + 6: exactly 12, the game ends
           "ei",                                               # no rematch
           "quit"],
    "ru": ["new spades аня боря вова оля",
           "bid=4,3,3,3 tricks=5,3,3,2",
           "bid=blind,3,3,3 tricks=0,5,4,4",                   # refused: a blind nil while ahead
           "", "", "4", "",                                    # the bids asked again from вова (боря deals): аня 4
           "",                                                 # Записать? Enter records
           "sheet", "standings",
           "finish", "да",                                     # Завершить игру сейчас? [д/Н]
           "нет",
           "quit"],
    "uk": ["new skid петро ганна оля",
           "out=петро оля.cards=ДП 10Ч ганна.cards=Т",
           "out=ганна петро.cards=ВП оля.cards=ВП",                # refused: one jack of spades twice
           "ВХ", "",                                           # петро's cards: the jack of clubs; оля's kept
           "",                                                 # Записати? Enter records
           "sheet", "standings", "undo", "redo",
           "finish", "так",                                    # Завершити гру зараз? [т/Н]
           "ні",
           "quit"],
}


def play_evening(lang: str, lines: list[str], tmp_path: Path) -> str:
    env = dict(os.environ, SCOREPAD_DB=str(tmp_path / "s.db"), NO_COLOR="1", HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path / "config"), COLUMNS="160")
    env.pop("SCOREPAD_LANG", None)
    child = pexpect.spawn(sys.executable, ["-m", "scorepad", "--lang", lang, "play"], encoding="utf-8",
                          timeout=20, dimensions=(50, 160), env=env)
    out: list[str] = []
    try:
        for line in lines:
            child.expect(PROMPT)
            out.append(child.before + child.after)
            child.sendline(line)
        child.expect(pexpect.EOF)
        out.append(child.before)
    except pexpect.TIMEOUT:
        pytest.fail("play stopped answering; so far:\n" + "".join(out) + (child.before or ""))
    finally:
        child.close()
    return "".join(out)


@pytest.mark.parametrize("lang", LANGS)
def test_an_evening_at_the_table_speaks_the_language(lang: str, tmp_path: Path) -> None:
    text = play_evening(lang, EVENINGS[lang], tmp_path)
    found = english_in(text, lang, PLAYERS)
    assert not found, f"English words {found} in:\n{text}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_rules_show_speaks_the_language(cli: Callable[..., Run], lang: str, ruleset: str) -> None:
    r = cli("--lang", lang, "rules", "show", ruleset)
    assert r.code == 0, r.err
    found = english_in(r.out, lang, PLAYERS)
    assert not found, f"English words {found} in:\n{r.out}"


def _commands(cli: Callable[..., Run]) -> list[list[str]]:
    top = cli("--help").out
    names = re.findall(r"^  (\w[\w-]*)\s", top.split("Commands")[-1], re.M)
    out = [[n] for n in names]
    for group in ("rules", "config"):
        sub = cli(group, "--help").out
        out += [[group, n] for n in re.findall(r"^  (\w[\w-]*)\s", sub.split("Commands")[-1], re.M)]
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_help_speaks_the_language(cli: Callable[..., Run], lang: str, tmp_path: Path) -> None:
    """Each `--help` in its own process, as a person runs it (Typer builds the help texts once a process)."""
    import subprocess

    commands = _commands(cli)
    assert len(commands) > 25
    env = dict(os.environ, SCOREPAD_DB=str(tmp_path / "h.db"), HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "c"),
               COLUMNS="100")
    env.pop("SCOREPAD_LANG", None)
    for command in [[], *commands]:
        r = subprocess.run([sys.executable, "-m", "scorepad", "--lang", lang, *command, "--help"], capture_output=True,
                           text=True, env=env, timeout=60)
        assert r.returncode == 0, (command, r.stderr)
        found = english_in(r.stdout, lang, PLAYERS)
        assert not found, f"English words {found} in `{' '.join(command)} --help`:\n{r.stdout}"


def test_the_finder_sees_english_and_lets_ids_names_and_cards_be() -> None:
    """Words a ruleset or the CLI lets a player type (`over`, `nothing`: ids and option values) are not
    counted; the program's other words are."""
    assert english_in("Record? [Y/n/e]  Show this message and exit.", "et") == ["Record", "this", "message", "exit"]
    assert english_in("Salvestada? [J/e/m]  mäng läbi: võitis ann; bid=4,3 QS 10H --json FILE", "et", ["ann"]) == []
    assert english_in("it cannot be scored", "ru") == ["cannot", "scored"] and english_in("(ничего)", "ru") == []


def test_only_the_language_s_own_translations_excuse_a_word() -> None:
    """A word is not excused because some translation holds it: "scored" stands in a translation's text (an
    English word left there), which the loose reading took for that language's own; the strict one does not."""
    assert english_in("scored", "ru", strict=False) == []
    assert english_in("scored", "ru") == ["scored"] and english_in("scored", "et") == ["scored"]
    # a word a translation has where its own English has not is the language's (Estonian "robber")
    assert english_in("robber", "et") == []
