"""Which store `--db` (or SCOREPAD_DB) names: a PostgreSQL server for a URL or connection string,
else an SQLite file. The PostgreSQL store, and with it its driver psycopg (~130 ms to import), is
loaded only when a server is named."""

from __future__ import annotations

from scorepad.errors import UserError
from scorepad.locale import _
from scorepad.names import not_utf8
from scorepad.store.protocol import EXTRA_HINT, is_server, mask
from scorepad.store.sqlite import Store


def open_store(spec: str | None) -> Store:
    """The store `spec` names: a PostgreSQL server for a URL or connection string, else an SQLite file."""
    if is_server(spec):
        assert spec is not None
        if not_utf8(spec):
            raise UserError(_("{spec}: the database address holds bytes that are not UTF-8 text; type it again in "
                              "UTF-8").format(spec=mask(spec.encode("utf-8", "surrogateescape")
                                                        .decode("utf-8", "backslashreplace"))))
        try:
            from scorepad.store.postgres import PgStore  # start-up: psycopg only for a server URL
        except ImportError as exc:   # the extra `scorepad[postgres]` brings psycopg
            if (exc.name or "").split(".")[0] != "psycopg":
                raise
            raise UserError(_("{spec} is a PostgreSQL database, and the PostgreSQL driver is not installed: {hint}")
                            .format(spec=mask(spec), hint=EXTRA_HINT)) from None

        return PgStore(spec)
    return Store(spec)
