"""Scoring a hand: a ruleset bound to a table and scored formula by formula (game.py), its generated
whole-hand code (handcode.py), the one entry that picks between them (scoring.py: `apply_hand`), and
what a person typed read as a typed hand (assignments.py).
Imports the ruleset format (scorepad.rules) and the leaves; never the store, the text, the app or the table.
"""
