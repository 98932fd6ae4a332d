"""The scorer's page: the hand form driven by the hand model the prompt drives (scorepad.web.form), a
hand stored through the one write every front end uses (`app.games.write_hand`: one transaction, the
version the form was shown at, the form's idempotency key, so a double tap stores one hand), undo of the
last hand, and a refusal in the words `hand` says it with, in the page's language. Each call has its
own store connection (a worker thread's)."""

from __future__ import annotations

from collections.abc import Mapping

from scorepad.app import games as play
from scorepad.app.answer_lost import key_written
from scorepad.app.bids import bidding_or_refuse, record_bid
from scorepad.app.games import open_game
from scorepad.engine.assignments import canonical_names
from scorepad.engine.game import Game
from scorepad.engine.hand_entry import HandEntry
from scorepad.errors import ScorepadError, StoreConflict, UserError
from scorepad.locale import _, shown, speaking
from scorepad.store import GameRow, Store
from scorepad.text.render import num
from scorepad.web.form import drive, form_html, notes_html, typed_values
from scorepad.web.live import opened
from scorepad.web.pages import esc, nothing_html, sides_html, title_of
from scorepad.web.tokens import new_token


def refusal(exc: ScorepadError) -> str:
    """What `hand` prints for a refused hand (its sentence, then each problem), in the page's language."""
    lines = [shown(exc.message)] + [shown(p) for p in exc.problems if p != exc.message] if len(exc.problems) > 1 \
        else [shown(exc.message)]
    return '<div class="refused" role="alert">' + "".join(f"<p>{esc(line)}</p>" for line in lines) + "</div>"


def _entry(store: Store, row: GameRow, game: Game) -> HandEntry:
    """The entry of the game's next hand, the bid written down for it standing, as `hand` reads it."""
    return HandEntry.next_hand(game, row.state, store.pending_bid(row.id) or [], hand_no=row.hands + 1)


def scorer_page(spec: str | None, game: str | None, lang: str, values: Mapping[str, str] | None = None,
                note: str = "", key: str | None = None) -> tuple[str, str]:
    """(title, the scorer's part of the page): the standings, the form driven by what was typed
    (`values`; none: the form of a new hand, with a new key), the undo button, `note` above them."""
    with opened(spec) as store, speaking(lang):
        try:
            row, st = play.standings_with_bid(store, game)
        except ScorepadError as exc:
            return "scorepad", nothing_html(shown(exc.message))
        body = [f'<h1>{esc(title_of(st))}</h1>', sides_html(st), note]
        if not st["finished"] and not st.get("abandoned"):
            entry = _entry(store, row, play.in_language(play.game_of(row)))
            typed = typed_values(values or {})
            driven = drive(entry, typed)
            body.append(form_html(entry, typed, driven, key or new_token(), row.version))
        body.append(_undo_html(row))
        return title_of(st), "".join(body)


def _undo_html(row: GameRow) -> str:
    if not row.hands:
        return ""
    label = _("Undo the last hand")   # outside the f-string: Babel's extractor reads no call inside one
    return (f'<form method="post" action="undo" class="undo"><input type="hidden" name="expect" '
            f'value="{row.version}"><button type="submit">{esc(label)}</button></form>')


def version_of(values: Mapping[str, str]) -> int | None:
    text = values.get("expect", "")
    return int(text) if text.isdigit() else None


def record(spec: str | None, game: str | None, lang: str, values: Mapping[str, str]) -> tuple[int, str, str]:
    """A submit of the form: the entry driven by what was typed shows the fields that apply, a value
    refused at its field (422), or the summary; Record on the summary just shown stores the hand through
    `write_hand` (one transaction, the version shown, the form's key). Nothing else is stored."""
    key = values.get("key", "")
    with opened(spec) as store, speaking(lang):
        try:
            if not 1 <= len(key) <= 200:
                raise UserError(_("--key: write 1 to 200 characters, e.g. a UUID"))
            row = open_game(store.game(game))
            done = key_written(store, row.id, key)
            if done is not None:     # a second tap of Record: the hand the first one stored
                return _stored(spec, game, lang, play.repeated(store, row.id, done, key))
            if row.state["finished"]:
                raise UserError(_('this game has ended and takes no more hands (undo or edit still work)'))
            g = play.in_language(play.game_of(row))
            entry = _entry(store, row, g)
            driven = drive(entry, typed_values(values))
            outcome = driven.outcome
            if values.get("do") != "record" or outcome is None or values.get("seen") != " ".join(outcome.raw.typed):
                title, page = scorer_page(spec, game, lang, values, key=key)   # the fields, a refusal, the summary
                return (422 if driven.refused else 200), title, page
            rec = play.write_hand(store, row, g, play.Typed(outcome.raw, outcome.hand, outcome.result),
                                  expect=version_of(values), key=key, bid=len(entry.base))
        except ScorepadError as exc:
            title, page = scorer_page(spec, game, lang, values, refusal(exc), key=key)
            return 422, title, page
        return _stored(spec, game, lang, rec)


def bid(spec: str | None, game: str | None, lang: str, values: Mapping[str, str]) -> tuple[int, str, str]:
    """"Write down the bids" on the form: the bidding fields typed, read by the entry in its "bids" mode as
    the terminal's `bid` prompt reads them (a bid a rule refuses is refused at its field), written down by
    `app.bids.record_bid`, the use case of `scorepad bid`; the form then asks the rest of the hand. The
    form's version guards a double tap: once the bid is written the game has moved on, and the same bid
    sent again is answered as written, nothing stored twice; another one is refused."""
    with opened(spec) as store, speaking(lang):
        try:
            row = open_game(store.game(game))
            if row.state["finished"]:
                raise UserError(_('this game has ended and takes no more hands (undo or edit still work)'))
            g = play.in_language(play.game_of(row))
            bidding_or_refuse(g.ruleset)
            entry = HandEntry(g, row.state, hand_no=row.hands + 1, mode="bids")
            driven = drive(entry, typed_values(values))
            if driven.refused or entry.question() is not None:   # a bid refused, or a field that applies now
                title, page = scorer_page(spec, game, lang, values, notes_html(driven), key=values.get("key"))
                return (422 if driven.refused else 200), title, page
            typed = entry.raw().typed
            expect = version_of(values)
            if expect is not None and expect != row.version:
                if store.pending_bid(row.id) == canonical_names(g, typed):   # the second tap of the same bid
                    return _bid_written(spec, game, lang)
                raise StoreConflict(play.moved(store, row, expect))
            record_bid(store, row.id, typed)
        except ScorepadError as exc:
            title, page = scorer_page(spec, game, lang, values, refusal(exc), key=values.get("key"))
            return 422, title, page
    return _bid_written(spec, game, lang)


def _bid_written(spec: str | None, game: str | None, lang: str) -> tuple[int, str, str]:
    with speaking(lang):
        said = _("The bids are written down; type the play when the hand is over.")
    title, page = scorer_page(spec, game, lang, None, f'<p class="stored" role="status">{esc(said)}</p>')
    return 200, title, page


def _stored(spec: str | None, game: str | None, lang: str, rec: play.Recorded) -> tuple[int, str, str]:
    stored = _("Hand {n}").format(n=rec.n) + ": " + ", ".join(
        f"{s.name} {num(p)}" for s, p in zip(rec.game.sides, rec.result.points, strict=True))
    title, page = scorer_page(spec, game, lang, None, f'<p class="stored" role="status">{esc(stored)}</p>')
    return 200, title, page


def undo(spec: str | None, game: str | None, lang: str, values: Mapping[str, str]) -> tuple[int, str, str]:
    """Take back the last hand, if the game is still at the version the page showed."""
    with opened(spec) as store, speaking(lang):
        try:
            undone = play.undo(store, game, expect=version_of(values))
        except ScorepadError as exc:
            title, page = scorer_page(spec, game, lang, None, refusal(exc))
            return 422, title, page
        note = (_("The finish is taken back; the game goes on at hand {n}.").format(n=undone.n + 1) if undone.finish
                else _("Hand {n}").format(n=undone.n) + ": " + _("undo"))
    title, page = scorer_page(spec, game, lang, None, f'<p class="stored" role="status">{esc(note)}</p>')
    return 200, title, page


