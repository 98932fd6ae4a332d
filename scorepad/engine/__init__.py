"""Scoring a hand: a ruleset bound to a table (game.py: the per-formula engine, `apply_hand`), its
generated whole-hand code (handcode.py), and what a person typed read as a typed hand (assignments.py).
Imports the ruleset format (scorepad.rules) and the leaves; never the store, the text, the app or the table.
"""
