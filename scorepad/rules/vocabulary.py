"""What a ruleset's names are called in the language shown, for the sentences of `rules show`.

A formula names fields, derived values (lets), counters, options and tables by their ids, which are
English words a player of another language does not read. In English an id reads as its words
(`last_trick` → "last trick"). In another language a field is called by the name its translation
lets players type (`[translations.uk.fields.out] names = ["вийшов"]`), and a counter or option by
the label the translation gives it on the score display (`"matt point" = "matt_value"`); a name
with none of these has no words there (`name` gives None), and the sentence leaves that part out.
The values in force (options, tables and, in a game, the number of players) are what a formula is
read with: `limit` is 125, or 505 in a game started with `--opt limit=505`.

Cards are written in the language's notation (Д♠ in Russian and Ukrainian, E♠ in Estonian), the
one scorepad.rules.cards reads back.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from typing import Any

from scorepad.locale import _, current
from scorepad.rules.cards import RANK_ORDER, card_shown, split_card
from scorepad.rules.model import Ruleset

IDENT = re.compile(r"^[a-z_][a-z0-9_]*$")
NUMBER_TYPES = frozenset({"int", "float", "number"})
ENGINE_NAMES = frozenset({"score", "n_players", "n_sides", "hand_no", "dealer", "n_active"})


def _engine_name(name: str) -> str:
    """What the engine's own names are called: the same in every ruleset."""
    return {"score": _("the total"), "n_players": _("the number of players"),
            "n_sides": _("the number of sides"), "hand_no": _("the hand's number"), "dealer": _("the dealer"),
            "n_active": _("the number of players still in")}[name]


def is_card(text: str) -> bool:
    """Whether `text` is a card in the canonical notation (a card_values key, a rank in a formula)."""
    rank, _suit = split_card(text)
    return rank in RANK_ORDER or rank == "JOKER"


class Vocabulary:
    """The words for a ruleset's names in the language shown, and the values in force.

    `env` holds the values a formula is read with (options, tables; the players when they are known);
    `fixed` the names among them whose value is settled (all of them in a game; without one, the
    number of players only when the game has one number of players)."""

    def __init__(self, rs: Ruleset, env: Mapping[str, Any], fixed: Iterable[str] | None = None) -> None:
        self.rs = rs
        self.env = dict(env)
        self.fixed = frozenset(env if fixed is None else fixed)
        self.english = current() == "en"
        self.lets = {let.name: let.formula for let in (*rs.hand_lets, *rs.player_lets, *rs.side_lets)}
        self.counters = {**rs.side_state, **rs.game_state}
        tr = self._translation()
        self._field_names = {k: [str(n) for n in v.get("names", [])]
                             for k, v in tr.get("fields", {}).items() if isinstance(v, dict)}
        self._labels = self._display_labels(tr.get("display", {}))
        options = tr.get("options", {}) if isinstance(tr.get("options"), dict) else {}
        for name, spec in options.items():   # an option's own name in the language, where no display label names it
            if isinstance(spec, dict) and isinstance(spec.get("name"), str):
                self._labels.setdefault(name, spec["name"])

    def _translation(self) -> dict[str, Any]:
        """The ruleset's table for the language shown, with its variant's own texts laid over it."""
        table = self.rs.data.get("translations", {})
        tr = table.get(current()) if isinstance(table, dict) else None
        if not isinstance(tr, dict):
            return {}
        out = dict(tr)
        variant = tr.get("variants", {}).get(self.rs.variant or "", {}) if isinstance(tr.get("variants"), dict) else {}
        for section in ("fields", "display"):
            mine = variant.get(section) if isinstance(variant, dict) else None
            if isinstance(mine, dict):
                merged = dict(out.get(section, {}))
                for k, v in mine.items():
                    merged[k] = {**merged[k], **v} if isinstance(v, dict) and isinstance(merged.get(k), dict) else v
                out[section] = merged
        return out

    def _display_labels(self, display_tr: Any) -> dict[str, str]:
        """Names the score display gives a single counter, option or value in this language."""
        if not isinstance(display_tr, dict):
            return {}
        out: dict[str, str] = {}
        translated = {str(v) for v in display_tr.values()}
        for label, f in (*self.rs.display_side.items(), *self.rs.display_next.items()):
            source = f.source.strip()
            if not IDENT.match(source) or source in out:
                continue
            if label in display_tr:
                out[source] = str(display_tr[label])
            elif label in translated:      # the ruleset is shown translated already
                out[source] = label
        return out

    # ------------------------------------------------------------------ names

    def quoted(self, words: str) -> str:
        """A ruleset's own name set apart from the sentence around it (not in English, where the
        name is made of the sentence's own words)."""
        return words if self.english else _("“{name}”").format(name=words)

    def name(self, ident: str) -> str | None:
        """The words for a field, counter, option, table or the engine's own name; None when the
        language has none (a derived value is read through its formula: see `let`)."""
        if ident in ENGINE_NAMES and not (self.english and ident == "score"):
            return _engine_name(ident)
        if self.english:
            return ident.replace("_", " ")
        native = self._field_names.get(ident)
        if native:
            return self.quoted(native[0].replace("_", " "))
        if ident in self._labels:
            return self.quoted(self._labels[ident])
        return None

    def display_label(self, ident: str) -> str | None:
        """The label the language's score display gives a counter, option or value (Spades' bags:
        «мешки»), unquoted; None where the translation gives it none (and in English)."""
        return self._labels.get(ident)

    def typed_name(self, field: str) -> str:
        """The name a player of the language types a field by: its translation's first name, else its id."""
        native = self._field_names.get(field)
        return native[0] if native and not self.english else field

    def let(self, ident: str) -> Any:
        """A derived value's formula (read in its place when the language has no name for it)."""
        return self.lets.get(ident)

    def value_word(self, field: str, value: Any) -> str | None:
        """The word of the language a player types for one value of a field (`tie` → `viik`), as the
        ruleset's reading takes it: a translated word may name the value by another word of the field
        (`viik = "="`), and a variant's words count too."""
        if self.english:
            return None
        return self.rs.reading.shown(field, value, current())

    # ------------------------------------------------------------------ kinds of values

    def kind(self, ident: str, seen: frozenset[str] = frozenset()) -> str:
        """What a name holds: number, player, side, bool, cards, list or word."""
        for prefix in ("all_", "others_", "team_"):
            if ident.startswith(prefix) and ident[len(prefix):] in (*self.rs.fields, *self.lets, *self.counters,
                                                                     "score"):
                return "list"
        fdef = self.rs.fields.get(ident)
        if fdef is not None:
            if fdef.type in NUMBER_TYPES:
                return "number"
            return fdef.type if fdef.type in ("player", "side", "bool", "cards") else "word"
        if ident in self.lets and ident not in seen:
            return formula_kind(self.lets[ident].tree, self, seen | {ident})
        if ident in self.counters:     # a counter holds what its first value is
            return formula_kind(self.counters[ident].tree, self, seen | {ident})
        if ident in ("score", "n_players", "n_sides", "hand_no", "dealer", "n_active", "seat", "side_no"):
            return "number"
        if ident in ("players", "sides", "members", "active"):
            return "list"
        value = self.env.get(ident)
        return value_kind(value)


def value_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, (list, tuple, dict)):
        return "list"
    return "word"


_NUMBER_CALLS = frozenset({"sum", "len", "count", "min", "max", "abs", "round", "floor", "ceil", "int", "value",
                           "nrank", "nsuit", "index", "clamp", "sign"})


def formula_kind(node: ast.AST | None, vocab: Vocabulary, seen: frozenset[str] = frozenset()) -> str:
    """What a formula's value is (number, player, side, bool, cards, list or word), from its shape."""
    if isinstance(node, ast.Constant):
        return value_kind(node.value)
    if isinstance(node, ast.Name):
        return vocab.kind(node.id, seen)
    if isinstance(node, (ast.Compare, ast.BoolOp)):
        return "bool"
    if isinstance(node, ast.UnaryOp):
        return "bool" if isinstance(node.op, ast.Not) else "number"
    if isinstance(node, ast.BinOp):
        return "number"
    if isinstance(node, ast.IfExp):
        kinds = {formula_kind(node.body, vocab, seen), formula_kind(node.orelse, vocab, seen)}
        return (kinds - {"word"}).pop() if len(kinds - {"word"}) == 1 else "word"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return _call_kind(node.func.id)
    if isinstance(node, ast.Subscript):
        return _entry_kind(node, vocab, seen)
    if isinstance(node, (ast.List, ast.Tuple, ast.ListComp, ast.GeneratorExp)):
        return "list"
    return "word"


def _call_kind(name: str) -> str:
    if name in _NUMBER_CALLS:
        return "number"
    if name in ("has", "any", "all"):
        return "bool"
    return "list" if name in ("sorted", "subsets", "combinations") else "word"


def _entry_kind(node: ast.Subscript, vocab: Vocabulary, seen: frozenset[str]) -> str:
    """What an entry of a list or table holds: `players[i]` a player, `all_bid[i]` a bid, a table's
    entry (however deep) what the table holds."""
    root: ast.AST = node
    depth = 0
    while isinstance(root, ast.Subscript):
        root, depth = root.value, depth + 1
    if not isinstance(root, ast.Name):
        return "word"
    if depth == 1 and root.id in ("players", "sides"):
        return "player" if root.id == "players" else "side"
    if depth == 1 and root.id.startswith(("all_", "others_", "team_")):
        return vocab.kind(root.id.split("_", 1)[1], seen)
    if root.id in vocab.env:
        return _table_kind(vocab.env[root.id])
    return "word"


def _table_kind(table: Any) -> str:
    """What an entry of a table holds: number when every entry (however deep) is a number."""
    values: list[Any] = list(table.values()) if isinstance(table, dict) else list(table) \
        if isinstance(table, (list, tuple)) else [table]
    kinds = {_table_kind(v) if isinstance(v, (list, tuple, dict)) else value_kind(v) for v in values}
    return kinds.pop() if len(kinds) == 1 else "word"


card_words = card_shown   # a card in the language's notation (scorepad.rules.cards owns the notation)


def possible_kinds(node: ast.AST | None, vocab: Vocabulary) -> set[str]:
    """Every kind a formula's value can have (number, bool, word, list, player, side), from its shape;
    "?" where the shape does not tell (a ruleset's card function, `get`). Unlike `formula_kind`, which
    names one kind for a sentence, this keeps every branch: `13 if hand_no > 1 else [1]` can be a list."""
    if isinstance(node, ast.Constant):
        return {value_kind(node.value)}
    if isinstance(node, ast.Name):
        known = (node.id in vocab.rs.fields or node.id in vocab.lets or node.id in vocab.counters
                 or node.id in vocab.env or node.id in ENGINE_NAMES
                 or node.id in ("seat", "side_no", "players", "sides", "members", "active")
                 or node.id.startswith(("all_", "others_", "team_")))
        return {vocab.kind(node.id)} if known else {"?"}
    if isinstance(node, ast.Compare):
        return {"bool"}
    if isinstance(node, ast.BoolOp):   # `a or b` is a or b
        return {"bool"}.union(*(possible_kinds(v, vocab) for v in node.values))
    if isinstance(node, ast.UnaryOp):
        return {"bool"} if isinstance(node.op, ast.Not) else {"number"}
    if isinstance(node, ast.BinOp):   # [0] * 3 is a list, 'a' + 'b' a word
        sides = possible_kinds(node.left, vocab) | possible_kinds(node.right, vocab)
        return {"number"} | (sides & {"list", "word", "?"})
    if isinstance(node, ast.IfExp):
        return possible_kinds(node.body, vocab) | possible_kinds(node.orelse, vocab)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        name = node.func.id
        if name == "if_" and len(node.args) == 3:
            return possible_kinds(node.args[1], vocab) | possible_kinds(node.args[2], vocab)
        if name in _NUMBER_CALLS or name in ("has", "any", "all", "sorted"):
            return {_call_kind(name)}
        return {"?"}
    if isinstance(node, ast.Subscript):
        root: ast.AST = node
        while isinstance(root, ast.Subscript):
            root = root.value
        if isinstance(root, ast.Name) and (root.id in vocab.env or root.id in ("players", "sides")
                                           or root.id.startswith(("all_", "others_", "team_"))):
            return {_entry_kind(node, vocab, frozenset())}
        return {"?"}
    if isinstance(node, (ast.List, ast.Tuple, ast.ListComp, ast.GeneratorExp)):
        return {"list"}
    return {"?"}
