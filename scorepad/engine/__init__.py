"""Scoring a hand: a ruleset bound to a table and scored formula by formula (game.py), the one entry
to it (scoring.py: `apply_hand`), and what a person typed read as a typed hand (assignments.py).
Imports the ruleset format (scorepad.rules) and the leaves; never the store, the text, the app or the table.
"""
