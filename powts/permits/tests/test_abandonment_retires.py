"""The abandonment retires the old system in the inventory, and no maintenance notice follows:
Dane s. 46.11(5)2. (the owner's final report of abandonment) and Lincoln Abandonment of Private Sewage Systems (1)
(the components abandoned by the plumber installing the replacement, retired at the replacement's final approval)."""
import datetime as dt

from powts.inventory.services import system_create
from powts.maintenance.models import Schedule
from powts.maintenance.notices import notices_send
from powts.maintenance.services import report_submit, schedule_sync
from powts.permits import services
from powts.permits.selectors import stages_for
from powts.permits.tests.conftest import issue

D = dt.date


def _old_system(jurisdiction, parcel, system_id):
    return system_create(jurisdiction=jurisdiction, system_id=system_id, parcel_number=parcel.parcel_number,
                         system_type="conventional", owner_name=parcel.owner.name, owner_mailing_address="1 Main St, Merrill, WI 54452",
                         installed_on=D(2020, 1, 1))


def _due_letters(jurisdiction, system, as_of, tmp_path):
    """The letters a batch mailed on `as_of` would send for `system` (the real batch, not a flag)."""
    notices_send(jurisdiction=jurisdiction, as_of=as_of, output_dir=tmp_path, email=False)
    return system.maintenance_notices.count()


def _pass_inspections(permit, on):
    for stage in stages_for(permit):
        if not stage.optional:
            insp = services.inspection_request(permit=permit, stage=stage.id,
                                               notice_at=dt.datetime(2026, 5, 1, 8, tzinfo=dt.UTC), requested_day=on)
            services.inspection_record(inspection=insp, result="passed", on=on)


def test_lincoln_abandonment_1_the_replaced_system_is_retired_at_final_approval_and_gets_no_notice(lincoln, master, tmp_path):
    """Lincoln Abandonment (1): the replacement permit (its `replaces_system` box ticked, whatever its work
    words say) is finally approved after the plumber records the abandonment; the old system is retired, its
    schedule ends, and the batch mailed after its due date sends it no letter."""
    permit = issue(lincoln, master, issued_on=D(2026, 4, 1), replaces_system=True, work="new system for the house")
    old = _old_system(lincoln, permit.parcel, "LC-OLD")
    schedule_sync(jurisdiction=lincoln)
    assert not Schedule.objects.get(pk=old.pk).exempt
    _pass_inspections(permit, D(2026, 5, 12))
    services.replaced_components_abandon(permit=permit, plumber=master, components="septic tank and drainfield",
                                         method="crushed_filled", abandoned_on=D(2026, 5, 12))
    services.permit_final_approve(permit=permit, on=D(2026, 5, 15))
    old.refresh_from_db()
    assert old.status == "replaced"
    assert Schedule.objects.get(pk=old.pk).exempt
    assert _due_letters(lincoln, old, D(2029, 6, 1), tmp_path) == 0


def test_dane_46_11_5_2_final_report_retires_the_system_and_no_notice_follows(dane, master, tmp_path, make_user):
    """Dane s. 46.11(5)2.: the final report of abandonment retires the system; a batch mailed when it would
    have been due sends it nothing, while an active system on the same day gets its letter (the other side)."""
    from powts.accounts.services import license_create

    pumper = license_create(kind="septage_operator", number="SSO-9", holder_name="Sam Septic", user=make_user("sam", "pumper"))
    permit = issue(dane, master, issued_on=D(2026, 4, 1))
    old = _old_system(dane, permit.parcel, "DA-OLD")
    other = system_create(jurisdiction=dane, system_id="DA-KEEP", parcel_number="P-KEEP", system_type="conventional",
                          owner_name="Kim Keep", owner_mailing_address="2 Elm St, Verona, WI 53593", site_address="2 Elm St",
                          installed_on=D(2020, 1, 1))
    schedule_sync(jurisdiction=dane)
    report_submit(jurisdiction=dane, filed_by=pumper.user, now=dt.datetime(2026, 5, 4, 12, tzinfo=dt.UTC),
                  data={"system_id": "DA-OLD", "kind": "abandonment", "work_date": "2026-05-01", "license_number": "SSO-9",
                        "gallons_pumped": "900", "abandonment_method": "crushed_filled"})
    old.refresh_from_db()
    assert old.status == "abandoned"
    assert _due_letters(dane, old, D(2026, 6, 1), tmp_path) == 0
    assert other.maintenance_notices.count() == 1
