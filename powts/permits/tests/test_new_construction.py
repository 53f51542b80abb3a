"""New construction: "Apply for a parcel not yet in the inventory (new construction: the parcel is created as
pending and staff confirm it)". The parcel and its owner come from the application; approval waits for the
county's confirmation (Dane County Code s. 46.08(6)(d), Lincoln Ch. 22 Sanitary Permits: the county approves);
a confirmed parcel joins the inventory's lists, a merged one disappears into the parcel on record."""
import datetime as dt

import pytest

from powts.audit.models import AuditEvent
from powts.core.refusals import Refused
from powts.inventory import pending
from powts.inventory.models import Owner, Parcel
from powts.inventory.selectors import municipalities, parcels_matching
from powts.permits import services
from powts.permits.models import Permit
from powts.permits.tests.conftest import COMPLIANT_PLAN, DOCS, make_parcel

D = dt.date
BOTH = pytest.mark.parametrize("county", ["dane", "lincoln"], indirect=True)


def _apply(user, county, **extra):
    data = {"jurisdiction": county.slug, "parcel_number": "0608-222-1111-0", "new_parcel": True,
            "site_address": "4410 Meadow Lane", "municipality": "Town of Verona", "owner_name": "Nia Newhouse",
            "legal_description": "Lot 3, CSM 16001",
            "owner_mailing_address": "9 Elm St, Madison WI", "filed_on": D(2026, 3, 2), "building_use": "single-family dwelling",
            "lot_dimensions": "150 x 200 ft", "reference_points": "Benchmark: iron pipe", "estimated_daily_flow_gpd": 300,
            "design_flow_gpd": 450, "bedrooms": 3, "plans_signed": True, "plot_plan": COMPLIANT_PLAN,
            "documents": DOCS[county.slug]}
    data.update(extra)
    return services.application_submit(user=user, data=data)


def _pay(permit):
    for inv in permit.invoices.all():
        services.payment_record(invoice=inv, amount=inv.amount, received_on=permit.filed_on, reference="1")


@BOTH
def test_new_parcel_is_pending_until_staff_confirm_it(county, master, plumber_user, make_user):
    permit = _apply(plumber_user, county)
    parcel = permit.parcel
    assert parcel.pending and parcel.owner.name == "Nia Newhouse" and parcel.site_address == "4410 Meadow Lane"
    assert parcel.legal_description == "Lot 3, CSM 16001"  # Lincoln Application Requirements (1)(b)
    assert AuditEvent.objects.filter(action__contains="entered as new, pending").exists()
    assert permit.events.filter(step="parcel_pending").exists()
    # a pending parcel is left out of the inventory's filters and of the parcel finder
    assert "Town of Verona" not in municipalities(jurisdiction_id=county.pk)
    assert parcels_matching(jurisdiction=county, query="0608-222") == []
    _pay(permit)
    with pytest.raises(Refused) as refused:
        services.permit_approve(permit=permit, on=D(2026, 3, 3))
    assert "confirm it" in refused.value.message and "parcel" in refused.value.errors
    assert Permit.objects.get(pk=permit.pk).status == "applied"
    pending.parcel_confirm(parcel=parcel, reason="checked against the county's land records")
    parcel.refresh_from_db()
    assert not parcel.pending
    assert permit.events.filter(step="parcel_confirmed").exists()
    assert parcels_matching(jurisdiction=county, query="0608-222")[0]["parcel_number"] == "0608-222-1111-0"
    assert services.permit_approve(permit=permit, on=D(2026, 3, 3)).status == "approved"


def test_confirming_twice_is_refused(dane, master, plumber_user):
    permit = _apply(plumber_user, dane)
    pending.parcel_confirm(parcel=permit.parcel, reason="")
    with pytest.raises(Refused, match="already confirmed"):
        pending.parcel_confirm(parcel=permit.parcel, reason="")


@pytest.mark.parametrize("typed", ["0810-123-4567-0", "0810 123 4567 0"])
def test_a_new_parcel_number_already_on_record_is_refused_and_nothing_saved(dane, master, plumber_user, typed):
    """The number is on record (written with or without dashes): the applicant picks it; no permit, parcel or owner."""
    make_parcel(dane, number="0810-123-4567-0")
    parcels, owners, permits = Parcel.objects.count(), Owner.objects.count(), Permit.objects.count()
    with pytest.raises(Refused) as refused:
        _apply(plumber_user, dane, parcel_number=typed, owner_name="Brand New Owner")
    assert "parcel_number" in refused.value.errors and "already in the inventory" in refused.value.message
    assert (Parcel.objects.count(), Owner.objects.count(), Permit.objects.count()) == (parcels, owners, permits)


def test_a_parcel_already_pending_is_refused_as_new(dane, master, plumber_user):
    _apply(plumber_user, dane)
    with pytest.raises(Refused, match="waiting for the county to confirm"):
        _apply(plumber_user, dane, owner_name="Someone Else")
    assert Parcel.objects.filter(parcel_number="0608-222-1111-0").count() == 1


@pytest.mark.parametrize("missing", ["site_address", "municipality", "owner_name"])
def test_a_new_parcel_needs_its_address_municipality_and_owner(dane, master, plumber_user, missing):
    with pytest.raises(Refused) as refused:
        _apply(plumber_user, dane, **{missing: ""})
    assert missing in refused.value.errors
    assert not Parcel.objects.filter(parcel_number="0608-222-1111-0").exists() and not Permit.objects.exists()


def test_unknown_parcel_without_new_parcel_is_refused(dane, master, plumber_user):
    with pytest.raises(Refused) as refused:
        _apply(plumber_user, dane, new_parcel=False)
    assert "no such parcel" in refused.value.message and "new parcel" in refused.value.message


def test_staff_merge_a_pending_parcel_into_the_parcel_on_record(dane, master, plumber_user, staff):
    on_record, _ = make_parcel(dane, number="0810-123-4567-0")
    permit = _apply(plumber_user, dane)
    stray = permit.parcel
    into = pending.parcel_merge_pending(pending=stray, into_number="0810 123 4567 0", reason="same lot, typo")
    assert into == on_record
    permit.refresh_from_db()
    assert permit.parcel_id == on_record.pk and not Parcel.objects.filter(pk=stray.pk).exists()
    assert AuditEvent.objects.filter(action__contains="merged into parcel 0810-123-4567-0").count() >= 2  # parcel and permit
    assert permit.events.filter(step="parcel_merged").exists()


def test_merge_into_an_unknown_parcel_is_refused_and_changes_nothing(dane, master, plumber_user):
    permit = _apply(plumber_user, dane)
    with pytest.raises(Refused) as refused:
        pending.parcel_merge_pending(pending=permit.parcel, into_number="9999", reason="")
    assert "into_parcel_number" in refused.value.errors
    assert Parcel.objects.get(pk=permit.parcel_id).pending


def test_staff_confirm_and_merge_from_the_permit_page(client, dane, master, plumber_user, staff):
    make_parcel(dane, number="0810-123-4567-0")
    permit = _apply(plumber_user, dane)
    client.force_login(plumber_user)
    page = client.get(f"/permits/{permit.pk}/").content.decode()
    assert "waiting for the county to confirm" in page and "Confirm the parcel" not in page
    assert client.post(f"/permits/{permit.pk}/confirm-parcel/", {}).status_code == 403
    client.force_login(staff)
    assert "Confirm the parcel as entered" in client.get(f"/permits/{permit.pk}/").content.decode()
    done = client.post(f"/permits/{permit.pk}/confirm-parcel/", {"note": "ok"}, follow=True).content.decode()
    assert "Done: confirm parcel" in done and not Parcel.objects.get(pk=permit.parcel_id).pending
    again = client.post(f"/permits/{permit.pk}/merge-parcel/", {"into_parcel_number": "0810-123-4567-0"}, follow=True)
    assert "already confirmed" in again.content.decode()


def test_plumber_applies_for_a_new_parcel_through_the_form(client, dane, master, plumber_user):
    client.force_login(plumber_user)
    r = client.post("/permits/new/", {"jurisdiction": "dane", "parcel_number": "0608-222-1111-0", "new_parcel": "on",
                                      "site_address": "4410 Meadow Lane", "municipality": "Town of Verona",
                                      "owner_name": "Nia Newhouse", "system_type": "standard", "kind": "state"})
    assert r.status_code == 302
    assert Permit.objects.get().parcel.pending
    again = client.post("/permits/new/", {"jurisdiction": "dane", "parcel_number": "0608-222-1111-0", "new_parcel": "on",
                                          "site_address": "1 Other Rd", "municipality": "Town of Verona",
                                          "owner_name": "Nia Newhouse", "system_type": "standard", "kind": "state"})
    assert again.status_code == 200 and "waiting for the county to confirm it" in again.content.decode()
    assert Permit.objects.count() == 1


def test_api_files_for_a_new_parcel_and_staff_confirm_it(client, dane, master, plumber_user, staff):
    client.force_login(plumber_user)
    r = client.post("/api/permits/", {"jurisdiction": "dane", "parcel_number": "0608-222-1111-0", "new_parcel": True,
                                      "site_address": "4410 Meadow Lane", "municipality": "Town of Verona",
                                      "owner_name": "Nia Newhouse"}, content_type="application/json")
    assert r.status_code == 201, r.content
    pk = r.json()["id"]
    dup = client.post("/api/permits/", {"jurisdiction": "dane", "parcel_number": "0608-222-1111-0", "new_parcel": True,
                                        "site_address": "4410 Meadow Lane", "municipality": "Town of Verona",
                                        "owner_name": "Nia Newhouse"}, content_type="application/json")
    assert dup.status_code == 400 and "parcel_number" in dup.json()["errors"]
    client.force_login(staff)
    ok = client.post(f"/api/permits/{pk}/actions/confirm-parcel/", {"note": "checked"}, content_type="application/json")
    assert ok.status_code == 200 and not Permit.objects.get(pk=pk).parcel.pending


def test_dashboard_lists_new_parcels_to_confirm(client, dane, master, plumber_user, staff):
    permit = _apply(plumber_user, dane)
    client.force_login(staff)
    page = client.get("/maintenance/").content.decode()
    assert "New parcels to confirm (1)" in page and permit.number in page
    listed = client.get("/permits/?parcel_pending=true").content.decode()
    assert permit.number in listed
    pending.parcel_confirm(parcel=permit.parcel, reason="")
    assert "New parcels to confirm (0)" in client.get("/maintenance/").content.decode()


def test_an_inventory_import_naming_a_pending_parcel_confirms_it(dane, master, plumber_user, write_csv):
    """The county's inventory file names the new parcel, so the county's
    record holds it: confirmed as staff would (audited, parcel.confirmed reaches the permit), in one UPDATE."""
    from powts.inventory.importing.service import import_inventory

    permit = _apply(plumber_user, dane)
    other = _apply(plumber_user, dane, parcel_number="0608-222-9999-0", site_address="4412 Meadow Lane")
    result = import_inventory(path=write_csv([["system_id", "parcel_id", "system_type", "owner_name"],
                                              ["N-1", "0608-222-1111-0", "mound", "Nia Newhouse"]]),
                              jurisdiction=dane, today=D(2026, 3, 5))
    assert result.created == 1 and result.parcels_confirmed == 1
    parcel = Parcel.objects.get(pk=permit.parcel_id)
    assert not parcel.pending
    assert parcel.systems.get().system_id == "N-1"  # the row went onto the parcel the plumber entered
    assert permit.events.filter(step="parcel_confirmed").exists()
    assert AuditEvent.objects.filter(object_id=parcel.pk, action__contains="named in the county's inventory file").exists()
    # a pending parcel the file does not name stays pending
    assert Parcel.objects.get(pk=other.parcel_id).pending
    assert not other.events.filter(step="parcel_confirmed").exists()


def test_an_import_dry_run_confirms_nothing(dane, master, plumber_user, write_csv):
    from powts.inventory.importing.service import import_inventory

    permit = _apply(plumber_user, dane)
    import_inventory(path=write_csv([["system_id", "parcel_id", "system_type", "owner_name"],
                                     ["N-1", "0608-222-1111-0", "mound", "Nia Newhouse"]]),
                     jurisdiction=dane, today=D(2026, 3, 5), dry_run=True)
    assert Parcel.objects.get(pk=permit.parcel_id).pending


def test_confirming_imported_parcels_reads_the_pending_ones_once_however_many_numbers_the_file_names(
        dane, master, plumber_user):
    """Import speed (profile of a 100,000-row import: 10 % of its time): the import's confirmation sent every
    parcel number of the file back to the database, 10,000 to a query. One query of the county's pending
    parcels now, whatever the number of parcels the file names; the one it names is confirmed, the other not."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    permit = _apply(plumber_user, dane)
    other = _apply(plumber_user, dane, parcel_number="0608-222-9999-0", site_address="4412 Meadow Lane")
    numbers = {f"0608-{n:07d}" for n in range(25_000)} | {"0608-222-1111-0"}
    with CaptureQueriesContext(connection) as queries:
        found = pending.parcels_confirm_imported(jurisdiction=dane, parcel_numbers=numbers, cause="imported from x.csv")
    reads = [q["sql"] for q in queries.captured_queries
             if q["sql"].lstrip().startswith("SELECT") and '"inventory_parcel"' in q["sql"].split("FROM", 1)[-1][:40]]
    assert len(reads) == 1, reads
    assert [p.pk for p in found] == [permit.parcel_id]
    assert not Parcel.objects.get(pk=permit.parcel_id).pending
    assert Parcel.objects.get(pk=other.parcel_id).pending


def test_the_dashboards_count_of_new_parcels_goes_past_its_page_of_25(dane, master, plumber_user, staff):
    """The panel counts from its page when the page is not full (no second query); a full page still counts all."""
    from powts.permits.panels import dashboard_new_parcels

    for n in range(26):
        _apply(plumber_user, dane, parcel_number=f"0608-222-{n:04d}-0", site_address=f"{n} Meadow Lane")
    got = dashboard_new_parcels(dane, staff)
    assert (len(got["new_parcels"]), got["new_parcels_count"]) == (25, 26)
    pending.parcel_confirm(parcel=got["new_parcels"][0].parcel, reason="")
    pending.parcel_confirm(parcel=got["new_parcels"][1].parcel, reason="")
    got = dashboard_new_parcels(dane, staff)
    assert (len(got["new_parcels"]), got["new_parcels_count"]) == (24, 24)
