"""Every hand of every scenario typed into the hand model (scorepad.engine.hand_entry.HandEntry)
question by question, as a form on a page would, with no console: each question is answered from
the scenario's own values (Enter where the command line typed nothing), no legal value is refused,
the hand is stored through the one write every front end uses, and the stored points and totals are
the scenario's. (Refused hands are the argument form's tests: typed question by question, a value
the rules break is asked again, so the hand is never read.)"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from scorepad.app import games as play
from scorepad.app.games import Typed, type_and_score, write_hand
from scorepad.app.scenario import load_scenario
from scorepad.engine.assignments import split_assignments
from scorepad.engine.game import Game, initial_state, make_game
from scorepad.engine.hand_entry import HandEntry, Mode, Outcome, Question
from scorepad.errors import ScorepadError
from scorepad.locale import YES_WORDS
from scorepad.rules.registry import load
from scorepad.store import Store

SCENARIOS = sorted((Path(__file__).parents[1] / "scenarios").rglob("*.toml"))
MAX_QUESTIONS = 400


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """One database for all the scenarios (each is a game of its own)."""
    store = Store(tmp_path_factory.mktemp("entry") / "entry.db")
    yield store
    store.close()


def answer_for(game: Game, values: dict[str, Any], q: Question) -> str:
    """What the command line typed for this field (and this player or side); empty where it typed nothing."""
    value = values.get(q.field)
    if value is None:
        return ""
    if q.pick:                                   # asked once: the player who has it
        return next((game.players[i] for i, v in enumerate(value) if v is not None and str(v).lower() in YES_WORDS), "-")
    if q.seat is None:
        return str(value)
    one = value[q.seat]
    return "" if one is None else str(one)


def typed_by_questions(entry: HandEntry, game: Game, args: list[str]) -> Outcome:
    """Answer the entry's questions until it has read the hand; every answer must be taken."""
    values = split_assignments(game, args).values
    transcript: list[str] = []
    while (q := entry.question()) is not None:
        transcript += [f"  {note.text}" for note in entry.notes()]
        text = answer_for(game, values, q)
        transcript.append(q.text + text)
        assert len(transcript) < MAX_QUESTIONS, "the questions never end:\n" + "\n".join(transcript[-20:])
        reply = entry.answer(text)
        assert reply.ok, f"{q.text}{text} refused: {reply.problems}\n" + "\n".join(transcript)
    assert entry.outcome is not None
    return entry.outcome


def play_by_questions(store: Store, path: Path) -> int:
    """The scenario's hands typed into HandEntry and stored; how many were typed."""
    data, game = load_scenario(path)
    rs = game.ruleset
    gid = store.create_game(ruleset_id=rs.id, ruleset_hash=rs.hash, ruleset_text=rs.text, ruleset_source=rs.source,
                            variant=rs.variant, name=path.stem, season="entry", players=game.players,
                            sides=[{"name": s.name, "members": list(s.members)} for s in game.sides],
                            options=dict(game.options), state=initial_state(game))
    typed = 0
    for n, spec in enumerate(data.get("hand", []), start=1):
        row = store.game(gid)
        if spec.get("finish"):
            play.finish(store, gid)
            continue
        if "error" in spec:
            continue
        args = [str(a) for a in spec.get("input", [])]
        __, want_hand, want = type_and_score(game, row.state, args, None)
        entry = HandEntry(game, row.state, hand_no=row.hands + 1)
        got = typed_by_questions(entry, game, args)
        where = f"{path.name} hand {n} ({' '.join(args)})"
        assert got.hand == want_hand, where
        write_hand(store, row, game, Typed(got.raw, got.hand, got.result), expect=row.version, key=f"{gid}-{n}")
        stored = store.hands(gid)[-1]
        assert stored.n == row.hands + 1, where
        assert stored.points == want.points, where
        if "points" in spec:
            assert stored.points == spec["points"], where
        if "totals" in spec:
            assert [s["score"] for s in stored.state["sides"]] == spec["totals"], where
        typed += 1
    final = store.game(gid).state
    expect = data.get("result", {})
    for key, got_value in (("finished", final["finished"]), ("winner", final["winners"]),
                           ("totals", [s["score"] for s in final["sides"]])):
        if key in expect:
            assert got_value == expect[key], f"{path.name} result {key}"
    return typed


@pytest.mark.parametrize("path", SCENARIOS, ids=[f"{p.parent.name}/{p.stem}" for p in SCENARIOS])
def test_every_scenario_typed_into_the_hand_model(store: Store, path: Path) -> None:
    try:
        data, __ = load_scenario(path)
    except ScorepadError:
        pytest.skip("a scenario of a ruleset that does not load (tested as such elsewhere)")
    typed = play_by_questions(store, path)
    if any("error" not in h and not h.get("finish") for h in data.get("hand", [])):
        assert typed > 0



# ------------------------------------------------------------------ the model's own moves, without a store
def new(ruleset: str, players: list[str], mode: Mode = "hand", given: Sequence[str] = ()) -> HandEntry:
    game = make_game(load(ruleset), players)
    return HandEntry(game, initial_state(game), split_assignments(game, list(given)), mode=mode)


def test_a_value_a_rule_breaks_is_refused_where_it_is_typed() -> None:
    entry = new("honeymoon-bridge", ["ann", "bob"])
    q = entry.question()
    assert q is not None and q.field == "contract"
    reply = entry.answer("4SXX")
    assert not reply.ok and reply.problems and not reply.not_a_value
    again = entry.question()                          # the same question again, what was typed in brackets
    assert again is not None and (again.field, again.default) == ("contract", "4SXX")
    assert entry.answer("4SX").ok and entry.answers["contract"] == "4SX"


def test_back_a_row_and_a_retyped_line() -> None:
    entry = new("spades", ["ann", "bob", "cat", "dan"])
    first = entry.question()
    assert first is not None and first.field == "bid" and first.row_order and first.show_legal
    assert not entry.back() and entry.notes()[-1].text == "(this is the first question)"
    assert entry.answer("4").ok
    second = entry.question()
    assert second is not None and second.seat != first.seat and not second.show_legal
    assert entry.back() and entry.question() == replace(first, default="4")   # typed: kept in brackets
    assert entry.answer("5,3,3,2").ok                 # the whole row at the first player's question
    q = entry.question()
    assert q is not None and q.field == "tricks"
    assert entry.answer("nonsense").not_a_value
    assert entry.retype(["bid=4,3,3,3", "bid=5,3,3,3"])            # refused as the argument form refuses
    assert entry.retype(["bid=4,3,3,3", "tricks=5,3,3,2"]) == []
    assert entry.question() is None and entry.outcome is not None
    want = type_and_score(entry.game, entry.state, ["bid=4,3,3,3", "tricks=5,3,3,2"], None)[2]
    assert entry.outcome.result.points == want.points
    assert entry.summary() == ["bid: ann 4, bob 3, cat 3, dan 3", "tricks: ann 5, bob 3, cat 3, dan 2"]


def test_edit_asks_every_player_of_a_field_typed_for_some() -> None:
    entry = new("skid", ["ann", "bob", "cat"], mode="edit", given=["out=ann", "bob.cards=QS 10H", "cat.cards=A 7"])
    asked = []
    while (q := entry.question()) is not None:
        asked.append((q.field, q.who, q.default))
        assert entry.answer("").ok
    assert ("cards", "bob", "QS 10H") in asked and ("cards", "cat", "A 7") in asked


def asked_and_said(entry: HandEntry, answers: Sequence[str]) -> tuple[list[Question], list[str]]:
    """The questions asked while answering from a list (Enter once it runs out), and the notes said."""
    asked: list[Question] = []
    said: list[str] = []
    todo = list(answers)
    while (q := entry.question()) is not None:
        said += [n.text for n in entry.notes()]
        asked.append(q)
        assert len(asked) < 50, [a.text for a in asked]
        entry.answer(todo.pop(0) if todo else "")
    said += [n.text for n in entry.notes()]
    return asked, said


def test_skid_once_out_is_typed_bridge_and_the_cards_of_who_went_out_are_not_asked() -> None:
    entry = new("skid", ["ann", "bob", "cat"])
    asked, said = asked_and_said(entry, ["ann", "", "", "QS 10H", "A 7"])
    assert [(q.field, q.who) for q in asked] == [("out", None), ("jack", None), ("reshuffles", None),
                                                 ("cards", "bob"), ("cards", "cat")]
    assert "ann: cards = - (follows from what is typed)" in said
    assert entry.outcome is not None and entry.outcome.result.points == [0, 60, 15]
    entry = new("skid", ["ann", "bob", "cat"])        # a Bridge: everybody's cards, the declarer's too
    asked, __ = asked_and_said(entry, ["", "bob", "", "QS 10H", "A 7", "6"])
    assert [(q.field, q.who) for q in asked][:2] == [("out", None), ("bridge", None)]
    assert [q.who for q in asked if q.field == "cards"] == ["ann", "bob", "cat"]


def test_skid_a_player_out_of_the_game_is_not_offered() -> None:
    game = make_game(load("skid"), ["ann", "bob", "cat"])
    state = initial_state(game)
    state["sides"][2]["status"] = "out"
    entry = HandEntry(game, state)
    q = entry.question()
    assert q is not None and q.field == "out"
    assert q.legal == "a player: ann, bob" and "cat" not in q.candidates


def test_thousand_asks_four_nines_once_as_who_and_the_marriages_on_one_line() -> None:
    entry = new("1000", ["ann", "bob", "cat"])
    asked, __ = asked_and_said(entry, ["ann", "120", "70,30", "h", "", "", "bob"])
    marriages = next(q for q in asked if q.field == "marriages")
    assert len(marriages.text) <= 80, marriages.text
    nines = [q for q in asked if q.field == "nines"]
    assert [(q.who, q.text) for q in nines] == [(None, "nines (a player: ann, bob, cat, or - for none) [-]: ")]
    assert entry.outcome is not None and entry.outcome.hand["nines"] == [False, True, False]
    assert entry.outcome.result.points == [120, 130, 20]


def test_a_rule_refused_where_it_is_typed_is_said_in_the_language_shown() -> None:
    """The sentence of a rule a value breaks, in the language the questions are asked in, as `hand`
    says it (the page's form shows it beside the field, the prompt under the question)."""
    from scorepad.locale import speaking

    with speaking("ru"):
        game = make_game(load("spades"), ["ann", "bob", "cat", "dan"])
        entry = HandEntry.next_hand(game, initial_state(game), args=["bid=4,3,3,3"])
        q = entry.question()
        assert q is not None and q.field == "tricks"
        reply = entry.answer("5,3,3,3")
    assert reply.problems == ["взятки — в сумме должно быть 13, а получается 14"]


def test_pinochle_the_counts_a_meld_list_gives_are_shown_not_asked() -> None:
    """Melds typed as codes give every count of that player: said as worked out, never asked (before:
    all 17 counts asked for each player, showing [0] where the codes gave 1, and then the meld number)."""
    entry = new("pinochle", ["ann", "bob"])
    asked, said = asked_and_said(entry, ["4A p", "m", "150", "ann"])
    targets = {c.field for c in entry.rs.fields["melds"].combos.values()}
    assert not [q.text for q in asked if q.field in targets]
    # nor the meld points as one number, which stand instead of a list (before: asked for each player)
    assert [q.field for q in asked][:3] == ["melds", "melds", "card_points"]
    assert {"ann: aces = 1 (follows from what is typed)", "ann: pinochles = 1 (follows from what is typed)",
            "bob: marriages = 1 (follows from what is typed)"} <= set(said)
    assert not [line for line in said if "= 0 (" in line]        # a count the list leaves at none is not said
    assert entry.outcome is not None
    assert entry.outcome.hand["aces"] == [1, 0] and entry.outcome.hand["marriages"] == [0, 1]


def test_piquet_the_points_an_announcement_gives_are_shown_not_asked() -> None:
    """`quint trio` gives ann's sequences and sets; bob, who announced nothing by name, is asked his."""
    entry = new("piquet", ["ann", "bob"])
    asked, said = asked_and_said(entry, ["", "", "", "quint trio", "", "", "", "7", "8", "6"])
    assert [(q.field, q.who) for q in asked if q.field in ("sequences", "sets")] == [("sequences", "bob"),
                                                                                    ("sets", "bob")]
    assert {"ann: sequences = 15 (follows from what is typed)", "ann: sets = 3 (follows from what is typed)"} <= set(said)
    assert entry.outcome is not None and entry.outcome.hand["sequences"] == [15, 0]
    assert entry.outcome.hand["sets"] == [3, 0] and entry.outcome.raw.values["announced"][0] == "quint trio"
