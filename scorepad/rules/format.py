"""The ruleset format (version 1) declared as data: every section, its keys and their kinds.

The loader's section readers validate against these maps, and `json_schema()` turns them into
the JSON Schema shipped as scorepad/rules/ruleset.schema.json (`scorepad rules schema`).
docs/rulesets.md explains each key for people.
"""

from __future__ import annotations

import json
from typing import Any

from scorepad.locale import N_, Said
from scorepad.rules.cards import DECKS, RANK_ORDER
from scorepad.rules.schema import (
    FORMAT_VERSION,
    FORMULA_JSON,
    NAME_PATTERN,
    NUMBER,
    SCHEMA_ID,
    VALUE_DEF,
    VALUE_JSON,
    Bool,
    Entries,
    Formula,
    Map,
    Optional,
    Required,
    Table,
    Tables,
    Text,
    TextList,
    TextMap,
    Value,
)
from scorepad.shape import Anything, Choice, Int, Shape

FIELD_TYPES = ("int", "number", "bool", "word", "player", "side", "cards", "pattern", "combos")
SCOPES = ("hand", "player", "side")
MARKS = ("won", "lost", "out", "playing")
WINNER_MODES = ("highest", "lowest", "marked", "last_standing")
ID_PATTERN = "^[a-z0-9][a-z0-9-]{0,40}$"

GAME = Map((
    Required("id", Anything(json={"type": "string", "pattern": ID_PATTERN,
                         "description": "lower-case letters, digits and -, like 'spades'"})),
    Required("name", Text("the game's name")),
    Optional("names", TextMap("the name in other languages: language = name")),
    Optional("aliases", TextList("other names a player may type")),
    Optional("description", Text("for players, shown by rules show")),
    Optional("notes", TextList("how the ruleset reads the rules where they leave a choice")),
    Optional("family", Text("the family of games (trick-taking, rummy, ...)")),
), "what the game is called")

PLAYERS = Map((
    Optional("min", Int(1, 12, message=Said(N_("must be a whole number 1..12")))),
    Optional("max", Int(1, 12, message=Said(N_("must be a whole number 1..12")))),
    Optional("sides", Choice(values=("individual", "partnership"), message=Said(N_("must be 'individual' or 'partnership'")),
                             json={"description": "each for himself, or fixed partnerships"})),
    Optional("seats", TextList("names of the seats, like North, East, South, West")),
    Optional("side_names", TextList("one name per partnership")),
    Optional("partnerships", Anything(json={"type": "array", "items": {"type": "array", "items": {"type": "integer"}},
                                   "description": "seat numbers of each partnership, like [[1, 3], [2, 4]]"})),
    Optional("next_dealer", Formula("who deals next (default: the next seat)")),
), "how many play, and in which sides")

CARDS = Map((
    Optional("deck", Choice(values=tuple(DECKS), message=Said(N_("unknown deck (known: {decks})"), decks=", ".join(DECKS)))),
    Optional("ranks", TextList("the ranks of the pack, like [\"7\", \"8\", \"9\", \"10\", \"J\", \"Q\", \"K\", \"A\"]",
                               {"enum": list(RANK_ORDER)})),
    Optional("copies", Int(1, 8, message=Said(N_("must be a whole number 1..8")))),
    Optional("jokers", Int(0, 16, message=Said(N_("must be a whole number 0..16")))),
    Optional("values", Table("card or rank = points, like { Q = 10, QS = 50 }", NUMBER,
                             Said(N_("must be a table like {{ Q = 10, QS = 50 }}")))),
), "the pack")

OPTION = Map((
    Required("default", Value("the value when the game does not set it")),
    Optional("values", Anything(json={"type": "array", "items": VALUE_JSON,
                             "description": "the legal values (the default among them)"})),
    Optional("min", Anything(json=NUMBER)),
    Optional("max", Anything(json=NUMBER)),
    Optional("help", Text("what the option changes")),
))
OPTIONS = Entries(OPTION, NAME_PATTERN, "house rules, set with --opt NAME=VALUE")

COMBO = Map((
    Optional("field", Text("the per-combination field it adds to")),
    Required("points", Formula("what the combination is worth")),
    Optional("adds", Choice(values=("count", "points"))),
))

FIELD = Map((
    Optional("scope", Choice(values=SCOPES, message=Said(N_("must be one of {values}"), values=", ".join(SCOPES)))),
    Optional("type", Choice(values=FIELD_TYPES, message=Said(N_("must be one of {values}"), values=", ".join(FIELD_TYPES)))),
    Optional("min", Formula()),
    Optional("max", Formula()),
    Optional("words", Table("typed word = value, like { nil = 0 }", VALUE_JSON,
                            Said(N_("must be a table like {{ nil = 0, blind = 'blind' }}")))),
    Optional("values", Anything(json={"type": "array", "description": "the legal words of a word field"})),
    Optional("synonyms", Anything(json={"type": "object", "additionalProperties": {"type": "string"}})),
    Optional("default", Value("the value when the field is not typed")),
    Optional("optional", Bool("may be left out")),
    Optional("required_if", Formula("must be typed when this holds")),
    Optional("help", Text("shown to players")),
    Optional("pattern", Anything(json={"type": "string", "maxLength": 300, "description": "a regular expression"})),
    Optional("parts", TextList("the named groups of the pattern")),
    Optional("maps", Anything(json={"type": "object", "additionalProperties": {"type": "object"}})),
    Optional("resolve", Anything(json={"type": "object", "additionalProperties": {"enum": ["player", "side"]}})),
    Optional("prompt", Text("the question asked at the table")),
    Optional("applies_if", Formula("the field is part of the hand only when this holds")),
    Optional("total", Formula("the values of the playing players or sides add up to this")),
    Optional("bidding", Bool("written down at bid time, before the play")),
    Optional("default_from", Formula("worked out from other typed fields when left out")),
    Optional("combos", Anything(json={"type": "object", "additionalProperties": COMBO.schema()})),
    Optional("rest", Text("the field a number that is no combination adds to")),
))
FIELDS = Entries(FIELD, NAME_PATTERN, "what is typed after each hand")

CHECK = Map((
    Optional("id", Text("lets a variant replace or remove it")),
    Optional("per", Anything(json={"enum": ["hand", "player", "side"]})),
    Required("ok", Formula("must hold, or the hand is refused")),
    Required("message", Text("shown when it does not hold; {formula} is filled in")),
    Optional("when", Formula("only check when this holds")),
), "what makes a hand impossible")

SCORE = Map((
    Optional("id", Text()),
    Optional("per", Anything(json={"enum": ["player", "side"]})),
    Optional("label", Text("the line's name on the sheet")),
    Required("points", Formula()),
    Optional("when", Formula()),
    Optional("to", Anything(json={"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
                         "description": "the side counters the points go to (default score)"})),
), "the points of a hand")

RULE = Map((
    Optional("id", Text()),
    Optional("per", Anything(json={"enum": ["side", "game"]})),
    Optional("on", Choice(values=("hand", "end", "finish"), message=Said(N_("must be hand, end or finish")))),
    Optional("when", Formula()),
    Optional("set", Table("counter = formula", FORMULA_JSON, Said(N_("must be a table like {{ counter = formula }}")))),
    Optional("add", Table("counter = formula", FORMULA_JSON, Said(N_("must be a table like {{ counter = formula }}")))),
    Optional("set_all", Table("counter = formula", FORMULA_JSON, Said(N_("must be a table like {{ counter = formula }}")))),
    Optional("mark", Anything(json={"enum": list(MARKS)})),
    Optional("end", Bool("ends the game")),
    Optional("label", Text()),
    Optional("message", Text("shown after the hand; {formula} is filled in")),
    Optional("include_out", Bool("also for sides that are out")),
), "thresholds: counters that change, sides marked, the game ended")

STATE = Map((
    Optional("side", Table("counter = its starting value (a formula)", FORMULA_JSON,
                           Said(N_("must be a table of counter = formula")))),
    Optional("game", Table("counter = its starting value (a formula)", FORMULA_JSON,
                           Said(N_("must be a table of counter = formula")))),
), "counters kept from hand to hand")

END = Map((
    Optional("when", Formula("the game ends after a hand when this holds")),
    Optional("winner", Choice(values=WINNER_MODES, message=Said(N_("must be one of {values}"), values=", ".join(WINNER_MODES)))),
    Optional("tie", Choice(values=("draw", "continue"), message=Said(N_("must be draw or continue")))),
    Optional("rank", Choice(values=("highest", "lowest"), message=Said(N_("must be highest or lowest (which total is better)")))),
    Optional("description", Text()),
    Optional("first_to", Formula("the first side whose total reaches this wins")),
    Optional("rest_of_deal", Choice(values=("void", "scored"), message=Said(N_(
        "must be void (the points after the winning one are not scored) or scored")))),
), "when the game ends and who wins")

DISPLAY = Map((
    Optional("side", Table("label = formula, shown per side", FORMULA_JSON, Said(N_("must be a table of label = formula")))),
    Optional("next", Table("label = formula, shown for the next hand", FORMULA_JSON,
                           Said(N_("must be a table of label = formula")))),
    Optional("info", TextList("lines shown under the standings")),
    Optional("info_when", TextList("per info line, a formula of the options when it is shown ('' = always)")),
    Optional("sheet_below", Text("the side counter written below the line")),
), "what the standings show")

STATISTIC_PARTS = (
    Optional("per", Choice(values=("player", "side"), message=Said(N_("must be player or side")))),
    Optional("count", Formula("the hands where this holds are counted")),
    Optional("sum", Formula("this number is added up over the hands")),
    Optional("mean", Formula("this number is averaged over the hands where it applies (`of`, else every hand)")),
    Optional("made", Formula("a rate: the hands where this holds, out of those where `of` holds")),
    Optional("max", Formula("the largest value of this number over the hands where it applies (`of`, else every hand)")),
    Optional("min", Formula("the smallest value of this number over the hands where it applies (`of`, else every hand)")),
    Optional("first", Formula("per game: the number of the first hand in which this holds, averaged over the games "
                              "where it held")),
    Optional("of", Formula("the hands a rate (or a mean, a max, a min) is taken over: where this holds")),
)
LABEL = "what the players call it, shown on the player and season pages"
STATISTIC = Map((Required("label", Text(LABEL)), *STATISTIC_PARTS),
                extra={"oneOf": [{"required": ["count"]}, {"required": ["sum"]}, {"required": ["mean"]},
                                 {"required": ["made", "of"]}, {"required": ["max"]}, {"required": ["min"]},
                                 {"required": ["first"]}],
                       "dependentRequired": {"made": ["of"]}})
STATISTICS = Entries(STATISTIC, NAME_PATTERN, "what the players of the game count over their hands (nils made, bags taken)")
# In a variant a statistic is an overlay on the base's: a new label, or a new kind, or both; the
# statistic as merged is checked like the base's.
VARIANT_STATISTICS = Entries(Map((Optional("label", Text(LABEL)), *STATISTIC_PARTS),
                                 extra={"dependentRequired": {"made": ["of"]}}),
                             NAME_PATTERN, "statistics added, or the base's replaced (label, kind or both)")

LETS = Table("name = formula", FORMULA_JSON)

SECTIONS: tuple[tuple[str, Shape], ...] = (
    ("game", GAME),
    ("players", PLAYERS),
    ("cards", CARDS),
    ("options", OPTIONS),
    ("fields", FIELDS),
    ("tables", Table("name = value, for formulas to look up", VALUE_JSON)),
    ("let", Table("derived values of the hand: name = formula", FORMULA_JSON)),
    ("player", Table("derived values of each player: name = formula", FORMULA_JSON)),
    ("side", Table("derived values of each side: name = formula", FORMULA_JSON)),
    ("check", Tables(CHECK)),
    ("score", Tables(SCORE)),
    ("state", STATE),
    ("rule", Tables(RULE)),
    ("end", END),
    ("display", DISPLAY),
    ("stats", STATISTICS),
)
VARIANT_EXTRA = (Optional("remove", TextList("ids of checks, score lines, rules and statistics to drop")),
                 Optional("name", Text()), Optional("names", TextMap()), Optional("description", Text()))
VARIANT = Map((*(Optional(n, VARIANT_STATISTICS if n == "stats" else k) for n, k in SECTIONS if n != "game"),
                         Optional("game", Anything(json={"type": "object"})), *VARIANT_EXTRA),
              unknown=Said(N_("unknown key in a variant")), known=False)
VARIANTS = Entries(VARIANT, r"^[a-z0-9_][a-z0-9_-]{0,40}$", "overlays of the base ruleset, chosen as GAME:VARIANT")
TOP = Map((
    Optional("format", Anything(json={"const": FORMAT_VERSION, "description": "the format version"})),
    *(Required(n, k) if n == "game" else Optional(n, k) for n, k in SECTIONS),
    Optional("variants", VARIANTS),
    Optional("translations", Anything(json={"type": "object", "description": "the texts in other languages, one table per "
                                   "language code (docs/rulesets.md); checked by scorepad/rules/translations.py"})),
), "A scorepad ruleset: how a card game is scored.", unknown=Said(N_("unknown section")))


# A derived ruleset (`rules derive`) names its base; the registry merges it over the base before
# the loader reads it, so these keys are in the file's schema but not among the loader's sections.
DERIVED = (Optional("base", Anything(json={"type": "string", "pattern": ID_PATTERN,
                                  "description": "the id of the ruleset this one is derived from"})),
           Optional("base_hash", Text("the base's text hash when derived (a warning if it changed)")))


SCHEMA_FILE = "ruleset.schema.json"   # shipped beside the bundled rulesets (package scorepad.rulesets)


def schema_text() -> str:
    """The JSON Schema as the file shipped in the package holds it (tests check the two are equal)."""

    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a ruleset file (TOML read as JSON), made from the declaration above."""
    schema = TOP.schema()
    schema["properties"].update({name: kind.schema() for name, kind, _ in DERIVED})
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID,
            "title": "scorepad ruleset (format 1)", **schema, "$defs": {"value": VALUE_DEF}}
