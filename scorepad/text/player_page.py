"""`scorepad player`: one player's games, his partners and a head-to-head, in the language shown
(headings, the games' names, the results as words); JSON keeps ids and the letters W, D, L."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorepad.locale import N_, _, current, ngettext
from scorepad.text.numbers import local_number, plain
from scorepad.text.render import simple_table
from scorepad.text.statistics import statistic_shown

RESULT_WORDS = {"W": N_("won"), "D": N_("draw"), "L": N_("lost"), "unfinished": N_("not finished"),
                "abandoned": N_("abandoned")}


def result_word(result: str) -> str:
    return _(RESULT_WORDS[result]) if result in RESULT_WORDS else result


def _score(value: Any) -> str:
    return "" if value is None else local_number(plain(value), current())


def player_text(rows: Sequence[Mapping[str, Any]]) -> str:
    """Every game of the player: date, game, its name, side, score, place and result."""
    table = [[r["date"], str(r["game"]), r.get("name") or r["ruleset"], ", ".join(r["side"]), _score(r["score"]),
              f"{r['place']}/{r['of']}", result_word(r["result"])] for r in rows]
    return simple_table(table, [_("date"), _("game"), _("ruleset"), _("side"), _("score"), _("place"), _("result")])


def partners_text(name: str, partners: Sequence[Mapping[str, Any]]) -> str:
    """His record with each partner in partnership games, and the best of them; nothing without partners."""
    if not partners:
        return ""
    table = [[p["partner"], str(p["games"]), str(p["wins"]), str(p["draws"]), str(p["losses"])] for p in partners]
    best = partners[0]
    line = ngettext("Best partner of {name}: {partner}, {wins} won of {games} game together.",
                    "Best partner of {name}: {partner}, {wins} won of {games} games together.",
                    best["games"]).format(name=name, partner=best["partner"], wins=best["wins"], games=best["games"])
    return ("\n\n" + _("Partners:") + "\n"
            + simple_table(table, [_("partner"), _("games"), _("wins"), _("draws"), _("losses")]) + "\n" + line)


def head_to_head_text(record: Mapping[str, Any]) -> str:
    """Two players' finished games together: as opponents who finished ahead, as partners how they did."""
    me, other = record["player"], record["other"]
    if not record["games"]:
        return _("{name} and {other} have no finished game together.").format(name=me, other=other)
    table = []
    for g in record["games"]:
        if g["partners"]:
            how = _("partners: {result}").format(result=result_word(g["results"][0]))
        else:
            how = f"{result_word(g['results'][0])} / {result_word(g['results'][1])}"
        table.append([g["date"], str(g["game"]), g["name"], f"{g['places'][0]}/{g['of']}", _score(g["scores"][0]),
                      f"{g['places'][1]}/{g['of']}", _score(g["scores"][1]), how])
    headers = [_("date"), _("game"), _("ruleset"), _("place of {name}").format(name=me), me,
               _("place of {name}").format(name=other), other, _("result")]
    lines = [simple_table(table, headers, numparse=False), ""]
    opposed = record["ahead"] + record["behind"] + record["level"]
    if opposed:
        lines.append(_("As opponents ({n}): {name} ahead {ahead}, {other} ahead {behind}, level {level}.").format(
            n=opposed, name=me, other=other, ahead=record["ahead"], behind=record["behind"], level=record["level"]))
    t = record["together"]
    if t["games"]:
        lines.append(_("As partners ({n}): {wins} won, {draws} drawn, {losses} lost.").format(
            n=t["games"], wins=t["wins"], draws=t["draws"], losses=t["losses"]))
    return "\n".join(lines)


def statistics_text(kinds: Sequence[Mapping[str, Any]]) -> str:
    """The statistics each game's ruleset declares, his totals over every hand he played of it (a
    table per game, the statistics named in the language shown); nothing when no game declares any."""
    parts = []
    for kind in kinds:
        games = ngettext("{n} game", "{n} games", kind["games"]).format(n=kind["games"])
        table = [[s["name"], statistic_shown(s["kind"], s["value"])] for s in kind["statistics"]]
        parts.append(f"{kind['name']} ({games}):\n" + simple_table(table, [_("statistic"), _("total")]))
    return "\n\n" + _("Statistics:") + "\n" + "\n\n".join(parts) if parts else ""
