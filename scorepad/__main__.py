"""`python -m scorepad` runs the same program as the `scorepad` console script."""

from scorepad.cli import main

main()
