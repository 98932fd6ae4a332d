"""The hand prompt with a scripted console: fast checks of what it asks, in which order, and what it reads."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from scorepad.app import games as play
from scorepad.app.bids import record_bid
from scorepad.engine.assignments import split_assignments
from scorepad.errors import HandError
from scorepad.store import GameRow, Store
from scorepad.table.entry import enter_bid, enter_hand
from scorepad.table.prompt import Cancelled, HandPrompt
from scorepad.table.session import Session
from tests.table.typist import Script


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "p.db")


def test_back_and_help_and_a_comma_inside_one_value(store: Store) -> None:
    play.new_game(store, "1000", ["ann", "bob", "cat"])
    console = Script(["ann", "<", "bob", "?", "120", "80,20", "C,S", "", "", "", "", "", "y"])
    rec = enter_hand(store, None, [], console)
    assert console.questions[:3] == ["bidder (a player: ann, bob, cat): ", "bid (100-400): ",
                                     "bidder (a player: ann, bob, cat) [ann]: "]
    assert any("Enter keeps the value in [brackets]" in line for line in console.said)
    assert "bob: marriages [-]: " in console.questions       # C,S was ann's two marriages, not a row
    assert rec.row.hands == 1
    hand = store.hands(rec.row.id)[0]
    assert "bidder=bob" in hand.typed and "ann.marriages=C,S" in hand.typed and "points=80,20,20" in hand.typed
    # bob bid 120 with 20 card points: bid failed; ann 80 + clubs 100 + spades 80 (the source's values)
    assert [s["score"] for s in rec.row.state["sides"]] == [260, -120, 20]


def test_values_typed_on_the_command_line_are_not_asked_again(store: Store) -> None:
    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    console = Script(["5,3,3", "y"])
    enter_hand(store, None, ["bid=4,3,3,3"], console)
    assert console.questions[0].startswith("ann: tricks")
    console = Script(["3", "3", "3", "y"])           # ann's 4 stands, not asked again; only the missing bids are
    rec = enter_hand(store, None, ["ann.bid=4", "tricks=5,3,3,2"], console)
    assert not any("missing" in line for line in console.said)   # asked in the first pass, in their turn
    # bob deals hand 2: the bids are asked from his left, bob last
    assert console.questions[:3] == ["cat: bid (0-13; nil, blind, bnil, blind-nil): ", "dan: bid: ", "bob: bid: "]
    assert not any("tricks" in q for q in console.questions)
    assert store.hands(rec.row.id)[-1].typed == ["bid=4,3,3,3", "tricks=5,3,3,2"]


def test_only_the_missing_players_are_asked_and_back_returns_to_them(store: Store) -> None:
    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    console = Script(["2", "<", "1", "2", "y"])   # bob and dan are missing; < from dan goes back to bob
    rec = enter_hand(store, None, ["ann.bid=4", "cat.bid=3", "tricks=5,3,3,2"], console)
    assert console.questions[:3] == ["bob: bid (0-13; nil, blind, bnil, blind-nil): ", "dan: bid: ",
                                     "bob: bid (0-13; nil, blind, bnil, blind-nil) [2]: "]
    assert console.questions[3] == "dan: bid: "
    assert not any(q.startswith(("ann:", "cat:")) for q in console.questions)
    assert store.hands(rec.row.id)[-1].typed == ["bid=4,1,3,2", "tricks=5,3,3,2"]


def test_a_value_typed_against_the_bid_written_down_is_refused_at_the_prompt_too(store: Store) -> None:
    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    record_bid(store, None, ["bid=4,3,3,3"])
    console = Script([])
    with pytest.raises(HandError, match=r"ann.bid is given twice, as 4 \(bid=4,3,3,3, written down by `scorepad bid`\)"):
        enter_hand(store, None, ["ann.bid=5", "tricks=5,3,3,2"], console)
    assert store.game(1).hands == 0 and store.pending_bid(1) == ["bid=4,3,3,3"]


def test_ctrl_d_in_the_prompt_is_a_cancel(store: Store) -> None:
    row = play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    game = play.game_of(row)
    prompt = HandPrompt(game, row.state, Script(["4", EOFError]), split_assignments(game, []))
    with pytest.raises(Cancelled):
        prompt.run()
    assert store.game(row.id).hands == 0


def test_bid_asked_on_a_terminal_and_checked_at_bid_time(store: Store) -> None:
    play.new_game(store, "sitaratas", ["ann", "bob", "cat", "dan"])
    # ann deals one card each; bob bids first, ann last: bids adding up to 1 are refused where typed, then
    # typed again (a row is read in the turn asked: bob, cat, dan, ann)
    console = Script(["0,0,0,1", "1,0,0,1"])
    done = enter_bid(store, None, console)
    assert console.questions[0].startswith("bob: bid") and console.questions[1].startswith("bob: bid")
    assert any("the dealer (ann) bids last" in line for line in console.said)
    assert done.typed == ["bid=1,1,0,0"] and store.pending_bid(done.row.id) == ["bid=1,1,0,0"]


def test_session_commands_without_a_terminal(store: Store) -> None:
    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"], opts=["target=100"])
    console = Script(["bid=4,3,3,3 tricks=5,3,3,2", "sheet", "standings", "rules", "edit 1 tricks=6,3,2,2",
                      "nonsense", "use 99", "finish", "y", "n", "quit"])
    assert Session(store, console).run() == 0
    said = "\n".join(console.said)
    assert "Hand 1 recorded." in said and "Hand 1 changed; 0 later hands re-scored." in said
    assert "'nonsense' is neither a command nor FIELD=VALUE" in said
    assert "there is no game 99" in said.lower() or "no game" in said.lower()
    assert "The game is over" in said and "Spades" in said
    assert "Good night" in said


def test_session_without_a_game_offers_new(store: Store) -> None:
    def start(words: Sequence[str]) -> GameRow:
        return play.new_game(store, words[0], list(words[1:]))

    console = Script(["", "new hearts ann bob cat dan", "hearts=5,4,3,1 queen=ann", "undo", "redo", "rematch",
                      KeyboardInterrupt, EOFError])
    assert Session(store, console, None, start).run() == 0
    said = "\n".join(console.said)
    assert said.startswith("No game yet. Start one: new GAME PLAYER...")
    assert "no game yet" in said                                  # Enter before there is a game
    assert "Game 1 started." in said and "Hand 1 recorded." in said
    assert "Hand 1 removed (hearts=5,4,3,1 queen=ann); redo puts it back." in said
    assert "Game 2: a rematch of game 1." in said
    assert [(g.id, g.hands) for g in store.games()] == [(1, 1), (2, 0)]


def test_the_prompt_in_russian_stores_the_rulesets_own_texts(store: Store, tmp_path: Path) -> None:
    """At the table in Russian: the questions, the refusal of a wrong value and the summary speak
    Russian (the ruleset's own words where it carries them), and the stored hand keeps its own texts."""
    import json

    from scorepad.locale import set_language

    play.new_game(store, "skid", ["ann", "bob"])
    set_language("ru")
    try:
        console = Script(["ann", "", "x", "0", "QS JH", "y"])   # out=ann: bridge and her cards are not asked
        rec = enter_hand(store, None, [], console)
    finally:
        set_language(None)
    assert console.questions[-1] == "Записать? [Д/н/и] "     # "y" is read too: no Russian letter is y
    assert any("нужно целое число" in line for line in console.said), console.said
    assert any(line.startswith("Раздача 1") for line in console.said), console.said
    hand = store.hands(rec.row.id)[0]
    assert "раздач" not in json.dumps(hand.events, ensure_ascii=False)
    assert [s["score"] for s in rec.row.state["sides"]] == [0, 70]


def test_a_turn_up_that_ends_the_round_asks_nothing_more(store: Store) -> None:
    """Pope Joan: a turned-up 9♦ ends the round; the rules leave no room for an honour played or a
    card left, so those questions are not asked (before: 12 more questions)."""
    play.new_game(store, "pope-joan", ["ann", "bob", "cid"])
    console = Script(["", "9D", "y"])
    rec = enter_hand(store, None, [], console)
    assert [q.split(" (")[0] for q in console.questions] == ["final", "turn_up", "Record? [Y/n/e] "]
    assert [s["score"] for s in rec.row.state["sides"]] == [2, -13, -13]   # Pope 12 + Game 3 - 13 dressed


@pytest.mark.parametrize(("lang", "question", "no", "edit"), [
    ("en", "Record? [Y/n/e] ", "n", "e"), ("et", "Salvestada? [J/e/m] ", "e", "m"),
    ("ru", "Записать? [Д/н/и] ", "н", "и"), ("uk", "Записати? [Т/н/з] ", "н", "з")])
def test_the_answer_letters_are_the_language_s_own_and_distinct(store: Store, lang: str, question: str, no: str,
                                                               edit: str) -> None:
    """Estonian "e" is "ei" (no) at Record?, never edit; each prompt's letters differ within it."""
    from scorepad.locale import set_language
    from scorepad.table import answers

    set_language(lang)
    assert answers.question(answers_text(lang), ("yes", "no", "edit")) == question
    letters = [answers.words(a)[0][0] for a in ("yes", "no", "edit")]
    assert len(set(letters)) == 3
    assert answers.read(no, ("yes", "no", "edit")) == "no"
    assert answers.read(edit, ("yes", "no", "edit")) == "edit"
    assert answers.read("", ("yes", "no", "edit")) == "yes"
    assert answers.read("yes", ("yes", "no")) == "yes"                  # a whole English word is read anywhere
    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    console = Script(["5,3,3", no])
    with pytest.raises(Cancelled):
        enter_hand(store, None, ["bid=4,3,3,3"], console)
    assert console.questions[-1] == question
    assert store.hands(store.game(None).id) == []


def answers_text(lang: str) -> str:
    from scorepad.locale import _

    return _("Record?")


def test_a_range_that_follows_the_deal_is_the_range_of_this_deal(store: Store) -> None:
    """Sitaratas deals one card in the first deal: the bid question says 0-1 (before: 0-12), and a bid
    of 2 is refused where it is typed."""
    play.new_game(store, "sitaratas", ["ann", "bob", "cid", "dan"])
    console = Script(["2", "0", "0", "0", "0", "1,0,0,0", "y"])
    rec = enter_hand(store, None, [], console)
    assert console.questions[0] == "bob: bid (0-1): "       # ann deals: bob bids first
    assert any("must be 0-1, not 2" in line for line in console.said), console.said
    assert rec.row.hands == 1


def test_a_line_typed_at_a_question_then_asks_the_rest_as_the_command_line_does(store: Store) -> None:
    """`bid=4,3,3,3` typed at a question: the tricks are asked as after `hand bid=4,3,3,3`, a whole row
    taken at the first question (before: four red "missing ...tricks" lines, then the row refused as
    'must be a whole number')."""
    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    console = Script(["bid=4,3,3,3", "5,3,3", "y"])
    rec = enter_hand(store, None, [], console)
    assert console.questions[1] == "ann: tricks (0-13): "
    assert not any("missing" in line or "whole number" in line for line in console.said), console.said
    assert store.hands(rec.row.id)[-1].typed == ["bid=4,3,3,3", "tricks=5,3,3,2"]
    console = Script(["4", "3", "3", "3", "bid=2,2,2,2", "5,3,3", "y"])   # typed at the tricks question
    rec = enter_hand(store, None, [], console)
    assert console.questions[4:6] == ["ann: tricks (0-13): ", "ann: tricks (0-13): "]
    assert not any("missing" in line or "whole number" in line for line in console.said), console.said
    assert store.hands(rec.row.id)[-1].typed == ["bid=2,2,2,2", "tricks=5,3,3,2"]


def test_a_value_still_to_be_asked_is_said_but_not_as_an_error(store: Store) -> None:
    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    console = Script(["3", "3", "3", "y"])
    enter_hand(store, None, ["ann.bid=4", "tricks=5,3,3,2"], console)
    # the bids not typed are asked in the turn of the table (ann deals: bob first), before anything else
    assert [q.split(":")[0] for q in console.questions[:3]] == ["bob", "cat", "dan"], console.questions
    assert "bad" not in console.styles[:-1], list(zip(console.said, console.styles, strict=False))


def test_values_left_blank_are_missing_not_added_up(store: Store) -> None:
    """Enter at two players' tricks: the prompt says they are missing and asks them, as the argument
    form says (before: "the tricks must add up to 13, they add up to 8", the blanks counted as 0)."""
    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    console = Script(["nil", "3", "3", "4", "", "", "5", "3", "5", "", "y"])   # bids from bob, ann's last
    rec = enter_hand(store, None, [], console)
    assert not any("add up" in line for line in console.said), console.said
    assert "  missing ann.tricks (0-13)" in console.said and "  missing bob.tricks (0-13)" in console.said
    assert console.questions[8:10] == ["ann: tricks (0-13): ", "bob: tricks [0]: "]   # the rest of the total
    assert store.hands(rec.row.id)[-1].typed == ["bid=4,nil,3,3", "tricks=5,0,5,3"]


def test_a_refused_blind_nil_is_asked_again_where_it_was_typed(store: Store) -> None:
    """At 0-0 dan's blind nil is refused at dan's question, which is asked again without the refused
    value in brackets (before: the bids asked again from the first, dan's default [blind])."""
    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    console = Script(["nil", "3", "blind", "", "3", "4", "5,3,3", "y"])   # bob bids first, ann (the dealer) last
    rec = enter_hand(store, None, [], console)
    assert console.questions[2:5] == ["dan: bid: ", "dan: bid: ", "dan: bid: "]   # Enter: a value is needed
    assert console.questions[5] == "ann: bid: "
    refusal = "  dan may bid blind nil only when the team is at least 200 behind (the team has 0, the other team 0)"
    assert console.said.count(refusal) == 1
    assert store.hands(rec.row.id)[-1].typed == ["bid=4,nil,3,3", "tricks=5,3,3,2"]


def test_quit_at_a_question_of_play_leaves_the_hand_and_the_commands_say_how(store: Store) -> None:
    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    console = Script(["", "4", "sheet", "help", "quit", "quit"])
    assert Session(store, console).run() == 0
    assert ("  'sheet' is not a value of cat.bid: record this hand first, or leave it with quit or Ctrl-C "
            "(nothing is stored)") in console.said
    assert "  quit or Ctrl-C leaves this hand; nothing is stored" in console.said      # help, as ? gives it
    assert "Not recorded; nothing was stored." in console.said
    assert console.questions[-1] == "hand 1> " and console.said[-1] == "Good night. Everything is stored."
    assert store.game(None).hands == 0


def test_quit_where_it_is_a_value_is_the_value(store: Store) -> None:
    play.new_game(store, "skid", ["quit", "bob", "cat"])
    console = Script(["quit", "", "", "QS", "A", "y"])   # out=quit: bridge and that player's cards are not asked
    rec = enter_hand(store, None, [], console)
    assert store.hands(rec.row.id)[-1].typed[0] == "out=quit"


def test_play_shows_how_the_cards_were_read(store: Store) -> None:
    """As `hand` prints it: `bob: QS 10H read as Q♠ 10♥ = 60` (before: only the points)."""
    play.new_game(store, "skid", ["ann", "bob", "cat"])
    console = Script(["out=ann cards=-/QS 10H/A 7", "", "bob", "", "", "K", "JD", "y", "quit"])   # no bridge, no bob.cards
    assert Session(store, console).run() == 0
    assert "  bob: QS 10H read as Q♠ 10♥ = 60" in console.said and "  cat: A 7 read as A 7 = 15" in console.said
    assert "  cat: JD read as J♦ = 20" in console.said             # typed question by question too
    assert store.game(None).hands == 2


def test_a_yes_no_default_is_shown_in_the_language(store: Store) -> None:
    """Skid's jack in Ukrainian: `[ні]`, not `[no]`; Enter keeps it."""
    from scorepad.locale import set_language

    play.new_game(store, "skid", ["ann", "bob", "cat"])
    set_language("uk")
    try:
        console = Script(["ann", "", "", "QS", "A", "y"])      # out=ann: no bridge, no ann.cards
        rec = enter_hand(store, None, [], console)
    finally:
        set_language(None)
    assert console.questions[1] == "валет (так/ні) [ні]: "
    assert rec.row.hands == 1 and store.hands(rec.row.id)[-1].hand["jack"] is False


def test_a_line_typed_at_a_bid_question_is_the_bid(store: Store) -> None:
    """`bid` in play, then `bid=4,3,3,3` at its first question (before: an internal error, Retyped)."""
    play.new_game(store, "spades", ["ann", "bob", "cat", "dan"])
    console = Script(["bid", "bid=4,3,3,3", "quit"])
    assert Session(store, console).run() == 0
    assert "Bid for hand 1 written down: bid=4,3,3,3" in console.said
    assert store.pending_bid(1) == ["bid=4,3,3,3"]
