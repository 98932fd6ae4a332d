"""The club's part of the page that `serve` without `--game` shows under the current game: the games in
progress, each opening to its own live page (`g/ID/`), and the season table as `season` reports it
(app/season.py's data, text/report.py's tables: nothing of the season is worked out again here)."""

from __future__ import annotations

from html import escape
from typing import Any

from scorepad.app.rows import current_season, game_title
from scorepad.app.season import season_report
from scorepad.locale import _, current, ngettext
from scorepad.text.render import format_value
from scorepad.text.report import table
from scorepad.text.season_table import board_cells, board_columns, rating_sentence, unfinished_sentence


def esc(value: Any) -> str:
    return escape(str(value), quote=True)


def club_key(store: Any) -> tuple[Any, ...]:
    """What the club's part shows changes only when this changes: every game's id, version and end."""
    return (current_season(store), *((g.id, g.version, g.finished, g.abandoned) for g in store.games()))


def in_progress(store: Any) -> list[Any]:
    """The games still being played (not finished, not abandoned), newest first."""
    return sorted((g for g in store.games() if not g.finished and not g.abandoned), key=lambda g: -g.id)


def games_html(games: list[Any], shown_id: int | None, lang: str) -> str:
    """Each game in progress: its title, its sides' scores, its hands, a link to its own live page."""
    items = []
    above = _("shown above")
    for g in games:
        title = _("Game {id}: {ruleset}").format(id=g.id, ruleset=game_title(g, lang))
        if g.name:
            title += f" — {g.name}"
        scores = ", ".join(f"{side['name']} {format_value(st.get('score', 0))}"
                           for side, st in zip(g.sides, g.state.get("sides", []), strict=False))
        hands = ngettext("{n} hand", "{n} hands", g.hands).format(n=g.hands)
        here = f' <span class="here">({esc(above)})</span>' if g.id == shown_id else ""
        items.append(f'<li><a href="g/{g.id}/">{esc(title)}</a>{here}'
                     f'<span class="players">{esc(scores)} · {esc(hands)}</span></li>')
    heading = esc(_("Games in progress"))
    none = _("No game in progress.")
    body = f'<ul class="games">{"".join(items)}</ul>' if items else f'<p>{esc(none)}</p>'
    return f'<section aria-labelledby="playing"><h2 id="playing">{heading}</h2>{body}</section>'


def season_html(data: dict[str, Any], lang: str) -> str:
    """The season's leaderboards, one per game played, as the season page writes them (sortable there;
    here plain headings, every column in a box that scrolls), with the sentences that say what they count."""
    title = ngettext("Season {season}: {n} game", "Season {season}: {n} games", data["games"]).format(
        season=data["season"], n=data["games"])
    parts = [f'<section aria-labelledby="season"><h2 id="season">{esc(title)}</h2>']
    for k, b in enumerate(data["rulesets"]):
        n = ngettext("{n} game", "{n} games", b["games"]).format(n=b["games"])
        parts.append(f"<h3>{esc(b['name'])} · {esc(n)}</h3>"
                     + table(f"season-{k + 1}", board_cells(b), board_columns(b), lang, b.get("counter_words"),
                             b["name"], sortable=False))
    notes = [rating_sentence()] if data["rulesets"] else [_("No finished games yet.")]
    if data["unfinished"]:
        notes.append(unfinished_sentence(data["unfinished"]))
    parts.append("".join(f'<p class="info">{esc(n)}</p>' for n in notes) + "</section>")
    return "".join(parts)


def club_html(store: Any, shown_id: int | None) -> str:
    """The club's part in the language spoken: the games in progress, then the season table."""
    lang = current()
    return games_html(in_progress(store), shown_id, lang) + season_html(season_report(store, None), lang)
