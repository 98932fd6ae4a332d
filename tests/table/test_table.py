"""At the table: the hand prompt, `play`, bids before the play, driven through a real pseudo-terminal
(pexpect) the way a person types, and shell completion through its environment variables."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pexpect = pytest.importorskip("pexpect")

TIMEOUT = int(os.environ.get("SCOREPAD_TEST_TIMEOUT", "60"))  # generous: the CI machine is slow


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if not k.startswith(("SCOREPAD", "XDG_"))}
    out.update(SCOREPAD_DB=str(tmp_path / "t.db"), HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), NO_COLOR="1", TERM="dumb", COLUMNS="200")
    return out


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """scorepad without a terminal (a script's view)."""
    return subprocess.run([sys.executable, "-m", "scorepad", *args], env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=TIMEOUT)


def spawn(env: dict[str, str], *args: str) -> Any:
    """scorepad on a pseudo-terminal, as a person at the table runs it."""
    # Ctrl-C interrupts as at a person's terminal, even where this suite runs with SIGINT ignored (a
    # job started in the background by a script, which Python would otherwise keep ignoring)
    child = pexpect.spawn(sys.executable, ["-m", "scorepad", *args], env=env, encoding="utf-8",
                          timeout=TIMEOUT, dimensions=(50, 200),
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    return child


def waiting(child: Any) -> None:
    """Until the program has stopped writing and waits for the keyboard: Ctrl-C or Ctrl-D typed while
    a question is still being written (or the terminal set up for it) is not what a person does."""
    while True:
        try:
            child.read_nonblocking(4096, timeout=0.3)
        except pexpect.TIMEOUT:
            return


def standings(env: dict[str, str]) -> dict[str, Any]:
    out = run(env, "standings", "--json")
    assert out.returncode == 0, out.stderr
    return dict(json.loads(out.stdout))


def scores(env: dict[str, str]) -> list[Any]:
    return [s["score"] for s in standings(env)["sides"]]


def finish(child: Any) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return int(child.exitstatus if child.exitstatus is not None else 128 + (child.signalstatus or 0))


def test_a_short_spades_game_typed_in_play(env: dict[str, str]) -> None:
    assert run(env, "new", "spades", "ann", "bob", "cat", "dan", "--opt", "target=100").returncode == 0
    child = spawn(env, "play")
    child.expect("ann deals")
    child.expect_exact("hand 1> ")
    child.sendline("bid=4,3,3,3 tricks=5,3,3,2")      # the whole hand on one line
    child.expect("Hand 1 recorded")
    child.expect(r"ann\+cat: \+71  \(contract \+70, bags \+1\)")   # as `hand` prints it
    child.expect("Next: hand 2, bob deals")
    child.expect_exact("hand 2> ")
    child.sendline("")                                 # Enter: the hand field by field
    for who, bid in (("cat", "3"), ("dan", "3"), ("ann", "4"), ("bob", "3")):   # bob deals: cat bids first
        child.expect_exact(f"{who}: bid")
        child.sendline(bid)
    for who, tricks in (("ann", "5"), ("bob", "3"), ("cat", "3")):
        child.expect_exact(f"{who}: tricks")
        child.sendline(tricks)
    child.expect(r"dan: tricks = 2 \(the rest of the total\)")   # 13 tricks: the last one is filled in
    child.expect(r"= ann\+cat: \+71")
    child.expect_exact("Record? [Y/n/e] ")
    child.sendline("")
    child.expect("Hand 2 recorded")
    child.expect(r"The game is over: ann\+cat won")
    child.expect_exact("Rematch? [Y/n] ")
    child.sendline("n")
    child.expect_exact("(over)> ")
    child.sendline("undo")
    child.expect(r"Hand 2 removed \(bid=4,3,3,3 tricks=5,3,3,2\); redo puts it back")
    child.expect_exact("hand 2> ")
    child.sendline("redo")
    child.expect("Hand 2 recorded")
    child.expect_exact("Rematch? [Y/n] ")
    child.sendline("y")
    child.expect(r"Game 2: a rematch of game 1")
    child.expect_exact("hand 1> ")
    child.sendline("help")
    child.expect("edit N")
    child.expect_exact("hand 1> ")
    child.sendline("quit")
    assert finish(child) == 0
    games = json.loads(run(env, "games", "--json").stdout)
    assert [(g["id"], g["hands"], g["finished"]) for g in games] == [(1, 2, True), (2, 0, False)]
    assert games[0]["winner"] == ["ann+cat"]
    assert [s["score"] for s in json.loads(run(env, "standings", "--json", "--game", "1").stdout)["sides"]] == [142, -120]


def test_a_thousand_hand_asks_marriages_and_nines(env: dict[str, str]) -> None:
    """Marriages and four nines have defaults: the prompt asks them anyway, and they score."""
    assert run(env, "new", "1000", "ann", "bob", "cat").returncode == 0
    child = spawn(env, "hand")
    child.expect_exact("bidder (a player: ann, bob, cat): ")
    child.sendline("ann")
    child.expect_exact("bid (")
    child.sendline("120")
    child.expect_exact("ann: points (0-120): ")
    child.sendline("70,30")                            # one line of values; cat's 20 follows from 120
    child.expect(r"cat: points = 20")
    child.expect_exact("ann: marriages (")
    child.expect_exact("[-]: ")
    child.sendline("h")                                # the hearts marriage: 100
    child.expect_exact("bob: marriages [-]: ")
    child.sendline("")
    child.expect_exact("cat: marriages [-]: ")
    child.sendline("")
    child.expect_exact("nines (a player: ann, bob, cat, or - for none) [-]: ")   # at most one: asked once
    child.sendline("maybe")                            # checked as typed, only this question again
    child.expect("is not a player")
    child.expect_exact("nines (a player: ann, bob, cat, or - for none) [-]: ")
    child.sendline("bob")
    child.expect("marriages: ann H")
    child.expect_exact("Record? [Y/n/e] ")
    child.sendline("y")
    assert finish(child) == 0
    assert scores(env) == [120, 130, 20]   # ann 70 + hearts 60 >= 120: the bid made; bob 30 + four nines 100


def test_a_rule_the_bids_break_is_refused_at_the_bid_question(env: dict[str, str]) -> None:
    assert run(env, "new", "spades", "ann", "bob", "cat", "dan").returncode == 0
    child = spawn(env, "hand")
    child.expect_exact("bob: bid (")                   # ann deals: bob bids first, ann last
    child.sendline("3,3,3,blind")                      # ann's blind nil, though nobody is 200 behind
    child.expect("ann may bid blind nil only when the team is at least 200 behind")
    child.expect_exact("bob: bid (0-13; nil, blind, bnil, blind-nil) [3]: ")   # before any trick is typed
    child.sendline("")
    child.expect_exact("cat: bid [3]: ")
    child.sendline("")
    child.expect_exact("dan: bid [3]: ")
    child.sendline("")
    child.expect_exact("ann: bid [blind]: ")
    child.sendline("nil")
    child.expect_exact("ann: tricks (0-13): ")
    child.sendline("0,4,5")
    child.expect("dan: tricks = 4")
    child.expect_exact("Record? [Y/n/e] ")
    assert "tricks: ann 0, bob 4, cat 5, dan 4" in child.before
    child.sendline("y")
    assert finish(child) == 0
    # ann+cat: nil made +100; cat bid 3 took 5: contract +30, 2 bags. bob+dan: bid 6, took 8: +60 +2 bags
    assert scores(env) == [132, 62]


def test_in_play_a_line_at_a_question_then_a_row_and_quit_leaves_a_hand(env: dict[str, str]) -> None:
    """At a question of `play`: `bid=4,3,3,3` is the bids, and the tricks question then takes a row (it
    refused `5,3,3` as 'must be a whole number'); `quit` at a question leaves the hand unrecorded (it
    was refused as a value, Ctrl-C the only way out)."""
    assert run(env, "new", "spades", "ann", "bob", "cat", "dan").returncode == 0
    child = spawn(env, "play")
    child.expect_exact("hand 1> ")
    child.sendline("")
    child.expect_exact("bob: bid (0-13; nil, blind, bnil, blind-nil): ")
    child.sendline("bid=4,3,3,3")
    child.expect_exact("ann: tricks (0-13): ")
    assert "missing" not in child.before
    child.sendline("5,3,3")
    child.expect(r"dan: tricks = 2 \(the rest of the total\)")
    child.expect_exact("Record? [Y/n/e] ")
    child.sendline("")
    child.expect("Hand 1 recorded")
    child.expect_exact("hand 2> ")
    child.sendline("")
    child.expect_exact("cat: bid (")                   # bob deals hand 2
    child.sendline("4")
    child.expect_exact("dan: bid: ")
    child.sendline("undo")
    child.expect_exact("'undo' is not a value of dan.bid: record this hand first, or leave it with quit or Ctrl-C")
    child.expect_exact("dan: bid: ")
    child.sendline("quit")
    child.expect_exact("Not recorded; nothing was stored.")
    child.expect_exact("hand 2> ")
    child.sendline("quit")
    assert finish(child) == 0
    assert standings(env)["hands"] == 1


def test_ctrl_c_and_ctrl_d_store_nothing(env: dict[str, str]) -> None:
    assert run(env, "new", "spades", "ann", "bob", "cat", "dan").returncode == 0
    child = spawn(env, "hand")
    child.expect_exact("bob: bid (")
    child.sendline("4")
    child.expect_exact("cat: bid")
    waiting(child)
    child.sendintr()
    child.expect("nothing was stored")
    assert finish(child) == 130
    child = spawn(env, "hand")
    child.expect_exact("bob: bid (")
    child.sendline("3,3,3,4")
    child.expect_exact("ann: tricks")
    waiting(child)
    child.sendeof()
    child.expect("nothing was stored")
    assert finish(child) == 130
    child = spawn(env, "hand")
    child.expect_exact("bob: bid (")
    child.sendline("3,3,3,4")
    child.expect_exact("ann: tricks")
    child.sendline("5,3,3")
    child.expect_exact("Record? [Y/n/e] ")
    child.sendline("n")
    child.expect("nothing was stored")
    assert finish(child) == 0
    assert standings(env)["hands"] == 0


def test_record_e_goes_back_to_a_field(env: dict[str, str]) -> None:
    assert run(env, "new", "spades", "ann", "bob", "cat", "dan").returncode == 0
    child = spawn(env, "hand")
    child.expect_exact("bob: bid (")
    child.sendline("3,3,3,4")
    child.expect_exact("ann: tricks")
    child.sendline("5,3,3")
    child.expect_exact("Record? [Y/n/e] ")
    child.sendline("e")
    child.expect_exact("Which field? (bid, tricks) ")
    child.sendline("b")
    child.expect_exact("bob: bid (0-13; nil, blind, bnil, blind-nil) [3]: ")
    child.sendline("3,3,3,6")                          # in the turn asked: bob, cat, dan, ann
    child.expect(r"= ann\+cat: -90")
    child.expect_exact("Record? [Y/n/e] ")
    child.sendline("y")
    assert finish(child) == 0
    assert scores(env) == [-90, -60]


def test_bids_written_down_before_the_play_then_completed(env: dict[str, str]) -> None:
    assert run(env, "new", "spades", "ann", "bob", "cat", "dan").returncode == 0
    out = run(env, "bid", "bid=4,3,3,3")
    assert out.returncode == 0 and "Bid for hand 1 written down: bid=4,3,3,3" in out.stdout
    refused = run(env, "bid", "tricks=5,3,3,2")
    assert refused.returncode == 2 and "tricks is typed after the play" in refused.stderr
    shown = run(env, "standings")
    assert "Bid for hand 1: bid=4,3,3,3" in shown.stdout
    assert standings(env)["bid"] == ["bid=4,3,3,3"]
    undone = run(env, "undo")
    assert undone.returncode == 0 and "The bid for hand 1 removed (bid=4,3,3,3)" in undone.stdout
    assert "bid" not in standings(env)
    assert run(env, "bid", "bid=4,3,3,3").returncode == 0
    done = run(env, "hand", "tricks=5,3,3,2")
    assert done.returncode == 0, done.stderr
    assert scores(env) == [71, -60]
    assert run(env, "sheet", "--json").stdout.count("bid=4,3,3,3") == 1   # stored as typed, bid included
    # in play: the bid first, then Enter asks only what is left (the tricks)
    child = spawn(env, "play")
    child.expect_exact("hand 2> ")
    child.sendline("bid bid=3,3,3,3")
    child.expect("Bid for hand 2 written down")
    child.expect_exact("hand 2> ")
    child.sendline("")
    index = child.expect_exact(["bid (", "ann: tricks (0-13): "])
    assert index == 1, "a bid written down is not asked again"
    child.sendline("4,3,3")
    child.expect_exact("Record? [Y/n/e] ")
    child.sendline("y")
    child.expect("Hand 2 recorded")
    child.expect_exact("hand 3> ")
    waiting(child)
    child.sendeof()
    assert finish(child) == 0
    assert scores(env) == [71 + 61, -60 + 60]


def test_a_bid_time_check_runs_when_the_bids_are_written_down(env: dict[str, str]) -> None:
    """Sitaratas: the dealer bids last and may not make the bids add up to the tricks of the deal."""
    assert run(env, "new", "sitaratas", "ann", "bob", "cat", "dan").returncode == 0
    refused = run(env, "bid", "bid=1,0,0,0")          # hand 1 deals one card each: bids adding to 1
    assert refused.returncode == 2 and "the dealer (ann) bids last" in refused.stderr
    assert "bid" not in standings(env)
    assert run(env, "bid", "bid=1,1,0,0").returncode == 0


def test_oh_hell_bids_from_the_dealer_s_left_and_the_dealer_last(env: dict[str, str]) -> None:
    """Sitaratas, hand 2: bob deals, so cat bids first and bob last; bob's bid that makes the bids add up
    to the one card dealt is refused at his question, and only his bid is asked again."""
    assert run(env, "new", "sitaratas", "ann", "bob", "cat", "dan").returncode == 0
    # hand 1, one card each, ann deals: ann bid 1 took 1 (1 + 5), bob bid 0 took 0 (5), cat and dan missed
    assert run(env, "hand", "bid=1,0,1,1", "tricks=1,0,0,0").returncode == 0
    assert scores(env) == [6, 5, 0, 0]
    child = spawn(env, "play")
    child.expect("bob deals")
    child.expect_exact("hand 2> ")
    child.sendline("")
    for who, bid in (("cat", "0"), ("dan", "0"), ("ann", "1")):
        child.expect_exact(f"{who}: bid")
        child.sendline(bid)
    child.expect_exact("bob: bid: ")
    child.sendline("0")                                # 0 + 0 + 1 + 0 = 1, the cards dealt: refused
    child.expect_exact("the dealer (bob) bids last and may not bid 0")
    child.expect_exact("bob: bid: ")
    child.sendline("1")
    child.expect_exact("ann: tricks (0-1): ")          # tricks in seating order
    child.sendline("0,1,0")
    child.expect(r"dan: tricks = 0 \(the rest of the total\)")
    child.expect_exact("Record? [Y/n/e] ")
    assert "bid: ann 1, bob 1, cat 0, dan 0" in child.before
    child.sendline("y")
    child.expect("Hand 2 recorded")
    child.expect_exact("hand 3> ")
    child.sendline("quit")
    assert finish(child) == 0
    # ann bid 1 took 0: 0; bob bid 1 took 1: 1 + 5; cat and dan bid 0 took 0: 5 each
    assert scores(env) == [6, 11, 5, 5]
    hand2 = json.loads(run(env, "sheet", "--json").stdout)["hands"][1]
    assert "bid=1,1,0,0" in json.dumps(hand2) and "tricks=0,1,0,0" in json.dumps(hand2)   # in seating order


def test_a_bid_typed_on_the_command_line_and_the_rest_asked_in_the_turn(env: dict[str, str]) -> None:
    """`hand bob.bid=0` in Sitaratas (ann deals hand 1): the other bids are asked first, from cat round to
    ann, the dealer, then the tricks; bob is not asked again."""
    assert run(env, "new", "sitaratas", "ann", "bob", "cat", "dan").returncode == 0
    child = spawn(env, "hand", "bob.bid=0")
    for who, bid in (("cat", "1"), ("dan", "0"), ("ann", "1")):     # 0 + 1 + 0 + 1 = 2, not the 1 card dealt
        child.expect_exact(f"{who}: bid")
        assert "tricks" not in child.before and "bob: bid" not in child.before, child.before
        child.sendline(bid)
    child.expect_exact("ann: tricks (0-1): ")
    child.sendline("1,0,0")
    child.expect_exact("Record? [Y/n/e] ")
    assert "bid: ann 1, bob 0, cat 1, dan 0" in child.before
    child.sendline("y")
    assert finish(child) == 0
    # ann bid 1 took 1: 1 + 5; bob and dan bid 0 took 0: 5; cat bid 1 took 0: 0
    assert scores(env) == [6, 5, 0, 5]


def test_a_bid_written_down_at_the_prompt_follows_the_turn_of_the_table(env: dict[str, str]) -> None:
    """`bid` alone asks the bids from the dealer's left; a row at its first question is read in that turn."""
    assert run(env, "new", "sitaratas", "ann", "bob", "cat", "dan").returncode == 0
    child = spawn(env, "bid")
    child.expect_exact("bob: bid (0-1): ")             # ann deals the first hand
    child.sendline("?")
    child.expect_exact("or all values at once: 4,3,3,3 (bob, cat, dan, ann)")
    child.expect_exact("bob: bid (0-1): ")
    child.sendline("1,0,0,1")                          # bob 1, cat 0, dan 0, ann 1: 2 bid for 1 card
    child.expect_exact("read as bob 1, cat 0, dan 0, ann 1")   # said back: not the score sheet's order
    child.expect_exact("bid: ann 1, bob 1, cat 0, dan 0")       # and by name before it is written down
    child.expect("Bid for hand 1 written down: bid=1,1,0,0")
    assert finish(child) == 0
    assert standings(env)["bid"] == ["bid=1,1,0,0"]


def test_bridge_asks_the_tricks_before_the_result(env: dict[str, str]) -> None:
    assert run(env, "new", "bridge", "n", "e", "s", "w").returncode == 0
    child = spawn(env, "hand")
    child.expect_exact("contract (")
    child.sendline("4H")
    child.expect_exact("by (")
    child.sendline("N")
    child.expect_exact("tricks (0-13) [-]: ")
    child.sendline("+1")                               # a result by habit: no count of tricks has a sign
    child.expect_exact("(a count is typed without a sign)")
    child.expect_exact("tricks (0-13) [-]: ")
    child.sendline("10")
    child.expect_exact("none, -, no) [-]: ")           # honors (a long question: its end): the result is not asked
    assert "result (" not in child.before
    child.sendline("")
    child.expect_exact("Record? [Y/n/e] ")
    child.sendline("y")
    assert finish(child) == 0
    assert scores(env) == [120, 0]                     # 4H made exactly: 4 x 30 below the line
    child = spawn(env, "hand")
    child.expect_exact("contract (")
    child.sendline("3NT")
    child.expect_exact("by (")
    child.sendline("E")
    child.expect_exact("tricks (0-13) [-]: ")
    child.sendline("")                                 # no tricks: the result is asked instead
    child.expect_exact("(instead of tricks); made) [-]: ")
    child.sendline("-1")
    child.expect_exact("none, -, no) [-]: ")
    child.sendline("")
    child.expect_exact("Record? [Y/n/e] ")
    child.sendline("y")
    assert finish(child) == 0
    assert scores(env) == [170, 0]                     # EW not vulnerable, one down undoubled: 50 to NS


def test_canasta_asks_the_melded_points_before_the_cards(env: dict[str, str]) -> None:
    assert run(env, "new", "canasta", "ann", "bob", "cat", "dan").returncode == 0
    child = spawn(env, "hand")
    child.expect_exact("ann+cat: melded (0 or more): ")
    child.sendline("120,50")
    child.expect_exact("ann+cat: melded_cards (cards like QS 10H A, or - for none) [-]: ")
    child.sendline("")
    child.expect_exact("bob+dan: melded_cards [-]: ")
    child.sendline("melded=120,50 natural=1,0 mixed=0,1 out=ann hand=0,30")   # the rest on one line
    child.expect_exact("Record? [Y/n/e] ")
    child.sendline("y")
    assert finish(child) == 0
    # ann+cat: 120 melded + 500 a natural canasta + 100 going out; bob+dan: 50 + 300 a mixed one - 30 in hand
    assert scores(env) == [720, 320]


@pytest.mark.parametrize(("lang", "game", "players", "answers", "help_line", "english"), [
    ("et", "sitaratas", ("ann", "bob", "cat", "dan"), (), "  pakkumine: pakutud tihid, 0 kuni", "  bid:"),
    ("ru", "bridge", ("n", "e", "s", "w"), ("4H",), "  разыгрывающий: разыгрывающий: место (N E S W)", "  by:"),
])
def test_help_at_a_question_names_the_field_in_the_language(env: dict[str, str], lang: str, game: str,
                                                             players: tuple[str, ...], answers: tuple[str, ...],
                                                             help_line: str, english: str) -> None:
    """`?` says the field's name and help in the language chosen (before: the field's English id)."""
    assert run(env, "new", game, *players).returncode == 0
    child = spawn(env, "--lang", lang, "hand")
    for answer in answers:
        child.expect(r": $")
        child.sendline(answer)
    child.expect(r": $")
    child.sendline("?")
    child.expect_exact(help_line)
    child.expect(r": $")
    assert english not in child.before
    waiting(child)
    child.sendintr()
    assert finish(child) == 130
    assert standings(env)["hands"] == 0


def test_a_hand_typed_elsewhere_meanwhile_is_shown_and_checked(env: dict[str, str]) -> None:
    assert run(env, "new", "spades", "ann", "bob", "cat", "dan").returncode == 0
    child = spawn(env, "play")
    child.expect_exact("hand 1> ")
    child.sendline("")
    child.expect_exact("bob: bid (")
    child.sendline("3,3,3,4")
    child.expect_exact("ann: tricks")
    assert run(env, "hand", "bid=3,3,3,3", "tricks=4,3,3,3").returncode == 0   # the database is not locked
    child.sendline("5,3,3")
    child.expect_exact("Record? [Y/n/e] ")
    child.sendline("y")
    child.expect(r"Meanwhile hand 1 was recorded elsewhere \(bid=3,3,3,3 tricks=4,3,3,3\)")
    child.expect("Your hand is now hand 2")
    child.expect_exact("Record? [Y/n/e] ")
    child.sendline("y")
    child.expect("Hand 2 recorded")
    child.expect_exact("hand 3> ")
    child.sendline("quit")
    assert finish(child) == 0
    assert standings(env)["hands"] == 2


def test_a_row_short_by_one_in_play_says_whose_value_was_worked_out_and_asks(env: dict[str, str]) -> None:
    assert run(env, "new", "spades", "ann", "bob", "cat", "dan").returncode == 0
    child = spawn(env, "play")
    child.expect_exact("hand 1> ")
    child.sendline("bid=4,3,3,3 tricks=5,3,3")           # dan's tricks left out
    child.expect_exact("worked out, the rest of the total: dan.tricks=2")
    child.expect_exact("Record? [Y/n/e] ")
    assert standings(env)["hands"] == 0                   # nothing stored before the answer
    child.sendline("y")
    child.expect("Hand 1 recorded")
    child.expect_exact("hand 2> ")
    child.sendline("quit")
    assert finish(child) == 0
    assert scores(env) == [71, -60]


def test_play_takes_log_and_the_language_s_words(env: dict[str, str]) -> None:
    assert run(env, "new", "spades", "ann", "bob", "cat", "dan").returncode == 0
    assert run(env, "hand", "bid=4,3,3,3", "tricks=5,3,3,2").returncode == 0
    assert run(env, "edit", "1", "bid=5,3,3,3").returncode == 0
    child = spawn(env, "--lang", "ru", "play")
    child.expect_exact("раздача 2> ")
    child.sendline("помощь")
    child.expect_exact("журнал (log)")
    child.expect_exact("выход (quit)")
    child.expect_exact("раздача 2> ")
    child.sendline("журнал")
    child.expect_exact("заказ=4,3,3,3 → заказ=5,3,3,3")   # the edit, in the words the language types
    child.expect_exact("раздача 2> ")
    child.sendline("log")
    child.expect_exact("заказ=4,3,3,3 → заказ=5,3,3,3")
    child.expect_exact("раздача 2> ")
    child.sendline("отмена")
    child.expect_exact("Раздача 1 удалена")
    child.expect_exact("раздача 1> ")
    child.sendline("выход")
    assert finish(child) == 0
    assert standings(env)["hands"] == 0


def test_finish_in_play_is_asked_and_undo_takes_back_only_the_finish(env: dict[str, str]) -> None:
    assert run(env, "new", "spades", "ann", "bob", "cat", "dan").returncode == 0
    assert run(env, "hand", "bid=4,3,3,3", "tricks=5,3,3,2").returncode == 0
    child = spawn(env, "play")
    child.expect_exact("hand 2> ")
    child.sendline("finish")
    child.expect_exact("Finish the game now? [y/N] ")
    child.sendline("")                                    # Enter: the game goes on
    child.expect("The game goes on; nothing was stored")
    child.expect_exact("hand 2> ")
    assert standings(env)["finished"] is False
    child.sendline("finish")
    child.expect_exact("Finish the game now? [y/N] ")
    child.sendline("y")
    child.expect(r"The game is over: ann\+cat won")
    child.expect_exact("Rematch? [Y/n] ")
    child.sendline("n")
    child.expect_exact("(over)> ")
    child.sendline("undo")
    child.expect_exact("The finish is taken back; the game goes on at hand 2.")
    child.expect_exact("hand 2> ")
    child.sendline("quit")
    assert finish(child) == 0
    data = standings(env)
    assert data["hands"] == 1 and data["finished"] is False and scores(env) == [71, -60]
    assert run(env, "verify").returncode == 0


def test_edit_without_values_asks_with_the_old_ones(env: dict[str, str]) -> None:
    assert run(env, "new", "spades", "ann", "bob", "cat", "dan").returncode == 0
    assert run(env, "hand", "bid=4,3,3,3", "tricks=5,3,3,2").returncode == 0
    shown = run(env, "edit", "1")
    assert shown.returncode == 2 and "Hand 1 was typed: bid=4,3,3,3 tricks=5,3,3,2" in shown.stdout
    child = spawn(env, "edit", "1")
    child.expect("Hand 1 was typed: bid=4,3,3,3 tricks=5,3,3,2")
    child.expect_exact("bob: bid (0-13; nil, blind, bnil, blind-nil) [3]: ")   # ann dealt hand 1
    child.sendline("")
    for who, bid in (("cat", "3"), ("dan", "3"), ("ann", "4")):
        child.expect_exact(f"{who}: bid [{bid}]: ")
        child.sendline("")
    child.expect_exact("ann: tricks (0-13) [5]: ")
    child.sendline("4")
    child.expect_exact("bob: tricks [3]: ")
    child.sendline("4")
    child.expect_exact("cat: tricks [3]: ")
    child.sendline("")
    child.expect("dan: tricks = 2")
    child.expect_exact("Record? [Y/n/e] ")
    child.sendline("y")
    child.expect("Hand 1 changed")
    assert finish(child) == 0
    assert scores(env) == [70, 60]   # ann+cat bid 7 took 7; bob+dan bid 6 took 6


def complete(env: dict[str, str], words: str) -> list[str]:
    """What Tab offers in bash after `words` (the completion environment variables of the shell)."""
    cword = len(words.split()) - (0 if words.endswith(" ") else 1)
    script = Path(sys.executable).parent / "scorepad"    # the installed console script, as a shell runs it
    if not script.exists():
        pytest.skip("the scorepad console script is not installed")
    out = subprocess.run([str(script)], capture_output=True, text=True, timeout=TIMEOUT,
                         env=dict(env, _SCOREPAD_COMPLETE="complete_bash", COMP_WORDS=words, COMP_CWORD=str(cword)))
    return out.stdout.split()


def test_shell_completion_offers_games_rulesets_players_and_fields(env: dict[str, str]) -> None:
    assert complete(env, "scorepad use ") == []            # no database yet: nothing, and none is created
    assert not Path(env["SCOREPAD_DB"]).exists()
    assert run(env, "new", "spades", "ann", "bob", "cat", "dan", "--name", "friday").returncode == 0
    assert run(env, "new", "1000", "ann", "bob", "eve").returncode == 0
    assert complete(env, "scorepad use ") == ["2", "1", "friday"]
    assert complete(env, "scorepad play fr") == ["friday"]
    assert "spades:short" in complete(env, "scorepad new spa")
    assert "тысяча" in complete(env, "scorepad new т")
    assert complete(env, "scorepad new 1000 e") == ["eve"]
    assert complete(env, "scorepad hand b") == ["bidder=", "bid=", "bob.points=", "bob.marriages=", "bob.nines="]
    assert complete(env, "scorepad hand bidder=e") == ["bidder=eve"]
    assert complete(env, "scorepad bid ") == ["bidder=", "bid="]          # only the fields of the bidding
    assert complete(env, "scorepad hand --game 1 t") == ["tricks="]


def test_bash_completes_values_after_the_equals_sign_and_variants_after_the_colon(env: dict[str, str]) -> None:
    """Bash breaks `bid=bl` into `bid`, `=`, `bl` (and `spades:sh` at the colon) and replaces only the
    part after the break: the candidates are the value (the variant) alone."""
    assert run(env, "new", "spades", "ann", "bob", "cat", "dan").returncode == 0
    assert complete(env, "scorepad hand bid = ") == ["nil", "blind", "bnil", "blind-nil"]
    assert complete(env, "scorepad hand bid = bl") == ["blind", "blind-nil"]
    assert complete(env, "scorepad hand ann.bid = n") == ["nil"]
    assert complete(env, "scorepad hand bid=bl") == ["bid=blind", "bid=blind-nil"]     # zsh, fish: one word
    assert complete(env, "scorepad new spades : sh") == ["short"]


def test_install_completion_prints_no_raw_escape_codes(env: dict[str, str], tmp_path: Path) -> None:
    import pexpect

    # typed at a bash prompt: Typer finds the shell to install for among the command's parent processes
    command = f"{shlex.quote(sys.executable)} -m scorepad --install-completion; true"
    child = pexpect.spawn("/bin/bash", ["--norc", "-c", command], encoding="utf-8",
                          env=dict(env, HOME=str(tmp_path), SHELL="/bin/bash"), timeout=TIMEOUT)
    child.expect(pexpect.EOF)
    assert "completion installed" in child.before and "\\u001b" not in child.before, child.before


def test_help_speaks_in_words_and_ends_with_an_example(cli: Any) -> None:
    from scorepad.cli.app import app, config_app, rules_app

    assert cli("--version").out.startswith("scorepad ")
    for group, typer_app in (("", app), ("rules", rules_app), ("config", config_app)):
        for info in typer_app.registered_commands:
            name = info.name or (info.callback.__name__ if info.callback else "")
            words = [w for w in (group, name) if w]
            out = cli(*words, "-h")
            assert out.code == 0, (words, out.err)
            text = " ".join(out.out.split())
            assert "Example: scorepad" in text, words
            for python in ("<str>", "<bool>", "<int>", "list[", "{"):
                assert python not in text, (words, python)


def test_hand_help_names_the_fields_in_the_language_shown(env: dict[str, str]) -> None:
    """`hand --help` in Russian lists the fields with the ruleset's own Russian names and help."""
    assert run(env, "new", "thousand", "ann", "bob", "cat").returncode == 0
    help_text = " ".join(run(env, "--lang", "ru", "hand", "--help").stdout.split())
    assert "Поля игры 1 (Тысяча):" in help_text
    assert "марьяжи/marriages (каждый игрок: масти марьяжей: Т П Ч Б" in help_text
    assert "marriage suits" not in help_text


def test_hand_help_lists_the_fields_of_the_game_db_and_game_name(env: dict[str, str], tmp_path: Path) -> None:
    """`--db` and `--game` given with `hand --help` choose the game whose fields it lists, as they
    choose the game the hand would be recorded into (not the default database's current game)."""
    other = str(tmp_path / "other.db")
    assert run(env, "new", "spades", "ann", "bob", "cat", "dan").returncode == 0
    assert run(env, "--db", other, "new", "marjas", "ann", "bob", "cat", "dan").returncode == 0
    assert run(env, "--db", other, "new", "hearts", "ann", "bob", "cat", "dan").returncode == 0
    assert "Fields of game 1 (Spades)" in " ".join(run(env, "hand", "--help").stdout.split())
    assert "Fields of game 2 (Hearts)" in " ".join(run(env, f"--db={other}", "hand", "--help").stdout.split())
    marjas = " ".join(run(env, "--db", other, "hand", "--game", "1", "--help").stdout.split())
    assert "Fields of game 1 (Marjas): trump" in marjas


def test_hand_output_is_short_and_quiet_is_silent(env: dict[str, str]) -> None:
    assert run(env, "new", "spades", "ann", "bob", "cat", "dan").returncode == 0
    help_text = " ".join(run(env, "hand", "--help").stdout.split())
    assert "Fields of game 1 (Spades): bid (each player: 0-13" in help_text
    out = run(env, "hand", "bid=4,3,3,3", "tricks=5,3,3,2")
    assert out.returncode == 0
    assert out.stdout.splitlines()[:6] == ["Hand 1", "  ann+cat: +71  (contract +70, bags +1)",
                                           "  bob+dan: -60  (contract -60)", "Totals:",
                                           "  ann+cat   71  (bags 1)", "  bob+dan  -60  (bags 0)"]
    assert "\033[" not in out.stdout                      # no colour when the output is not a terminal
    quiet = run(env, "hand", "bid=3,3,3,3", "tricks=4,3,3,3", "--quiet")
    assert quiet.returncode == 0 and quiet.stdout == ""
    undone = run(env, "undo")
    assert "Hand 2 removed (bid=3,3,3,3 tricks=4,3,3,3); `scorepad redo` puts it back." in undone.stdout
    redone = run(env, "redo")
    assert redone.returncode == 0 and "Hand 2" in redone.stdout
    assert scores(env) == [71 + 61, -60 + 60]
    assert run(env, "redo").returncode == 2                # nothing left to put back


def test_rules_list_fits_80_columns(env: dict[str, str]) -> None:
    out = run(dict(env, COLUMNS="80"), "rules", "list")
    assert out.returncode == 0
    assert max(len(line) for line in out.stdout.splitlines()) <= 80
    assert "spades" in out.stdout and "тысяча" in out.stdout     # nothing is cut off, only wrapped


def test_colour_on_a_terminal_only_and_never_with_no_color(env: dict[str, str]) -> None:
    assert run(env, "new", "spades", "ann", "bob", "cat", "dan", "--opt", "target=100").returncode == 0
    coloured = {k: v for k, v in env.items() if k != "NO_COLOR"}
    coloured["TERM"] = "xterm"
    child = spawn(coloured, "hand", "bid=x")
    child.expect(pexpect.EOF)
    assert "\x1b[1;31merror:\x1b[0m bid needs 4 values" in child.before      # the refusal in red
    child = spawn(coloured, "hand", "bid=6,3,6,3", "tricks=7,0,6,0")
    child.expect(pexpect.EOF)
    assert "\x1b[32m" in child.before or "\x1b[1;32m" in child.before        # the winner in green
    assert "\\u001b" not in child.before                                        # codes, not escaped text
    assert run(env, "undo").returncode == 0
    child = spawn(env, "hand", "bid=6,3,6,3", "tricks=7,0,6,0")                # NO_COLOR=1
    child.expect(pexpect.EOF)
    assert "\x1b[" not in child.before and "Finished: ann+cat won" in child.before


def test_skid_in_play_does_not_ask_what_follows_from_who_went_out(env: dict[str, str]) -> None:
    """Once `out` is typed, Bridge is not asked (a deal ends one way), nor the cards of the player who
    went out (none); a player out of the game is not offered."""
    assert run(env, "new", "skid", "ann", "bob", "cat", "--opt", "limit=125").returncode == 0
    assert run(env, "hand", "out=ann", "bob.cards=QS J J J A A", "cat.cards=A 7").returncode == 0   # bob 140: out
    child = spawn(env, "play")
    child.expect_exact("hand 2> ")
    child.sendline("")
    child.expect_exact("out (a player: ann, cat) [-]: ")
    child.sendline("cat")
    child.expect_exact("jack (yes/no) [no]: ")
    assert "bridge" not in child.before
    child.sendline("")
    child.expect_exact("reshuffles (0-50) [0]: ")
    child.sendline("")
    child.expect_exact("ann: cards (cards like QS 10H A, or - for none) [-]: ")
    child.sendline("K")
    child.expect_exact("cat: cards = - (follows from what is typed)")
    child.expect_exact("Record? [Y/n/e] ")
    assert "bob: cards" not in child.before
    child.sendline("y")
    child.expect("Hand 2 recorded")
    child.expect_exact("> ")
    child.sendline("quit")
    assert finish(child) == 0
    assert scores(env) == [10, 140, 15]
