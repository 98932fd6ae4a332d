"""Days and times as the people at the table see them: the machine's time zone, not UTC.

What is stored stays UTC (the store's `now()`); `season --since/--until`, the `games` "started" column,
`player`, the HTML report and `log` show (and filter by) the local day and time, and the JSON outputs
keep the stored UTC timestamps. Each command runs in a process of its own with TZ set, so the test
does not depend on the machine's zone; the zones are POSIX TZ strings, which need no time zone database.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Run

TALLINN = "EET-2EEST,M3.5.0/3,M10.5.0/4"   # Europe/Tallinn: UTC+2 in winter, UTC+3 in summer
PAGO_PAGO = "SST11"                          # Pacific/Pago_Pago: UTC-11, no summer time
UTC = "UTC0"


def in_zone(tz: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`scorepad ARGS` in a process of its own whose time zone is `tz` (the database: SCOREPAD_DB)."""
    env = {**os.environ, "TZ": tz, "SCOREPAD_LANG": "en"}
    return subprocess.run([sys.executable, "-m", "scorepad", *args], env=env, capture_output=True, text=True,
                          timeout=60, check=False)


def started_at(db: Path, game: int, moment: str) -> None:
    """Make a game one started at `moment` (UTC, as the store writes it), its `new` audit entry too."""
    con = sqlite3.connect(db)
    try:
        with con:
            con.execute("UPDATE games SET created = ? WHERE id = ?", (moment, game))
            con.execute("UPDATE audit SET at = ? WHERE game_id = ? AND action = 'new'", (moment, game))
    finally:
        con.close()


def new_years_eve(cli: Callable[..., Run], db: Path) -> None:
    """Two Hearts games of an Estonian club on New Year's Eve: one started at 23:30 local time (21:30
    UTC on 31 December), one at 00:30 local time on 1 January (22:30 UTC on 31 December)."""
    cli("season", "use", "club")
    for game, moment in ((1, "2026-12-31T21:30:00+00:00"), (2, "2026-12-31T22:30:00+00:00")):
        assert cli("new", "hearts", "ann", "bob", "cat", "dan", "-q").code == 0
        assert cli("hand", "hearts=13,0,0,0", "queen=ann").code == 0
        started_at(db, game, moment)


def games_of(run: subprocess.CompletedProcess[str]) -> int:
    assert run.returncode == 0, run.stderr
    return int(json.loads(run.stdout)["games"])


def test_since_and_until_compare_the_local_day(cli: Callable[..., Run], db: Path) -> None:
    new_years_eve(cli, db)
    # in Tallinn the 00:30 game is of 1 January, the 23:30 one of 31 December
    assert games_of(in_zone(TALLINN, "season", "--since", "2027-01-01", "--format", "json", "--include-unfinished")) == 1
    assert games_of(in_zone(TALLINN, "season", "--until", "2026-12-31", "--format", "json", "--include-unfinished")) == 1
    assert games_of(in_zone(TALLINN, "season", "--since", "2026-12-31", "--until", "2026-12-31",
                            "--format", "json", "--include-unfinished")) == 1
    # the same games on a machine that keeps UTC: both of 31 December
    assert games_of(in_zone(UTC, "season", "--since", "2027-01-01", "--format", "json", "--include-unfinished")) == 0
    assert games_of(in_zone(UTC, "season", "--until", "2026-12-31", "--format", "json", "--include-unfinished")) == 2


def test_games_player_and_report_show_the_local_day(cli: Callable[..., Run], db: Path) -> None:
    new_years_eve(cli, db)
    lines = in_zone(TALLINN, "games").stdout.splitlines()
    started = {line.split()[0].lstrip("*"): line.split()[-1] for line in lines[2:]}
    assert started == {"1": "2026-12-31", "2": "2027-01-01"}
    listed = json.loads(in_zone(TALLINN, "games", "--json").stdout)   # JSON: the stored UTC timestamps
    assert [g["created"] for g in listed] == ["2026-12-31T21:30:00+00:00", "2026-12-31T22:30:00+00:00"]

    history = json.loads(in_zone(TALLINN, "player", "ann", "--json").stdout)
    assert [(r["game"], r["date"]) for r in history] == [(1, "2026-12-31"), (2, "2027-01-01")]
    text = in_zone(TALLINN, "player", "ann").stdout
    assert "2027-01-01" in text and text.count("2026-12-31") == 1

    page = in_zone(TALLINN, "season", "--format", "html", "--include-unfinished").stdout
    assert "Game 1: Hearts, 2026-12-31" in page and "Game 2: Hearts, 2027-01-01" in page
    assert "Game 2: Hearts, 2026-12-31" not in page
    utc_page = in_zone(UTC, "season", "--format", "html", "--include-unfinished").stdout
    assert "Game 2: Hearts, 2026-12-31" in utc_page


def test_a_game_started_in_the_afternoon_in_pago_pago_is_of_that_day(cli: Callable[..., Run], db: Path) -> None:
    """The tester's case: local 2026-12-01 16:33 in Pago Pago (UTC-11) is 2026-12-02 03:33 UTC."""
    assert cli("new", "hearts", "a", "b", "c", "d", "-q").code == 0
    started_at(db, 1, "2026-12-02T03:33:00+00:00")
    row = in_zone(PAGO_PAGO, "games").stdout.splitlines()[2]
    assert row.split()[-1] == "2026-12-01"
    assert in_zone(UTC, "games").stdout.splitlines()[2].split()[-1] == "2026-12-02"


def test_log_shows_the_local_time_and_its_json_the_stored_utc(cli: Callable[..., Run], db: Path) -> None:
    new_years_eve(cli, db)
    shown = in_zone(TALLINN, "log", "--game", "2").stdout.splitlines()
    assert shown[0].startswith("2027-01-01 00:30:00  new"), shown    # 22:30 UTC + 2 hours
    summer = "2026-07-01T12:00:00+00:00"                             # Tallinn in summer: UTC+3
    started_at(db, 2, summer)
    assert in_zone(TALLINN, "log", "--game", "2").stdout.startswith("2026-07-01 15:00:00  new")
    assert in_zone(PAGO_PAGO, "log", "--game", "2").stdout.startswith("2026-07-01 01:00:00  new")
    entries = json.loads(in_zone(TALLINN, "log", "--game", "2", "--json").stdout)
    assert entries[0]["at"] == summer
