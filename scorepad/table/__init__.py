"""What happens at the table: the hand prompt, entering a hand or a bid against the game as it stands,
the `play` session, the console.

These modules talk to a person (through a small `Console`) and use the app's use cases for everything
else; nothing below them imports them.
"""
