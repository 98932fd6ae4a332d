"""`[end]`: when the game ends and who wins."""

from __future__ import annotations

from typing import Any

from scorepad.locale import N_, Said
from scorepad.rules.format import END
from scorepad.rules.model import EndRule
from scorepad.rules.names import Compiler, Names
from scorepad.rules.problems import Problems
from scorepad.rules.sections import section


def read_end(data: dict[str, Any], names: Names, comp: Compiler, p: Problems) -> EndRule:
    end = section(data, "end", END, p)
    when = comp(end["when"], "end.when", names.hand()) if "when" in end else None
    winner = end.get("winner", "highest")
    tie = end.get("tie", "draw")
    rank = end.get("rank", "lowest" if winner == "lowest" else "highest")
    first_to = comp(end["first_to"], "end.first_to", names.hand()) if "first_to" in end else None
    rest_of_deal = end.get("rest_of_deal", "void")
    if "rest_of_deal" in end and "first_to" not in end:
        p.add("end.rest_of_deal", Said(N_("applies only with end.first_to")))
    if "first_to" in end:
        if "when" in end:
            p.add("end.when", Said(N_("is not used with end.first_to (reaching first_to ends the game)")))
        if winner != "highest" or rank != "highest":
            p.add("end.winner", Said(N_("must be highest with end.first_to")))
    return EndRule(when, winner, tie, rank, str(end.get("description", "")), first_to, rest_of_deal)
