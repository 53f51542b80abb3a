"""The web application for county staff: sign in, list, search, system page with its history, import."""
import pytest

from powts.audit.models import AuditEvent
from powts.inventory.models import System
from powts.inventory.services import system_create


@pytest.fixture
def signed_in(client, staff):
    client.force_login(staff)
    return client


@pytest.fixture
def system(dane):
    return system_create(jurisdiction=dane, system_id="DA-1", parcel_number="0810-1", system_type="mound",
                         owner_name="Jane Smith", site_address="1 Main St", municipality="Town of Dunn")


def test_pages_need_sign_in(client, db):
    response = client.get("/inventory/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_sign_in_page(client, db):
    response = client.get("/accounts/login/")
    assert response.status_code == 200 and b'<label class="usa-label" for="id_username">' in response.content


def test_list_search_and_filters(signed_in, system):
    page = signed_in.get("/inventory/?q=smith").content.decode()
    assert "DA-1" in page and "Jane Smith" in page
    assert "DA-1" not in signed_in.get("/inventory/?q=nobody").content.decode()
    assert "DA-1" in signed_in.get("/inventory/?system_type=mound&municipality=Town+of+Dunn").content.decode()


def test_empty_filters_from_the_form_mean_any(signed_in, system):
    page = signed_in.get("/inventory/?q=smith&system_type=&status=&municipality=&installed_year=").content.decode()
    assert "DA-1" in page


def test_htmx_request_gets_only_the_table(signed_in, system):
    response = signed_in.get("/inventory/?q=smith", HTTP_HX_REQUEST="true")
    assert b"<html" not in response.content and b"DA-1" in response.content


def test_system_page_shows_parcel_owner_components_and_history(signed_in, system):
    page = signed_in.get(f"/inventory/systems/{system.pk}/").content.decode()
    for text in ("0810-1", "Jane Smith", "Mound", "History", "system added", "<h2 id=\"h-maintenance\">Maintenance</h2>", "Sanitary permits"):
        assert text in page


def test_someone_elses_system_is_404(client, system, make_user):
    client.force_login(make_user("olive", "owner"))
    assert client.get(f"/inventory/systems/{system.pk}/").status_code == 404


def test_import_upload_check_then_confirm(signed_in, dane, staff, tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path
    content = b"system_id,parcel_id,system_type,owner_name\nD-1,P-1,Mound,Ann\nD-2,P-2,Spaceship,Bob\n"
    from django.core.files.uploadedfile import SimpleUploadedFile

    preview = signed_in.post("/inventory/import/", {"file": SimpleUploadedFile("county.csv", content)})
    page = preview.content.decode()
    assert preview.status_code == 200 and "Spaceship" in page and "not a system type powts knows" in page
    assert System.objects.count() == 0  # nothing until confirmed
    token = preview.context["token"]
    done = signed_in.post(f"/inventory/import/{token}/confirm/", follow=True)
    assert "1 created" in done.content.decode()
    event = AuditEvent.objects.get(content_type__model="system", verb="create")
    assert (event.channel, event.actor, event.action) == ("web", staff, "imported from county.csv")


def test_import_refuses_a_file_without_required_columns(signed_in, tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = signed_in.post("/inventory/import/", {"file": SimpleUploadedFile("x.csv", b"a,b\n1,2\n")})
    assert response.status_code == 400 and "missing required columns" in response.content.decode()


def test_only_staff_import(client, db, make_user):
    client.force_login(make_user("perry", "pumper"))
    assert client.get("/inventory/import/").status_code == 403


def test_list_pages_without_counting_and_sorts(signed_in, dane):
    for i in range(55):
        system_create(jurisdiction=dane, system_id=f"DA-{i:03d}", parcel_number=f"P-{i}", system_type="mound",
                      owner_name=f"Owner {i}", installed_on=f"{1970 + i}-01-01")
    first = signed_in.get("/inventory/").content.decode()
    assert "DA-000" in first and "DA-049" in first and "DA-050" not in first and "Next" in first
    second = signed_in.get("/inventory/?page=2").content.decode()
    assert "DA-050" in second and "DA-054" in second and "rows 51–55" in second and "Next" not in second
    newest = signed_in.get("/inventory/?sort=-installed_on").content.decode()
    assert newest.index("DA-054") < newest.index("DA-053")


def test_systems_installed_the_same_day_or_with_no_date_sort_by_their_system_id_both_ways(signed_in, dane):
    """Sorting by installation date: systems of one date (and those with no date) come in the county's system
    id order, reversed with the date's order; not in the order they were entered."""
    import re

    for system_id, installed_on in (("DA-C", "2001-05-01"), ("DA-A", "2001-05-01"), ("DA-B", "2001-05-01"),
                                    ("DA-Z", None), ("DA-Y", None), ("DA-D", "1999-01-01")):
        system_create(jurisdiction=dane, system_id=system_id, parcel_number=f"P-{system_id}", system_type="mound",
                      owner_name="Owner", installed_on=installed_on)

    def order(url):
        return re.findall(r">(DA-[A-Z])</a>", signed_in.get(url).content.decode())

    oldest, newest = order("/inventory/?sort=installed_on"), order("/inventory/?sort=-installed_on")
    dated = [s for s in oldest if s not in ("DA-Y", "DA-Z")]
    assert dated == ["DA-D", "DA-A", "DA-B", "DA-C"]
    assert newest == list(reversed(oldest))  # the undated pair sits at one end, in system id order, either way
    undated = [s for s in oldest if s in ("DA-Y", "DA-Z")]
    assert undated == ["DA-Y", "DA-Z"]
