"""Where games, hands and their history are kept: one store interface, two stores.

- `sqlite.py` — the embedded default, an SQLite file (`Store`, and the rows it returns);
- `postgres.py` — a club's shared PostgreSQL server (`PgStore`, through psycopg, imported only then);
- `migrations.py` — the numbered schema steps both stores run;
- `protocol.py` — the interface the commands use, telling a server from a file, password masking;
- `choice.py` — the store `--db` names (the PostgreSQL store imported only for a server);
- `club.py` — `club init`: the roles, grants and triggers of a club's server.

The names below are the SQLite store's, as the rest of scorepad imports them; importing this package
never imports the PostgreSQL driver.
"""

from scorepad.store.migrations import MIGRATIONS, SCHEMA_VERSION, _v1
from scorepad.store.sqlite import GameRow, HandRow, Rewrite, Store, default_path, dumps, now, text_hash

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "GameRow", "HandRow", "Rewrite", "Store", "_v1", "default_path", "dumps",
           "now", "text_hash"]
