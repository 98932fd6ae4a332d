"""The ruleset format: the schema declaration (format.py, schema.py), one reader per section
(sections/), and the loader that runs them over one file with one problems collector (loader.py).
`scorepad.rules.loader` re-exports what the rest of scorepad uses."""
