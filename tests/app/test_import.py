"""Imports of strangers' files: every crafted file in tests/hostile/import/ is refused with a sentence
naming where the problem is, exit status 2 and the database unchanged; a pinned ruleset text is found
only by its true hash; mutations of a valid export are refused or accepted, never an internal error,
and an accepted one leaves every command working.

The crafted files were made from a real database (a small partnership game, `pairs`, with undo and
edit; `tally` from tests/data finished by command; Spades for the hash poisoning) and then altered
the way each file's name says. valid.json and valid.toml are the unaltered control cases.
"""

from __future__ import annotations

import copy
import json
import sqlite3
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad.app.transfer.export import export_text
from scorepad.errors import StoreError, UserError
from scorepad.store import Store, dumps, text_hash
from tests.conftest import Run, dump

HOSTILE = Path(__file__).resolve().parents[1] / "hostile" / "import"
REPO = Path(__file__).resolve().parents[2]

# What each crafted JSON file must be refused with (TOML files carry a `# expect:` line).
EXPECT_JSON = {
    "poison_bundled_hash.json": "rulesets[0].hash: 3e2244f84affe577 is not the hash of the text beside it",
    "players_as_integers.json": "games[0].players[0]: must be text, not a whole number",
    "state_as_list.json": "games[0].state: must be a table, not a list",
    "state_score_altered.json": "games[0].state: differs from a replay of its hands",
    "side_members_out_of_range.json": "games[0].sides[1].members[1]: seat 7, but there are 4 players",
    "short_sides_list.json": "games[0].sides: Pairs has 2 sides, not 1",
    "empty_audit_edit.json": "games[0].audit[3].detail.hand: missing",
    "table_as_name.json": "games[0].name: must be text, not a table",
    "null_uid.json": "games[1].uid: must be text, not null",
    "duplicate_uid.json": "games[1].uid: the same uid as games[0]",
    "unknown_ruleset_hash.json": "games[1].ruleset_hash: no entry of rulesets has the hash 0123456789abcdef",
    "control_in_player_name.json": "games[1].players[0]: the name contains the control character U+001B",
    "typed_differs_from_hand.json": "games[0].hand_rows[4].hand: not the values typed",
    "hand_differs_from_typed.json": "games[0].hand_rows[4].hand: not the values typed",
    "score_400_digits.json": "games[1].state.sides[2].score: a number with 400 digits",
    "score_5000_digits.json": "games[1].state.sides[2].score: a number with 5000 digits",
    "score_nan.json": "games[1].state.sides[2].score: NaN is not a number",
    "score_infinity.json": "games[1].state.sides[2].score: -Infinity is not a number",
    "score_overflows_to_infinity.json": "games[1].state.sides[2].score: 1e999 is not a number",
    "lone_surrogate.json": "games[0].name: not valid Unicode text",
    "ruleset_text_refused.json": "rulesets[0].text: not a usable ruleset: rulesets[0].text: score[0].points: unknown function",
    "unknown_variant.json": "games[0].variant: rulesets[0].text: unknown variant 'nosuch'",
    "option_out_of_range.json": "games[0].options: option target must be one of 30, 60, not 45",
}
CONTROL = {"valid.json", "valid.toml"}


def expectation(path: Path) -> str:
    if path.suffix == ".json":
        return EXPECT_JSON[path.name]
    for line in path.read_text(encoding="utf-8").splitlines()[:3]:
        if line.startswith("# expect:"):
            return line.partition(":")[2].strip()
    raise AssertionError(f"{path.name} has no '# expect:' line")


CRAFTED = sorted(p for p in HOSTILE.iterdir() if p.name not in CONTROL)


def test_every_crafted_file_has_an_expectation() -> None:
    assert len(CRAFTED) >= 25
    assert all(expectation(p) for p in CRAFTED)
    assert set(EXPECT_JSON) == {p.name for p in CRAFTED if p.suffix == ".json"}


def one_game(cli: Callable[..., Run]) -> None:
    """Something in the database, so 'unchanged' means more than an empty schema."""
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0


@pytest.mark.parametrize("path", CRAFTED, ids=[p.name for p in CRAFTED])
def test_crafted_import_refused_and_nothing_stored(cli: Callable[..., Run], db: Path, path: Path) -> None:
    one_game(cli)
    before = dump(db)
    r = cli("import", str(path))
    assert r.code == 2, r.err
    assert "internal error" not in r.err and "Traceback" not in r.err
    assert expectation(path) in r.err
    assert dump(db) == before
    assert cli("verify").code == 0


def commands_work(cli: Callable[..., Run], folder: Path) -> None:
    """After an accepted import every report works on every game."""
    assert cli("verify").code == 0
    games = json.loads(cli("games", "--json").out)
    assert cli("season").code == 0
    assert cli("season", "--format", "html", "--output", str(folder / "season.html")).code == 0
    assert cli("export", "--output", str(folder / "again.json"), "--force").code == 0
    for name in {p for g in games for p in g["players"]}:
        assert cli("player", "--", name).code == 0
    for g in games:
        gid = str(g["id"])
        for args in (("standings", "--game", gid), ("log", "--game", gid), ("sheet", "--game", gid)):
            r = cli(*args)
            assert r.code == 0, (args, r.err)


@pytest.mark.parametrize("name", sorted(CONTROL))
def test_control_files_import(cli: Callable[..., Run], db: Path, tmp_path: Path, name: str) -> None:
    one_game(cli)
    r = cli("import", str(HOSTILE / name))
    assert r.code == 0, r.err
    assert "Imported" in r.out
    commands_work(cli, tmp_path)
    again = cli("import", str(HOSTILE / name))
    assert again.code == 0 and "Imported 0 games" in again.out


@pytest.mark.parametrize("kind", ["json", "toml"])
def test_deep_nesting_refused(cli: Callable[..., Run], db: Path, tmp_path: Path, kind: str) -> None:
    one_game(cli)
    before = dump(db)
    path = tmp_path / f"deep.{kind}"
    if kind == "json":
        path.write_text('{"format": "scorepad-export", "version": 1, "games": ' + "[" * 100_000 + "]" * 100_000 + "}")
    else:
        path.write_text('format = "scorepad-game"\nversion = 1\nplayers = ' + "[" * 100_000 + "]" * 100_000 + "\n")
    r = cli("import", str(path))
    assert r.code == 2 and "nests too deeply" in r.err, r.err
    assert dump(db) == before


def test_shallow_but_deeper_than_the_format_refused(cli: Callable[..., Run], db: Path, tmp_path: Path) -> None:
    data = json.loads((HOSTILE / "valid.json").read_text(encoding="utf-8"))
    nested: Any = 1
    for _ in range(200):
        nested = [nested]
    data["games"][0]["audit"][0]["detail"]["x"] = nested
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    r = cli("import", str(path))
    assert r.code == 2 and "games[0].audit[0].detail.x" in r.err and "nests deeper" in r.err


# ------------------------------------------------------------------ pinned rulesets

SPADES_HASH = text_hash((REPO / "rulesets" / "spades.toml").read_text(encoding="utf-8"))
EVIL = ('points = "new_bags"', 'points = "new_bags + (571 if me == sides[0] else 0)"')


def spades_totals(cli: Callable[..., Run], game: str) -> list[int]:
    return [s["score"] for s in json.loads(cli("standings", "--game", game, "--json").out)["sides"]]


def test_poisoned_export_leaves_new_games_alone(cli: Callable[..., Run], db: Path) -> None:
    assert cli("import", str(HOSTILE / "poison_bundled_hash.json")).code == 2
    one_game(cli)
    # the rules: ann+cat bid 7 and took 8: 70 + 1 bag; bob+dan bid 6 and took 5: set, -60
    assert spades_totals(cli, "1") == [71, -60]


def test_poisoned_database_is_caught_and_new_games_pin_the_real_text(cli: Callable[..., Run], db: Path) -> None:
    """A database an older scorepad filled with an altered text under a bundled ruleset's hash."""
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    con = sqlite3.connect(db)
    (text,) = con.execute("SELECT text FROM rulesets WHERE hash = ?", (SPADES_HASH,)).fetchone()
    assert EVIL[0] in text
    with con:
        con.execute("UPDATE rulesets SET text = ? WHERE hash = ?", (text.replace(*EVIL), SPADES_HASH))
    con.close()
    r = cli("verify")
    assert r.code == 1 and f"ruleset spades: the text pinned as {SPADES_HASH} is not the text with that hash" in r.out
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert spades_totals(cli, "2") == [71, -60]
    # the first game keeps the text it was (in this story) scored with, now under that text's own hash
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2", "--game", "1").code == 0
    assert spades_totals(cli, "1") == [71 + 571, -60]
    assert cli("verify").code == 0
    con = sqlite3.connect(db)
    rows = con.execute("SELECT hash, text FROM rulesets").fetchall()
    con.close()
    assert all(text_hash(t) == h for h, t in rows) and len(rows) == 2


def test_export_has_no_installation_path(cli: Callable[..., Run], db: Path, tmp_path: Path) -> None:
    one_game(cli)
    out = tmp_path / "all.json"
    assert cli("export", "--output", str(out)).code == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [r["source"] for r in data["rulesets"]] == ["spades.toml"]
    assert str(REPO) not in out.read_text(encoding="utf-8") and "site-packages" not in out.read_text(encoding="utf-8")


def test_nan_is_never_written(db: Path) -> None:
    with pytest.raises(UserError):
        dumps({"score": float("nan")})
    with pytest.raises(UserError):
        dumps([float("inf")])
    store = Store(db)
    store.create_game(ruleset_id="t", ruleset_hash=text_hash("t"), ruleset_text="t", ruleset_source="t.toml",
                      variant=None, name=None, season=None, players=["a", "b"], sides=[], options={}, state={})
    with store.write() as con:  # a database some other program altered, its schema's checks first
        con.execute("DROP TRIGGER games_shape_update")
        con.execute("UPDATE games SET state = '{\"score\": NaN}'")
    with pytest.raises(StoreError):
        export_text(store)
    store.close()


# ------------------------------------------------------------------ TOML game files, one transaction

def test_toml_refusal_after_some_hands_stores_nothing(cli: Callable[..., Run], db: Path) -> None:
    one_game(cli)
    before = dump(db)
    r = cli("import", str(HOSTILE / "bad_second_hand.toml"))
    assert r.code == 2 and "hand[1]" in r.err
    assert dump(db) == before
    assert len(json.loads(cli("games", "--json").out)) == 1


# ------------------------------------------------------------------ mutations of a valid export

VALID = json.loads((HOSTILE / "valid.json").read_text(encoding="utf-8"))
ODD_VALUES = [None, True, False, 0, -1, 7, 2**31, 2**53 + 1, 10**30, 1.5, -0.0, "", "x", "ann", "x" * 300,
              "\u202e", "\x1b[2J", "2026-13-45", [], [0], [[]], ["ann"], {}, {"a": 1}, {"typed": []}]


def paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [here]
    if isinstance(value, dict):
        for k, v in value.items():
            if k != "text":  # a changed ruleset text is refused by its hash; tested above
                out.extend(paths(v, (*here, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(paths(v, (*here, i)))
    return out


PATHS = paths(VALID)[1:]


def mutate(doc: Any, path: tuple[Any, ...], op: str, value: Any) -> None:
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if op == "delete":
        del parent[key]
    elif op == "replace":
        parent[key] = copy.deepcopy(value)
    elif op == "duplicate" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    elif op == "number" and isinstance(parent[key], (int, float)) and not isinstance(parent[key], bool):
        parent[key] = parent[key] + 1
    elif op == "text" and isinstance(parent[key], str):
        parent[key] = parent[key] + str(value)[:3] if value is not None else parent[key][:-1]
    else:
        parent[key] = copy.deepcopy(value)


def import_refused_or_sound(cli: Callable[..., Run], db: Path, path: Path, folder: Path) -> None:
    """Importing a mutated file is refused with nothing stored, or it imports and every command works."""
    before = dump(db)
    r = cli("import", str(path))
    assert r.code in (0, 2), r.err
    assert "internal error" not in r.err
    if r.code == 2:
        assert dump(db) == before
    else:
        commands_work(cli, folder)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(PATHS), st.sampled_from(["delete", "replace", "duplicate", "number", "text"]),
                          st.sampled_from(ODD_VALUES)), min_size=1, max_size=3),
       st.sampled_from(["", "", "", "truncate", "NaN"]), st.integers(0, 10**6))
def test_mutated_export_refused_or_sound(cli: Callable[..., Run], tmp_path_factory: pytest.TempPathFactory,
                                         monkeypatch: pytest.MonkeyPatch,
                                         changes: list[tuple[tuple[Any, ...], str, Any]], raw: str, cut: int) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    db = folder / "fuzz.db"
    monkeypatch.setenv("SCOREPAD_DB", str(db))
    assert cli("import", str(HOSTILE / "valid.toml")).code == 0
    doc = copy.deepcopy(VALID)
    for path, op, value in changes:
        try:
            mutate(doc, path, op, value)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed or retyped this place
    text = json.dumps(doc, ensure_ascii=False)
    if raw == "truncate":
        text = text[: cut % max(len(text), 1)]
    elif raw == "NaN":
        pos = text.find(": 0", cut % max(len(text), 1))
        text = text if pos < 0 else text[:pos] + ": NaN" + text[pos + 3:]
    path = folder / "mutated.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    import_refused_or_sound(cli, db, path, folder)


VALID_TOML = tomllib.loads((HOSTILE / "valid.toml").read_text(encoding="utf-8"))
TOML_PATHS = [p for p in paths(VALID_TOML)[1:] if p != ("ruleset_text",)]


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(TOML_PATHS), st.sampled_from(["delete", "replace", "duplicate", "number", "text"]),
                          st.sampled_from([v for v in ODD_VALUES if v is not None])), min_size=1, max_size=3))
def test_mutated_game_file_refused_or_sound(cli: Callable[..., Run], tmp_path_factory: pytest.TempPathFactory,
                                            monkeypatch: pytest.MonkeyPatch,
                                            changes: list[tuple[tuple[Any, ...], str, Any]]) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    db = folder / "fuzz.db"
    monkeypatch.setenv("SCOREPAD_DB", str(db))
    one_game(cli)
    doc = copy.deepcopy(VALID_TOML)
    for path, op, value in changes:
        try:
            mutate(doc, path, op, value)
        except (KeyError, IndexError, TypeError):
            continue
    path = folder / "mutated.toml"
    path.write_text(tomli_w.dumps(doc), encoding="utf-8")
    import_refused_or_sound(cli, db, path, folder)


def test_pin_repairs_texts_filed_under_each_others_hash(db: Path) -> None:
    """Two rows holding each other's text: pinning one puts both right, and each game keeps its text."""
    store = Store(db)
    texts = ["format = 1 # one", "format = 1 # two"]
    hashes = [text_hash(t) for t in texts]
    with store.write() as con:
        for h, t in zip(hashes, reversed(texts), strict=True):
            con.execute("INSERT INTO rulesets(hash, ruleset_id, source, text) VALUES(?, 'x', 'x.toml', ?)", (h, t))
        for k, h in enumerate(hashes):
            con.execute("INSERT INTO games(uid, ruleset_id, ruleset_hash, players, sides, options, created, state)"
                        " VALUES(?, 'x', ?, '[\"a\"]', '[{\"name\": \"a\", \"members\": [0]}]', '{}', '2026-01-01',"
                        " '{}')", (f"g{k}", h))
    assert len(store.misfiled_rulesets()) == 2
    with store.write() as con:
        assert store.pin_ruleset(con, "x", texts[0], "x.toml") == hashes[0]
    assert store.misfiled_rulesets() == []
    pinned = dict(store.db.execute("SELECT g.uid, r.text FROM games g JOIN rulesets r ON r.hash = g.ruleset_hash"))
    assert pinned == {"g0": texts[1], "g1": texts[0]}
    store.close()


def test_shape_paths_and_readers() -> None:
    from scorepad.app.shapes import problems, read_json
    from scorepad.shape import Int, ListOf, Record, Text

    shape = Record({"games": ListOf(Record({"n": Int(1, 9), "who": Text(name=True)}))})
    doc = read_json('{"games": [{"n": 3, "who": "ann"}, {"n": 10, "who": "\\u202eann", "odd key\\u001b": 1}]}')
    assert problems(doc, shape) == [
        'games[1]["odd key\\u001b"]: unknown key (expected n, who)',
        "games[1].n: must be between 1 and 9, not 10",
        "games[1].who: the name contains the control character U+202E",
    ]
    assert problems(read_json('{"games": [{"n": ' + "9" * 30 + "}]}"), shape) == [
        "games[0].n: a number with 30 digits; numbers here are below 9007199254740992"]
    assert problems(read_json('[1, -Infinity]'), shape)[0].startswith("[1]: -Infinity is not a number")
    with pytest.raises(RecursionError):
        read_json("[" * 100_000 + "]" * 100_000)
