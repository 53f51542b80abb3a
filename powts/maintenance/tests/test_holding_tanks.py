"""Holding tanks: contract on file and the semiannual report, Dane County Code s. 46.06(5)(b)."""
import datetime as dt

import pytest

from powts.maintenance.errors import MaintenanceRefused
from powts.maintenance.models import Schedule
from powts.maintenance.services import contract_file, contract_on_file, holding_report_file

D = dt.date


def test_46_06_5_b_1_contract_on_file(dane, make_system, pumper_license):
    system = make_system(system_type="holding_tank")
    contract_file(system=system, provider_name="Perry Pumper", license_number="SSO-1", starts_on=D(2026, 1, 1), ends_on=D(2026, 12, 31))
    assert contract_on_file(system=system, on=D(2026, 12, 31))
    assert contract_on_file(system=system, on=D(2027, 1, 1)) is None


def test_lincoln_water_meter_only_where_the_ordinance_has_it(dane, lincoln, make_system):
    system = make_system(system_type="holding_tank")
    with pytest.raises(MaintenanceRefused) as exc:
        contract_file(system=system, provider_name="X", starts_on=D(2026, 1, 1), water_meter_required=True)
    assert "water_meter_required" in exc.value.errors
    other = make_system(system_id="LI-1", system_type="holding_tank", jurisdiction=lincoln)
    assert contract_file(system=other, provider_name="X", starts_on=D(2026, 1, 1), water_meter_required=True).water_meter_required


def _report(**kw):
    data = {"servicer_name": "Perry Pumper", "servicer_address": "PO Box 12, Verona", "owner_name": "Olive Owner",
            "location": "12 Lake Rd", "sanitary_permit_number": "2020-0001", "period_start": "2026-01-01", "period_end": "2026-06-30",
            "services": [{"date": "2026-02-01", "gallons": 3000, "disposal_site": "Nine Springs"},
                         {"date": "2026-05-01", "gallons": 2800, "disposal_site": "Nine Springs"}]}
    data.update(kw)
    return data


def test_46_06_5_b_2_items_a_to_g_and_due_date(dane, make_system):
    system = make_system(system_type="holding_tank", installed_on=D(2020, 1, 1))
    holding_report_file(system=system, data=_report(), today=D(2026, 7, 1))
    assert Schedule.objects.get(pk=system.pk).due_on == D(2026, 11, 1)
    # The system record (and its page) shows the last servicing the due date runs from.
    system.refresh_from_db()
    assert system.last_serviced_on == Schedule.objects.get(pk=system.pk).basis_on == D(2026, 5, 1)


@pytest.mark.parametrize("field", ["servicer_name", "servicer_address", "owner_name", "location", "sanitary_permit_number"])
def test_46_06_5_b_2_each_item_required(dane, make_system, field):
    system = make_system(system_type="holding_tank")
    with pytest.raises(MaintenanceRefused) as exc:
        holding_report_file(system=system, data=_report(**{field: ""}), today=D(2026, 7, 1))
    assert "46.06(5)(b)2." in exc.value.errors[field][0]


def test_46_06_5_b_2_gallons_and_disposal_site_each_time(dane, make_system):
    system = make_system(system_type="holding_tank")
    with pytest.raises(MaintenanceRefused) as exc:
        holding_report_file(system=system, data=_report(services=[{"date": "2026-02-01", "gallons": -1, "disposal_site": ""}]), today=D(2026, 7, 1))
    assert set(exc.value.errors) == {"services[0].gallons", "services[0].disposal_site"}


def test_lincoln_holding_tank_agreement_3_meter_reading_at_each_pumping(lincoln, make_system, pumper_license):
    from django.utils import timezone

    from powts.maintenance.services import report_submit

    system = make_system(system_id="LI-9", system_type="holding_tank", jurisdiction=lincoln)
    contract_file(system=system, provider_name="X", starts_on=D(2026, 1, 1), water_meter_required=True)
    data = {"system_id": "LI-9", "kind": "pumping", "work_date": "2026-03-01", "license_number": "SSO-1", "gallons_pumped": 2500}
    now = timezone.make_aware(timezone.datetime(2026, 3, 2, 9))
    with pytest.raises(MaintenanceRefused) as exc:
        report_submit(jurisdiction=lincoln, data=data, now=now)
    assert "HOLDING TANK MAINTENANCE AGREEMENT (3)" in exc.value.errors["water_meter_reading"][0]
    assert report_submit(jurisdiction=lincoln, data={**data, "water_meter_reading": "10432.5"}, now=now).created
