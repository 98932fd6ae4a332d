"""`scorepad sheet --format csv|md|html [--output FILE]`: a Spades and a Skid game, every number worked
out by hand from the hands typed.

Spades (ann+cat against bob+dan, target 200):
  hand 1: bids nil,3,3,3, tricks 0,5,4,4. ann's nil made +100; cat bid 3 took 4: 30 + 1 bag = 131.
          bob+dan bid 6 took 9: 60 + 3 bags = 63.                        totals 131, 63
  hand 2: bids 4,3,3,3, tricks 5,3,3,2. ann+cat bid 7 took 8: 70 + 1 = 71; bob+dan bid 6 took 5: -60.
          totals 202, 3: past the target, ann+cat win.
Skid (ann, bob, cat; limit 125; card values 10 10, Q 10, K 10, A 15, J 20, QS 50):
  hand 1: ann out; bob QS JH = 70, cat 10H = 10.                           totals 0, 70, 10
  hand 2: cat out; ann A = 15, bob JD JC = 40.                             totals 15, 110, 10
  hand 3: ann out; bob AS = 15: exactly 125, burnt to 0 (-110); cat KH 10. totals 15, 0, 20
  hand 4: bob out; ann 10H = 10; cat QS JC JS AH AD = 120: 140, out.       totals 25, 0, 140
  hand 5: ann out; bob QS JH JD JC AH AD = 140: out; ann wins.             totals 25, 140, 140
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

from tests.conftest import Run

SPADES_CSV = (
    "hand,ann+cat bid/tricks,bob+dan bid/tricks,ann+cat,bob+dan,ann+cat total,bob+dan total,notes\r\n"
    "1,0+3/0+4,3+3/5+4,131,63,131,63,\r\n"
    "2,4+3/5+3,3+3/3+2,71,-60,202,3,game over: ann+cat wins\r\n")

SKID_CSV = (
    "hand,ann,bob,cat,ann total,bob total,cat total,notes\r\n"
    "1,0,70,10,0,70,10,\r\n"
    "2,15,40,0,15,110,10,\r\n"
    "3,0,-110,10,15,0,20,bob lands exactly on 125: burnt to 0\r\n"
    "4,10,0,120,25,0,140,cat goes past 125 with 140 and is out\r\n"
    "5,0,140,0,25,140,140,bob goes past 125 with 140 and is out; game over: ann wins\r\n")


def spades(cli: Callable[..., Run]) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan", "--opt", "target=200").code == 0
    assert cli("hand", "bid=nil,3,3,3", "tricks=0,5,4,4").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0


def skid(cli: Callable[..., Run]) -> None:
    assert cli("new", "skid", "ann", "bob", "cat").code == 0
    for hand in (["out=ann", "bob.cards=QS JH", "cat.cards=10H"], ["out=cat", "ann.cards=A", "bob.cards=JD JC"],
                 ["out=ann", "bob.cards=AS", "cat.cards=KH"], ["out=bob", "ann.cards=10H", "cat.cards=QS JC JS AH AD"],
                 ["out=ann", "bob.cards=QS JH JD JC AH AD"]):
        r = cli("hand", *hand)
        assert r.code == 0, r.err


class Page(HTMLParser):
    """What a reader of the page gets: the table's cells row by row, the chart's threshold lines, its
    rings (with their tooltips and where they sit) and each line's points."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.thresholds: list[str] = []
        self.rings: list[tuple[str, str, str]] = []
        self.lines: dict[str, list[tuple[str, str]]] = {}
        self.stack: list[str] = []
        self.cell: list[str] | None = None
        self.title: list[str] | None = None
        self.series: str | None = None
        self.lang = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang") or ""
        if tag == "tr":
            self.rows.append([])
        if tag in ("td", "th") and self.rows:
            self.cell = []
        if tag == "g":
            self.stack.append(a.get("class") or "")
            if a.get("class") == "threshold":
                self.thresholds.append(a.get("data-value") or "")
            if a.get("class") == "series":
                self.series = a.get("data-names")
        if tag == "title" and self.stack and self.stack[-1] == "event":
            self.title = []
        if tag == "circle" and self.stack and self.stack[-1] == "event":
            self.rings.append(("", a.get("cx") or "", a.get("cy") or ""))
        if tag == "polyline" and self.series:
            self.lines[self.series] = [tuple(p.split(",")) for p in (a.get("points") or "").split()]  # type: ignore[misc]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append("".join(self.cell))
            self.cell = None
        if tag == "title" and self.title is not None:
            self.rings.append(("".join(self.title), "", ""))
            self.title = None
        if tag == "g" and self.stack:
            self.stack.pop()
            self.series = None

    def handle_data(self, data: str) -> None:
        for part in (self.cell, self.title):
            if part is not None:
                part.append(data)

    def events(self) -> list[tuple[str, tuple[str, str]]]:
        """Each ring's tooltip with the point it circles."""
        titles = [t for t, _x, _y in self.rings if t]
        points = [(x, y) for t, x, y in self.rings if not t]
        return list(zip(titles, points, strict=True))


def page(text: str) -> Page:
    p = Page()
    p.feed(text)
    return p


def test_spades_sheet_as_csv_markdown_and_html(cli: Callable[..., Run], tmp_path: Path) -> None:
    spades(cli)
    csv = cli("sheet", "--format", "csv")
    assert csv.code == 0 and csv.out == SPADES_CSV, repr(csv.out)
    md = cli("sheet", "--format", "md").out
    assert md.splitlines() == [
        "| hand | ann+cat bid/tricks | bob+dan bid/tricks | ann+cat | bob+dan | ann+cat total | bob+dan total | notes |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
        "| 1 | 0+3/0+4 | 3+3/5+4 | +131 | +63 | 131 | 63 |  |",
        "| 2 | 4+3/5+3 | 3+3/3+2 | +71 | -60 | 202 | 3 | game over: ann+cat wins |",
        "", "Totals: ann+cat 202, bob+dan 3", "", "Winner: ann+cat"]
    html = cli("sheet", "--format", "html").out
    p = page(html)
    assert p.rows[1:] == [["1", "0+3/0+4", "3+3/5+4", "+131", "+63", "131", "63", ""],
                          ["2", "4+3/5+3", "3+3/3+2", "+71", "-60", "202", "3", "game over: ann+cat wins"]]
    assert [float(v) for v in p.thresholds] == [200]          # the target, as --opt set it
    # the win is ringed where ann+cat's line ends (after hand 2)
    assert p.events() == [("hand 2: game over: ann+cat wins", p.lines["ann+cat"][-1])]
    assert "<strong>Winner: ann+cat</strong>" in html and "<script" not in html
    # --output writes the same text to a file, atomically, and says so
    target = tmp_path / "spades.html"
    r = cli("sheet", "--format", "html", "--output", str(target))
    assert r.code == 0 and r.out.strip() == f"Wrote {target}." and target.read_text(encoding="utf-8") == html
    (tmp_path / "spades.csv").write_text("old", encoding="utf-8")
    assert cli("sheet", "--format", "csv", "--output", str(tmp_path / "spades.csv")).code == 0
    assert (tmp_path / "spades.csv").read_bytes().decode() == SPADES_CSV
    # the JSON is still there, with the thresholds and marks the page draws
    data = json.loads(cli("sheet", "--json").out)
    assert data["thresholds"] == [200] and data["marks"] == [{"hand": 2, "side": 0, "text": "game over: ann+cat wins"}]


def test_skid_sheet_as_csv_markdown_and_html(cli: Callable[..., Run]) -> None:
    skid(cli)
    assert cli("sheet", "--format", "csv").out == SKID_CSV
    md = cli("sheet", "--format", "md").out.splitlines()
    assert md[2] == "| 1 | 0 | +70 | +10 | 0 | 70 | 10 |  |"
    assert md[4] == "| 3 | 0 | -110 | +10 | 15 | 0 | 20 | bob lands exactly on 125: burnt to 0 |"
    assert md[-1] == "Winner: ann" and "Totals: ann 25, bob 140, cat 140" in md
    p = page(cli("sheet", "--format", "html").out)
    assert [r[0] for r in p.rows[1:]] == ["1", "2", "3", "4", "5"]
    assert p.rows[4][1:7] == ["+10", "0", "+120", "25", "0", "140"]
    assert [float(v) for v in p.thresholds] == [125]          # the limit option
    # the burn, each bust and the win, each ringed on the line of the player it happened to
    events = p.events()
    assert [t for t, _pt in events] == ["hand 3: bob lands exactly on 125: burnt to 0",
                                        "hand 4: cat goes past 125 with 140 and is out",
                                        "hand 5: bob goes past 125 with 140 and is out", "hand 5: game over: ann wins"]
    assert [pt for _t, pt in events] == [p.lines["bob"][3], p.lines["cat"][4], p.lines["bob"][5], p.lines["ann"][5]]
    limit225 = cli("new", "skid", "ann", "bob", "--opt", "limit=225")
    assert limit225.code == 0 and cli("hand", "out=ann", "bob.cards=QS").code == 0
    assert [float(v) for v in page(cli("sheet", "--format", "html").out).thresholds] == [225]


def test_the_page_in_estonian(cli: Callable[..., Run]) -> None:
    spades(cli)
    p = page(cli("--lang", "et", "sheet", "--format", "html").out)
    assert p.lang == "et" and p.rows[0][0] == "jagamine" and p.rows[0][-1] == "märkused"
    assert cli("--lang", "et", "sheet", "--format", "md").out.startswith("| jagamine |")


def test_sheet_formats_refused_in_plain_words(cli: Callable[..., Run], tmp_path: Path) -> None:
    spades(cli)
    out = tmp_path / "out"
    out.mkdir()
    for args, words in ((["--format", "xml"], "unknown format 'xml'"),
                        (["--json", "--format", "csv"], "--json and --format csv"),
                        (["--chart", "--format", "html"], "--chart draws on the terminal"),
                        (["--format", "html", "--output", str(out)], "is a directory"),
                        (["--output", str(out / "no" / "such.csv")], "does not exist")):
        r = cli("sheet", *args)
        assert r.code == 2 and words in r.err and "Traceback" not in r.err, (args, r.err)
    assert not list(out.iterdir())
    assert re.search(r"\bWinner: ann\+cat\b", cli("sheet").out)
