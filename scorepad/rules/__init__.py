"""The ruleset format and everything that reads a ruleset: the schema declaration (format.py,
schema.py), one reader per section (sections/), the loader that runs them over one file with one
problems collector (loader.py), the formula language (expr.py), its cost (cost.py), card notation,
translations of rulesets, their wording (prose.py), and finding rulesets (registry.py, bundled.py).
Imports only the leaves; the store sits beside it and neither imports the other."""
