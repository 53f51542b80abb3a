"""Lincoln County Ch. 22 (draft), SEPTIC TANK MAINTENANCE PROGRAM (2): pumping is done by a certified septage servicing
operator; (3): a plumber may visually inspect. Dane sets no narrower rule than SPS 383.54(4)."""
import datetime as dt

import pytest
from django.utils import timezone

from powts.maintenance.errors import MaintenanceRefused
from powts.maintenance.models import Report
from powts.maintenance.services import report_submit

NOW = timezone.make_aware(dt.datetime(2026, 3, 10, 12, 0))


def _file(jurisdiction, kind, number):
    data = {"system_id": "LI-1", "kind": kind, "work_date": "2026-03-02", "license_number": number, "gallons_pumped": "1000",
            "sludge_scum_fraction": "0.2", "disposal_site": "Merrill WWTP"}
    return report_submit(jurisdiction=jurisdiction, data=data, now=NOW)


@pytest.fixture
def lincoln_system(make_system, lincoln):
    return make_system(system_id="LI-1", jurisdiction=lincoln, municipality="Town of Merrill")


def test_lincoln_stmp_2_plumber_pumping_report_is_refused(lincoln, lincoln_system, plumber_license):
    """Lincoln SEPTIC TANK MAINTENANCE PROGRAM (2): a pumping report under a master plumber's license is refused."""
    with pytest.raises(MaintenanceRefused) as exc:
        _file(lincoln, "pumping", "MP-1")
    message = exc.value.errors["license_number"][0]
    assert "certified septage servicing operator" in message and "SEPTIC TANK MAINTENANCE PROGRAM (2)" in message
    assert Report.objects.count() == 0


def test_lincoln_stmp_2_septage_operator_may_pump(lincoln, lincoln_system, pumper_license):
    """Lincoln SEPTIC TANK MAINTENANCE PROGRAM (2): the certified septage servicing operator's pumping report is accepted."""
    assert _file(lincoln, "pumping", "SSO-1").created


def test_lincoln_stmp_3_plumber_inspection_report_is_accepted(lincoln, lincoln_system, plumber_license):
    """Lincoln SEPTIC TANK MAINTENANCE PROGRAM (3): a plumber may inspect; only pumping is narrowed."""
    assert _file(lincoln, "inspection", "MP-1").created


def test_dane_plumber_pumping_report_is_accepted(dane, make_system, plumber_license):
    """Dane sets no narrower rule: SPS 383.54(4)'s list stands for every report kind."""
    make_system(system_id="LI-1")
    assert _file(dane, "pumping", "MP-1").created
