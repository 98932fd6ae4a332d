"""Typing a hand at the prompt, as a person does at the table: what is typed at one player's question
is that player's, a retyped line replaces the hand, rows of cards and spaced cards read as on the
command line, and a rule the typed fields already break refuses the value where it is typed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from scorepad.app import games as play
from scorepad.engine.assignments import split_assignments
from scorepad.store import Store
from scorepad.table.entry import enter_hand
from scorepad.table.prompt import HandPrompt
from scorepad.table.session import Session
from tests.conftest import Run
from tests.table.typist import Script


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "p.db")


def test_a_list_typed_at_one_players_question_is_that_players(store: Store) -> None:
    play.new_game(store, "thousand", ["ann", "bob", "cat"])
    # ann declares three marriages at her own question, as its example "C,S" suggests
    console = Script(["ann", "120", "70,30,20", "H,C,D", "", "", "", "", "", "y"])
    rec = enter_hand(store, None, [], console)
    assert store.hands(rec.row.id)[0].hand["marriages"] == ["H,C,D", "-", "-"]
    assert console.questions[4].startswith("bob: marriages")
    # ann: 70 + hearts 60 + clubs 100 + diamonds 40 >= 120: the bid made; bob and cat their card points
    assert rec.result.points == [120, 30, 20]


def test_a_whole_line_typed_at_a_question_replaces_the_hand(store: Store) -> None:
    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    console = Script(["4,3,3,3", "5,4,3", "bid=4,3,3,3 tricks=5,3,3,2", "y"])
    rec = enter_hand(store, None, [], console)
    # the retyped line, not the values typed before it, is the hand; the summary showed it
    assert store.hands(rec.row.id)[0].hand["tricks"] == [5, 3, 3, 2]
    assert any("tricks: ann 5, bob 3, cat 3, dan 2" in line for line in console.said)
    assert console.questions[-1].startswith("Record?")


def test_a_line_refused_then_retyped_whole_at_the_re_asked_question(store: Store) -> None:
    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    # the one-line hand is refused (the tricks add up to 14); the corrected line is typed whole at the
    # question asked again, and replaces every value (a stale blind bid would otherwise stay)
    console = Script(["bid=nil,3,3,3 tricks=0,4,5,4", "y"])
    rec = enter_hand(store, None, ["bid=blind,3,3,3", "tricks=0,4,5,5"], console)
    assert rec.result.points == [100 + 30 + 2, 62]
    assert store.hands(rec.row.id)[0].hand["bid"] == [0, 3, 3, 3]


def test_a_line_the_argument_form_refuses_is_refused_at_the_question(store: Store) -> None:
    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    console = Script(["bid=4,3,3,3 bid=5,3,3,3", "bid=4,3,3,3 tricks=5,3,3,2", "y"])
    enter_hand(store, None, [], console)
    assert any("given twice" in line for line in console.said)
    assert console.questions[0] == console.questions[1]


def test_a_row_of_cards_at_the_first_players_question(store: Store) -> None:
    play.new_game(store, "skid", ["ann", "bob", "cat"])
    game = play.game_of(store.game(None))
    prompt = HandPrompt(game, store.game(None).state, Script([]), split_assignments(game, []))
    names = list(game.players)
    row = prompt.whole_row(game.ruleset.fields["cards"], names, [0, 1, 2], "-/ДП 10Ч ТБ КТ/В 9П 7Т")
    assert row == ["-", "ДП 10Ч ТБ КТ", "В 9П 7Т"]


def test_cards_separated_by_spaces_on_a_line_in_play(store: Store) -> None:
    play.new_game(store, "skid", ["ann", "bob", "cat"])
    line = "out=ann cards=- /QS 10H/A 7"
    session = Session(store, Script(["y"] * 5))
    session.dispatch(line)
    hand = store.hands(store.game(None).id)[0].hand
    assert hand["cards"] == [[], ["QS", "10H"], ["A", "7"]]   # as `cards="- /QS 10H/A 7"` on the command line


def test_a_rule_the_bids_break_is_refused_at_the_bid_question(store: Store) -> None:
    play.new_game(store, "honeymoon-bridge", ["ann", "bob"])
    game = play.game_of(store.game(None))
    first = next(n for n in game.ruleset.fields if n == "contract")
    console = Script(["4SXX", "4SX", *[""] * 30, "y"])
    prompt = HandPrompt(game, store.game(None).state, console, split_assignments(game, []))
    prompt.ask_fields([first])
    assert console.questions[0].startswith("contract") and console.questions[1].startswith("contract")
    assert prompt.answers["contract"] == "4SX"


def test_bid_reads_what_hand_reads(cli: Callable[..., Run]) -> None:
    assert cli("--lang", "ru", "new", "thousand", "аня", "боб", "кот").code == 0
    r = cli("--lang", "ru", "bid", "заказчик=аня", "заказ=140")
    assert r.code == 0, r.err
    r = cli("hand", "points=90,20,10")           # completed in another language
    assert r.code == 0, r.err
    assert cli("bid", "bid=140", "bid=150").code == 2           # a value typed twice is refused
    assert cli("new", "spades", "a", "b", "c", "d").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    r = cli("bid", "bid=blind,3,3,3")        # level, not 200 behind: refused when written down
    assert r.code == 2 and "blind nil only when" in r.err
    r = cli("--lang", "et", "bid", "bid=pime,3,3,3")
    assert r.code == 2 and "200" in r.err, r.err


def test_a_second_bid_replaces_the_first_and_says_so(cli: Callable[..., Run]) -> None:
    assert cli("new", "spades", "a", "b", "c", "d").code == 0
    assert cli("bid", "bid=4,3,3,3").code == 0
    r = cli("bid", "bid=5,3,3,3")
    assert r.code == 0 and "bid=4,3,3,3" in r.out and "replaced" in r.out
    r = cli("hand", "tricks=5,3,3,2")
    assert r.code == 0, r.err
    sheet = cli("sheet", "--json")
    assert "bid=5,3,3,3" in sheet.out and "bid=4,3,3,3" not in sheet.out


def test_a_row_short_by_one_in_play_is_shown_and_asked(store: Store) -> None:
    """`tricks=5,3,3` for four players: dan's 2 follows from the total; shown as worked out, and asked
    ("n" throws it away); a complete line after it is stored at once, as before."""
    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    console = Script(["bid=4,3,3,3 tricks=5,3,3", "n", "bid=4,3,3,3 tricks=5,3,3", "y",
                      "bid=4,3,3,3 tricks=5,3,3,2", "quit"])
    Session(store, console, None).run()
    assert [q for q in console.questions if q.startswith("Record?")] == ["Record? [Y/n/e] "] * 2
    assert console.said.count("  worked out, the rest of the total: dan.tricks=2") == 2
    hands = store.hands(store.game(None).id)
    assert [h.hand["tricks"] for h in hands] == [[5, 3, 3, 2], [5, 3, 3, 2]]


def test_edit_in_play_shows_the_edited_hand_s_new_breakdown(store: Store) -> None:
    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    console = Script(["bid=4,3,3,3 tricks=5,3,3,2", "bid=4,3,3,3 tricks=5,3,3,2", "edit 1 bid=5,3,3,3", "quit"])
    Session(store, console, None).run()
    after = console.said[console.said.index("Hand 1 changed; 1 later hand re-scored."):]
    # ann+cat now bid 8 and took 8: 80, no bag; bob+dan bid 6 and took 5: set
    assert after[1:3] == ["  ann+cat: +80  (contract +80)", "  bob+dan: -60  (contract -60)"]


@pytest.mark.parametrize("lang, log, undo, quit_, listed", [
    ("ru", "журнал", "отмена", "выход", "отмена (undo)"),
    ("uk", "журнал", "скасувати", "вихід", "скасувати (undo)"),
    ("et", "logi", "tagasi", "välju", "tagasi (undo)"),
])
def test_play_s_commands_answer_to_the_language_s_words(store: Store, lang: str, log: str, undo: str, quit_: str,
                                                        listed: str) -> None:
    from scorepad.locale import speaking

    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    console = Script(["bid=4,3,3,3 tricks=5,3,3,2", "edit 1 bid=5,3,3,3", "help", log, undo, quit_])
    with speaking(lang):
        assert Session(store, console, None).run() == 0
    assert len(console.questions) == 6                     # `quit_` left: nothing asked after it
    assert store.game(None).hands == 0                    # `undo` took the hand back
    helped = [line for line in console.said if line.startswith("  ") and "(" in line]
    assert any(line.strip().startswith(listed) for line in helped), helped
    assert any(line.strip().startswith(f"{log} (log)") for line in helped)
    trail = "\n".join(console.said)
    bid = {"ru": "заказ", "uk": "заявка", "et": "pakkumine"}[lang]   # the field as the language types it
    assert f"{bid}=4,3,3,3 → {bid}=5,3,3,3" in trail      # the log: the edit, with what changed
