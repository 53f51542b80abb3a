"""Finding: "owners created by the permit pages have no audit event (4 left behind by refused transfers)":
an owner named in a transfer or an application is put on record through the inventory's audited service,
in the same transaction as the permit action, so a refused one leaves no owner behind."""
import datetime as dt

import pytest
from django.contrib.contenttypes.models import ContentType

from powts.audit.models import AuditEvent
from powts.inventory.models import Owner
from powts.permits import services

from .conftest import file_complete, make_parcel

D = dt.date


def _owner_events(owner):
    return AuditEvent.objects.filter(content_type=ContentType.objects.get_for_model(Owner), object_id=owner.pk)


def _applied(dane, master):
    return file_complete(dane, master)  # filed, not yet approved: a transfer is refused


def _issued(dane, master):
    permit = file_complete(dane, master)
    services.permit_approve(permit=permit, on=D(2026, 3, 3))
    services.permit_issue(permit=permit, on=D(2026, 3, 4))
    permit.refresh_from_db()
    return permit


def test_refused_transfer_on_the_web_leaves_no_owner(client, dane, staff, master):
    """A transfer refused (the permit is only applied for) through the web page: no new Owner."""
    permit = _applied(dane, master)
    before = Owner.objects.count()
    client.force_login(staff)
    r = client.post(f"/permits/{permit.pk}/change/", {"kind": "transfer", "on": "2026-03-05",
                                                       "new_owner_name": "Nina Newowner", "new_owner_mailing_address": "2 Elm"})
    assert r.status_code in (200, 302, 400)
    assert not Owner.objects.filter(name="Nina Newowner").exists() and Owner.objects.count() == before


def test_refused_transfer_through_the_api_leaves_no_owner(client, dane, staff, master):
    """The same through the API: a 400 and no new Owner."""
    permit = _applied(dane, master)
    before = Owner.objects.count()
    client.force_login(staff)
    r = client.post(f"/api/permits/{permit.pk}/changes/", {"kind": "transfer", "received_on": "2026-03-05",
                                                            "new_owner_name": "Nina Newowner"},
                    content_type="application/json")
    assert r.status_code == 400
    assert Owner.objects.count() == before


def test_accepted_transfer_puts_the_owner_on_record_with_an_audit_event(client, dane, staff, master):
    """The other side: a transfer of an issued permit records the new owner, with its audit event."""
    permit = _issued(dane, master)
    client.force_login(staff)
    r = client.post(f"/api/permits/{permit.pk}/changes/", {"kind": "transfer", "received_on": "2026-03-05",
                                                            "new_owner_name": "Nina Newowner"},
                    content_type="application/json")
    assert r.status_code == 201, r.json()
    owner = Owner.objects.get(name="Nina Newowner")
    assert _owner_events(owner).filter(action__contains="transfer").exists()


def test_refused_application_leaves_no_owner_and_an_accepted_one_is_audited(client, dane, staff, master):
    """An application naming a new owner: refused (unknown field) -> no Owner; accepted -> an Owner with its
    audit event."""
    parcel, _ = make_parcel(dane, number="0810-999-0001-0")
    client.force_login(staff)
    base = {"parcel_number": parcel.parcel_number, "owner_name": "Olga Onrecord", "plumber_license": master.number,
            "building_use": "single-family dwelling", "filed_on": "2026-03-02"}
    bad = client.post("/api/permits/", {**base, "system_type": "not-a-type"}, content_type="application/json")
    assert bad.status_code == 400
    assert not Owner.objects.filter(name="Olga Onrecord").exists()
    good = client.post("/api/permits/", base, content_type="application/json")
    assert good.status_code == 201, good.json()
    assert _owner_events(Owner.objects.get(name="Olga Onrecord")).exists()


@pytest.mark.parametrize("name", ["", "   "])
def test_transfer_without_a_new_owner_is_refused_naming_the_field(dane, master, name):
    permit = _issued(dane, master)
    from powts.permits.errors import PermitRefused

    with pytest.raises(PermitRefused) as exc:
        services.permit_request_change(permit=permit, kind="transfer", received_on=D(2026, 3, 5), new_owner_name=name)
    assert exc.value.field == "new_owner"


def test_plot_plan_over_the_cap_is_a_400_and_the_page_at_the_cap_stays_small(client, dane, staff, master):
    """Finding: "a 4,000-feature plot plan makes a 65 MB page": through the API a 4,000-feature plan is a 400
    naming plot_plan and nothing changes; a crowded plan at the 500-feature cap gives a page under 2 MB."""
    from powts.setbacks.tests.test_plan_size import crowded

    permit = _applied(dane, master)
    client.force_login(staff)
    before = permit.plot_plan
    r = client.post(f"/api/permits/{permit.pk}/plot-plan/", crowded(4000), content_type="application/json")
    assert r.status_code == 400 and "at most 500" in str(r.json()["errors"]["plot_plan"])
    permit.refresh_from_db()
    assert permit.plot_plan == before
    r = client.post(f"/api/permits/{permit.pk}/plot-plan/", crowded(500), content_type="application/json")
    assert r.status_code == 200 and len(r.content) < 1_000_000
    page = client.get(f"/permits/{permit.pk}/")
    assert page.status_code == 200 and len(page.content) < 2_000_000
    assert "The first 200 are listed." in page.content.decode()
