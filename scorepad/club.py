"""`scorepad club init`: the club's PostgreSQL schema, its three roles, and history nobody can rewrite.

Roles (group roles without login; the organiser grants them to the members' login roles):
- PREFIX_reader: reads everything (standings, sheets, seasons, exports);
- PREFIX_scorer: a reader who also starts games and records, undoes and edits hands;
- PREFIX_owner: owns the tables: deletes, re-scores with another ruleset, runs migrations.

The database itself enforces it, not only the CLI: privileges per table and column, and triggers.
A stored hand is never changed: the one update allowed is retiring it (status from 'active' to
'undone' or 'replaced', what undo and edit do), and only the owner deletes one (with its game). The
audit trail is append-only for every role: never deleted, never changed, except that the owner's
`delete` of a game files the game's trail away under the negated game id (the store's way of keeping
a deleted game's history), which changes nothing else in it.
Running `club init` again is harmless, and grants on tables a later migration added.
"""

from __future__ import annotations

import re
from typing import Any

from scorepad.errors import UserError
from scorepad.locale import _

READ_TABLES = ("meta", "rulesets", "games", "hands", "audit", "writes", "scorepad_schema")  # printed first, in this order


def roles(prefix: str) -> tuple[str, str, str]:
    return f"{prefix}_reader", f"{prefix}_scorer", f"{prefix}_owner"


def statements(prefix: str, schema: str, tables: list[str]) -> list[str]:
    """Every statement `club init` runs after the migrations, in order (also what it prints)."""
    reader, scorer, owner = roles(prefix)
    q = f'"{schema}"'
    out = [f"GRANT USAGE ON SCHEMA {q} TO {reader}, {scorer}, {owner}",
           f"GRANT CREATE ON SCHEMA {q} TO {owner}",
           f"GRANT {reader} TO {scorer}"]
    for table in tables:
        out.append(f"ALTER TABLE {q}.{table} OWNER TO {owner}")
        out.append(f"GRANT SELECT ON {q}.{table} TO {reader}")
    scorer_grants = {
        "meta": "INSERT, UPDATE",
        "rulesets": "INSERT",
        "games": "INSERT, UPDATE (hands, state, finished, version)",
        "hands": "INSERT, UPDATE (status)",
        "audit": "INSERT",
        "writes": "INSERT",
        "pending_bids": "INSERT, UPDATE, DELETE",  # the bids of the coming hand (`scorepad bid`)
    }
    for table, grant in scorer_grants.items():
        if table in tables:
            out.append(f"GRANT {grant} ON {q}.{table} TO {scorer}")
    fn_hands, fn_audit = f"{q}.{prefix}_hands_retire_only", f"{q}.{prefix}_audit_append_only"
    out.append(f"""CREATE OR REPLACE FUNCTION {fn_hands}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF pg_has_role(current_user, '{owner}', 'MEMBER') THEN RETURN OLD; END IF;
    RAISE EXCEPTION 'a stored hand is never deleted (only {owner} deletes a whole game)'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF (to_jsonb(NEW) - 'status') IS DISTINCT FROM (to_jsonb(OLD) - 'status')
     OR OLD.status <> 'active' OR NEW.status NOT IN ('undone', 'replaced') THEN
    RAISE EXCEPTION 'a stored hand is never changed; undo and edit only retire it (active to undone or replaced)'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$""")
    out.append(f"""CREATE OR REPLACE FUNCTION {fn_audit}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- deleting a game files its trail away under the negated game id: the one change, the owner's
  IF TG_OP = 'UPDATE' AND pg_has_role(current_user, '{owner}', 'MEMBER') AND OLD.game_id > 0
     AND NEW.game_id = -OLD.game_id AND (to_jsonb(NEW) - 'game_id') = (to_jsonb(OLD) - 'game_id') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'the audit trail is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$""")
    out.append(f"ALTER FUNCTION {fn_hands}() OWNER TO {owner}")
    out.append(f"ALTER FUNCTION {fn_audit}() OWNER TO {owner}")
    out.append(f"DROP TRIGGER IF EXISTS {prefix}_hands_retire_only ON {q}.hands")
    out.append(f"CREATE TRIGGER {prefix}_hands_retire_only BEFORE UPDATE OR DELETE ON {q}.hands "
               f"FOR EACH ROW EXECUTE FUNCTION {fn_hands}()")
    out.append(f"DROP TRIGGER IF EXISTS {prefix}_audit_append_only ON {q}.audit")
    out.append(f"CREATE TRIGGER {prefix}_audit_append_only BEFORE UPDATE OR DELETE ON {q}.audit "
               f"FOR EACH ROW EXECUTE FUNCTION {fn_audit}()")
    out.append(f"DROP TRIGGER IF EXISTS {prefix}_audit_no_truncate ON {q}.audit")
    out.append(f"CREATE TRIGGER {prefix}_audit_no_truncate BEFORE TRUNCATE ON {q}.audit "
               f"FOR EACH STATEMENT EXECUTE FUNCTION {fn_audit}()")
    return out


def init(spec: str, prefix: str = "scorepad") -> list[str]:
    """Migrate the club database, make the roles, grant, add the triggers; the statements run, in order."""
    from scorepad.store.protocol import is_server, open_store

    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,40}", prefix):
        raise UserError(_("--prefix {prefix}: lower-case letters, digits and _, starting with a letter (e.g. club)")
                        .format(prefix=repr(prefix)))
    if not is_server(spec):
        raise UserError(_("club init sets up a PostgreSQL database: give --db postgresql://... (or SCOREPAD_DB)"))
    store = open_store(spec)   # says what to install when the PostgreSQL driver is missing
    from scorepad.store.postgres import PgStore

    assert isinstance(store, PgStore)
    try:
        done: list[str] = []
        with store.write() as db:
            schema = db.execute("SELECT current_schema()").fetchone()[0]
            if schema is None:
                raise UserError(_("the connection has no schema to work in (check search_path)"))
            existing = {r for (r,) in db.execute("SELECT rolname FROM pg_roles WHERE rolname LIKE ?",
                                                 (f"{prefix}\\_%",))}
            for role in roles(prefix):
                if role not in existing:
                    done.append(_run(db, f"CREATE ROLE {role} NOLOGIN"))
            tables = [t for (t,) in db.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
                " AND table_type = 'BASE TABLE'")]
            order = {t: k for k, t in enumerate(READ_TABLES)}
            for sql in statements(prefix, schema, sorted(tables, key=lambda t: (order.get(t, len(order)), t))):
                done.append(_run(db, sql))
        return done
    finally:
        store.close()


def _run(db: Any, sql: str) -> str:
    db.execute(sql)
    return sql
