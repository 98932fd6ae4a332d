"""The scorer's hand form, a front end of HandEntry as the terminal prompt is one: each submit answers the
entry's questions from the form's inputs in the order it asks them, so the fields shown are those that
apply to what is typed so far, a value a rule refuses is refused at its field with the prompt's
sentence, a value that follows from others (a declared total's rest, a count) is filled in and said,
and a hand that reads whole goes to its summary before anything is stored. The page is stateless: what
was typed travels in the form, and the entry is built again from the game as it stands at each submit.

Inputs are named `v.FIELD` (a field of the hand) and `v.FIELD.SEAT` (a player's or side's value), with
`SEAT` the place in the game's players (sides). A value the entry filled in is sent back in `w.NAME`:
unchanged, it is taken as not typed, so it is worked out again from the values around it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from scorepad.app.games import result_shown
from scorepad.engine.assignments import describe_field, field_label
from scorepad.engine.hand_entry import HandEntry, Note, Outcome, Question
from scorepad.errors import HandError
from scorepad.locale import _, shown
from scorepad.rules.model import FieldDef
from scorepad.text.render import num
from scorepad.web.pages import esc


def input_name(name: str, seat: int | None) -> str:
    return f"v.{name}" if seat is None else f"v.{name}.{seat}"


@dataclass
class Driven:
    """What one submit made of the entry: the problems of each field where its value was refused
    (`answer`'s sentences), what the entry said on the way (its notes), the hand read whole (`outcome`),
    and the inputs it filled in itself."""

    problems: dict[str, list[str]] = field(default_factory=dict)
    notes: list[Note] = field(default_factory=list)
    outcome: Outcome | None = None
    filled: dict[str, str] = field(default_factory=dict)
    asked: set[str] = field(default_factory=set)     # the fields the entry asked (the last one unanswered)
    bid: list[str] = field(default_factory=list)     # the bid written down before, as read

    @property
    def refused(self) -> bool:
        return bool(self.problems) or any(n.kind == "problem" for n in self.notes)


def typed_values(values: Mapping[str, str]) -> dict[str, str]:
    """The inputs as typed: a value the entry filled in and sent back unchanged (`w.NAME`) is blank,
    to be worked out again from what is typed now."""
    out = {k: v.strip() for k, v in values.items() if k.startswith("v.")}
    for k, v in values.items():
        if k.startswith("w.") and out.get(k[1:]) == v.strip():
            out[k[1:]] = ""
    return out


def drive(entry: HandEntry, values: Mapping[str, str]) -> Driven:
    """Answer the entry's questions from the typed inputs until the hand is read, a value is refused,
    a question comes again (the hand as a whole was refused: the notes say why), or a field is asked
    that the form did not show (it applies now): that field is shown and the form asked again."""
    out = Driven(bid=entry.bid_summary() if entry.base else [])
    answered: set[tuple[str, int | None]] = set()
    while True:
        try:
            q = entry.question()
        except HandError as exc:   # asked again and nothing left to ask: the refusal stands
            out.notes += entry.notes() + [Note(shown(line), "problem") for line in exc.problems or [exc.message]]
            break
        out.notes += entry.notes()
        if q is None:
            out.outcome = entry.outcome
            break
        out.asked.add(q.field)
        if (q.field, q.seat) in answered or input_name(q.field, q.seat) not in values:
            break
        fdef = entry.rs.fields[q.field]
        text = values[input_name(q.field, q.seat)]
        row = _whole_row(entry, fdef, q, values)
        if row is not None:
            text = row
            answered |= {(q.field, seat) for seat in entry.turn(fdef)}
        answered.add((q.field, q.seat))
        reply = entry.answer(text)
        out.notes += entry.notes()
        if reply.problems:
            out.problems.setdefault(q.field, []).extend(reply.problems)
            break
    for name in entry.fields_shown():
        fdef = entry.rs.fields[name]
        for seat in _seats(entry, fdef):
            key = input_name(name, seat)
            filled, source = entry.default_text(fdef, seat)
            if not values.get(key) and filled is not None and source in ("typed", "worked") and name not in entry.keep:
                out.filled[key] = filled
    return out


def _whole_row(entry: HandEntry, fdef: FieldDef, q: Question, values: Mapping[str, str]) -> str | None:
    """A row typed for every player asked, as the one answer at its first question (`5,3,3,3`): the
    values stand as typed, none of them left to a total; None where a value is blank or holds the
    row's separator (then each player's is answered at its own question)."""
    if not q.row_order:
        return None
    sep = "/" if fdef.type == "cards" else ","
    texts = [values.get(input_name(fdef.name, seat), "") for seat in entry.turn(fdef)]
    if len(texts) != len(q.row_order) or any(not t or sep in t for t in texts):
        return None
    return sep.join(texts)


def _seats(entry: HandEntry, fdef: FieldDef) -> list[int | None]:
    return [None] if fdef.scope == "hand" else list(entry.turn(fdef))


def shown_fields(entry: HandEntry, driven: Driven) -> list[str]:
    """The fields the form asks: those that apply to what is typed, in the order the entry asks them
    (the bids first), less those a bid written down before gives and, of those the entry has not asked
    yet, those it would not ask (not needed, or left no room by what is typed)."""
    applies = set(entry.fields_shown())
    out = []
    for name in entry.rs.question_order:
        fdef = entry.rs.fields[name]
        if name not in applies or name in entry.keep:
            continue
        if name in driven.asked or not (entry.not_needed(fdef) or entry.forbidden(fdef)):
            out.append(name)
    return out


def _field_html(entry: HandEntry, fdef: FieldDef, values: Mapping[str, str], driven: Driven) -> str:
    label = field_label(entry.rs, fdef.name)
    legal = describe_field(entry.game, fdef, entry.state)
    names = entry.who_names(fdef)
    problems = driven.problems.get(fdef.name, [])
    err_id = f"e-{fdef.name}"
    rows = []
    for seat in _seats(entry, fdef):
        key = input_name(fdef.name, seat)
        text = f"{names[seat]}: {label}" if seat is not None else label
        value, worked = values.get(key, ""), ""
        if not value and key in driven.filled:
            value = driven.filled[key]
            said_worked = _("worked out")   # outside the f-string: Babel's extractor reads no call inside one
            worked = (f'<small class="worked">{esc(said_worked)}</small>'
                      f'<input type="hidden" name="w{esc(key[1:])}" value="{esc(value)}">')
        default, source = entry.default_text(fdef, seat)
        hint = f' placeholder="{esc(entry.in_language(fdef, default))}"' if source == "ruleset" and default else ""
        described = f' aria-describedby="{err_id}" aria-invalid="true"' if problems else ""
        wide = ' class="wide"' if fdef.type in ("cards", "combos") else ""   # a hand of cards, not a number
        rows.append(f'<label class="f"><span>{esc(text)}{worked}</span><input{wide} name="{esc(key)}" '
                    f'value="{esc(value)}"{hint}{described} autocomplete="off" autocapitalize="off"></label>')
    said = "".join(f"<p>{esc(line)}</p>" for line in problems)
    error = f'<div class="refused" id="{err_id}" role="alert">{said}</div>' if problems else ""
    help_text = f'<p class="help">{esc(fdef.help)}</p>' if fdef.help and fdef.help != legal else ""
    return (f'<fieldset><legend>{esc(label)} <small>({esc(legal)})</small></legend>{help_text}'
            f'{"".join(rows)}{error}</fieldset>')


def summary_html(entry: HandEntry, outcome: Outcome) -> str:
    """What the prompt shows before Record?: the hand as read, a total's rest, each side's points and why."""
    lines = [f"<li>{esc(line)}</li>" for line in entry.summary()]
    if outcome.raw.rest_of_total:
        lines.append("<li>" + esc(_("worked out, the rest of the total: {values}").format(
            values=", ".join(outcome.raw.rest_of_total))) + "</li>")
    breakdown, events = result_shown(entry.game, outcome.result)
    for k, side in enumerate(entry.game.sides):
        why = ", ".join(f"{label} {num(points)}" for label, points, _to in breakdown[k]) or _("nothing")
        lines.append(f'<li class="pts">= {esc(side.name)}: {esc(num(outcome.result.points[k]))} ({esc(why)})</li>')
    lines += [f'<li class="event">{esc(shown(event))}</li>' for event in events]
    return (f'<section class="summary" aria-labelledby="sum"><h2 id="sum">{esc(entry.title())}</h2>'
            f'<ul>{"".join(lines)}</ul></section>')


def notes_html(driven: Driven) -> str:
    """The entry's sentences: the values it filled in, and why the hand as a whole cannot be scored."""
    worked = [n.text for n in driven.notes if n.kind != "problem"]
    refused = [n.text for n in driven.notes if n.kind == "problem"]
    out = ""
    if refused:
        out += '<div class="refused" role="alert">' + "".join(f"<p>{esc(t)}</p>" for t in refused) + "</div>"
    if worked:
        out += '<ul class="notes">' + "".join(f"<li>{esc(t)}</li>" for t in worked) + "</ul>"
    return out


def bids_first(entry: HandEntry) -> bool:
    """Whether the form offers to write the bids down before the play: the ruleset has fields written
    down at bid time (`bidding`) and no bid is written down for this hand yet."""
    return not entry.base and any(f.bidding for f in entry.rs.fields.values())


def form_html(entry: HandEntry, values: Mapping[str, str], driven: Driven, key: str, version: int) -> str:
    """The fields that apply, with what was typed and what was filled in, each refusal at its field; the
    entry's notes; the summary once the hand reads whole, with Record; where the game bids before the
    play, a button that writes the bids down first (`bid`, as `scorepad bid`); the form's idempotency
    key and the game's version it was shown at."""
    bid = ""
    if driven.bid:   # a bid written down before: it stands, and is not asked
        said = "; ".join(driven.bid)
        bid_line = _("Bid for hand {value}: {value2}").format(value=entry.hand_no, value2=said)
        bid = f'<p class="bid">{esc(bid_line)}</p>'
    fields = "".join(_field_html(entry, entry.rs.fields[name], values, driven) for name in shown_fields(entry, driven))
    check_label, record_label = _("Check the hand"), _("Record")
    check = f'<button type="submit" name="do" value="check">{esc(check_label)}</button>'
    done = ""
    if driven.outcome is not None:
        seen = " ".join(driven.outcome.raw.typed)
        done = (summary_html(entry, driven.outcome) + f'<input type="hidden" name="seen" value="{esc(seen)}">'
                f'<button type="submit" name="do" value="record" class="record">{esc(record_label)}</button>')
        check = check.replace("<button ", '<button class="again" ', 1)
    hidden = f'<input type="hidden" name="key" value="{esc(key)}"><input type="hidden" name="expect" value="{version}">'
    first = done + check if done else check
    if bids_first(entry) and driven.outcome is None:
        bid_label = _("Write down the bids")
        first += (f'<button type="submit" name="do" value="bid" formaction="bid" class="again">'
                  f'{esc(bid_label)}</button>')
    return (f'<form method="post" action="hand" class="hand-form">{bid}{notes_html(driven)}{fields}'
            f'{hidden}{first}</form>')
