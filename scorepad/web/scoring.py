"""The scorer's page: the hand form, a hand stored through the same use case as `scorepad hand`
(`app.games.record_hand`: one transaction, the version the form was shown at, the form's idempotency
key, so a double tap stores one hand), undo of the last hand, and a refusal in the words `hand` says
it with, in the page's language. Each call has its own store connection (a worker thread's)."""

from __future__ import annotations

from collections.abc import Mapping

from scorepad.app import games as play
from scorepad.errors import ScorepadError, UserError
from scorepad.locale import _, shown, speaking
from scorepad.text.render import num
from scorepad.web.form import form_html, typed_from
from scorepad.web.live import opened
from scorepad.web.pages import esc, nothing_html, sides_html, title_of
from scorepad.web.tokens import new_token


def refusal(exc: ScorepadError) -> str:
    """What `hand` prints for a refused hand (its sentence, then each problem), in the page's language."""
    lines = [shown(exc.message)] + [shown(p) for p in exc.problems if p != exc.message] if len(exc.problems) > 1 \
        else [shown(exc.message)]
    return '<div class="refused" role="alert">' + "".join(f"<p>{esc(line)}</p>" for line in lines) + "</div>"


def scorer_page(spec: str | None, game: str | None, lang: str, values: Mapping[str, str] | None = None,
                note: str = "") -> tuple[str, str]:
    """(title, the scorer's part of the page): the standings, the form (with `values` after a refusal,
    and a new key), the undo button, `note` (a refusal, or the hand just stored) above them."""
    with opened(spec) as store, speaking(lang):
        try:
            row, st = play.standings_with_bid(store, game, lang)
        except ScorepadError as exc:
            return "scorepad", nothing_html(shown(exc.message))
        g = play.game_of(row, lang)
        body = [f'<h1>{esc(title_of(st))}</h1>', sides_html(st), note]
        if not st["finished"] and not st.get("abandoned"):
            body.append(form_html(g, row.state, values or {}, new_token(), row.version, _("Record")))
        if row.hands:
            undo_label = esc(_("Undo the last hand"))
            body.append(f'<form method="post" action="undo" class="undo"><input type="hidden" name="expect" '
                        f'value="{row.version}"><button type="submit">{undo_label}</button></form>')
        return title_of(st), "".join(body)


def version_of(values: Mapping[str, str]) -> int | None:
    text = values.get("expect", "")
    return int(text) if text.isdigit() else None


def record(spec: str | None, game: str | None, lang: str, values: Mapping[str, str]) -> tuple[int, str, str]:
    """Store the hand typed in the form: (status, title, page); a refusal is 422 with nothing stored."""
    with opened(spec) as store, speaking(lang):
        try:
            row = store.game(game)
            g = play.game_of(row, lang)
            typed = typed_from(g, row.state, values)
            key = values.get("key", "")
            if not 1 <= len(key) <= 200:
                raise UserError(_("--key: write 1 to 200 characters, e.g. a UUID"))
            rec = play.record_hand(store, row.id, typed, lang, expect=version_of(values), key=key)
        except ScorepadError as exc:
            title, page = scorer_page(spec, game, lang, values, refusal(exc))
            return 422, title, page
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


