"""Each record's news reaches the others (powts.core.news).

A permit's final approval (Dane County Code s. 46.08(6)(g), s. 46.11(4); Lincoln Ch. 22 (draft), Permit
Cards (4)) records the system it installed and restarts its maintenance cycle (Wis. Stat. s.
145.20(5)(b); Dane s. 46.11(5)1.); a failure determination (Wis. Stat. s. 145.01(4m)) and a correction
order's completion set and clear the failing status; a final report of abandonment (Dane s. 46.11(5)2.;
Lincoln, Abandonment of Private Sewage Systems (1)) retires the system with the county's fee; a
complaint finds the system at its address; a report's sludge measure, the last-serviced date and the
system page agree (SPS 383.54(4), SPS 383.55).
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from powts.maintenance.errors import MaintenanceRefused
from django.utils import timezone

from powts.accounts.services import license_create
from powts.audit.models import AuditEvent
from powts.core import news
from powts.inventory.models import System
from powts.kernel.dates import add_months
from powts.inventory.services import system_create
from powts.maintenance.models import Notice, Report, Schedule
from powts.maintenance.services import report_submit, schedule_sync
from powts.permits import services
from powts.permits.services import enforcement as enf
from powts.permits.models import Complaint, Invoice, Permit
from powts.permits.tests.conftest import COMPLIANT_PLAN, DOCS

D = dt.date


def T(y, m, d, h=8, mi=0):
    return timezone.make_aware(dt.datetime(y, m, d, h, mi))


@pytest.fixture
def master(make_user):
    return license_create(kind="master_plumber", number="MP-1001", holder_name="Pete Plumber",
                          user=make_user("pete", "plumber", first_name="Pete", last_name="Plumber"))


@pytest.fixture
def pumper(make_user):
    return license_create(kind="septage_operator", number="SSO-1", holder_name="Perry Pumper", user=make_user("perry", "pumper"))


@pytest.fixture
def old_system(dane):
    """Installed 2023-07-01: due 2026-07-01, first notice from 2026-06-01 (Dane s. 46.11(5)1.: 30 days before)."""
    system = system_create(jurisdiction=dane, system_id="DA-1", parcel_number="P-DA-1", system_type="conventional",
                           owner_name="Olive Owner", owner_mailing_address="12 Lake Rd, Verona, WI 53593",
                           site_address="12 Lake Rd", municipality="Town of Verona", installed_on=D(2023, 7, 1))
    schedule_sync(jurisdiction=dane)
    return system


def _permit(jurisdiction, plumber, *, parcel, system=None, work="replacement", filed_on=D(2026, 3, 2), extra_docs=(), **extra):
    fields = dict(building_use="single-family dwelling", lot_dimensions="200 x 300 ft", reference_points="Iron pipe NE corner",
                  estimated_daily_flow_gpd=300, design_flow_gpd=450, bedrooms=3, plans_signed=True, system_type="standard",
                  system=system, work=work)
    fields.update(extra)
    permit = services.permit_file(jurisdiction=jurisdiction, parcel=parcel, owner=parcel.owner, plumber=plumber, filed_on=filed_on,
                                  plot_plan=COMPLIANT_PLAN, documents=[{"kind": k, "received_on": filed_on} for k in [*DOCS[jurisdiction.slug], *extra_docs]],
                                  **fields)
    for inv in permit.invoices.all():
        services.payment_record(invoice=inv, amount=inv.amount, received_on=filed_on, reference="1001")
    services.permit_approve(permit=permit, on=D(2026, 4, 1))
    services.permit_issue(permit=permit, on=D(2026, 4, 1))
    return Permit.objects.get(pk=permit.pk)


def _pass_final_inspection(permit, day):
    insp = services.inspection_request(permit=permit, stage="before_backfill", notice_at=T(day.year, day.month, day.day - 1))
    services.inspection_record(inspection=insp, result="passed", on=insp.requested_day)
    return insp.requested_day


# -- the permit's final approval ---------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_system_replaced_under_a_permit_finished_in_june_gets_no_due_notice_or_reminder(dane, master, old_system, tmp_path):
    """A finding: a system replaced under a permit that passed final inspection in June still got a
    "due" notice and then an "overdue" reminder. Final approval (Dane s. 46.08(6)(g)) now marks it replaced
    and the new system's cycle runs from its installation (Wis. Stat. s. 145.20(5)(b): every 3 years)."""
    from powts.maintenance.notices import notices_send
    from powts.maintenance.selectors import due_list

    permit = _permit(dane, master, parcel=old_system.parcel, system=old_system)
    inspected = _pass_final_inspection(permit, D(2026, 5, 12))
    services.permit_final_approve(permit=permit, on=D(2026, 6, 12))

    old_system.refresh_from_db()
    assert old_system.status == "replaced"
    assert old_system.permit_number == ""  # its own (none on file), not the replacing permit's written over it at issuance
    new = System.objects.get(jurisdiction=dane, permit_number=permit.number)
    assert new.parcel_id == old_system.parcel_id and new.system_type == "conventional"
    assert new.installed_on == inspected  # the final inspection's date
    assert sorted(new.components.values_list("kind", flat=True)) == ["dispersal_cell", "septic_tank"]
    permit.refresh_from_db()
    assert permit.system_id == new.pk  # the new system's page lists its permit
    assert Schedule.objects.get(pk=new.pk).due_on == add_months(inspected, 36)
    assert Schedule.objects.get(pk=old_system.pk).exempt

    # June 15 (inside the old system's notice window) and July 2 (after its due date): nothing to mail.
    assert notices_send(jurisdiction=dane, as_of=D(2026, 6, 15), output_dir=tmp_path).total == 0
    assert notices_send(jurisdiction=dane, as_of=D(2026, 7, 2), output_dir=tmp_path).total == 0
    assert not Notice.objects.exists()
    assert due_list(jurisdiction=dane, as_of=D(2026, 7, 2)) == []

    # Every change names the permit whose news caused it.
    for obj_id, model in ((old_system.pk, "system"), (new.pk, "system"), (new.pk, "schedule"), (old_system.pk, "schedule")):
        actions = list(AuditEvent.objects.filter(object_id=obj_id, content_type__model=model).values_list("action", flat=True))
        assert any(permit.number in a for a in actions), (model, actions)


@pytest.mark.django_db(transaction=True)
def test_without_final_approval_the_old_system_still_gets_its_notice(dane, master, old_system, tmp_path):
    """The other side: a replacement issued but not given final approval changes nothing in the inventory."""
    from powts.maintenance.notices import notices_send

    permit = _permit(dane, master, parcel=old_system.parcel, system=old_system)
    _pass_final_inspection(permit, D(2026, 5, 12))
    assert notices_send(jurisdiction=dane, as_of=D(2026, 6, 15), output_dir=tmp_path).counts == {"first_notice": 1}
    old_system.refresh_from_db()
    assert old_system.status == "active"


def test_final_approval_of_a_new_system_creates_it_with_the_permit_number(dane, master):
    """A new house: the permit names no system; final approval puts the one it installed in the inventory."""
    from powts.inventory.models import Owner, Parcel

    owner = Owner.objects.create(jurisdiction=dane, name="New Owner", mailing_address="1 Main St")
    parcel = Parcel.objects.create(jurisdiction=dane, parcel_number="P-NEW", legal_description="Lot 1, CSM 9",
                                   site_address="9 New Rd", owner=owner)
    permit = _permit(dane, master, parcel=parcel, work="new system", system_type="mound", has_pumps=True,
                     extra_docs=["pump_specifications"])
    inspected = _pass_final_inspection(permit, D(2026, 5, 12))
    assert not parcel.systems.exists()
    services.permit_final_approve(permit=permit, on=D(2026, 5, 20))
    system = parcel.systems.get()
    assert (system.system_id, system.system_type, system.permit_number, system.installed_on) == (
        permit.number, "mound", permit.number, inspected)
    assert "dosing_chamber" in system.components.values_list("kind", flat=True)
    assert Schedule.objects.get(pk=system.pk).due_on == add_months(inspected, 36)
    assert system.search_text and permit.number.lower() in system.search_text


def test_final_approval_of_a_modification_restarts_the_cycle_of_the_same_system(dane, master, old_system):
    permit = _permit(dane, master, parcel=old_system.parcel, system=old_system, work="modification: new dispersal cell")
    inspected = _pass_final_inspection(permit, D(2026, 5, 12))
    before = Schedule.objects.get(pk=old_system.pk).due_on
    services.permit_final_approve(permit=permit, on=D(2026, 5, 20))
    old_system.refresh_from_db()
    assert old_system.status == "active" and old_system.installed_on == inspected and old_system.permit_number == permit.number
    assert System.objects.filter(jurisdiction=dane).count() == 1
    assert (before, Schedule.objects.get(pk=old_system.pk).due_on) == (D(2026, 7, 1), add_months(inspected, 36))


def test_a_failing_subscriber_leaves_the_permit_and_the_inventory_unchanged(dane, master, old_system, monkeypatch):
    """Subscribers run in the publisher's transaction: a failure changes nothing, the approval included."""
    permit = _permit(dane, master, parcel=old_system.parcel, system=old_system)
    _pass_final_inspection(permit, D(2026, 5, 12))

    def broken(**payload):
        raise RuntimeError("subscriber failed")

    monkeypatch.setitem(news._subscribers, "system.installed", [*news._subscribers["system.installed"], broken])
    with pytest.raises(RuntimeError):
        services.permit_final_approve(permit=permit, on=D(2026, 6, 12))
    permit.refresh_from_db()
    old_system.refresh_from_db()
    assert permit.status == "issued" and old_system.status == "active"
    assert System.objects.filter(jurisdiction=dane).count() == 1


def test_publishing_an_undeclared_event_or_payload_is_refused():
    with pytest.raises(news.UnknownEvent):
        news.publish("permit.finally_approved", permit=None, on=None)
    with pytest.raises(news.UnknownEvent):
        news.publish("permit.final_approved", permit=None)
    assert news.subscribers("permit.final_approved"), "the inventory subscribes in InventoryConfig.ready"


# -- failing, corrected -------------------------------------------------------------------------

def test_failure_determination_marks_failing_and_the_order_corrected_clears_it(dane, old_system, client, staff):
    """Wis. Stat. s. 145.01(4m): a determination makes the system failing; the correction order's completion
    clears it, not before (a second open order keeps it failing)."""
    from powts.maintenance.selectors import dashboard_counts

    det = enf.failure_determine(system=old_system, conditions=["d"], on=D(2026, 5, 1), basis="order")
    old_system.refresh_from_db()
    assert old_system.status == "failing"
    assert dashboard_counts(jurisdiction=dane, as_of=D(2026, 5, 2))["totals"]["failing"] == 1
    client.force_login(staff)
    assert "Failing</span>" in client.get(old_system.get_absolute_url()).content.decode()
    one = enf.correction_order_issue(system=old_system, on=D(2026, 5, 2), correct_by=D(2026, 8, 1), requirement="Replace the tank",
                                     determination=det)
    two = enf.correction_order_issue(system=old_system, on=D(2026, 5, 2), correct_by=D(2026, 9, 1), requirement="Pump the tank")
    enf.correction_order_close(order=one, on=D(2026, 7, 1))
    old_system.refresh_from_db()
    assert old_system.status == "failing"
    enf.correction_order_close(order=two, on=D(2026, 7, 2))
    old_system.refresh_from_db()
    assert old_system.status == "active"
    assert dashboard_counts(jurisdiction=dane, as_of=D(2026, 7, 3))["totals"]["failing"] == 0
    actions = list(AuditEvent.objects.filter(object_id=old_system.pk, content_type__model="system").values_list("action", flat=True))
    assert any("failure determination of 2026-05-01" in a for a in actions)
    assert any("correction order of 2026-05-02 corrected on 2026-07-02" in a for a in actions)


# -- abandonment --------------------------------------------------------------------------------

def _abandon(jurisdiction, filer, **kw):
    data = {"system_id": "DA-1", "kind": "abandonment", "work_date": "2026-05-01", "license_number": "SSO-1", "gallons_pumped": "900",
            "abandonment_method": "crushed_filled", **kw}
    return report_submit(jurisdiction=jurisdiction, data=data, filed_by=filer, now=T(2026, 5, 4))


def test_dane_46_11_5_2_final_report_of_abandonment_retires_the_system_with_its_fee(dane, old_system, pumper):
    result = _abandon(dane, pumper.user)
    old_system.refresh_from_db()
    assert old_system.status == "abandoned"
    assert Schedule.objects.get(pk=old_system.pk).exempt
    invoice = Invoice.objects.get(fee_code="abandonment")
    assert invoice.amount == Decimal("50.00") and invoice.authority == "Dane County Code s. 46.11(5)2."
    assert "46.23(12)" in invoice.amount_citation and invoice.payer == "Olive Owner"
    actions = list(AuditEvent.objects.filter(object_id=old_system.pk, content_type__model="system").values_list("action", flat=True))
    assert any("final report of abandonment" in a and "SSO-1" in a for a in actions)
    assert result.report.kind == "abandonment"


def test_lincoln_abandonment_retires_the_system_and_charges_no_fee(lincoln, make_user):
    """Lincoln's text sets no abandonment fee: the system is retired, no invoice."""
    lic = license_create(kind="master_plumber", number="MP-77", holder_name="Lin Plumber", user=make_user("lin", "plumber"))
    system = system_create(jurisdiction=lincoln, system_id="LC-1", parcel_number="P-LC-1", system_type="conventional",
                           owner_name="Lee Owner", site_address="4 Pine Ln", installed_on=D(2015, 5, 1))
    report_submit(jurisdiction=lincoln, data={"system_id": "LC-1", "kind": "abandonment", "work_date": "2026-05-01",
                                              "license_number": "MP-77", "gallons_pumped": "0", "abandonment_method": "removed"},
                  filed_by=lic.user, now=T(2026, 5, 4))
    system.refresh_from_db()
    assert system.status == "abandoned" and not Invoice.objects.exists()


@pytest.mark.parametrize("bad, field", [({"abandonment_method": ""}, "abandonment_method"),
                                        ({"gallons_pumped": ""}, "gallons_pumped")])
def test_an_incomplete_final_report_is_refused_and_changes_nothing(dane, old_system, pumper, bad, field):
    """Dane s. 46.11(5)2.: the report verifies the contents were removed and how the tank was abandoned."""
    with pytest.raises(MaintenanceRefused) as exc:
        _abandon(dane, pumper.user, **bad)
    assert field in exc.value.errors and "46.11(5)2." in exc.value.errors[field][0]
    old_system.refresh_from_db()
    assert old_system.status == "active" and not Report.objects.exists() and not Invoice.objects.exists()


def test_abandonment_of_a_system_already_retired_is_refused(dane, old_system, pumper):
    _abandon(dane, pumper.user)
    with pytest.raises(MaintenanceRefused) as exc:
        _abandon(dane, pumper.user, work_date="2026-05-02")
    assert "already abandoned" in exc.value.errors["system_id"][0]
    assert Invoice.objects.filter(fee_code="abandonment").count() == 1


# -- complaints ---------------------------------------------------------------------------------

def test_complaint_at_a_systems_address_is_linked_and_shows_on_its_page_and_the_dashboard(dane, old_system, client, staff):
    comp = enf.complaint_create(jurisdiction=dane, service_code="failing-septic", description="Sewage in the ditch",
                                address="12 Lake Road, Verona WI 53593")
    comp.refresh_from_db()
    assert (comp.system_id, comp.link) == (old_system.pk, "address")
    client.force_login(staff)
    page = client.get(old_system.get_absolute_url()).content.decode()
    assert "Failing septic system" in page and "Matched by its address" in page
    dash = client.get("/maintenance/").content.decode()
    assert "Open complaints about systems (1)" in dash and old_system.get_absolute_url() in dash
    event = AuditEvent.objects.filter(object_id=comp.pk, content_type__model="complaint", verb="update").get()
    assert "linked to system DA-1" in event.action


def test_complaint_without_a_single_system_is_queued_and_staff_link_it(dane, old_system, client, staff):
    comp = enf.complaint_create(jurisdiction=dane, service_code="failing-septic", description="Smell", address="99 Far Rd")
    comp.refresh_from_db()
    assert (comp.system_id, comp.link) == (None, "queued")
    client.force_login(staff)
    dash = client.get("/maintenance/").content.decode()
    assert "Complaints to link (1)" in dash and "99 Far Rd" in dash
    # a system id not in the county: refused, nothing changed
    client.post(f"/permits/complaints/{comp.pk}/link/", {"system_id": "NOPE-1"})
    comp.refresh_from_db()
    assert comp.link == "queued"
    response = client.post(f"/permits/complaints/{comp.pk}/link/", {"system_id": "DA-1"})
    assert response.status_code == 302
    comp.refresh_from_db()
    assert (comp.system_id, comp.link) == (old_system.pk, "staff")
    assert "Complaints to link (0)" in client.get("/maintenance/").content.decode()


def test_staff_of_another_county_may_not_link(dane, old_system, make_user, lincoln, client):
    comp = enf.complaint_create(jurisdiction=dane, service_code="failing-septic", description="Smell", address="99 Far Rd")
    client.force_login(make_user("lin", "county_staff", lincoln))
    assert client.post(f"/permits/complaints/{comp.pk}/link/", {"system_id": "DA-1"}).status_code == 403
    assert Complaint.objects.get(pk=comp.pk).system_id is None


@pytest.mark.parametrize("address, found", [("12 Lake Rd", True), ("12 LAKE ROAD, Verona", True), ("12 Lake Rd.", True),
                                            ("120 Lake Rd", False), ("12 Lake St", False), ("Lake Rd", False)])
def test_address_match_is_normalised_not_loose(dane, old_system, address, found):
    from powts.inventory.selectors import systems_at_address

    assert bool(systems_at_address(jurisdiction=dane, address=address)) is found


# -- a report's sludge measure, the last-serviced date and the system page agree -------------------

def test_pumping_report_moves_the_last_serviced_date_the_page_shows(dane, old_system, pumper, client, staff):
    """Before: the page kept the imported "last inspected or pumped" date while the due date ran from the
    report (SPS 383.55 report, SPS 383.54(4) cycle)."""
    report_submit(jurisdiction=dane, data={"system_id": "DA-1", "kind": "pumping", "work_date": "2026-05-01",
                                           "license_number": "SSO-1", "gallons_pumped": "1000"}, filed_by=pumper.user, now=T(2026, 5, 4))
    old_system.refresh_from_db()
    schedule = Schedule.objects.get(pk=old_system.pk)
    assert old_system.last_serviced_on == schedule.basis_on == D(2026, 5, 1)
    client.force_login(staff)
    page = client.get(old_system.get_absolute_url()).content.decode()
    assert "May 1, 2026" in page and "May 1, 2029" in page


@pytest.mark.parametrize("fraction, moves", [("0.3332", True), ("0.3333", False), ("0.40", False)])
def test_inspection_moves_the_date_only_below_one_third(dane, old_system, pumper, client, staff, fraction, moves):
    """SPS 383.54(4); Dane s. 46.11(5)1.: an inspection finding sludge and scum at 1/3 or more does not restart the
    cycle (pump instead): the system's date does not move and the page says why."""
    report_submit(jurisdiction=dane, data={"system_id": "DA-1", "kind": "inspection", "work_date": "2026-05-01",
                                           "license_number": "SSO-1", "sludge_scum_fraction": fraction}, filed_by=pumper.user,
                  now=T(2026, 5, 4))
    old_system.refresh_from_db()
    schedule = Schedule.objects.get(pk=old_system.pk)
    assert (old_system.last_serviced_on == D(2026, 5, 1)) is moves
    assert schedule.pumping_required is not moves
    client.force_login(staff)
    page = client.get(old_system.get_absolute_url()).content.decode()
    percent = f"{Decimal(fraction) * 100:.0f}%"
    assert f"Last sludge and scum measure: {percent} of the tank" in page
    assert ("does not restart the cycle" in page) is not moves


def test_address_match_reads_abbreviations_both_ways(dane):
    """"1234 County Road K, Madison WI" is the parcel "1234 CTY RD K"; another road or house number is not."""
    from powts.inventory.selectors import systems_at_address

    system_create(jurisdiction=dane, system_id="DA-9", parcel_number="P-9", system_type="mound", owner_name="K Owner",
                  site_address="1234 CTY RD K", installed_on=D(2010, 1, 1))
    assert [s.system_id for s in systems_at_address(jurisdiction=dane, address="1234 County Road K, Madison WI")] == ["DA-9"]
    assert systems_at_address(jurisdiction=dane, address="1234 County Road KK") == []
    assert systems_at_address(jurisdiction=dane, address="234 County Road K") == []


def test_replaced_system_keeps_its_own_permit_number(dane, master):
    """The replacing permit's issuance writes its number on the system it names; once replaced, that system
    shows its own permit again and the new system carries the new one."""
    old = system_create(jurisdiction=dane, system_id="DA-5", parcel_number="P-DA-5", system_type="conventional", owner_name="Al Owner",
                        site_address="5 Elm Ave", installed_on=D(1998, 6, 1), permit_number="1998-0042")
    permit = _permit(dane, master, parcel=old.parcel, system=old)
    old.refresh_from_db()
    assert old.permit_number == permit.number  # written at issuance (permits)
    _pass_final_inspection(permit, D(2026, 5, 12))
    services.permit_final_approve(permit=permit, on=D(2026, 6, 12))
    old.refresh_from_db()
    assert (old.status, old.permit_number) == ("replaced", "1998-0042")
    assert System.objects.get(jurisdiction=dane, status="active").permit_number == permit.number
