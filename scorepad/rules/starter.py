"""The starter ruleset and scenario that `scorepad rules new ID` writes: every section and field kind once."""

from __future__ import annotations

STARTER = '''#:schema ./ruleset.schema.json
# A starter ruleset: a simple trick game to turn into your own. Every section of the format
# appears once; docs/rulesets.md explains each. Check it with `scorepad rules check FILE`,
# test it with `scorepad rules test FILE`, play it with `scorepad new FILE ann bob cat`.
format = 1

[game]
id = "{id}"
name = "{name}"
names = {{ et = "{name}" }}
aliases = []
family = "trick-taking"
description = """Each player bids the tricks he will take; an exact bid scores 10 + the tricks,
otherwise the tricks only. Cards left in hand at the end cost their value. First to the target wins."""
notes = ["Write here how you decided what the rules leave open."]

[players]
min = 2
max = 6
sides = "individual"

[cards]
deck = "52"
values = {{ A = 11, K = 4, Q = 3, J = 2, "10" = 10 }}

[options.target]
default = 100
values = [50, 100, 200]
help = "the total that wins"

[options.exact_bonus]
default = 10
help = "the bonus for an exact bid"

[fields.bid]
scope = "player"
type = "int"
min = 0
max = 13
words = {{ nil = 0 }}
help = "tricks bid (nil = 0)"

[fields.tricks]
scope = "player"
type = "int"
min = 0
max = 13
help = "tricks taken"

[fields.left]
scope = "player"
type = "cards"
default = []
help = "cards left in hand, e.g. QS 10H (default none)"

[fields.trump]
type = "word"
values = ["spades", "hearts", "diamonds", "clubs", "none"]
default = "none"
help = "the trump suit of the hand"

[fields.trump.synonyms]
s = "spades"
h = "hearts"
d = "diamonds"
c = "clubs"
"♠" = "spades"
"♥" = "hearts"
"♦" = "diamonds"
"♣" = "clubs"

[fields.doubled]
type = "bool"
default = false
help = "yes when the dealer doubled: every score of the hand counts twice"

[fields.first]
type = "player"
optional = true
help = "who took the first trick (shown in the sheet only)"

[fields.best]
type = "side"
optional = true
help = "who played best, for the house bonus of 1 (optional)"

[fields.handicap]
type = "number"
default = 0
min = -5
max = 5
help = "points given to the dealer this hand (may be a fraction)"

[fields.call]
type = "pattern"
pattern = '(?P<count>[0-9]{{1,2}})(?P<suit>S|H|D|C|♠|♥|♦|♣)?'
maps = {{ suit = {{ "♠" = "S", "♥" = "H", "♦" = "D", "♣" = "C" }} }}
words = {{ none = "none" }}
default = "none"
help = "the dealer's call like 5H or 7 (the number of tricks and an optional suit), or none"

[tables]
double_factor = {{ "true" = 2, "false" = 1 }}

[let]
factor = "double_factor[doubled]"
cards_dealt = "sum(all_tricks)"

[player]
exact = "bid == tricks"
hand_points = "(exact_bonus + tricks if exact else tricks) * factor"
penalty = "value(left) * factor"

[side]
is_best = "best == me"

[[check]]
id = "tricks_total"
ok = "sum(all_tricks) >= 1"
message = "somebody must have taken a trick"

[[check]]
id = "bid_range"
per = "player"
ok = "bid <= 13"
message = "{{me}} bid {{bid}}, but there are at most 13 tricks"

[[score]]
id = "tricks"
per = "player"
label = "tricks"
points = "hand_points"

[[score]]
id = "cards_left"
per = "player"
label = "cards left"
points = "-penalty"

[[score]]
id = "best"
label = "best play"
when = "is_best"
points = 1

[[score]]
id = "handicap"
per = "player"
label = "handicap"
when = "seat == dealer"
points = "handicap"

[state.side]
exact_bids = 0

[state.game]
doubled_hands = 0

[[rule]]
id = "count_exact"
add = {{ exact_bids = "count(exact, true)" }}

[[rule]]
id = "count_doubled"
per = "game"
when = "doubled"
add = {{ doubled_hands = 1 }}

[[rule]]
id = "reach_target"
when = "score >= target"
mark = "won"
message = "{{me}} reaches {{target}}"

[end]
winner = "marked"
description = "the first to reach the target wins (several at once: all of them)"

[display.side]
exact = "exact_bids"

[display.next]
trumps = "['spades', 'hearts', 'diamonds', 'clubs'][(hand_no - 1) % 4]"

[display]
info = ["Exact bid: 10 + tricks; otherwise the tricks. Cards left cost their value."]

[variants.quick]
name = "Quick game to 50"
[variants.quick.options.target]
default = 50
'''

SCENARIO = '''# An example scenario for the starter ruleset: hands in, expected numbers out.
# Run it with `scorepad rules test {path}`; see docs/rulesets.md.
description = "Two hands of the starter game, then a win"
ruleset = "{path}"
players = ["ann", "bob"]

# Ann bid 3 and took 3: 10 + 3 = 13; Bob bid 5, took 2: 2, minus Q (3) left in hand: -1.
[[hand]]
input = ["bid=3,5", "tricks=3,2", "bob.left=Q"]
points = [13, -1]
totals = [13, -1]
state = {{ exact_bids = [1, 0] }}

# Doubled: Ann bid 0 and took 0: (10 + 0) x 2 = 20; Bob bid 5 took 5: (10 + 5) x 2 = 30.
[[hand]]
input = ["bid=nil,5", "tricks=0,5", "doubled=yes"]
points = [20, 30]
totals = [33, 29]

[[hand]]
input = ["bid=14,0", "tricks=3,0"]
error = "must be 0-13"

[[hand]]
input = ["bid=0,1", "tricks=0,0"]
error = "somebody must have taken a trick"
'''
