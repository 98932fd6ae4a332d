"""House rules: derive, play, the starter ruleset, rules test, config, one game as TOML, rescore."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
import tomli_w

from tests.conftest import Run


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SCOREPAD_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("SCOREPAD_CONFIG", str(tmp_path / "home" / "config.toml"))
    return tmp_path / "home"


def scores(cli: Callable[..., Run]) -> list[object]:
    return [s["score"] for s in json.loads(cli("standings", "--json").out)["sides"]]


def test_derive_then_play_by_the_new_limit(cli: Callable[..., Run], home: Path) -> None:
    r = cli("rules", "derive", "skid", "skid-505", "--opt", "limit=505", "--alias", "скид 505")
    assert r.code == 0, r.err
    path = home / "rules" / "skid-505.toml"
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    assert data["base"] == "skid" and data["options"] == {"limit": {"default": 505}}
    # an editor finds the format's schema named on the first line, written beside the file, and the file fits it
    assert text.splitlines()[0] == "#:schema ./ruleset.schema.json"
    schema = json.loads((home / "rules" / "ruleset.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)
    assert cli("new", "скид 505", "a", "b", "c").code == 0
    # x3 (3 reshuffles): b holds Q♠ J = (50 + 20) x 3 = 210 -- past 125, but the limit is now 505
    assert cli("hand", "out=a", "reshuffles=3", "b.cards=QS JH", "c.cards=9S").code == 0
    state = json.loads(cli("standings", "--json").out)
    assert scores(cli) == [0, 210, 0] and state["sides"][1]["status"] == "playing"
    # x3 again: Q♠ J A = 85 x 3 = 255 -> 465
    assert cli("hand", "out=a", "reshuffles=4", "b.cards=QS JH AH", "c.cards=9S").code == 0
    assert scores(cli) == [0, 465, 0]
    # x1: J J = 40 -> exactly 505: burnt to 0
    assert cli("hand", "out=c", "b.cards=JH JD", "a.cards=6S").code == 0
    assert scores(cli) == [0, 0, 0]


def test_derive_refuses_bad_input_and_writes_nothing(cli: Callable[..., Run], home: Path) -> None:
    r = cli("rules", "derive", "skid", "skid-x", "--opt", "nosuch=1")
    assert r.code == 2 and "no option 'nosuch'" in r.err
    r = cli("rules", "derive", "skid", "skid-x", "--opt", "limit=300")
    assert r.code == 2 and "must be one of 125, 225, 505, 1005" in r.err
    r = cli("rules", "derive", "skid", "Bad Id", "--opt", "limit=505")
    assert r.code == 2
    assert not (home / "rules").exists() or not list((home / "rules").iterdir())
    assert cli("rules", "derive", "skid", "skid-x", "--opt", "limit=505").code == 0
    before = (home / "rules" / "skid-x.toml").read_bytes()
    r = cli("rules", "derive", "skid", "skid-x", "--opt", "limit=1005")
    assert r.code == 2 and "--force" in r.err
    assert (home / "rules" / "skid-x.toml").read_bytes() == before


def test_derive_refuses_to_write_where_a_later_rules_directory_hides_it(cli: Callable[..., Run], home: Path,
                                                                       tmp_path: Path) -> None:
    first, later = tmp_path / "first", tmp_path / "later"
    dirs = ("--rules-dir", str(first), "--rules-dir", str(later))
    assert cli("--rules-dir", str(later), "rules", "derive", "skid", "skid-house", "--opt", "limit=1005").code == 0
    # the first directory is written to, but the later one is read after it: its skid-house would be played
    r = cli(*dirs, "rules", "derive", "skid", "skid-house", "--opt", "limit=505")
    assert r.code == 2 and "Traceback" not in r.err
    assert f"{later / 'skid-house.toml'}, read after it, also has the id 'skid-house'" in r.err
    assert not (first / "skid-house.toml").exists()
    assert "1005" in cli(*dirs, "rules", "show", "skid-house").out
    r = cli(*dirs, "rules", "new", "skid-house")
    assert r.code == 2 and "would be hidden" in r.err and not (first / "skid-house.toml").exists()
    # a file of that id under a later name in the same directory hides it too
    (later / "skid-house.toml").rename(later / "zz.toml")
    r = cli("--rules-dir", str(later), "rules", "derive", "skid", "skid-house", "--opt", "limit=505")
    assert r.code == 2 and "zz.toml" in r.err
    # where the written file is the one read last, it is written and played
    (later / "zz.toml").unlink()
    assert cli(*dirs, "rules", "derive", "skid", "skid-house", "--opt", "limit=505").code == 0
    assert "limit = 505" in cli(*dirs, "rules", "show", "skid-house").out


def test_changed_base_warns_and_old_games_keep_their_rules(cli: Callable[..., Run], home: Path, tmp_path: Path) -> None:
    rules = tmp_path / "myrules"
    rules.mkdir()
    base = (Path(__file__).parents[2] / "rulesets" / "spades.toml").read_text(encoding="utf-8")
    base = base.replace('id = "spades"', 'id = "club-spades"').replace('aliases = ["potid", "pikid"]', "aliases = []")
    base = base.replace('names = { et = "Spades", ru = "Пики", uk = "Піки" }', "names = {}")
    (rules / "club-spades.toml").write_text(base, encoding="utf-8")
    assert cli("--rules-dir", str(rules), "rules", "derive", "club-spades", "club-300", "--opt", "target=300").code == 0
    derived = rules / "club-300.toml"
    assert cli("--rules-dir", str(rules), "rules", "check", str(derived)).code == 0
    assert cli("--rules-dir", str(rules), "new", "club-300", "a", "b", "c", "d").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    # the club changes its base: bags now cost 200
    (rules / "club-spades.toml").write_text(base.replace("[options.bag_penalty]\ndefault = 100",
                                                          "[options.bag_penalty]\ndefault = 200"), encoding="utf-8")
    r = cli("--rules-dir", str(rules), "rules", "check", str(derived))
    assert r.code == 0 and "has changed since this ruleset was derived" in r.err
    assert scores(cli) == [71, -60]
    assert cli("verify").code == 0


def test_toml_written_by_scorepad_round_trips(cli: Callable[..., Run], home: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    assert cli("rules", "derive", "spades", "spades-300", "--opt", "target=300", "--name", "Club spades").code == 0
    schema_line, text = (home / "rules" / "spades-300.toml").read_text(encoding="utf-8").split("\n", 1)
    assert schema_line.startswith("#:schema ") and tomli_w.dumps(tomllib.loads(text)) == text
    assert cli("config", "set", "skid.limit", "505").code == 0
    assert cli("config", "set", "alias.a", "ann").code == 0
    conf = (home / "config.toml").read_text(encoding="utf-8")
    assert tomli_w.dumps(tomllib.loads(conf)) == conf
    assert cli("config", "get", "skid.limit").out.strip() == "505"
    # one game as TOML: export, import into a fresh database, export again: the same bytes
    cli("new", "spades", "a", "bob", "cat", "dan")
    cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2")
    cli("hand", "bid=3,3,3,3", "tricks=4,3,3,3")
    first = tmp_path / "g1.toml"
    assert cli("export", "--game", "1", "--format", "toml", "--output", str(first)).code == 0
    assert tomllib.loads(first.read_text(encoding="utf-8"))["players"][0] == "ann"
    monkeypatch.setenv("SCOREPAD_DB", str(tmp_path / "fresh.db"))
    assert cli("import", str(first)).code == 0
    assert "1 already present" in cli("import", str(first)).out
    second = tmp_path / "g2.toml"
    assert cli("export", "--game", "1", "--format", "toml", "--output", str(second)).code == 0
    assert first.read_bytes() == second.read_bytes()
    assert scores(cli) if False else True
    data = json.loads(cli("standings", "--game", "1", "--json").out)
    assert [s["score"] for s in data["sides"]] == [132, 0]


def test_config_refuses_unknown_keys_and_values(cli: Callable[..., Run], home: Path) -> None:
    assert cli("config", "set", "colour", "red").code == 2
    assert cli("config", "set", "skid.limit", "300").code == 2
    assert cli("config", "set", "skid.nosuch", "3").code == 2
    assert not (home / "config.toml").exists()
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text('colour = "red"\n', encoding="utf-8")
    r = cli("config", "list")
    assert r.code == 2 and "config.toml: colour: unknown key (expected db, " in r.err


def test_starter_ruleset_checks_and_passes_its_scenario(cli: Callable[..., Run], home: Path) -> None:
    assert cli("rules", "new", "my-game").code == 0
    path = home / "rules" / "my-game.toml"
    text = path.read_text(encoding="utf-8")
    for section in ("[game]", "[players]", "[cards]", "[options.", "[fields.", "[tables]", "[let]", "[player]",
                    "[side]", "[[check]]", "[[score]]", "[state.side]", "[state.game]", "[[rule]]", "[end]",
                    "[display", "[variants."):
        assert section in text, section
    for kind in ("int", "number", "bool", "word", "player", "side", "cards", "pattern"):
        assert f'type = "{kind}"' in text, kind
    assert cli("rules", "check", str(path)).code == 0
    r = cli("rules", "test", str(path))
    assert r.code == 0 and "1 of 1 scenarios pass" in r.out
    assert cli("rules", "new", "my-game").code == 2


def test_rules_test_fails_on_a_wrong_total(cli: Callable[..., Run], tmp_path: Path) -> None:
    scenario = tmp_path / "wrong.toml"
    scenario.write_text('ruleset = "spades"\nplayers = ["a", "b", "c", "d"]\n[[hand]]\n'
                        'input = ["bid=4,3,3,3", "tricks=5,3,3,2"]\ntotals = [70, -60]\n', encoding="utf-8")
    r = cli("rules", "test", "spades", str(scenario))
    assert r.code == 1
    assert "hand 1: totals: expected [70, -60], got [71, -60]" in r.out
    assert "contract +70, bags +1" in r.out


def test_rescore_shows_differences_then_applies(cli: Callable[..., Run], tmp_path: Path) -> None:
    cli("new", "spades", "a", "b", "c", "d")
    cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2")
    mine = tmp_path / "spades.toml"
    text = (Path(__file__).parents[2] / "rulesets" / "spades.toml").read_text(encoding="utf-8")
    mine.write_text(text.replace('points = "new_bags"', 'points = "new_bags * 5"'), encoding="utf-8")
    r = cli("rescore", "1", "--ruleset", str(mine))
    assert r.code == 0 and "hand 1: a+c 71 -> 75" in r.out and "Not applied" in r.out
    assert scores(cli) == [71, -60]
    assert cli("rescore", "1", "--ruleset", str(mine), "--yes").code == 0
    assert scores(cli) == [75, -60]
    assert cli("verify").code == 0


def test_preferred_language_names_the_games(cli: Callable[..., Run], home: Path) -> None:
    assert cli("config", "set", "language", "et").code == 0
    out = cli("rules", "list").out
    line = next(ln for ln in out.splitlines() if ln.startswith("hearts "))
    assert "Ärtuandmine" in line and "Hearts" in out
    # JSON stays language-neutral: the same in every language
    games = {d["id"]: d for d in json.loads(cli("rules", "list", "--json").out)}
    assert games["hearts"]["name"] == "Hearts"
    assert cli("config", "set", "language", "xx").code == 2


def test_derivation_loops_by_id_are_refused(cli: Callable[..., Run], tmp_path: Path) -> None:
    rules = tmp_path / "loop"
    rules.mkdir()
    (rules / "loop-a.toml").write_text('format = 1\nbase = "loop-b"\n[game]\nid = "loop-a"\nname = "A"\n',
                                       encoding="utf-8")
    (rules / "loop-b.toml").write_text('format = 1\nbase = "loop-a"\n[game]\nid = "loop-b"\nname = "B"\n',
                                       encoding="utf-8")
    r = cli("--rules-dir", str(rules), "rules", "check", str(rules / "loop-a.toml"))
    assert r.code == 2 and "derived more than 5 levels deep" in r.err
    assert cli("--rules-dir", str(rules), "new", "loop-a", "x", "y").code == 2


def test_a_changed_or_deleted_ruleset_file_never_changes_played_games(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "spades.toml"
    original = (Path(__file__).parents[2] / "rulesets" / "spades.toml").read_text(encoding="utf-8")
    path.write_text(original, encoding="utf-8")
    assert cli("new", str(path), "a", "b", "c", "d").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    path.write_text(original.replace('points = "new_bags"', 'points = "new_bags * 50"'), encoding="utf-8")
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0      # still the pinned rules: +71 again
    assert scores(cli) == [142, -120]
    path.unlink()
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    assert scores(cli) == [213, -180]
    assert cli("edit", "1", "a.tricks=4", "b.tricks=4").code == 0     # 7 bid, 7 taken: 70; 6 bid, 6 taken: 60
    assert scores(cli) == [70 + 71 + 71, 60 - 60 - 60]
    assert cli("verify").code == 0


def test_a_game_ended_by_finish_stays_ended_after_edit_and_rescore(cli: Callable[..., Run], tmp_path: Path) -> None:
    """Hearts, two hands each shot by one player (the others 26 each): 26 / 26 / 52 / 52, ended with
    `finish` (ann and bob drawn, lowest). An edit of hand 2 (12 hearts and the queen to ann, 1 heart
    to bob: 25 and 1) gives 51 / 1 / 26 / 26 and works the result out again: bob wins, the game stays
    ended; a rescore keeps it ended too: neither reopens it."""
    cli("new", "hearts", "ann", "bob", "cat", "dan")
    assert cli("hand", "hearts=0,13,0,0", "queen=bob").code == 0     # bob shoots: 26 0 26 26
    assert cli("hand", "hearts=13,0,0,0", "queen=ann").code == 0     # ann shoots: 0 26 26 26
    assert cli("finish").code == 0
    assert cli("edit", "2", "hearts=12,1,0,0", "queen=ann").code == 0
    final = json.loads(cli("standings", "--json").out)
    assert [s["score"] for s in final["sides"]] == [51, 1, 26, 26]
    assert final["finished"] is True and final["winner"] == ["bob"]
    mine = tmp_path / "hearts.toml"
    mine.write_text((Path(__file__).parents[2] / "rulesets" / "hearts.toml").read_text(encoding="utf-8")
                    + "\n# the same rules\n", encoding="utf-8")
    assert cli("rescore", "1", "--ruleset", str(mine), "--yes").code == 0
    again = json.loads(cli("standings", "--json").out)
    assert again["finished"] is True and again["sides"] == final["sides"] and again["winner"] == final["winner"]
    assert cli("verify").code == 0
