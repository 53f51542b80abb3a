"""Accessibility: axe-core on every page, zero critical or serious violations.

On the demo county (`powts demo`), each role signs in through the sign-in page and visits every page
its menu and its main records reach: every GET page of the URL conf (a page with a URL parameter gets a
sample record of the demo county), the menu's entries, its home, a filtered and sorted list, and the
403/404 pages it meets. axe-core (npm, node_modules/axe-core) is injected into each page as the browser
shows it; any critical or serious violation fails the test, named by role, page and rule.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.test_browser import CHROMIUM, browser, sign_in  # noqa: F401  (the chromium fixture and its skip rule)

AXE = Path(settings.ASSETS_DIR) / "axe-core" / "axe.min.js"
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed"),
    pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (npm ci)"),
]
PASSWORD = "powts-demo-county"
ROLES = {"staff": "county_staff", "admin": "county_admin", "auditor": "state_auditor", "plumber": "plumber",
         "pumper": "pumper", "soiltester": "soil_tester", "owner": "owner", "dsps": "dsps", "dnr": "dnr"}
# Not pages of ours, or not HTML: Django's admin, the API (JSON) but its Swagger UI page (api/docs/; drawn
# after load, so tests/test_api_docs_page.py also checks it drawn), files (.ics, .pdf, .csv), sign-out, an
# upload's token, htmx fragments (find-system, find-parcel).
SKIP = re.compile(r"^(admin/|api/(?!docs/)|accounts/logout/|healthz)|\.(ics|pdf|csv)$|<str:(token|secret)>|find-(system|parcel)/")
IMPACTS = {"critical", "serious"}


def get_pages() -> list[tuple[str, tuple[str, ...]]]:
    """(route, parameter names) of every named page in the URL conf that may answer a GET."""
    found = []

    def walk(patterns, prefix):
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                route = prefix + str(p.pattern)
                if not SKIP.search(route):
                    found.append((route, tuple(sorted(p.pattern.regex.groupindex))))

    walk(get_resolver().url_patterns, "")
    return found


@pytest.fixture
def demo(transactional_db):
    """The demo county, and a sign-in for each role the demo does not make."""
    from django.core.management import call_command

    from powts.accounts.services import user_create
    from powts.inventory.models import System
    from powts.jurisdictions.models import Jurisdiction
    from powts.permits.models import Permit

    call_command("demo", jurisdiction="dane", systems=60, stdout=open(os.devnull, "w"))
    dane = Jurisdiction.objects.get(slug="dane")
    from powts.accounts.models import User

    for username, role in (("admin", "county_admin"), ("dsps", "dsps"), ("dnr", "dnr")):
        if User.objects.filter(username=username).exists():  # the demo makes DSPS and DNR sign-ins itself
            continue
        user_create(username=username, password=PASSWORD, role=role, jurisdiction=dane if role == "county_admin" else None)
    owner_system = System.objects.filter(parcel__owner__user__username="owner").first() or System.objects.first()
    return {
        "pk": {"staff": System.objects.order_by("id").first().pk, "owner": owner_system.pk},
        "permit": Permit.objects.order_by("id").first().pk,
    }


def _path(route: str, params: tuple[str, ...], samples: dict) -> str | None:
    path = "/" + route
    for name in params:
        if name not in samples:
            return None
        path = re.sub(rf"<(?:\w+:)?{name}>", str(samples[name]), path)
    return path


def _axe(page) -> list[dict]:
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(AXE.read_text())  # evaluated by the browser's debugger protocol: the page's CSP stays on
    return page.evaluate("""async () => {
        const result = await axe.run(document, {resultTypes: ["violations"]});
        return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}));
    }""")


def _check(page, url: str, seen: set, failures: list, who: str, *, again: bool = False) -> None:
    """Draws `url` and runs axe-core on it, once per address reached (a role's home `again`, for its menu).

    Asked first without drawing: a POST-only address (405) has no page; the 403 and 404 pages are one
    template each, checked once; an address another role already reached shows the same page but the menu.
    """
    answer = page.context.request.get(url, max_redirects=0)
    status = answer.status
    location = answer.headers.get("location", "")
    if status == 405 or (status in (403, 404) and status in seen):
        return
    if not again and (url in seen or (status in (301, 302) and (location in seen or location.startswith("/accounts/login/")))):
        return
    response = page.goto(url, wait_until="load")
    final = page.url.split("#")[0]
    if (final in seen and not again) or not (response and "text/html" in response.headers.get("content-type", "")):
        return
    seen.update({url, final, location} | ({response.status} if response.status in (403, 404) else set()))
    for v in _axe(page):
        if v["impact"] in IMPACTS:
            failures.append(f"{who} {final.split('//', 1)[-1].split('/', 1)[-1] or '/'} [{response.status}]: "
                            f"{v['impact']} {v['id']} ({v['help']}) at {v['nodes']}")


def test_every_page_of_every_role_has_no_serious_axe_violation(live_server, demo, browser):  # noqa: F811
    base = live_server.url
    failures: list[str] = []
    reached: dict[str, int] = {}
    pages = get_pages()
    context = browser.new_context()
    anonymous = context.new_page()
    seen: set = set()  # across roles: each page is drawn and checked once (each role's home again, for its menu)
    for url in (reverse("login"), reverse("permits:complaint-new"), "/no-such-page/"):
        _check(anonymous, base + url, seen, failures, "anonymous")
    context.close()
    for username, role in ROLES.items():
        context = browser.new_context()
        page = sign_in(context.new_page(), base, username, password=PASSWORD)
        _check(page, base + "/", seen, failures, username, again=True)
        before = len(seen)
        samples = {"pk": demo["pk"]["owner" if role == "owner" else "staff"]}
        urls = [a for a in page.eval_on_selector_all("nav.usa-nav a.usa-nav-link", "els => els.map(e => e.getAttribute('href'))")]
        for route, params in pages:
            path = _path(route, params, samples)
            if path:
                urls.append(path)
        urls += [f"/permits/{demo['permit']}/", "/inventory/?q=oak&sort=-installed_on", "/permits/?status=issued",
                 "/maintenance/reports/?late=true", "/no-such-page/"]
        for url in urls:
            _check(page, base + url, seen, failures, username)
        reached[username] = len(seen) - before
        context.close()
    assert reached["staff"] >= 8, reached  # the test reached the pages, not only sign-in and 403s
    assert not failures, "axe-core found critical or serious violations:\n" + "\n".join(failures)
