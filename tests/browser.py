"""Real Chromium for the page tests (Debian's package, driven by Playwright) and axe-core's audit of a page.

One place for what every browser test needs: the browser found on PATH, the flags it is started with
here (no sandbox as root, no network of its own), a fixture that skips (or fails, with
SCOREPAD_REQUIRE_BROWSER=1 as in CI) when something is missing, and the audit's serious findings."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

# headless as root, and none of Chromium's own connections (this machine's network refuses them)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


ARTIFACTS = Path(os.environ.get("SCOREPAD_ARTIFACTS", Path(__file__).parents[1] / "test-artifacts"))
"""Where the page tests leave their screenshots (CI keeps the folder)."""


@contextmanager
def launched(chromium: str) -> Iterator[Any]:
    """Chromium started for one test (and the screenshots' folder made); closed however the test ends."""
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture
def chromium() -> str:
    """The browser's path, when Chromium, Playwright and axe-playwright-python are all here."""
    exe = browser()
    try:
        import axe_playwright_python  # noqa: F401
        import playwright.sync_api  # noqa: F401
    except ImportError:
        exe = None
    if exe is None:
        if os.environ.get("SCOREPAD_REQUIRE_BROWSER") == "1":
            pytest.fail("the browser test needs chromium, playwright and axe-playwright-python (the CI installs them)")
        pytest.skip("chromium, playwright or axe-playwright-python is not installed")
    return exe


def serious_findings(page: Any) -> list[str]:
    """axe-core's findings of serious or critical impact on the page as it is shown, with the first element."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])}): {v['nodes'][0]['html'][:120]}"
            for v in found if v.get("impact") in ("serious", "critical")]
