"""Pages people can use: "Each role lands on its own home ...", "menus show only what the role may open",
"Styled 403, 404 and 500 pages that say what the person may do instead" (the API keeps JSON)."""
import json
import re

import pytest
from django.test import RequestFactory

from powts.core import views
from powts.core.menus import MENU, may_open

HOMES = {
    "county_staff": "/maintenance/",
    "county_admin": "/maintenance/",
    "pumper": "/maintenance/report/",
    "plumber": "/permits/",
    "soil_tester": "/permits/site/",
    "owner": "/maintenance/mine/",
    "state_auditor": "/counties/",
    "dsps": "/counties/",
    "dnr": "/wells/claims/",  # DNR's well claims queue (s. 281.75)
}


def _user(make_user, dane, role):
    return make_user(f"u-{role}", role, jurisdiction=dane if role in ("county_staff", "county_admin") else None)


@pytest.mark.parametrize("role, home", HOMES.items())
def test_each_role_lands_on_its_home(client, make_user, dane, role, home):
    client.force_login(_user(make_user, dane, role))
    response = client.get("/")
    assert response.status_code == 302 and response["Location"] == home
    assert client.get(home).status_code == 200  # and may open it


def test_sign_in_goes_home(client, make_user):
    make_user("perry", "pumper")
    response = client.post("/accounts/login/", {"username": "perry", "password": "a-long-test-password"}, follow=True)
    assert response.redirect_chain[-1][0] == "/maintenance/report/"


def _menu(client):
    page = client.get("/accounts/me/").content.decode()
    nav = page[page.index('<nav aria-label="Primary navigation"'):page.index("</nav>")]
    return re.findall(r'<a class="usa-nav(?:-link|__submenu-link)[^"]*" href="([^"]+)"', nav)


@pytest.mark.parametrize("role", HOMES)
def test_menu_shows_only_what_the_role_may_open(client, make_user, dane, role):
    client.force_login(_user(make_user, dane, role))
    hrefs = _menu(client)
    assert HOMES[role] in hrefs
    for href in hrefs:
        assert client.get(href).status_code == 200, (role, href)


def test_menu_leaves_out_what_a_role_may_not_open(client, make_user, dane):
    client.force_login(_user(make_user, dane, "pumper"))
    hrefs = _menu(client)
    assert "/maintenance/report/" in hrefs and "/maintenance/reports/" in hrefs
    assert "/inventory/" not in hrefs and "/maintenance/" not in hrefs and "/counties/" not in hrefs
    client.force_login(_user(make_user, dane, "dnr"))
    hrefs = _menu(client)
    assert "/permits/" not in hrefs and "/maintenance/" not in hrefs and "/inventory/" in hrefs


def test_every_menu_entry_names_a_url_and_a_policy():
    from django.urls import reverse
    from django.utils.module_loading import import_string

    for entry in MENU:
        reverse(entry.url_name)
        assert callable(import_string(entry.policy))


def test_may_open_agrees_with_the_policy(make_user, dane):
    assert may_open(_user(make_user, dane, "county_staff"), "maintenance:dashboard")
    assert not may_open(_user(make_user, dane, "pumper"), "maintenance:dashboard")


def test_403_is_a_styled_page_saying_what_to_do_instead(client, make_user):
    client.force_login(make_user("perry", "pumper"))
    response = client.get("/inventory/import/")
    page = response.content.decode()
    assert response.status_code == 403
    assert "This page is not open to you" in page and "Only county staff import inventory files." in page
    assert 'href="/"' in page and "Go to your home page" in page and 'class="usa-header' in page


def test_403_for_someone_signed_out_offers_sign_in(client, db):
    request = RequestFactory().get("/somewhere/")
    from django.contrib.auth.models import AnonymousUser
    from django.core.exceptions import PermissionDenied

    request.user = AnonymousUser()
    response = views.permission_denied(request, PermissionDenied("No."))
    assert response.status_code == 403 and "/accounts/login/?next=/somewhere/" in response.content.decode()


def test_404_is_a_styled_page_with_search(client, staff):
    client.force_login(staff)
    response = client.get("/inventory/systems/999999/")
    page = response.content.decode()
    assert response.status_code == 404 and "We could not find that page" in page and "Search the inventory" in page


def test_api_keeps_json_for_403_404_500(db):
    from django.core.exceptions import PermissionDenied

    request = RequestFactory().get("/api/anything/")
    assert json.loads(views.permission_denied(request, PermissionDenied("No.")).content) == {"detail": "No."}
    assert views.not_found(request).status_code == 404
    response = views.server_error(request)
    assert response.status_code == 500 and "detail" in json.loads(response.content)


def test_500_page_needs_no_request_context_and_says_what_to_do(db):
    response = views.server_error(RequestFactory().get("/inventory/"))
    page = response.content.decode()
    assert response.status_code == 500 and "Something went wrong" in page and 'href="/"' in page


def test_the_menu_is_worked_out_only_for_a_page_that_shows_it(client, make_user, dane):
    """The dashboard renders each app's panel with the request, which runs every context processor: the menu was
    worked out for each panel too (three times for nothing a visit). Now only when a template reads it."""
    from unittest import mock

    from django.template.loader import render_to_string

    from powts.core import menus

    client.force_login(_user(make_user, dane, "county_staff"))
    request = client.get("/accounts/me/").wsgi_request
    with mock.patch.object(menus, "menu_for", wraps=menus.menu_for) as worked_out:
        render_to_string("oversight/_dashboard_oversight.html", {"audits_to_answer": []}, request=request)
        assert worked_out.call_count == 0
        page = render_to_string("base.html", {}, request=request)
        assert worked_out.call_count == 1 and 'href="/maintenance/"' in page
