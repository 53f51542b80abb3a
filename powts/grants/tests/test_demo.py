"""`powts demo` loads a fiscal year of grant applications for the demo county."""
import datetime as dt

import pytest

from powts.grants import demo
from powts.grants.models import GrantApplication, GrantDecision


@pytest.mark.django_db
def test_demo_loads_a_fiscal_year_once(dane, make_user, make_system, owner_user):
    from powts.core.demo_people import demo_name

    make_user(demo_name("staff", "dane"), "county_staff", dane)
    for i in range(4):
        make_system(system_id=f"DA-{i}", address=f"{i} Lake Rd", installed_on=dt.date(1965 + i, 1, 1))
    summary = demo.load(dane)
    apps = GrantApplication.objects.filter(jurisdiction=dane)
    assert apps.count() == 4 + demo.FILE_ROWS and set(apps.values_list("fiscal_year", flat=True)) == {"2026-27"}
    assert set(apps.values_list("source", flat=True)) == {"paper", "import"}
    assert apps.filter(status="eligible").exists() and apps.filter(status="ineligible").exists()
    assert GrantDecision.objects.count() == apps.exclude(status="received").count()
    assert all(demo.FIRST_DAY <= d <= demo.LAST_DAY for d in apps.values_list("applied_on", flat=True))
    assert "imported" in summary
    assert demo.load(dane) == "already there"
