"""The Wisconsin Fund program's web pages as each role uses them: certification, submission, allocation,
payment and disbursement, and the what-if (s. 145.246)."""
import datetime as dt

import pytest
from django.test import Client

from powts.grants.models import AllocationRun, CountyCertification, CountyPayment, Disbursement, ParticipationApplication
from powts.grants.tests.program_helpers import application, inventory_system

FY = "2026-27"


@pytest.fixture
def world(dane, staff, make_user):
    inventory_system(dane)
    a = application(dane, table="5000")
    b = application(dane, table="3000", category=2)
    return {"staff": staff, "dsps": make_user("dee", "dsps"), "apps": (a, b), "county": dane}


def client_for(user):
    c = Client()
    c.force_login(user)
    return c


def test_county_certifies_and_submits_then_dsps_allocates_pays_and_county_disburses(world):
    staff, dsps = client_for(world["staff"]), client_for(world["dsps"])
    page = staff.get(f"/grants/program/county/?fiscal_year={FY}")
    assert page.status_code == 200 and b"February 1, 2026" in page.content
    staff.post("/grants/program/county/certify/", {"fiscal_year": FY, "official_name": "Sam S", "official_title": "Sanitarian",
                                                   "eligibility_and_costs": "1", "installed_and_maintained": "1",
                                                   "disbursed_to_eligible": "1"})
    assert CountyCertification.objects.get().official_title == "Sanitarian"
    r = staff.post("/grants/program/county/submit/", {"fiscal_year": FY, "received_on": "2026-02-01"}, follow=True)
    assert b"February 1, 2026" in r.content and b"145.246(7)(a)" in r.content  # refused, said on the page
    assert not ParticipationApplication.objects.exists()
    staff.post("/grants/program/county/submit/", {"fiscal_year": FY, "received_on": "2026-01-31"})
    part = ParticipationApplication.objects.get()
    assert dsps.get(f"/grants/program/state/?fiscal_year={FY}").status_code == 200
    assert staff.get(f"/grants/program/state/?fiscal_year={FY}").status_code == 403
    dsps.post(f"/grants/program/state/participations/{part.pk}/review/", {"decision": "meets"})
    part.refresh_from_db()
    assert part.status == "approved"
    r = dsps.post("/grants/program/state/allocations/", {"fiscal_year": FY, "funds": "7000"})
    run = AllocationRun.objects.get()
    assert r.status_code == 302 and r["Location"].endswith(f"/state/allocations/{run.pk}/")
    page = dsps.get(f"/grants/program/state/allocations/{run.pk}/")
    assert page.status_code == 200 and b"$7,000.00" in page.content and b"prorated" in page.content
    assert b"66.7%" in page.content  # category 2: 2,000 of 3,000 asked ((12)(b))
    csv = dsps.get(f"/grants/program/state/allocations/{run.pk}/?export=csv")
    body = b"".join(csv.streaming_content) if hasattr(csv, "streaming_content") else csv.content
    assert csv.status_code == 200 and b"2000.00" in body
    dsps.post(f"/grants/program/state/allocations/{run.pk}/pay/", {"jurisdiction": world["county"].pk, "paid_on": "2026-07-10"})
    pay = CountyPayment.objects.get()
    assert pay.amount == 7000_00
    staff.post(f"/grants/program/county/payments/{pay.pk}/disburse/", {"paid_on": "2026-07-20"})
    assert sorted(Disbursement.objects.values_list("amount", flat=True)) == [2000_00, 5000_00]


def test_whatif_page(world):
    staff = world["staff"]
    from powts.grants import participation

    participation.certify(jurisdiction=world["county"], fiscal_year=FY, user=staff, official_title="Sanitarian")
    participation.submit(jurisdiction=world["county"], fiscal_year=FY, user=staff, received_on=dt.date(2026, 1, 5))
    dsps = client_for(world["dsps"])
    r = dsps.get(f"/grants/program/state/what-if/?fiscal_year={FY}&funds=4000&base_funds=100000&income_limit=50000")
    assert r.status_code == 200 and b"Dane County" in r.content and b"2 lose" in r.content
    r = dsps.get(f"/grants/program/state/what-if/?fiscal_year={FY}&funds=lots")
    assert r.status_code == 400 and b"funds" in r.content
    assert client_for(staff).get("/grants/program/state/what-if/").status_code == 403
