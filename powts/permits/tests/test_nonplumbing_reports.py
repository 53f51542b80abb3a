"""Nonplumbing systems' servicing reports in the maintenance program: Lincoln Limitations and
Allowable Uses (6)-(7) and Sanitary Permits (7)-(8) (portable restrooms and RV transfer containers, "maintained
pursuant to this Ordinance", an annual permit); Dane s. 46.06(6) (privies under a county sanitary permit).

The permit's final approval puts the unit in the inventory with its own type (not as a septic system), and a
pumper's report on it is accepted like any other report and moves its due date."""
import datetime as dt

import pytest

from powts.accounts.services import license_create
from powts.inventory.models import System
from powts.maintenance.errors import MaintenanceRefused
from powts.maintenance.models import Schedule
from powts.maintenance.services import report_submit
from powts.permits import services
from powts.permits.selectors import stages_for
from powts.permits.tests.conftest import issue

D = dt.date
T = lambda y, m, d: dt.datetime(y, m, d, 12, tzinfo=dt.UTC)  # noqa: E731


@pytest.fixture
def pumper(make_user):
    return license_create(kind="septage_operator", number="SSO-41", holder_name="Sal Septage", user=make_user("sal", "pumper"))


def _installed(jurisdiction, master, **kw):
    permit = issue(jurisdiction, master, issued_on=D(2026, 4, 1), kind="nonplumbing", **kw)
    for stage in stages_for(permit):
        if not stage.optional:
            insp = services.inspection_request(permit=permit, stage=stage.id, notice_at=T(2026, 4, 20),
                                               requested_day=D(2026, 4, 24))
            services.inspection_record(inspection=insp, result="passed", on=D(2026, 4, 24))
    services.permit_final_approve(permit=permit, on=D(2026, 4, 27))
    permit.refresh_from_db()
    return System.objects.get(pk=permit.system_id)


def _report(jurisdiction, system, pumper, kind="pumping", work="2026-09-01", **extra):
    return report_submit(jurisdiction=jurisdiction, filed_by=pumper.user, now=T(2026, 9, 3),
                         data={"system_id": system.system_id, "kind": kind, "work_date": work,
                               "license_number": pumper.number, "gallons_pumped": "60", **extra})


LINCOLN_RESTROOM_DOCS = ["product_approval", "management_plan"]
LINCOLN_CONTAINER_DOCS = ["product_approval", "management_plan", "campground_permit"]


@pytest.mark.parametrize("nonplumbing_kind, docs, extra", [
    ("portable_restroom", LINCOLN_RESTROOM_DOCS, {"placement_days": 120}),
    ("rv_transfer_container", LINCOLN_CONTAINER_DOCS, {"container_gallons": 300}),
])
def test_lincoln_limitations_6_7_unit_enters_the_program_and_its_pumping_report_is_accepted(lincoln, master, pumper,
                                                                                         nonplumbing_kind, docs, extra):
    """Lincoln Limitations (6)-(7): the unit is "maintained pursuant to this Ordinance" under an annual permit:
    in the inventory as its own type, due 12 months after installation, and the pumper's report moves that date."""
    system = _installed(lincoln, master, nonplumbing_kind=nonplumbing_kind, extra_docs=docs, **extra)
    assert system.system_type == nonplumbing_kind
    row = Schedule.objects.get(pk=system.pk)
    assert (row.rule, row.due_on, row.exempt) == ("annual_permit", D(2027, 4, 24), False)
    result = _report(lincoln, system, pumper)
    assert result.created and result.report.system_id == system.pk and result.report.review_status == ""
    assert Schedule.objects.get(pk=system.pk).due_on == D(2027, 9, 1)


def test_dane_46_06_6_privy_permit_puts_a_privy_in_the_inventory_and_its_servicing_report_is_accepted(dane, master, pumper):
    """Dane s. 46.06(6)(a): a county sanitary permit before installing any privy; once approved the privy is in
    the inventory as a privy (no three-year septic cycle: a pit privy has no tank on a cycle), and a servicing
    report on it is accepted and kept on its record."""
    system = _installed(dane, master, nonplumbing_kind="privy")
    assert system.system_type == "pit_privy"
    assert Schedule.objects.get(pk=system.pk).exempt
    result = _report(dane, system, pumper, kind="servicing", components_serviced="vault emptied")
    assert result.created and system.maintenance_reports.get().components_serviced == "vault emptied"


def test_a_report_on_a_nonplumbing_unit_still_needs_its_license(lincoln, master, pumper):
    """The same rules as any report (SPS 383.55): an unknown license is refused and nothing is stored."""
    system = _installed(lincoln, master, nonplumbing_kind="portable_restroom", extra_docs=LINCOLN_RESTROOM_DOCS,
                        placement_days=120)
    with pytest.raises(MaintenanceRefused) as exc:
        report_submit(jurisdiction=lincoln, filed_by=pumper.user, now=T(2026, 9, 3),
                      data={"system_id": system.system_id, "kind": "pumping", "work_date": "2026-09-01",
                            "license_number": "NOPE-1", "gallons_pumped": "60"})
    assert "license_number" in exc.value.errors
    assert not system.maintenance_reports.exists()
