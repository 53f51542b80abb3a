"""Dane s. 46.06(5)(b)2.: the owner's letter for an overdue semiannual holding tank report. The half-years
and the 30 days after each are Dane profile data (holding_tanks.report_periods): the first half's report is due
July 30, so on July 30 it is not yet overdue and on July 31 it is. Lincoln's ordinance sets no such periods."""
import datetime as dt

import pytest

from powts.audit.models import AuditEvent
from powts.core.refusals import Refused
from powts.maintenance.holding_letters import holding_report_letters_record, letters_pdf
from powts.maintenance.models import HoldingTankReport, Notice

D = dt.date


@pytest.fixture
def tank(dane, make_system):
    return make_system(system_id="HT-1", system_type="holding_tank", installed_on=D(2024, 5, 1))


def _report(system, start, end):
    return HoldingTankReport.objects.create(system=system, period_start=start, period_end=end, servicer_name="Sal",
                                            servicer_address="1 Pump Rd", owner_name="Olive Owner", location="12 Lake Rd",
                                            sanitary_permit_number="P-1", filed_at=dt.datetime(2026, 1, 5, tzinfo=dt.UTC))


def test_dane_46_06_5_b_2_letter_the_day_after_the_due_day_not_on_it(dane, tank):
    _report(tank, D(2025, 7, 1), D(2025, 12, 31))  # the second half of 2025 is reported
    on_due_day = holding_report_letters_record(jurisdiction=dane, as_of=D(2026, 7, 30))
    assert on_due_day.recorded == 0 and not Notice.objects.exists()
    day_after = holding_report_letters_record(jurisdiction=dane, as_of=D(2026, 7, 31))
    assert (day_after.period.start, day_after.period.end, day_after.period.due_on) == (D(2026, 1, 1), D(2026, 6, 30), D(2026, 7, 30))
    notice = Notice.objects.get()
    assert (notice.system_id, notice.kind, notice.due_on, notice.to_name) == (tank.pk, "holding_overdue", D(2026, 7, 30), "Olive Owner")
    assert "46.06(5)(b)2." in notice.citation
    assert AuditEvent.objects.filter(content_type__model="notice", object_id=str(notice.pk), action__contains="overdue").exists()


def test_a_filed_report_means_no_letter_and_a_second_run_sends_none_twice(dane, tank, make_system):
    other = make_system(system_id="HT-2", system_type="holding_tank", installed_on=D(2024, 5, 1))
    _report(other, D(2026, 1, 1), D(2026, 6, 30))
    first = holding_report_letters_record(jurisdiction=dane, as_of=D(2026, 8, 3))
    again = holding_report_letters_record(jurisdiction=dane, as_of=D(2026, 8, 10))
    assert (first.recorded, again.recorded) == (1, 0)
    assert [n.system_id for n in again.notices] == [tank.pk]
    assert Notice.objects.count() == 1


def test_an_owner_without_a_mailable_address_is_held_and_named(dane, make_system):
    make_system(system_id="HT-3", system_type="holding_tank", installed_on=D(2024, 5, 1), address="")
    result = holding_report_letters_record(jurisdiction=dane, as_of=D(2026, 8, 3))
    assert result.held == [("HT-3", "no mailing address on file")] and not Notice.objects.exists()


def test_the_letter_is_the_counties_letter_in_the_owners_language_with_the_english(dane, tank):
    tank.parcel.owner.language = "es"
    tank.parcel.owner.save()
    result = holding_report_letters_record(jurisdiction=dane, as_of=D(2026, 8, 3))
    pdf = letters_pdf(dane, result.notices)
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") >= 2
    assert b"Your holding tank servicing report is overdue" in pdf
    from powts.maintenance.letters import one_letter_pdf
    from powts.maintenance.notices import letter_for, sender_for

    owners_file = one_letter_pdf(letter_for(result.notices[0]), sender_for(dane))  # the owner's own file, as reprinted
    assert b"servicing report for that period" in owners_file  # the letter's own "what to do", not a septic inspection's
    assert b"inspect your septic tank" not in owners_file and b"informe de servicio" in owners_file


def test_lincoln_sets_no_periodic_report_so_no_letter_is_recorded(lincoln):
    with pytest.raises(Refused) as exc:
        holding_report_letters_record(jurisdiction=lincoln, as_of=D(2026, 8, 3))
    assert exc.value.field == "jurisdiction" and not Notice.objects.exists()


def test_staff_record_the_letters_from_the_dashboard_and_print_them(dane, tank, staff, client):
    """The dashboard's overdue list has the button; after it, the period's letters are one PDF to print."""
    client.force_login(staff)
    page = client.get("/maintenance/?as_of=2026-08-03").content.decode()
    assert "Record the letters to these owners" in page and "owner letter" not in page
    response = client.post("/maintenance/holding-report/letters/", {"as_of": "2026-08-03"})
    assert response.status_code == 302 and Notice.objects.filter(kind="holding_overdue").count() == 1
    page = client.get(response["Location"]).content.decode()
    assert "1 letter recorded for the holding tank reports due July 30, 2026" in page
    assert "Print the 1 owner letter for this period (PDF)" in page
    pdf = client.get("/maintenance/holding-report/letters/2026-07-30.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf" and b"Olive Owner" in pdf.content


def test_the_api_records_the_letters_and_lincoln_gets_the_reason(dane, lincoln, tank, staff, make_user):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(staff)
    r = api.post("/api/maintenance/holding-reports/letters/", {"as_of": "2026-08-03"}, format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["recorded"] == 1 and body["period"]["due_on"] == "2026-07-30" and body["letters"][0]["system_id"] == "HT-1"
    lincoln_staff = make_user("lin", "county_staff", lincoln)
    api.force_authenticate(lincoln_staff)
    r = api.post("/api/maintenance/holding-reports/letters/", {"as_of": "2026-08-03"}, format="json")
    assert r.status_code == 400 and "jurisdiction" in r.json()["errors"]
    assert Notice.objects.count() == 1
