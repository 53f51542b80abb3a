"""A Content-Security-Policy on every page, with no inline script or style for it to
allow: the pages' own assets only."""
import re
from html.parser import HTMLParser

import pytest

PUBLIC_PAGES = ["/accounts/login/", "/admin/login/", "/permits/complaints/new/", "/api/open311/v2/requests.json", "/healthz"]
STAFF_PAGES = ["/inventory/", "{system}", "/inventory/import/", "/maintenance/", "/maintenance/report/",
               "/maintenance/upload/", "/permits/", "/permits/new/", "{permit}", "/permits/site/",
               "/permits/complaints/new/", "/api/systems/", "/api/docs/"]


class InlineCode(HTMLParser):
    """Collects what a strict CSP would refuse: inline scripts, <style> elements, style="" and on*="" attributes."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        if tag == "script" and "src" not in names and names.get("type") != "application/json":
            self.found.append("inline <script>")
        if tag == "style":
            self.found.append("<style> element")
        self.found += [f"{tag} {k}=" for k in names if k == "style" or k.startswith(("on", "hx-on"))]


def _directives(header: str) -> dict[str, list[str]]:
    return {d.split()[0]: d.split()[1:] for d in (x.strip() for x in header.split(";")) if d}


@pytest.fixture
def pages(dane, staff):
    from powts.accounts.services import license_create
    from powts.inventory.services import system_create
    from powts.permits.tests.conftest import file_complete

    system = system_create(jurisdiction=dane, system_id="DA-0001", parcel_number="0810-123-4567-0",
                           system_type="mound", owner_name="Margaret Schultz", site_address="4417 Oak Ridge Dr")
    permit = file_complete(dane, license_create(kind="master_plumber", number="MP-1", holder_name="Pete Plumber"))
    return {"system": system.get_absolute_url(), "permit": permit.get_absolute_url()}


def _check(client, url):
    r = client.get(url)
    assert r.status_code == 200, url
    policy = _directives(r["Content-Security-Policy"])
    assert policy["default-src"] == ["'self'"] and policy["script-src"] == ["'self'"], url
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"], url
    if r["Content-Type"].startswith("text/html"):
        parser = InlineCode()
        parser.feed(r.content.decode())
        allowed_style = url == "/api/docs/"  # Swagger UI's own small <style>; style-src relaxed there alone
        found = [x for x in parser.found if not (allowed_style and x == "<style> element")]
        assert not found, (url, found)
        if not allowed_style:
            assert policy["style-src"] == ["'self'"], url
    return r


def test_every_public_page_has_a_strict_policy(db, client):
    """Anonymous pages carry the policy, and nothing in them needs 'unsafe-inline'."""
    for url in PUBLIC_PAGES:
        _check(client, url)


def test_every_staff_page_has_a_strict_policy_and_no_inline_code(client, staff, pages):
    """Staff pages (dashboard with its chart, inventory, a permit with its plot plan drawn, the
    API docs) carry the policy and have no inline script, style element, style or on* attribute."""
    client.force_login(staff)
    for url in STAFF_PAGES:
        r = _check(client, url.format(**pages))
        if url == "{permit}":
            assert "<svg" in r.content.decode()  # the plot plan is drawn inline and still passes


def test_api_docs_load_their_start_up_code_as_a_script_file(db, client, staff):
    """Swagger UI's start-up code is a separate script (script-src 'self'), not inline."""
    client.force_login(staff)
    page = client.get("/api/docs/").content.decode()
    src = re.search(r'<script src="([^"]*script=[^"]*)"', page).group(1).replace("&amp;", "&")
    script = client.get(src)
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()
    assert "javascript" in script["Content-Type"]


def test_html_checker_catches_inline_code():
    """The checker above can fail: it sees each kind of inline code a strict CSP refuses."""
    parser = InlineCode()
    parser.feed('<script>x()</script><script type="application/json">{}</script><style>a{}</style>'
                '<form style="max-width:none" onsubmit="go()"><div hx-on:click="y">')
    assert parser.found == ["inline <script>", "<style> element", "form style=", "form onsubmit=", "div hx-on:click="]
