"""The store interface the commands use, and the choice of a store from `--db`, SCOREPAD_DB or the config.

Two stores implement it: the SQLite file (scorepad.store.sqlite, the embedded default) and a PostgreSQL
server shared by a club (scorepad.store.postgres, with the optional extra `scorepad[postgres]`). A file
path selects SQLite; a `postgresql://` or `postgres://` URL, or a libpq connection string such as
`service=club`, selects PostgreSQL. Its driver, psycopg, is imported only then, so the default costs nothing.
Passwords in a URL or connection string are never shown: `mask` hides them in every message.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the protocol is for the type checker: defining it at run time would cost start-up time
    from collections.abc import Iterable, Iterator, Sequence
    from contextlib import AbstractContextManager
    from typing import Any, Protocol

    from scorepad.store import GameRow, HandRow, Rewrite

    class Cursor(Protocol):
        """What a query answers: rows as tuples, and the id of an inserted row."""

        lastrowid: int | None

        def fetchone(self) -> Any: ...
        def fetchall(self) -> list[Any]: ...
        def __iter__(self) -> Iterator[Any]: ...

    class Connection(Protocol):
        """The part of a DB-API connection the store's SQL uses (`?` placeholders, as sqlite3)."""

        def execute(self, sql: str, params: Sequence[Any] = ...) -> Any: ...
        def executemany(self, sql: str, params: Any) -> Any: ...

    class StoreProtocol(Protocol):
        """Every method the library and the CLI call on a store; each write is one transaction."""

        def close(self) -> None: ...
        def write(self) -> AbstractContextManager[Any]: ...
        def get_meta(self, key: str) -> str | None: ...
        def set_meta(self, key: str, value: str) -> None: ...
        def create_game(self, *, ruleset_id: str, ruleset_hash: str, ruleset_text: str, ruleset_source: str,
                        variant: str | None, name: str | None, season: str | None, players: Sequence[str],
                        sides: list[dict[str, Any]], options: dict[str, Any], state: dict[str, Any],
                        uid: str | None = None, created: str | None = None, make_current: bool = True,
                        first_dealer: int = 0) -> int: ...
        def pin_ruleset(self, db: Any, ruleset_id: str, text: str, source: str) -> str: ...
        def misfiled_rulesets(self) -> list[tuple[str, str]]: ...
        def game(self, game_id: int | str | None) -> GameRow: ...
        def games(self, season: str | None = None, damaged: list[str] | None = None) -> list[GameRow]: ...
        def game_ids_by_uid(self) -> dict[str, int]: ...
        def seasons(self) -> list[str]: ...
        def set_current(self, game_id: int | str) -> int: ...
        def hands(self, game_id: int) -> list[HandRow]: ...
        def replay_hands(self, game_id: int) -> list[tuple[int, dict[str, Any], dict[str, Any]]]: ...
        def lock_game(self, db: Any, game_id: int) -> None: ...
        def written(self, db: Any, key: str) -> tuple[int, int] | None: ...
        def append_hand(self, db: Any, game_id: int, row: HandRow, key: str | None) -> None: ...
        def rewrite_games(self, changes: Sequence[Rewrite], action: str, detail: dict[str, Any]) -> None: ...
        def record_action(self, game_id: int, expected_version: int, action: str, detail: dict[str, Any]) -> None: ...
        def delete_game(self, game_id: int, expected_version: int, detail: dict[str, Any]) -> None: ...
        def deleted_audit(self, game_id: int) -> list[dict[str, Any]]: ...
        def replace_from(self, game_id: int, expected_version: int, first_n: int, rows: Sequence[HandRow],
                         action: str, detail: dict[str, Any], final_state: dict[str, Any],
                         repin: tuple[str, str, str, str] | None = None) -> None: ...
        def set_state(self, game_id: int, state: dict[str, Any], action: str, detail: dict[str, Any],
                      expected_version: int) -> None: ...
        def audit(self, game_id: int) -> list[dict[str, Any]]: ...
        def insert_rows(self, db: Any, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None: ...
        def next_ids(self, db: Any, table: str, n: int) -> list[int]: ...


# libpq connection-string keywords a `key=value` database spec may start with
_CONNINFO_KEYS = ("service", "host", "hostaddr", "dbname", "user", "port", "passfile", "sslmode")
# A URL's password runs from the colon after the user to the URL's last @: a password typed with a raw
# `@`, `/` or space (not percent-encoded) is masked whole, never shown in part as the host or the path.
_URL_PASSWORD = r"(postgres(?:ql)?://[^:/@?#\s]*:)(.*)(@[^@]*)$"
_KEY_PASSWORD = r"(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&]+)"

EXTRA_HINT = "pip install 'scorepad[postgres]'"


def is_server(spec: str | None) -> bool:
    """True when `spec` names a PostgreSQL server (URL or libpq connection string), not a file."""
    if not spec:
        return False
    text = spec.strip()
    if re.match(r"postgres(ql)?://", text, re.IGNORECASE):
        return True
    return re.match(rf"({'|'.join(_CONNINFO_KEYS)})\s*=", text, re.IGNORECASE) is not None


def url_password(spec: str) -> str | None:
    """The password a PostgreSQL URL carries, as written (percent-encoded or not); None without one."""
    found = re.search(_URL_PASSWORD, spec.strip(), flags=re.IGNORECASE)
    return found.group(2) if found else None


def mask(text: str) -> str:
    """`text` (a database spec, or a line about one) with the password of its URL or connection string
    replaced by ***: the one masking every message and listing that shows a database address uses."""
    text = "\n".join(re.sub(_URL_PASSWORD, r"\1***\3", line, flags=re.IGNORECASE) for line in text.split("\n"))
    return re.sub(_KEY_PASSWORD, r"\1***", text, flags=re.IGNORECASE)
