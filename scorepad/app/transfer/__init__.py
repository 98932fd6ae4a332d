"""Export the whole database as documented JSON, and import it back without duplicates.

The format is described in docs/export.md. Games are identified by their `uid`, so importing the
same file twice, or a file from another table's database, never duplicates a game. Local game
numbers are not exported: export → import into a fresh database → export gives the same bytes.

An export may come from a stranger, so importing trusts nothing in it: the whole file is checked
against the declared shapes (schema.py: types, lengths, ranges, with a path in every message), each
pinned ruleset text must have the hash it is filed under, players, sides and options must fit the
ruleset, and every game is replayed — each active hand re-typed from what was typed and scored by
the engine — and must give exactly the stored hands and state. Everything is written in one
transaction, which a refusal rolls back: a refusal stores nothing.

A club's history is large (100,000 hands make an export of about 120 MB), so neither side holds it
whole: the export is written a game at a time, its games read a batch at a time; the import reads
the file a piece at a time, twice (the head and where each game is, then each game), checks each
game as it comes (in one process per core for a large file) and writes a batch of games at a time
into its transaction.

The modules, each importing only those above it here: schema.py (the format as shapes, the JSON a
value is written and compared as), forked.py (work shared among forked processes), pieces.py
(reading a file to import, a piece at a time), writing.py (a game as the store's rows), export.py,
checks.py (a game checked and replayed; game files use it too), importing.py (`scorepad import`).
"""
