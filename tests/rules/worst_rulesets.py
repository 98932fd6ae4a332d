"""Rulesets at and past the bounds on what one hand may cost (the tests and bench/worst_ruleset.py)."""

from __future__ import annotations


def ruleset(player_lets: str, points: str, tables: str = "") -> str:
    return f'''format = 1
[game]
id = "worst"
name = "Worst"
description = "a ruleset at the bounds of what one hand may cost"
[players]
min = 2
max = 12
{tables}
[fields.pts]
scope = "player"
type = "int"
min = 0
max = 100
help = "points"
[player]
{player_lets}
[[score]]
id = "pts"
per = "player"
label = "points"
points = "{points}"
[end]
when = "false"
winner = "highest"
description = "never"
'''


def many_lets(count: int) -> str:
    """`count` one-line lets for each of 12 players: 1,500 of them was 9 s and 1.8 GB in one process."""
    lets = "\n".join(f'l{i} = "{"pts" if i == 0 else f"l{i - 1}"} * 3 % 1000 + {i}"' for i in range(count))
    return ruleset(lets, f"l{count - 1} % 100")


def long_list(items: int) -> str:
    """One formula per player going through a table of `items` numbers."""
    table = "[tables]\nbig = [" + ", ".join(str(i) for i in range(items)) + "]\n"
    return ruleset('work = "sum(x * pts % 7 for x in big)"', "work % 100", table)
