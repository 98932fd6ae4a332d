"""Each section reader of scorepad/rules/ works alone: the parsed TOML and a problems collector in, its part out."""

from __future__ import annotations

import tomllib

from scorepad.rules.format import FIELD, GAME, TOP
from scorepad.rules.problems import Problems
from scorepad.rules.schema import validate
from scorepad.rules.sections.cards import read_cards
from scorepad.rules.sections.end import read_end
from scorepad.rules.sections.game import read_game
from scorepad.rules.sections.options import read_options
from scorepad.rules.sections.players import read_players
from scorepad.rules.sections.variants import check_variants


def read(text: str) -> tuple[dict, Problems]:  # type: ignore[type-arg]
    return tomllib.loads(text), Problems("t.toml")


def test_game_reader_alone() -> None:
    data, p = read('[game]\nid = "x-1"\nname = "X"\naliases = ["ex", 3]\nnoets = []\n')
    game = read_game(data, p)
    assert (game.id, game.name, game.aliases) == ("x-1", "X", ())
    assert p.items == ["t.toml: game.aliases: must be a list of text",
                       "t.toml: game.noets: unknown key (known: aliases, description, family, id, name, names, notes)"]


def test_players_reader_alone() -> None:
    data, p = read('[players]\nmin = 4\nmax = 4\nsides = "partnership"\npartnerships = [[1, 2], [2, 4]]\n')
    players = read_players(data, p)
    assert players.sides == "partnership"
    assert p.items == ["t.toml: players.partnerships: must use each seat 1..4 exactly once"]
    data, p = read('[players]\nmin = 0\nsides = "teams"\n')
    read_players(data, p)
    assert p.items == ["t.toml: players.min: must be a whole number 1..12",
                       "t.toml: players.sides: must be 'individual' or 'partnership'"]


def test_cards_reader_alone() -> None:
    data, p = read('[cards]\nranks = ["7", "8", "A", "Z"]\nvalues = { A = 11, QX = 3, "8" = "many" }\n')
    deck, values = read_cards(data, p)
    assert deck.ranks == ("7", "8", "A") and values == {"A": 11}
    assert len(p.items) == 3 and "unknown ranks ['Z']" in p.items[0]
    data, p = read('[cards]\ndeck = ["52"]\n')
    assert read_cards(data, p)[0].ranks[0] == "2"        # refused with a sentence, not a crash
    assert p.items == ["t.toml: cards.deck: unknown deck (known: 52, 36, 32, 24, pinochle, canasta, 52+joker)"]


def test_options_reader_alone() -> None:
    data, p = read('[options.target]\ndefault = 500\nvalues = [250, 500]\n[options.x]\nhelp = "no default"\n')
    options = read_options(data, p)
    assert list(options) == ["target"] and options["target"].values == (250, 500)
    assert p.items == ["t.toml: options.x.default: every option needs a default"]


def test_end_reader_checks_its_own_keys_without_formulas() -> None:
    data, p = read('[end]\nwinner = "loudest"\nrest_of_deal = "scored"\n')
    from scorepad.rules.names import Compiler, declare

    names = declare([], [], {}, [], [], [], [], [], set(), p)
    end = read_end(data, names, Compiler({}, p), p)
    assert end.winner == "highest"
    assert p.items == ["t.toml: end.winner: must be one of highest, lowest, marked, last_standing",
                       "t.toml: end.rest_of_deal: applies only with end.first_to"]


def test_variants_reader_alone() -> None:
    data, p = read('[variants.short]\nname = "Short"\n[variants.bad]\nfromat = 1\n')
    check_variants(data, p)
    assert p.items == ["t.toml: variants.bad.fromat: unknown key in a variant"]


def test_the_declaration_drives_validation() -> None:
    p = Problems("t.toml")
    kept = validate({"id": "a", "name": 5, "colour": "red"}, GAME, "game", p)
    assert kept == {"id": "a"}
    assert p.items[0] == "t.toml: game.name: must be text"
    assert FIELD.fields["bidding"].message == "must be true or false"
    assert {"game", "fields", "variants", "check"} <= TOP.fields.keys()


def test_a_check_per_that_is_no_word_is_a_sentence() -> None:
    from scorepad.errors import RulesetError
    from scorepad.rules.loader import load_text

    text = '[game]\nid = "x"\nname = "X"\n[[check]]\nper = []\nok = "true"\nmessage = "m"\n'
    try:
        load_text(text, "t.toml")
    except RulesetError as exc:
        assert exc.problems == ["t.toml: check[0].per: must be hand, player or side"]
    else:
        raise AssertionError("accepted")


FINISH_RULE = """
[game]
id = "fin"
name = "Fin"

[fields.pts]
scope = "player"
type = "int"

[let]
double = "sum(all_pts) * 2"

[side]
mine = "score + 1"

[[score]]
per = "player"
label = "points"
points = "pts"

[[rule]]
id = "closing"
on = "{on}"
add = {{ score = "{src}" }}
"""


def test_end_and_finish_rules_read_only_what_exists_between_hands() -> None:
    """`scorepad finish` stops a game between hands and runs the finish and end rules: a field, a let or
    a side let has no value then, so a rule reading one is refused when the ruleset loads, not at the
    table where the game could never be finished."""
    import pytest

    from scorepad.engine import game as engine
    from scorepad.engine import scoring
    from scorepad.errors import RulesetError
    from scorepad.rules.loader import load_text

    for on in ("end", "finish"):
        for src, name in (("double", "double"), ("mine", "mine"), ("all_mine[0]", "all_mine"),
                          ("sum(all_pts)", "all_pts"), ("pts", "pts")):
            with pytest.raises(RulesetError, match=rf"rule\[0\]\.add\.score: unknown name '{name}'"):
                load_text(FINISH_RULE.format(on=on, src=src), "fin.toml")
        game = engine.make_game(load_text(FINISH_RULE.format(on=on, src="score + (5 if finished_early else 0)"),
                                          "fin.toml"), ["ann", "bob"], None, {})
        state = scoring.apply_hand(game, engine.initial_state(game), {"pts": [1, 2]}).state
        assert engine.finish_game(game, state).state["sides"][0]["score"] == 1 + 1 + 5
    # a rule on each hand still reads them
    load_text(FINISH_RULE.format(on="hand", src="double + mine + sum(all_pts)"), "fin.toml")


def test_a_stored_games_end_rule_reading_a_let_still_loads() -> None:
    """Games stored (or exported) before such rules were refused keep their text readable: its hands score as
    before, a hand that ends the game runs the end rule with the hand's lets, and `finish` refuses with
    a sentence (the let has no value between hands)."""
    import pytest

    from scorepad.engine import game as engine
    from scorepad.engine import scoring
    from scorepad.errors import HandError
    from scorepad.rules.loader import load_text

    text = FINISH_RULE.format(on="end", src="double") + '\n[end]\nwhen = "max(all_score) >= 10"\n'
    load_text(text, "fin.toml", played=True)  # an import of such games
    game = engine.make_game(load_text(text, "fin.toml", pinned=True), ["ann", "bob"], None, {})
    state = scoring.apply_hand(game, engine.initial_state(game), {"pts": [1, 2]}).state
    with pytest.raises(HandError, match="this hand cannot be scored"):
        engine.finish_game(game, state)
    ended = scoring.apply_hand(game, state, {"pts": [10, 0]})  # ends the game: double = 2 * (10 + 0)
    assert ended.state["finished"] and [s["score"] for s in ended.state["sides"]] == [1 + 10 + 20, 2 + 0 + 20]
