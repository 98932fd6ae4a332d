"""What people read: hands, standings and sheets (render.py), a ruleset described (describe.py), the
season's lines and its HTML report, and output made safe for terminals, CSV and files (output.py).
No store, no command-line library.
"""
