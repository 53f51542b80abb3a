"""`powts grants certify|submit|allocate`: s. 145.246(7)(a), (8), (11)-(12)."""
import csv

import pytest

from powts.grants.models import AllocationRun, CountyCertification, ParticipationApplication
from powts.grants.tests.program_helpers import application, inventory_system


@pytest.fixture
def county(dane):
    inventory_system(dane)
    return dane


def test_certify_submit_allocate(cli, county, staff, make_user, tmp_path):
    make_user("dee", "dsps")
    a = application(county, table="5000")
    b = application(county, table="3000", category=2)
    code, out, err = cli("grants", "certify", "--jurisdiction", "dane", "--fiscal-year", "2026-27", "--user", "sam")
    assert code == 0, err
    assert CountyCertification.objects.get().certified_by == staff
    code, out, err = cli("grants", "submit", "--jurisdiction", "dane", "--fiscal-year", "2026-27", "--on", "2026-01-31",
                         "--user", "sam")
    assert code == 0, err
    assert "2 eligible" in out
    target = tmp_path / "alloc.csv"
    code, out, err = cli("grants", "allocate", "--fiscal-year", "2026-27", "--funds", "7000", "--output", str(target),
                         "--user", "dee")
    assert code == 0, err
    rows = list(csv.DictReader(open(target)))
    assert [(r["id"], r["jurisdiction"], r["category"], r["share"], r["award"]) for r in rows] == [
        (str(a.pk), "dane", "1", "5000.00", "5000.00"), (str(b.pk), "dane", "2", "3000.00", "2000.00")]
    summary = {(r["jurisdiction"], r["category"]): r for r in csv.DictReader(open(tmp_path / "alloc.summary.csv"))}
    assert summary[("dane", "all")]["award"] == "7000.00" and summary[("ALL", "2")]["award"] == "2000.00"


def test_submit_on_february_1_exits_non_zero_with_reason(cli, county, staff, monkeypatch):
    """s. 145.246(7)(a): on February 1, 2026 -> refused, non-zero exit, the reason and citation; nothing saved."""
    application(county)
    monkeypatch.setenv("POWTS_USER", "sam")
    assert cli("grants", "certify", "--jurisdiction", "dane", "--fiscal-year", "2026-27")[0] == 0
    code, out, err = cli("grants", "submit", "--jurisdiction", "dane", "--fiscal-year", "2026-27", "--on", "2026-02-01")
    assert code != 0 and "February 1, 2026" in err and "145.246(7)(a)" in err and "Traceback" not in err
    assert not ParticipationApplication.objects.exists()


def test_submit_without_conditions_exits_non_zero(cli, county, staff):
    application(county)
    code, out, err = cli("grants", "submit", "--jurisdiction", "dane", "--fiscal-year", "2026-27", "--on", "2026-01-05",
                         "--user", "sam")
    assert code != 0 and "not certified" in err


def test_certify_by_someone_not_county_staff_refused(cli, county, make_user):
    """Bad input: a certification by someone not that county's staff."""
    make_user("dee", "dsps")
    code, out, err = cli("grants", "certify", "--jurisdiction", "dane", "--fiscal-year", "2026-27", "--user", "dee")
    assert code != 0 and "not Dane County staff" in err
    code, out, err = cli("grants", "certify", "--jurisdiction", "dane", "--fiscal-year", "2026-27")
    assert code != 0 and "--user" in err
    assert not CountyCertification.objects.exists()


def test_allocate_with_no_participating_county_refused(cli, db, tmp_path):
    code, out, err = cli("grants", "allocate", "--fiscal-year", "2026-27", "--funds", "1000", "--output",
                         str(tmp_path / "a.csv"))
    assert code != 0 and "nothing to allocate" in err and "145.246(11)" in err
    assert not AllocationRun.objects.exists()


def test_allocate_bad_funds(cli, db, tmp_path):
    code, out, err = cli("grants", "allocate", "--fiscal-year", "2026-27", "--funds", "lots", "--output",
                         str(tmp_path / "a.csv"))
    assert code != 0 and "--funds" in err
