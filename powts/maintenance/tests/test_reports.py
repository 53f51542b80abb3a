"""Report filing: SPS 383.55 (late after 30 days), SPS 383.54(4) (who may), SPS 383.255 (review queue)."""
import datetime as dt

import pytest
from django.utils import timezone

from powts.audit.models import AuditEvent
from powts.maintenance.errors import MaintenanceRefused
from powts.maintenance.models import Report, Schedule
from powts.maintenance.services import failure_reviewed, report_match, report_submit

D = dt.date


def _data(**kw):
    data = {"system_id": "DA-1", "kind": "pumping", "work_date": "2026-03-02", "license_number": "SSO-1", "gallons_pumped": "1000",
            "disposal_site": "Nine Springs WWTP"}
    data.update(kw)
    return data


def _now(day: dt.date):
    return timezone.make_aware(dt.datetime(day.year, day.month, day.day, 12, 0))


def submit(dane, **kw):
    now = kw.pop("now", _now(D(2026, 3, 10)))
    return report_submit(jurisdiction=dane, data=_data(**kw), now=now)


@pytest.mark.parametrize("field,value,message", [
    ("license_number", "NOPE-9", "is not a known license"),
    ("work_date", "2026-03-11", "is in the future"),
    ("work_date", "2020-05-31", "before the system was installed"),
    ("gallons_pumped", "-5", "negative"),
    ("sludge_scum_fraction", "1.01", "above 1"),
    ("work_date", "2026-02-30", "is not a date"),
    ("kind", "repair", "is not one of"),
])
def test_bad_input_names_the_field_and_stores_nothing(dane, make_system, pumper_license, field, value, message):
    make_system()
    with pytest.raises(MaintenanceRefused) as exc:
        submit(dane, **{field: value})
    assert message in exc.value.errors[field][0]
    assert Report.objects.count() == 0


def test_sps_383_54_4_soil_tester_may_not_report(dane, make_system, soil_license):
    make_system()
    with pytest.raises(MaintenanceRefused) as exc:
        submit(dane, license_number="CST-1")
    assert "may not inspect or service" in exc.value.errors["license_number"][0]


def test_sludge_fraction_exactly_one_is_accepted(dane, make_system, pumper_license):
    make_system()
    assert submit(dane, sludge_scum_fraction="1").created


@pytest.mark.parametrize("filed_on,late", [(D(2026, 4, 1), False), (D(2026, 4, 2), True)])
def test_sps_383_55_late_after_30_days(dane, make_system, pumper_license, filed_on, late):
    make_system()
    # work March 2; 30 days later is April 1 (on time), 31 days later April 2 (late)
    assert submit(dane, now=_now(filed_on)).report.late is late


def test_report_moves_due_date_and_is_audited(dane, make_system, pumper_license):
    system = make_system(installed_on=D(2020, 6, 1))
    result = submit(dane)
    row = Schedule.objects.get(pk=system.pk)
    assert row.due_on == D(2029, 3, 2) and row.basis_kind == "pumping"
    assert AuditEvent.objects.filter(object_id=result.report.pk, action__contains="pumping report filed").exists()


def test_submitted_twice_is_recognised(dane, make_system, pumper_license):
    make_system()
    first = submit(dane)
    again = submit(dane, gallons_pumped="1200")
    assert first.created and again.duplicate and again.report.pk == first.report.pk
    assert Report.objects.count() == 1


def test_sps_383_255_unknown_system_goes_to_review_queue(dane, make_system, pumper_license):
    result = submit(dane, system_id="NOT-LISTED-7", location="5 Unmapped Rd")
    assert result.created and result.report.system is None and result.report.review_status == "pending"
    system = make_system(system_id="DA-77")
    report_match(report=result.report, system=system)
    assert Schedule.objects.get(pk=system.pk).due_on == D(2029, 3, 2)


def test_septic_inspection_needs_the_sludge_fraction(dane, make_system, plumber_license):
    make_system()
    with pytest.raises(MaintenanceRefused) as exc:
        submit(dane, kind="inspection", license_number="MP-1", gallons_pumped="")
    assert "sludge_scum_fraction" in exc.value.errors


def test_inspection_at_one_third_makes_pumping_due(dane, make_system, plumber_license):
    system = make_system(installed_on=D(2024, 6, 1))
    submit(dane, kind="inspection", license_number="MP-1", sludge_scum_fraction="1/3", gallons_pumped="")
    row = Schedule.objects.get(pk=system.pk)
    assert row.pumping_required and row.due_on == D(2026, 4, 1)


def test_failure_signs_flag_staff(dane, make_system, pumper_license, staff, mailoutbox, django_capture_on_commit_callbacks):
    staff.email = "sam@county.example"
    staff.save()
    system = make_system()
    with django_capture_on_commit_callbacks(execute=True):
        result = report_submit(jurisdiction=dane, data=_data(effluent_ponding="yes"), now=_now(D(2026, 3, 10)))
    assert result.report.failure_flag and Schedule.objects.get(pk=system.pk).failure_reported
    assert mailoutbox[0].to == ["sam@county.example"] and "ponding" in mailoutbox[0].body
    failure_reviewed(report=result.report)
    assert not Schedule.objects.get(pk=system.pk).failure_reported


def test_contractor_may_not_use_someone_elses_license(dane, make_system, pumper_license, make_user):
    make_system()
    other = make_user("otto", "pumper")
    with pytest.raises(MaintenanceRefused) as exc:
        report_submit(jurisdiction=dane, data=_data(), filed_by=other, now=_now(D(2026, 3, 10)))
    assert "not yours" in exc.value.errors["license_number"][0]


def test_a_report_within_the_year_of_a_year_only_installation_is_not_before_it(dane, make_system, pumper_license):
    """"installed 1987" is stored as 1987's last day (powts.kernel.precision); a report dated
    in 1987 is within the installation year, one dated in 1986 is before it."""
    make_system(installed_on=D(2025, 12, 31), installed_on_precision="year")
    submit(dane, work_date="2025-03-02")
    assert Report.objects.count() == 1
    with pytest.raises(MaintenanceRefused) as exc:
        submit(dane, work_date="2024-12-31")
    assert exc.value.errors["work_date"] == ["work_date 2024-12-31 is before the system was installed (2025)"]
