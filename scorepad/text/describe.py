"""What `rules list` and `rules show` say about a ruleset, as plain data (JSON-ready)."""

from __future__ import annotations

import ast
import re
from typing import Any

from scorepad.engine.assignments import combos_said, describe_field, words_listed
from scorepad.engine.game import Game, base_env, make_game
from scorepad.errors import FormulaError
from scorepad.locale import N_, _, current, ngettext
from scorepad.rules.expr import Formula
from scorepad.rules.model import FieldDef, Rule, Ruleset, field_refs
from scorepad.rules.prose import UNSETTLED, Unworded, formula_words, joined_words, message_words, settled, shown_value
from scorepad.rules.values import format_value
from scorepad.rules.vocabulary import Vocabulary, card_words


def sample_game(rs: Ruleset) -> Game:
    """A game with placeholder players, so field ranges that depend on options can be shown."""
    names = [s for s in rs.seats[: rs.min_players]] or []
    if len(names) < rs.min_players:
        names = [f"player{i + 1}" for i in range(rs.min_players)]
    return make_game(rs, names)


def summary(rs: Ruleset, language: str | None = None) -> dict[str, Any]:
    """The list entry; `language` (from the user's config) picks the game's name in that language."""
    players = str(rs.min_players) if rs.min_players == rs.max_players else f"{rs.min_players}-{rs.max_players}"
    name = rs.names.get(language, rs.name) if language else rs.name
    aliases = list(dict.fromkeys(a for a in (*rs.aliases, rs.name, *rs.names.values()) if a != name))
    return {"id": rs.id, "name": name, "aliases": aliases,
            "players": players, "sides": rs.sides_kind, "variants": rs.variants,
            "family": rs.data.get("game", {}).get("family", "")}


def vocabulary(rs: Ruleset, game: Game, players_known: bool) -> Vocabulary:
    """The words for the ruleset's names in the language shown, with the values in force: the game's
    options and tables, and its players when they are known (a game, or one number of players)."""
    fixed = set(rs.options) | set(rs.tables) | {"none"}
    if players_known:
        fixed |= {"n_players", "n_sides", "players", "sides"}
    return Vocabulary(rs, base_env(game), fixed)


def details(rs: Ruleset, language: str | None = None, game: Game | None = None) -> dict[str, Any]:
    """Everything `rules show` says: the formulas' sources, and beside them the same read as prose ("says").
    With `game`, as that game plays: its options (and players) in force, else the defaults."""
    players_known = game is not None or rs.min_players == rs.max_players
    game = game or sample_game(rs)
    vocab = vocabulary(rs, game, players_known)
    who = _("a player") if rs.sides_kind == "individual" else _("a side")
    this = _("this player") if rs.sides_kind == "individual" else _("this side")
    fields = [_field(rs, game, vocab, f) for f in rs.fields.values()]
    return {
        **summary(rs, language),
        "variant": rs.variant,
        "description": rs.description,
        "notes": list(rs.notes),
        "deck": rs.deck.describe(),
        "card_values": rs.card_values,
        "fields": fields,
        "options": [{"name": o.name, "default": o.default, "value": game.options.get(o.name, o.default),
                     "values": list(o.values) if o.values else None, "help": o.help,
                     "label": o.shown_name(), "words": dict(o.value_names)} for o in rs.options.values()],
        "tables": rs.tables,
        "derived": [{"scope": scope, "name": let.name, "formula": let.formula.source}
                    for scope, lets in (("hand", rs.hand_lets), ("player", rs.player_lets), ("side", rs.side_lets))
                    for let in lets],
        "checks": [{"per": c.per, "ok": c.ok.source, "when": c.when.source if c.when else None,
                    "message": c.message, "says": _check_words(c, vocab, who)}
                   for c in rs.checks if c.total_of is None],
        "scoring": [{"label": s.label, "per": s.per, "points": s.points.source,
                     "when": s.when.source if s.when else None, "to": list(s.to),
                     "says": _score_words(s.points, s.when, vocab, _("this player") if s.per == "player" else this)}
                    for s in rs.scores],
        "state": {"side": {k: f.source for k, f in rs.side_state.items()},
                  "game": {k: f.source for k, f in rs.game_state.items()}},
        "thresholds": [{"id": r.id, "per": r.per, "on": r.on, "when": r.when.source if r.when else None,
                        "set": {k: f.source for k, f in r.set}, "add": {k: f.source for k, f in r.add},
                        "set_all": {k: f.source for k, f in r.set_all}, "mark": r.mark, "end": r.end,
                        "message": r.message, "says": _rule_words(r, vocab, who, this)} for r in rs.rules],
        "end": {"when": rs.end.when.source if rs.end.when else None, "winner": rs.end.winner,
                "when_words": _words(rs.end.when, vocab) if rs.end.when else None,
                "tie": rs.end.tie, "description": rs.end.description,
                "first_to": _first_to(rs, vocab),
                "rest_of_deal": rs.end.rest_of_deal if rs.end.first_to else None,
                "counted_in_order": [s.label for s in rs.scores] if rs.end.first_to else None},
        "info": list(rs.display_info),
    }


def _field(rs: Ruleset, game: Game, vocab: Vocabulary, f: FieldDef) -> dict[str, Any]:
    """A field as `rules show` gives it; `label` is the name a player of the language types it by."""
    legal = describe_field(game, f)
    if f.type in ("player", "side"):   # the sample game's placeholder names mean nothing to a reader
        kind = _("a player (name, unique prefix or seat)") if f.type == "player" else \
            _("a side (its name, or one of its players)")
        legal = "; ".join([kind, *([", ".join(words_listed(rs, f))] if f.words else [])])
    label = vocab.typed_name(f.name)
    aliases = [a for a, target in rs.field_aliases.items() if target == f.name and a != label]
    default = f.default
    if isinstance(default, str):
        default = vocab.value_word(f.name, default) or default
    return {"name": f.name, "label": label, "scope": f.scope, "type": f.type, "legal": legal,
            "default": default, "optional": f.optional or f.required_if is not None,
            "required_if": f.required_if.source if f.required_if else None, "help": f.help,
            "applies_if": f.applies_if.source if f.applies_if else None,
            "applies_when": _condition(f.applies_if, vocab) if f.applies_if else None,
            "never_applies": _options_in_force(f.applies_if, vocab)
            if f.applies_if and _never(f.applies_if, vocab) else None,
            "total": _total_words(f.total, vocab) if f.total else None,
            "bidding": f.bidding,
            "default_from": f.default_from.source if f.default_from else None,
            "default_from_fields": [vocab.typed_name(n) for n in rs.fields
                                    if f.default_from and n in field_refs(f.default_from, rs.fields)],
            "combos": _combos(vocab, f),
            **({"combos_said": _combos_said_with_points(rs, vocab, f)} if f.combos and current() != "en" else {}),
            "aliases": list(dict.fromkeys(a for a in ([f.name] if label != f.name else []) + aliases
                                          if a != label))}


def _words(f: Formula, vocab: Vocabulary, who: str | None = None) -> str | None:
    """A formula in words, the values in force filled in; None when the language has no words for it."""
    try:
        return formula_words(f.source, who, vocab)
    except Unworded:
        return None


def _never(f: Formula, vocab: Vocabulary) -> bool:
    """Whether the values in force make a condition false whatever the hand."""
    value = settled(f.source, vocab)
    return value is not UNSETTLED and not value


def _always(f: Formula, vocab: Vocabulary) -> bool:
    """Whether the values in force make a condition true whatever the hand."""
    value = settled(f.source, vocab)
    return value is not UNSETTLED and bool(value)


def _condition(f: Formula, vocab: Vocabulary, who: str | None = None) -> str | None:
    """A condition in words; None when it always holds with the values in force or has no words."""
    value = settled(f.source, vocab)
    if value is not UNSETTLED:
        return None
    return _words(f, vocab, who)


def _options_in_force(f: Formula, vocab: Vocabulary) -> str:
    """The options a formula reads, as typed: `--opt scoring=titles`."""

    return ", ".join(f"--opt {name}={format_value(vocab.env[name])}" for name in vocab.rs.options if name in f.names)


def _constant(f: Formula, vocab: Vocabulary) -> str | None:
    """The value of a formula fixed by the values in force, as shown to a player; None if it varies."""
    if not set(f.names) <= vocab.fixed:
        return None
    try:
        return shown_value(f(vocab.env))
    except FormulaError:
        return None


def _check_words(c: Any, vocab: Vocabulary, who: str) -> str | None:
    """A check as a rule; None when the values in force never let it refuse a hand."""
    if (c.when is not None and _never(c.when, vocab)) or _always(c.ok, vocab):
        return None
    me = _("a player") if c.per == "player" else who
    try:
        return message_words(c.message, c.message_parts, vocab.env, me, vocab, side=me == _("a side"))
    except Unworded:
        return None


def _score_words(points: Formula, when: Formula | None, vocab: Vocabulary, who: str) -> str:
    """A score line without its formula: its fixed value if it has one, and when it applies."""
    value = _constant(points, vocab)
    out = ngettext("{n} point", "{n} points", _count(value)).format(n=value) if value is not None else ""
    if when is None:
        return out
    if _never(when, vocab):
        return _("not with the options in force ({options})").format(options=_options_in_force(when, vocab))
    condition = _condition(when, vocab, who)
    if condition is None:
        return out
    return (_("{points} when {condition}").format(points=out, condition=condition) if out
            else _("when {condition}").format(condition=condition))


def _count(value: str) -> int:
    """The number that picks a plural form for a shown value: `-1` is one, `2.5` is many."""
    try:
        number = float(value)
    except ValueError:
        return 2
    return int(abs(number)) if number.is_integer() else 2


def _rule_words(r: Rule, vocab: Vocabulary, who: str, this: str) -> str | None:
    """A threshold as a player reads it: its label or message, else what it does in words; None when
    the values in force never let it act, or when what it does has no words in the language."""
    if r.when is not None and _never(r.when, vocab):
        return None
    if r.label not in (r.message, r.id):
        return r.label
    if r.message:
        try:
            return message_words(r.message, r.message_parts, vocab.env, who, vocab, side=who == _("a side"))
        except Unworded:
            return None
    acts = [act for k, f in r.set if (act := _change(N_("{counter} becomes {value}"), k, f, vocab, this))]
    acts += [act for k, f in r.add if (act := _change(N_("add {value} to {counter}"), k, f, vocab, this))]
    acts += [act for k, f in r.set_all if (act := _change(N_("every side's {counter} becomes {value}"), k, f, vocab))]
    if r.mark:
        acts.append(_(_MARKS[r.mark]).format(who=who))
    if r.end:
        acts.append(_('the game ends'))
    if not acts:
        return None
    text = "; ".join(acts)
    if r.when is not None and settled(r.when.source, vocab) is UNSETTLED:
        condition = _words(r.when, vocab, this)
        if condition is None:
            return None       # what it does, but not when: better left out
        text = _("when {condition}: {actions}").format(condition=condition, actions=text)
    return text


def _change(template: str, counter: str, f: Formula, vocab: Vocabulary, this: str | None = None) -> str | None:
    """One change a threshold makes to a counter, in words; `add 1 if C else 0` reads "add 1 ... when C"."""

    name = vocab.name(counter)
    if name is None:
        return None
    tree = ast.parse(f.source, mode="eval").body
    if template == N_("add {value} to {counter}") and isinstance(tree, ast.IfExp) \
            and isinstance(tree.orelse, ast.Constant) and tree.orelse.value == 0:
        try:
            value = formula_words(ast.unparse(tree.body), this, vocab)
            condition = formula_words(ast.unparse(tree.test), this, vocab)
        except Unworded:
            return None
        return _("add {value} to {counter} when {condition}").format(value=value, counter=name, condition=condition)
    words = _constant(f, vocab) or _words(f, vocab, this)
    return None if words is None else _(template).format(counter=name, value=words)


_MARKS = {"won": N_("{who} wins"), "lost": N_("{who} loses"), "out": N_("{who} is out"),
          "playing": N_("{who} plays on")}


def value_words(value: Any, words: bool = False) -> str:
    """A table's value without braces: `C 20, D 20`, nested tables in brackets, lists as 50/100/150;
    `words`: its keys read as words (`four_jacks` → four jacks), as English shows a table."""
    if isinstance(value, dict):
        return ", ".join(f"{str(k).replace('_', ' ') if words else k} "
                         f"{f'({value_words(v, words)})' if isinstance(v, dict) else value_words(v, words)}"
                         for k, v in value.items())
    if isinstance(value, list):
        return "/".join(value_words(v, words) for v in value)

    return format_value(value)


def _first_to(rs: Ruleset, vocab: Vocabulary) -> str | None:
    """The goal of a "first to N" end as a reader wants it: its value in force, else in words."""
    if rs.end.first_to is None:
        return None
    return _constant(rs.end.first_to, vocab) or _words(rs.end.first_to, vocab)


def _combos(vocab: Vocabulary, f: FieldDef) -> list[dict[str, Any]]:
    """A combination field's codes, with what each adds to which field (points from the values in force;
    `points` is None when they change from hand to hand and have no words)."""
    out = []
    for combo in f.combos.values():
        points = _constant(combo.points, vocab) or _words(combo.points, vocab)
        out.append({"code": combo.code, "field": combo.field, "shown_field": vocab.typed_name(combo.field),
                    "points": points, "adds": combo.adds})
    return out


def _combos_said_with_points(rs: Ruleset, vocab: Vocabulary, f: FieldDef) -> list[dict[str, Any]]:
    """A combination field's combinations once each, as a player of the language shown names them (the
    ruleset's name there, else the code; the list a refused combination offers), with their points: what
    `rules show` lists outside English. English lists the codes (`combos`), which the JSON keeps."""
    return [{"said": said, "points": _constant(f.combos[key].points, vocab) or _words(f.combos[key].points, vocab)}
            for said, key in combos_said(rs, f)]


def _field_notes(f: dict[str, Any]) -> list[str]:
    """What applies_if, total, bidding and default_from mean for this field, in words."""
    notes = []
    if f.get("bidding"):
        notes.append(_('written down with the bids, before the play (scorepad bid)'))
    if f.get("never_applies"):   # the options in force switch it off: listed, but never asked
        notes.append(_("not with the options in force ({options})").format(options=f["never_applies"]))
    if f.get("applies_when"):
        notes.append(_("only when {applies_when}; otherwise it is not typed").format(applies_when=f['applies_when']))
    if f.get("total"):
        notes.append(_("the values of the players still playing add up to {total}; leave one out and "
                        "scorepad works it out").format(total=f['total']))
    elif f.get("total") == "":
        notes.append(_("the values of the players still playing add up to the hand's total; leave one out and "
                       "scorepad works it out"))
    if f.get("combos"):
        said = f.get("combos_said") or [{"said": c["code"], "points": c["points"]} for c in f["combos"]]
        codes = ", ".join(f"{c['said']} {c['points']}" if c["points"] is not None else c["said"] for c in said)
        notes.append(_("combinations ({codes}), several separated by spaces, 2x40 for two; a number "
                        "stands for the first combination worth that much; each one counts in its own "
                        "field ({value})").format(
                         codes=codes, value=', '.join(dict.fromkeys(c.get('shown_field', c['field']) + "="
                                                                    for c in f['combos']))))
    if f.get("default_from"):
        sources = f.get("default_from_fields") or []
        if sources:
            notes.append(ngettext("may be left out when {fields} is typed: scorepad works it out; typed as well, "
                                  "the two must agree",
                                  "may be left out when {fields} are typed: scorepad works it out; typed as well, "
                                  "the two must agree", len(sources)).format(
                                      fields=joined_words(N_("{left} or {right}"), [f"{n}=" for n in sources])))
        else:
            notes.append(_("may be left out: scorepad works it out; typed as well, the two must agree"))
    return notes


def _total_words(total: Formula, vocab: Vocabulary) -> str:
    """A field's total as a player reads it: the number the values in force give it, in English with the
    formula's words beside it; else the formula's words; "" when the language has none for them."""
    value = _constant(total, vocab)
    if value is None:
        return _words(total, vocab) or ""
    if value == total.source.strip() or current() != "en":
        return value
    return f"{value} ({formula_words(total.source)})"     # in English the names read as words


# end.winner as a reader takes it (the JSON keeps the id)
WINNERS = {"highest": N_("highest"), "lowest": N_("lowest"), "marked": N_("marked"),
           "last_standing": N_("the last one still playing")}


def details_text(d: dict[str, Any], formulas: bool = False) -> str:
    """`rules show` as text: prose for a player; `formulas` adds the sources a ruleset writer wants.

    Outside the sources (`--formulas`), a ruleset's ids appear only where they are typed: a field's
    name opening its line (the language's own name first, when the translation gives one) and its
    `NAME=` forms, an option's name opening its line under "Options (--opt NAME=VALUE)" and in
    `--opt NAME=VALUE`, and a table's name in English, read as words."""
    most = int(str(d["players"]).split("-")[-1])
    players = ngettext("{n} player", "{n} players", most).format(n=d["players"])
    sides = _("partnerships") if d["sides"] == "partnership" else _("each for himself")
    out = [f"{d['name']} ({d['id']}{':' + d['variant'] if d['variant'] else ''}) — {players}, {sides}; {d['deck']}"]
    if d["aliases"]:
        out.append(_("Also called: {names}").format(names=", ".join(d["aliases"])))
    if d["description"]:
        out += ["", d["description"].strip()]
    out += ["", _("After each hand, type:")]
    for f in d["fields"]:
        out += _field_lines(f, formulas)
    out += _setup_lines(d, formulas)
    out += ["", _("Scoring:")] + [_scoring_line(s, formulas) for s in d["scoring"]]
    checks = [c for c in d["checks"] if c["says"] or formulas]
    if checks:
        out += ["", _("Checks (a hand that breaks one is refused):")]
        for c in checks:
            says = c["says"] or c["message"]
            out.append(f"  {_capital(says)}")
            if formulas:
                out.append(f"      ok = {c['ok']}" + (f"; when = {c['when']}" if c["when"] else "")
                           + f"; message = {c['message']}")
    thresholds = [r for r in d["thresholds"] if r["says"] or formulas]
    if thresholds:
        out += ["", _("Thresholds and state:")] + [_threshold_line(r, formulas) for r in thresholds]
    out += _end_lines(d["end"], formulas)
    if d["notes"]:
        out += ["", _("Notes:")] + [f"  - {n}" for n in d["notes"]]
    if d["info"]:
        out += [""] + d["info"]
    return "\n".join(out)


def _capital(text: str) -> str:
    """A sentence with a capital, unless it opens with something typed (`game=A ...`)."""
    return text if re.match(r"[\w.]+=", text) else text[:1].upper() + text[1:]


def _field_lines(f: dict[str, Any], formulas: bool) -> list[str]:
    """A field as `rules show` lists it: how to type it, its legal values, default and help."""
    name = f.get("label") or f["name"]
    listed = f"{name}=v1/v2/..." if f["type"] == "cards" else f"{name}=v1,v2,..."
    scope = {"hand": "", "player": " " + _("(each player: name.{field}=... or {listed})").format(field=name,
                                                                                                listed=listed),
             "side": " " + _("(each side)")}[f["scope"]]
    extra = " " + _("[optional]") if f["optional"] else ""
    default = shown_value(f["default"]) if isinstance(f["default"], bool) else f["default"]
    extra += " " + _("[default {value}]").format(value=default) if f["default"] is not None else ""
    helptext = f" — {f['help']}" if f["help"] and f["help"] not in f["legal"] else ""
    also = " " + _("(also {names})").format(names=", ".join(a + "=" for a in f["aliases"])) if f.get("aliases") else ""
    out = [f"  {name}{scope}{also}: {f['legal']}{extra}{helptext}"]
    out.extend(f"      {line}" for line in _field_notes(f))
    if formulas:
        out.extend(f"      {key} = {f[key]}" for key in ("applies_if", "required_if", "default_from") if f[key])
    return out


def _setup_lines(d: dict[str, Any], formulas: bool) -> list[str]:
    """Options (their values in force), variants, card values in the language's notation, tables (named
    in English only: another language has no words for their ids) and, for a writer, the derived values."""
    out: list[str] = []
    if d["options"]:
        out += ["", _("Options (--opt NAME=VALUE):")]
        for o in d["options"]:
            words = o.get("words") or {}

            def said(v: Any, words: dict[str, str] = words) -> str:
                return shown_value(words.get(v, v) if isinstance(v, str) else v)
            vals = " " + _("(one of {values})").format(values=", ".join(map(said, o['values']))) \
                if o["values"] else ""
            value = o.get("value", o["default"])
            name = o["name"] if o.get("label", o["name"]) == o["name"] else f"{o['label']} ({o['name']}=)"   # as typed
            out.append(f"  {name} = {said(value)}{vals}" + (f" — {o['help']}" if o["help"] else ""))
    if d["variants"]:
        out += ["", _("Variants (GAME:VARIANT):")] + [f"  {k}: {v}" for k, v in d["variants"].items()]
    if d["card_values"]:
        out += ["", _("Card values: {values}").format(
            values=", ".join(f"{card_words(k)} {shown_value(v)}" for k, v in d["card_values"].items()))]
    if d["tables"] and (formulas or current() == "en"):
        out += ["", _("Tables:")] + [f"  {k}: {value_words(v)}" if formulas else
                                     f"  {k.replace('_', ' ')}: {value_words(v, words=True)}"
                                     for k, v in d["tables"].items()]
    if d["derived"] and formulas:
        out += ["", _("Derived values:")] + [f"  {x['name']} ({x['scope']}) = {x['formula']}" for x in d["derived"]]
    return out


def _scoring_line(s: dict[str, Any], formulas: bool) -> str:
    per = {"player": _("per player"), "side": _("per side")}.get(s["per"], s["per"])
    if formulas:
        cond = " " + _("when {formula}").format(formula=s['when']) if s["when"] else ""
        return f"  {s['label']} ({per}): {s['points']}{cond}"
    return f"  {s['label']} ({per})" + (f": {s['says']}" if s["says"] else "")


def _threshold_line(r: dict[str, Any], formulas: bool) -> str:
    when = {"hand": _("after each hand"), "end": _("when the game ends"), "finish": _("on `finish`")}[r["on"]]
    if not formulas:
        return f"  {when}: {r['says']}"
    acts = [_("set {counter} = {formula}").format(counter=k, formula=v) for k, v in r["set"].items()]
    acts += [_("add {formula} to {counter}").format(counter=k, formula=v) for k, v in r["add"].items()]
    acts += [_("set {counter} = {formula} for every side").format(counter=k, formula=v)
             for k, v in r["set_all"].items()]
    if r["mark"]:
        acts.append(_("mark {status}").format(status=r['mark']))
    if r["end"]:
        acts.append(_("end the game"))
    cond = " " + _("if {formula}").format(formula=r['when']) if r["when"] else ""
    return f"  {when}{cond}: {'; '.join(acts) or r['message']}"


def _end_lines(end: dict[str, Any], formulas: bool) -> list[str]:
    when_text = end["when"] if formulas else end["when_words"]
    end_text = end["description"] or (_("when {formula}").format(formula=when_text) if when_text
                                      else _("see thresholds"))
    winner = _(WINNERS[end["winner"]]) if end["winner"] in WINNERS else end["winner"]
    out = ["", _("End: {text}; winner: {winner}").format(text=end_text, winner=winner)]
    if end.get("first_to"):
        rest = _("not scored") if end["rest_of_deal"] == "void" else _("still scored")
        out.append("  " + _("First to {goal}, counted in the order {labels}; the points after the winning one are "
                            "{rest}.").format(goal=end['first_to'], labels=", ".join(end['counted_in_order']), rest=rest))
    return out
