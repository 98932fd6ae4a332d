"""Loading a ruleset: parse, overlay the variant, run each section's reader with one problems collector.

A ruleset is untrusted data. Loading collects every problem (file, TOML key, plain sentence)
before failing, refuses unknown keys, and compiles formulas once with the names visible in each
context, so a misspelt name is reported at load time rather than in the middle of a game.
The format is declared in format.py and documented for players in docs/rulesets.md.
"""

from __future__ import annotations

from typing import Any

from scorepad.locale import N_, Said
from scorepad.rules.cost import cost_problems
from scorepad.rules.format import TOP
from scorepad.rules.model import Ruleset, card_functions
from scorepad.rules.names import Compiler, declare
from scorepad.rules.problems import Problems
from scorepad.rules.schema import FORMAT_VERSION
from scorepad.rules.sections.cards import read_cards
from scorepad.rules.sections.check import read_checks
from scorepad.rules.sections.display import read_display
from scorepad.rules.sections.end import read_end
from scorepad.rules.sections.fields import bound_problems, compile_patterns, field_tables, read_fields, total_check
from scorepad.rules.sections.game import read_game
from scorepad.rules.sections.lets import let_tables, read_lets
from scorepad.rules.sections.options import read_options
from scorepad.rules.sections.players import read_players
from scorepad.rules.sections.rule import read_rules, rule_contexts
from scorepad.rules.sections.score import read_scores
from scorepad.rules.sections.state import read_state, state_tables
from scorepad.rules.sections.statistics import read_statistics
from scorepad.rules.sections.tables import read_tables
from scorepad.rules.sections.variants import apply_variant, check_variants, variant_description, variant_names
from scorepad.rules.source import MAX_NESTING, MAX_VALUES, control_characters, depth_and_size, oversized, parse_toml


def load_text(text: str, source: str, variant: str | None = None, pinned: bool = False,
              played: bool = False) -> Ruleset:
    """Load a ruleset from TOML text; raises RulesetError listing every problem.

    `pinned`: the text a game pinned, which every command of that game loads again (and which was
    checked whole when the game began): its `[translations]` are checked one language at a time, when that language is shown
    (translation.check_translations), not every language on every load.
    `played` (and `pinned`): the text of games already played (a stored game, an import of them):
    its end and finish rules load as they did when the games began (see rule.read_rules)."""
    data = parse_toml(text, source)
    p = Problems(source)
    check_variants(data, p)
    p.fail_if_any()
    merged = apply_variant(data, variant, source)
    return build(merged, data, text, source, variant, translations_later=pinned, played=pinned or played)


def check_limits(data: dict[str, Any], p: Problems) -> None:
    """Nesting, number of values, huge numbers and long texts: refused before anything else is read."""
    depth, size = depth_and_size(data)
    if depth > MAX_NESTING:
        p.add("", Said(N_("the file nests tables deeper than {most} levels"), most=MAX_NESTING))
        p.fail_if_any()
    if size > MAX_VALUES:
        p.add("", Said(N_("the file has too many values (over {most})"), most=MAX_VALUES))
        p.fail_if_any()
    for where, message in oversized(data, ""):
        p.add(where, message)
    p.fail_if_any()


def check_top(data: dict[str, Any], p: Problems) -> None:
    """Only known sections, and the format version this scorepad reads."""
    for key in data:
        if key not in TOP.fields:
            p.add(key, TOP.unknown_said)
    fmt = data.get("format", FORMAT_VERSION)
    if fmt != FORMAT_VERSION:
        p.add("format", Said(N_("this scorepad reads ruleset format {version}, not {value}"), version=FORMAT_VERSION,
                             value=repr(fmt)))


def read_translations(base: dict[str, Any], p: Problems) -> None:
    """The `[translations.<lang>]` tables (texts in other languages): checked here, used by translation.py."""
    if "translations" not in base:
        return
    # start-up: ~30 ms; only a ruleset with translations needs it
    from scorepad.rules.translations import translation_problems

    for key, message in translation_problems(base):
        p.add(key, message)


def build(data: dict[str, Any], base: dict[str, Any], text: str, source: str,
          variant: str | None, translations_later: bool = False, played: bool = False) -> Ruleset:
    """The Ruleset of `data` (the base with the variant applied); `base` is the file as written.
    `translations_later`: the [translations] are checked when a language is shown (see load_text).
    `played`: the text of games already played (see load_text)."""
    p = Problems(source)
    check_limits(data, p)
    if not played:   # a game's pinned text was checked when the game began (and is shown through safe output)
        for where, message in control_characters(base, ""):
            p.add(where, message)
    check_top(data, p)
    game = read_game(data, p)
    description = _description(game.description, base, variant)
    players = read_players(data, p)
    deck, card_values = read_cards(data, p)
    options = read_options(data, p)
    tables = read_tables(data, p)
    side_state_raw, game_state_raw = state_tables(data, p)
    fields_raw = field_tables(data, p)
    hand_let_raw, player_let_raw, side_let_raw = let_tables(data, p)
    patterns = compile_patterns(fields_raw, p)
    parts = {f"{n}_{part}" for n, (_, names) in patterns.items() for part in names}
    names = declare(options, tables, fields_raw, hand_let_raw, player_let_raw, side_let_raw,
                    side_state_raw, game_state_raw, parts, p)
    comp = Compiler(card_functions(card_values), p)

    fields = read_fields(fields_raw, patterns, names, comp, p)
    totals = [total_check(f, comp, names.hand()) for f in fields.values() if f.total is not None]
    hand_lets, player_lets, side_lets = read_lets(hand_let_raw, player_let_raw, side_let_raw, names, comp)
    checks = [c for c in totals if c is not None] + read_checks(data, names, comp, p)
    scores = read_scores(data, set(side_state_raw), names, comp, p)
    side_state, game_state = read_state(side_state_raw, game_state_raw, names, comp)
    rules = read_rules(data, names, comp, p, played=played)
    next_dealer = (comp(players.next_dealer, "players.next_dealer", rule_contexts(names)[1])
                   if players.next_dealer is not None else None)
    end = read_end(data, names, comp, p)
    display = read_display(data, set(side_state_raw), names, comp, p)
    statistics = read_statistics(data, names, comp, p, [s.id for s in scores], [r.id for r in rules])
    if not translations_later:
        read_translations(base, p)

    p.fail_if_any()
    ruleset = Ruleset(
        id=game.id, name=game.name, names=game.names, aliases=game.aliases, description=description or "",
        notes=game.notes, variant=variant, variants=variant_names(base), min_players=players.min,
        max_players=players.max, sides_kind=players.sides, seats=players.seats, side_names=players.side_names,
        partnerships=players.partnerships, deck=deck, card_values=card_values, options=options,
        fields=fields, tables=tables, hand_lets=tuple(hand_lets), player_lets=tuple(player_lets),
        side_lets=tuple(side_lets), checks=tuple(checks), scores=tuple(scores), side_state=side_state,
        game_state=game_state, rules=tuple(rules), end=end, display_side=display.side,
        display_next=display.next, display_info=display.info, display_info_when=display.info_when,
        sheet_below=display.sheet_below,
        next_dealer=next_dealer, text=text, source=source, data=data, statistics=tuple(statistics),
        unchecked_translations=base if translations_later and "translations" in base else None)
    _check_built(ruleset, p)
    return ruleset


def _description(own: str, base: dict[str, Any], variant: str | None) -> str:
    """The game's description, with the variant's own beneath it."""
    extra = variant_description(base, variant)
    return f"{own}\n{extra}".strip() if extra is not None else own


def _check_built(ruleset: Ruleset, p: Problems) -> None:
    """What can be checked only on the whole ruleset: the cost of its formulas, the kinds of its bounds."""
    for key, message in cost_problems(ruleset):  # formulas that could make a hand take too long
        p.add(key, message)
    for key, message in bound_problems(ruleset):  # a number field's bounds that are not numbers
        p.add(key, message)
    p.fail_if_any()
