"""`scorepad club init`: the club's PostgreSQL schema, its three roles, and history nobody can rewrite.

Roles (group roles without login; the organiser grants them to the members' login roles):
- PREFIX_reader: reads everything (standings, sheets, seasons, exports);
- PREFIX_scorer: a reader who also starts games and records, undoes and edits hands;
- PREFIX_owner: owns the tables: deletes, re-scores with another ruleset, runs migrations.

The database itself enforces it, not only the CLI: privileges per table and column, and triggers.
A stored hand is never changed: the one update allowed is retiring it (status from 'active' to
'undone' or 'replaced', what undo and edit do), and only the owner deletes one (with its game). The
audit trail's triggers refuse every UPDATE, DELETE and TRUNCATE, except that the owner's `delete` of
a game files the game's trail away under the negated game id. A scorer writes a game's cached state
only in the shape recording a hand writes, only their own current-game entry, and a ruleset text only
under its own hash. Nobody but the owner creates objects in the schema, and every trigger function
reads names from pg_catalog only, so no function planted elsewhere runs with another role's rights.
What the owner, who owns the tables, can still do (disable a trigger) is said in docs/club.md.
Running `club init` again is harmless, and grants on tables a later migration added.
"""

from __future__ import annotations

import re
from typing import Any

from scorepad.errors import UserError
from scorepad.locale import _
from scorepad.store.choice import open_store
from scorepad.store.migrations import TABLES
from scorepad.store.protocol import is_server

READ_TABLES = ("meta", "rulesets", "games", "hands", "audit", "writes", "scorepad_schema")  # printed first, in this order


def roles(prefix: str) -> tuple[str, str, str]:
    return f"{prefix}_reader", f"{prefix}_scorer", f"{prefix}_owner"


def statements(prefix: str, schema: str, tables: list[str]) -> list[str]:
    """Every statement `club init` runs after the migrations, in order (also what it prints)."""
    reader, scorer, owner = roles(prefix)
    q = '"' + schema.replace('"', '""') + '"'   # the schema's name quoted as an identifier, whatever it holds
    # Nobody but the owner creates objects in the club's schema (PUBLIC may, by default, before
    # PostgreSQL 15): a function planted there could otherwise be called with another role's rights.
    out = [f"REVOKE CREATE ON SCHEMA {q} FROM PUBLIC",
           f"GRANT USAGE ON SCHEMA {q} TO {reader}, {scorer}, {owner}",
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
    # Each function runs with the rights of whoever fired it (SECURITY INVOKER) and reads names only
    # from pg_catalog (a fixed search_path, schema-qualified calls), so nothing created elsewhere runs.
    fixed = "SECURITY INVOKER SET search_path = pg_catalog, pg_temp"
    out.append(_hands_function(fn_hands, owner, fixed))
    out.append(_audit_function(fn_audit, owner, fixed))
    out += guard_statements(prefix, q, owner, fixed)
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


# Each guard's refusal carries an id in the server's HINT ('scorepad:hand_changed'); the program says
# the sentence of that id in the player's language (scorepad.store.postgres.REFUSALS).


def _hands_function(fn_hands: str, owner: str, fixed: str) -> str:
    """A stored hand is retired (active to undone or replaced), never changed; only the owner deletes."""
    return f"""CREATE OR REPLACE FUNCTION {fn_hands}() RETURNS trigger LANGUAGE plpgsql {fixed} AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF pg_catalog.pg_has_role(current_user, '{owner}', 'MEMBER') THEN RETURN OLD; END IF;
    RAISE EXCEPTION 'a stored hand is never deleted (only {owner} deletes a whole game)'
      USING ERRCODE = 'insufficient_privilege', HINT = 'scorepad:hand_deleted';
  END IF;
  IF (pg_catalog.to_jsonb(NEW) OPERATOR(pg_catalog.-) 'status')
     IS DISTINCT FROM (pg_catalog.to_jsonb(OLD) OPERATOR(pg_catalog.-) 'status')
     OR OLD.status <> 'active' OR NEW.status NOT IN ('undone', 'replaced') THEN
    RAISE EXCEPTION 'a stored hand is never changed; undo and edit only retire it (active to undone or replaced)'
      USING ERRCODE = 'insufficient_privilege', HINT = 'scorepad:hand_changed';
  END IF;
  RETURN NEW;
END $$"""


def _audit_function(fn_audit: str, owner: str, fixed: str) -> str:
    """The audit trail only grows; the owner's delete of a game files its trail under the negated id."""
    return f"""CREATE OR REPLACE FUNCTION {fn_audit}() RETURNS trigger LANGUAGE plpgsql {fixed} AS $$
BEGIN
  -- deleting a game files its trail away under the negated game id: the one change, the owner's
  IF TG_OP = 'UPDATE' AND pg_catalog.pg_has_role(current_user, '{owner}', 'MEMBER') AND OLD.game_id > 0
     AND NEW.game_id = -OLD.game_id
     AND (pg_catalog.to_jsonb(NEW) OPERATOR(pg_catalog.-) 'game_id')
         = (pg_catalog.to_jsonb(OLD) OPERATOR(pg_catalog.-) 'game_id') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'the audit trail is append-only: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege', HINT = 'scorepad:audit';
END $$"""


def guard_statements(prefix: str, q: str, owner: str, fixed: str) -> list[str]:
    """The triggers that hold what a scorer writes to what recording a hand writes: a game's cached
    state keeps its shape (the number of hands, one entry per side with a score and a status); a
    client's current-game entry in meta is written only by that database user; and a pinned ruleset
    text is stored only under its own hash (the first 16 hex digits of its SHA-256)."""
    fn_games, fn_meta, fn_rules = (f"{q}.{prefix}_games_state_shape", f"{q}.{prefix}_meta_own_entries",
                                   f"{q}.{prefix}_rulesets_true_hash")
    refuse = "USING ERRCODE = 'insufficient_privilege'"
    out = [f"""CREATE OR REPLACE FUNCTION {fn_games}() RETURNS trigger LANGUAGE plpgsql {fixed} AS $$
DECLARE s jsonb;
BEGIN
  IF NEW.state IS NOT DISTINCT FROM OLD.state OR pg_catalog.pg_has_role(current_user, '{owner}', 'MEMBER') THEN
    RETURN NEW;
  END IF;
  BEGIN
    s := NEW.state::jsonb;
  EXCEPTION WHEN others THEN
    RAISE EXCEPTION 'a game''s state is written by recording a hand: this one is not JSON' {refuse},
      HINT = 'scorepad:state_not_json';
  END;
  IF jsonb_typeof(s) <> 'object' OR jsonb_typeof(s -> 'sides') IS DISTINCT FROM 'array'
     OR jsonb_typeof(s -> 'game') IS DISTINCT FROM 'object' OR jsonb_typeof(s -> 'finished') IS DISTINCT FROM 'boolean'
     OR jsonb_typeof(s -> 'hands') IS DISTINCT FROM 'number' OR (s ->> 'hands')::numeric <> NEW.hands
     OR jsonb_array_length(s -> 'sides') <> jsonb_array_length(NEW.sides::jsonb)
     OR EXISTS (SELECT 1 FROM jsonb_array_elements(s -> 'sides') AS e(side)
                WHERE jsonb_typeof(side) <> 'object' OR side -> 'score' IS NULL OR side -> 'status' IS NULL) THEN
    RAISE EXCEPTION 'a game''s state is written by recording a hand: this one has not the shape of one' {refuse},
      HINT = 'scorepad:state_shape';
  END IF;
  RETURN NEW;
END $$""",
           f"""CREATE OR REPLACE FUNCTION {fn_meta}() RETURNS trigger LANGUAGE plpgsql {fixed} AS $$
DECLARE mine text := ':' || session_user;
BEGIN
  IF pg_catalog.pg_has_role(current_user, '{owner}', 'MEMBER') THEN RETURN NEW; END IF;
  IF (TG_OP = 'UPDATE' AND starts_with(OLD.key, 'current_game@') AND right(OLD.key, length(mine)) <> mine)
     OR (starts_with(NEW.key, 'current_game@') AND right(NEW.key, length(mine)) <> mine) THEN
    RAISE EXCEPTION 'each database user sets only their own current game' {refuse},
      HINT = 'scorepad:current_game';
  END IF;
  RETURN NEW;
END $$""",
           f"""CREATE OR REPLACE FUNCTION {fn_rules}() RETURNS trigger LANGUAGE plpgsql {fixed} AS $$
BEGIN
  IF NEW.hash <> left(encode(sha256(convert_to(NEW.text, 'UTF8')), 'hex'), 16) THEN
    RAISE EXCEPTION 'a ruleset text is pinned only under its own hash' {refuse},
      HINT = 'scorepad:ruleset_hash';
  END IF;
  RETURN NEW;
END $$"""]
    for fn, table, when in ((fn_games, "games", "BEFORE UPDATE"), (fn_meta, "meta", "BEFORE INSERT OR UPDATE"),
                            (fn_rules, "rulesets", "BEFORE INSERT OR UPDATE")):
        name = fn.rsplit(".", 1)[1]
        out.append(f"ALTER FUNCTION {fn}() OWNER TO {owner}")
        out.append(f"DROP TRIGGER IF EXISTS {name} ON {q}.{table}")
        out.append(f"CREATE TRIGGER {name} {when} ON {q}.{table} FOR EACH ROW EXECUTE FUNCTION {fn}()")
    return out


def init(spec: str, prefix: str = "scorepad") -> list[str]:
    """Migrate the club database, make the roles, grant, add the triggers; the statements run, in order."""

    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,40}", prefix):
        raise UserError(_("--prefix {prefix}: lower-case letters, digits and _, starting with a letter (e.g. club)")
                        .format(prefix=repr(prefix)))
    if not is_server(spec):
        raise UserError(_("club init sets up a PostgreSQL database: give --db postgresql://... (or SCOREPAD_DB)"))
    store = open_store(spec)   # says what to install when the PostgreSQL driver is missing
    from scorepad.store.postgres import VERSION_TABLE, PgStore  # loaded by open_store: psycopg is there

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
            public = db.execute("SELECT 1 FROM pg_namespace WHERE nspname = 'public'").fetchone()
            if schema != "public" and public is not None:   # where PUBLIC may create before PostgreSQL 15
                done.append(_run(db, "REVOKE CREATE ON SCHEMA public FROM PUBLIC"))
            # only the schema's own tables reach the statements: a name found in the database is data, not SQL
            known = set(TABLES) | {VERSION_TABLE}
            tables = [t for (t,) in db.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
                " AND table_type = 'BASE TABLE'") if t in known]
            order = {t: k for k, t in enumerate(READ_TABLES)}
            for sql in statements(prefix, schema, sorted(tables, key=lambda t: (order.get(t, len(order)), t))):
                done.append(_run(db, sql))
        return done
    finally:
        store.close()


def _run(db: Any, sql: str) -> str:
    db.execute(sql)
    return sql
