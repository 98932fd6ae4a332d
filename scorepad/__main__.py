"""`python -m scorepad` runs the same program as the `scorepad` console script."""

from scorepad.fastpath import script

script()
