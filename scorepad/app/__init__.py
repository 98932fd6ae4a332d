"""One module per use case, each one transaction over the store: games and hands (games.py), bids,
redo, rulesets and house rules, season, import and export (transfer/), game files, db copy, config.
Joins the store and the rules; knows nothing of a terminal or of Typer.
"""

from scorepad.app import breakdown as _breakdown  # noqa: F401  (names stored breakdown lines when a store migrates)
from scorepad.app import events as _events  # noqa: F401  (names stored events when a store migrates)
