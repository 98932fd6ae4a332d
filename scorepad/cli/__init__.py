"""The command line: the Typer app (app.py), its global options and the bodies the quick route shares
(context.py), the quick route generated from the Typer definitions (quick.py, quickspec.py), help and
completion.
"""
