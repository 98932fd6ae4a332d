"""What happens at the table: the hand prompt, the `play` session, bids before the play, completion.

These modules talk to a person (through a small `Console`), and use the library (`scorepad.app.games`,
the store, the pure engine) for everything else; the engine never imports them.
"""
