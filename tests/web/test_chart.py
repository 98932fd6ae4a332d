"""The game's chart on the live page of `scorepad serve`: the chart `sheet --format html` draws (each
side's total after each hand, the ruleset's thresholds dashed, events ringed), on the page and in every
update the event stream sends, with no style attribute the page's Content-Security-Policy would block."""

from __future__ import annotations

import re
from collections.abc import Callable

from tests.conftest import Run
from tests.web.serving import Stream, get, serving

THRESHOLD = re.compile(r'<g class="threshold" data-value="500(?:\.0)?"><title>500</title>')


def test_the_chart_is_on_the_page_with_the_target_of_spades(cli: Callable[..., Run]) -> None:
    assert cli("new", "spades", "ann", "bob", "cat", "dan").code == 0
    assert cli("hand", "bid=4,3,3,3", "tricks=5,3,3,2").code == 0
    html = cli("sheet", "--format", "html").out
    drawn = re.search(r"<svg viewBox.*?</svg>", html, re.S)
    assert drawn and THRESHOLD.search(drawn.group(0))
    with serving() as served:
        status, _headers, page = get(served.url)
        assert status == 200
        section = page[page.index('<div class="story">'):]
        assert THRESHOLD.search(section), section[:2000]
        assert "Running totals" in section and 'class="series" data-names="ann+cat"' in section
        chart = re.search(r'<svg viewBox.*?</svg>', section, re.S)
        assert chart and chart.group(0) == drawn.group(0).replace(' style="max-width:960px"', "")
        assert " style=" not in page   # the CSP allows no style attribute: the page's style sheet sizes it
        stream = Stream(served.url + "events")
        try:
            stream.next()
            assert cli("hand", "bid=2,2,2,2", "tricks=1,1,1,10").code == 0   # bags: a penalty ringed
            _at, name, live = stream.next()
            assert name == "page" and THRESHOLD.search(live)
            assert live.count('<circle cx=') > section.count('<circle cx=')   # a point more on each line
        finally:
            stream.close()
