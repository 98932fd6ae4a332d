"""`python -m scorepad` runs the same program as the `scorepad` console script."""

from scorepad.cli.quick import script

script()
