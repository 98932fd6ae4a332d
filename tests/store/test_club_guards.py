"""What a club's scorer cannot do on the server, whatever program connects: plant a function that runs
with the owner's rights, write a game's cached state of another shape, move another user's current
game, or file a foreign text under a ruleset's hash. Tested with PUBLIC holding CREATE on the schema,
as PostgreSQL before 15 gave it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.conftest import Run
from tests.store.test_club import Club, accepted, club, game_with_history, refused

__all__ = ["club"]   # the fixture, used by name


def schema_of(url: str) -> str:
    import psycopg

    with psycopg.connect(url, autocommit=True) as con:
        row = con.execute("SELECT current_schema()").fetchone()
    assert row is not None
    return str(row[0])


@pytest.fixture
def open_club(club: Club, cli: Callable[..., Run]) -> Club:
    """The club after PUBLIC was given CREATE on its schema (the default before PostgreSQL 15), then
    `club init` run again, as an organiser upgrading does."""
    schema = schema_of(club.admin)
    accepted(club.admin, f"GRANT CREATE ON SCHEMA {schema} TO PUBLIC")
    r = cli("--db", club.admin, "club", "init", "--prefix", club.prefix)
    assert r.code == 0, r.err
    assert f'REVOKE CREATE ON SCHEMA "{schema}" FROM PUBLIC' in r.out
    return club


def test_a_scorer_cannot_plant_a_function_and_the_triggers_call_none(open_club: Club, cli: Callable[..., Run]) -> None:
    club = open_club
    schema = schema_of(club.admin)
    assert "permission denied" in refused(
        club.url["scorer"], f"CREATE FUNCTION {schema}.to_jsonb(h {schema}.hands) RETURNS jsonb "
                            "LANGUAGE sql AS 'SELECT NULL::jsonb'")
    # a function already there (planted before the club was set up) is never what the triggers call:
    # they read names from pg_catalog only
    accepted(club.admin, f"""CREATE FUNCTION {schema}.to_jsonb(h {schema}.hands) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN INSERT INTO {schema}.meta(key, value) VALUES ('planted', 'ran') ON CONFLICT DO NOTHING; RETURN NULL; END $$""")
    try:
        game_with_history(cli, club.url["scorer"])                 # undo and edit fire the hands trigger
        assert cli("--db", club.url["owner"], "undo", "--game", "1").code == 0
        assert accepted(club.admin, "SELECT 1 FROM meta WHERE key = 'planted'") == 0
    finally:
        accepted(club.admin, f"DROP FUNCTION {schema}.to_jsonb({schema}.hands)")
    assert accepted(club.admin, "SELECT 1 FROM pg_proc WHERE proname LIKE '%_retire_only' AND "
                                "'search_path=pg_catalog, pg_temp' = ANY(proconfig)") >= 1


def test_a_scorer_cannot_write_a_state_of_another_shape(open_club: Club, cli: Callable[..., Run]) -> None:
    club = open_club
    scorer = club.url["scorer"]
    game_with_history(cli, scorer)
    for state in ("{}", "[]", "not json", '{"sides": [], "hands": 1, "finished": false, "game": {}}'):
        assert "written by recording a hand" in refused(scorer, "UPDATE games SET state = %s", (state,))
    assert cli("--db", scorer, "hand", "bid=3,3,3,3", "tricks=4,3,3,3").code == 0   # the hand's own path
    assert cli("--db", club.url["reader"], "season", "--include-unfinished").code == 0
    assert cli("--db", club.url["reader"], "verify").code == 0


def test_each_user_sets_only_their_own_current_game(open_club: Club, cli: Callable[..., Run]) -> None:
    club = open_club
    game_with_history(cli, club.url["scorer"])
    assert cli("--db", club.url["owner"], "use", "1").code == 0
    owner_key = accepted(club.admin, "SELECT 1 FROM meta WHERE key LIKE 'current_game@%%_owner_member'")
    assert owner_key == 1
    assert "own current game" in refused(club.url["scorer"],
                                         "UPDATE meta SET value = '2' WHERE key LIKE 'current_game@%%_owner_member'")
    assert "own current game" in refused(club.url["scorer"],
                                         "INSERT INTO meta(key, value) VALUES ('current_game@elsewhere:someone', '1')")
    assert cli("--db", club.url["scorer"], "use", "1").code == 0    # their own entry


def test_a_foreign_text_cannot_be_filed_under_a_rulesets_hash(open_club: Club, cli: Callable[..., Run]) -> None:
    from scorepad.rules.registry import load

    club = open_club
    spades = load("spades")
    assert "pinned only under its own hash" in refused(
        club.url["scorer"], "INSERT INTO rulesets(hash, ruleset_id, source, text) VALUES(%s, 'spades', 'x', %s)",
        (spades.hash, spades.text.replace("bag_limit", "bag_limit ")))
    r = cli("--db", club.url["scorer"], "new", "spades", "a", "b", "c", "d")
    assert r.code == 0, r.err
