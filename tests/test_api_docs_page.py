"""Accessibility: axe-core on every page, the API's Swagger UI page (/api/docs/) included.

Swagger UI draws the page from the schema after it loads, so axe-core runs once the operations are drawn
and one of them is opened (its parameters and responses shown), not on the empty shell.
"""
from __future__ import annotations

import os

import pytest

from tests.test_accessibility import AXE, IMPACTS, _axe
from tests.test_browser import CHROMIUM, browser  # noqa: F401  (the chromium fixture and its skip rule)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed"),
    pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (npm ci)"),
]


def test_the_api_docs_page_has_no_serious_axe_violation(live_server, browser):  # noqa: F811
    page = browser.new_context().new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server.url}/api/docs/", wait_until="load")
    page.wait_for_selector(".opblock", timeout=30_000)
    assert page.locator("main").count() == 1 and page.locator("h1").count() >= 1
    page.locator(".opblock-summary").first.click()
    page.wait_for_selector(".opblock-body", timeout=10_000)
    failures = [f"{v['impact']} {v['id']} ({v['help']}) at {v['nodes']}" for v in _axe(page) if v["impact"] in IMPACTS]
    assert not failures, "\n".join(failures)
    assert not [e for e in errors if "Content Security Policy" in e], errors
