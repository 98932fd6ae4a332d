"""What `rules list` and `rules show` say about a ruleset, as plain data (JSON-ready)."""

from __future__ import annotations

from typing import Any

from scorepad.engine.assignments import describe_field
from scorepad.engine.game import Game, base_env, make_game
from scorepad.errors import FormulaError
from scorepad.locale import N_, _, ngettext
from scorepad.rules.expr import Formula
from scorepad.rules.model import FieldDef, Rule, Ruleset, field_refs
from scorepad.rules.prose import condition_words, formula_words, joined_words, message_words


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


def details(rs: Ruleset, language: str | None = None) -> dict[str, Any]:
    """Everything `rules show` says: the formulas' sources, and beside them the same read as prose ("says")."""
    game = sample_game(rs)
    env = base_env(game)
    who = _("a player") if rs.sides_kind == "individual" else _("a side")
    this = _("this player") if rs.sides_kind == "individual" else _("this side")
    fields = []
    for f in rs.fields.values():
        legal = describe_field(game, f)
        if f.type in ("player", "side"):   # the sample game's placeholder names mean nothing to a reader
            kind = _("a player (name, unique prefix or seat)") if f.type == "player" else \
                _("a side (its name, or one of its players)")
            legal = "; ".join([kind, *([", ".join(f.words)] if f.words else [])])
        fields.append({"name": f.name, "scope": f.scope, "type": f.type, "legal": legal,
                       "default": f.default, "optional": f.optional or f.required_if is not None,
                       "required_if": f.required_if.source if f.required_if else None, "help": f.help,
                       "applies_if": f.applies_if.source if f.applies_if else None,
                       "applies_when": condition_words(f.applies_if.source) if f.applies_if else None,
                       "total": _total_words(game, f.total) if f.total else None,
                       "bidding": f.bidding,
                       "default_from": f.default_from.source if f.default_from else None,
                       "default_from_fields": [n for n in rs.fields if n in field_refs(f.default_from, rs.fields)],
                       "combos": _combos(game, f),
                       "aliases": [a for a, target in rs.field_aliases.items() if target == f.name]})
    return {
        **summary(rs, language),
        "variant": rs.variant,
        "description": rs.description,
        "notes": list(rs.notes),
        "deck": rs.deck.describe(),
        "card_values": rs.card_values,
        "fields": fields,
        "options": [{"name": o.name, "default": o.default, "values": list(o.values) if o.values else None,
                     "help": o.help} for o in rs.options.values()],
        "tables": rs.tables,
        "derived": [{"scope": scope, "name": let.name, "formula": let.formula.source}
                    for scope, lets in (("hand", rs.hand_lets), ("player", rs.player_lets), ("side", rs.side_lets))
                    for let in lets],
        "checks": [{"per": c.per, "ok": c.ok.source, "when": c.when.source if c.when else None,
                    "message": c.message,
                    "says": message_words(c.message, c.message_parts, env, _("a player") if c.per == "player" else who)}
                   for c in rs.checks if c.total_of is None],
        "scoring": [{"label": s.label, "per": s.per, "points": s.points.source,
                     "when": s.when.source if s.when else None, "to": list(s.to),
                     "says": _score_words(s.points, s.when, env, _("this player") if s.per == "player" else this)}
                    for s in rs.scores],
        "state": {"side": {k: f.source for k, f in rs.side_state.items()},
                  "game": {k: f.source for k, f in rs.game_state.items()}},
        "thresholds": [{"id": r.id, "per": r.per, "on": r.on, "when": r.when.source if r.when else None,
                        "set": {k: f.source for k, f in r.set}, "add": {k: f.source for k, f in r.add},
                        "set_all": {k: f.source for k, f in r.set_all}, "mark": r.mark, "end": r.end,
                        "message": r.message, "says": _rule_words(r, env, who)} for r in rs.rules],
        "end": {"when": rs.end.when.source if rs.end.when else None, "winner": rs.end.winner,
                "when_words": formula_words(rs.end.when.source) if rs.end.when else None,
                "tie": rs.end.tie, "description": rs.end.description,
                "first_to": _first_to(rs, game),
                "rest_of_deal": rs.end.rest_of_deal if rs.end.first_to else None,
                "counted_in_order": [s.label for s in rs.scores] if rs.end.first_to else None},
        "info": list(rs.display_info),
    }


def _constant(f: Formula, env: dict[str, Any]) -> str | None:
    """The value of a formula fixed by the options and tables, as shown to a player; None if it varies."""
    from scorepad.rules.values import format_value

    if not set(f.names) <= set(env):
        return None
    try:
        return format_value(f(env))
    except FormulaError:
        return None


def _score_words(points: Formula, when: Formula | None, env: dict[str, Any], who: str) -> str:
    """A score line without its formula: its fixed value if it has one, and when it applies."""
    value = _constant(points, env)
    out = ngettext("{n} point", "{n} points", _count(value)).format(n=value) if value is not None else ""
    if when is None:
        return out
    condition = formula_words(when.source, who)
    return (_("{points} when {condition}").format(points=out, condition=condition) if out
            else _("when {condition}").format(condition=condition))


def _count(value: str) -> int:
    """The number that picks a plural form for a shown value: `-1` is one, `2.5` is many."""
    try:
        number = float(value)
    except ValueError:
        return 2
    return int(abs(number)) if number.is_integer() else 2


def _rule_words(r: Rule, env: dict[str, Any], who: str) -> str:
    """A threshold as a player reads it: its label or message, else what it does in words."""
    side = who
    label_given = r.label not in (r.message, r.id)
    if label_given:
        return r.label
    if r.message:
        return message_words(r.message, r.message_parts, env, side)
    acts = [_("{counter} becomes {value}").format(counter=formula_words(k),
                                                   value=_constant(f, env) or formula_words(f.source, side))
            for k, f in r.set]
    acts += [_("add {value} to {counter}").format(counter=formula_words(k),
                                                  value=_constant(f, env) or formula_words(f.source, side))
             for k, f in r.add]
    acts += [_("every side's {counter} becomes {value}").format(counter=formula_words(k),
                                                               value=_constant(f, env) or formula_words(f.source))
             for k, f in r.set_all]
    if r.mark:
        acts.append(_(_MARKS[r.mark]).format(who=side))
    if r.end:
        acts.append(_('the game ends'))
    text = "; ".join(acts)
    if r.when is not None:
        text = _("when {condition}: {actions}").format(condition=formula_words(r.when.source, side), actions=text)
    return text


_MARKS = {"won": N_("{who} wins"), "lost": N_("{who} loses"), "out": N_("{who} is out"),
          "playing": N_("{who} plays on")}


def value_words(value: Any) -> str:
    """A table's value without braces: `C 20, D 20`, nested tables in brackets, lists as 50/100/150."""
    if isinstance(value, dict):
        return ", ".join(f"{k} {f'({value_words(v)})' if isinstance(v, dict) else value_words(v)}"
                         for k, v in value.items())
    if isinstance(value, list):
        return "/".join(value_words(v) for v in value)
    from scorepad.rules.values import format_value

    return format_value(value)


def _first_to(rs: Ruleset, game: Game) -> str | None:
    """The goal of a "first to N" end as a reader wants it: the formula and its default value."""
    if rs.end.first_to is None:
        return None
    source = rs.end.first_to.source
    try:
        value = rs.end.first_to(base_env(game))
    except FormulaError:
        return source
    return source if str(value) == source else f"{source} ({value})"


def _combos(game: Game, f: FieldDef) -> list[dict[str, Any]]:
    """A combination field's codes, with what each adds to which field (points from the options and tables)."""
    out = []
    env = base_env(game)
    for combo in f.combos.values():
        try:
            points = combo.points(env)
        except FormulaError:
            points = combo.points.source
        out.append({"code": combo.code, "field": combo.field, "points": points, "adds": combo.adds})
    return out


def _field_notes(f: dict[str, Any]) -> list[str]:
    """What applies_if, total, bidding and default_from mean for this field, in words."""
    notes = []
    if f.get("bidding"):
        notes.append(_('written down with the bids, before the play (scorepad bid)'))
    if f.get("applies_when"):
        notes.append(_("only when {applies_when}; otherwise it is not typed").format(applies_when=f['applies_when']))
    if f.get("total"):
        notes.append(_("the values of the players still playing add up to {total}; leave one out and "
                        "scorepad works it out").format(total=f['total']))
    if f.get("combos"):
        codes = ", ".join(f"{c['code']} {c['points']}" for c in f["combos"])
        notes.append(_("combinations ({codes}), several separated by spaces, 2x40 for two; a number "
                        "stands for the first combination worth that much; each one counts in its own "
                        "field ({value})").format(
                         codes=codes, value=', '.join(dict.fromkeys(c['field'] for c in f['combos']))))
    if f.get("default_from"):
        sources = f.get("default_from_fields") or []
        if sources:
            notes.append(ngettext("may be left out when {fields} is typed: scorepad works it out; typed as well, "
                                  "the two must agree",
                                  "may be left out when {fields} are typed: scorepad works it out; typed as well, "
                                  "the two must agree", len(sources)).format(
                                      fields=joined_words(N_("{left} or {right}"), sources)))
        else:
            notes.append(_("may be left out: scorepad works it out; typed as well, the two must agree"))
    return notes


def _total_words(game: Game, total: Formula) -> str:
    """A field's total as a player reads it: the number when options and tables fix it, else the formula."""
    env = base_env(game)
    if not set(total.names) <= set(env):      # it changes from hand to hand (hand_no, fields): say how
        return condition_words(total.source)
    try:
        value = total(env)
    except FormulaError:
        return condition_words(total.source)
    if value is None:
        return condition_words(total.source)
    return str(value) if str(value) == total.source.strip() else f"{value} ({condition_words(total.source)})"


# end.winner as a reader takes it (the JSON keeps the id)
WINNERS = {"highest": N_("highest"), "lowest": N_("lowest"), "marked": N_("marked"),
           "last_standing": N_("last_standing")}


def details_text(d: dict[str, Any], formulas: bool = False) -> str:
    """`rules show` as text: prose for a player; `formulas` adds the sources a ruleset writer wants."""
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
    if d["checks"]:
        out += ["", _("Checks (a hand that breaks one is refused):")]
        for c in d["checks"]:
            out.append(f"  {c['says'][:1].upper()}{c['says'][1:]}")
            if formulas:
                out.append(f"      ok = {c['ok']}" + (f"; when = {c['when']}" if c["when"] else "")
                           + f"; message = {c['message']}")
    if d["thresholds"]:
        out += ["", _("Thresholds and state:")] + [_threshold_line(r, formulas) for r in d["thresholds"]]
    out += _end_lines(d["end"], formulas)
    if d["notes"]:
        out += ["", _("Notes:")] + [f"  - {n}" for n in d["notes"]]
    if d["info"]:
        out += [""] + d["info"]
    return "\n".join(out)


def _field_lines(f: dict[str, Any], formulas: bool) -> list[str]:
    """A field as `rules show` lists it: how to type it, its legal values, default and help."""
    listed = "{}=v1/v2/...".format(f["name"]) if f["type"] == "cards" else "{}=v1,v2,...".format(f["name"])
    scope = {"hand": "", "player": " " + _("(each player: name.{field}=... or {listed})").format(field=f["name"],
                                                                                                listed=listed),
             "side": " " + _("(each side)")}[f["scope"]]
    extra = " " + _("[optional]") if f["optional"] else ""
    default = (_("yes") if f["default"] else _("no")) if isinstance(f["default"], bool) else f["default"]
    extra += " " + _("[default {value}]").format(value=default) if f["default"] is not None else ""
    helptext = f" — {f['help']}" if f["help"] and f["help"] not in f["legal"] else ""
    also = " " + _("(also {names})").format(names=", ".join(a + "=" for a in f["aliases"])) if f.get("aliases") else ""
    out = [f"  {f['name']}{scope}{also}: {f['legal']}{extra}{helptext}"]
    out.extend(f"      {line}" for line in _field_notes(f))
    if formulas:
        out.extend(f"      {key} = {f[key]}" for key in ("applies_if", "required_if", "default_from") if f[key])
    return out


def _setup_lines(d: dict[str, Any], formulas: bool) -> list[str]:
    """Options, variants, card values, tables and (for a writer) the derived values."""
    out: list[str] = []
    if d["options"]:
        out += ["", _("Options (--opt NAME=VALUE):")]
        for o in d["options"]:
            vals = " " + _("(one of {values})").format(values=", ".join(map(str, o['values']))) if o["values"] else ""
            out.append(f"  {o['name']} = {o['default']}{vals}" + (f" — {o['help']}" if o["help"] else ""))
    if d["variants"]:
        out += ["", _("Variants (GAME:VARIANT):")] + [f"  {k}: {v}" for k, v in d["variants"].items()]
    if d["card_values"]:
        out += ["", _("Card values: {values}").format(values=", ".join(f"{k} {v}" for k, v in d["card_values"].items()))]
    if d["tables"]:
        out += ["", _("Tables:")] + [f"  {k}: {value_words(v)}" for k, v in d["tables"].items()]
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
    end_text = end["description"] or (_("when {formula}").format(formula=when_text) if end["when"]
                                      else _("see thresholds"))
    winner = _(WINNERS[end["winner"]]) if end["winner"] in WINNERS else end["winner"]
    out = ["", _("End: {text}; winner: {winner}").format(text=end_text, winner=winner)]
    if end.get("first_to"):
        rest = _("not scored") if end["rest_of_deal"] == "void" else _("still scored")
        out.append("  " + _("First to {goal}, counted in the order {labels}; the points after the winning one are "
                            "{rest}.").format(goal=end['first_to'], labels=", ".join(end['counted_in_order']), rest=rest))
    return out
