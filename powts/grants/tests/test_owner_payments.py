"""The owner's page of their grant disbursement (s. 145.246(8)(g)) and, when they are the
claimant, their well compensation payments (s. 281.75(5)(f)); their own only."""
import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from powts.grants import allocating, participation, services
from powts.grants.tests.program_helpers import application

pytestmark = pytest.mark.django_db


def client_for(user):
    c = Client()
    c.force_login(user)
    return c


def well_row(id_, supply):
    return {"id": id_, "supply_id": supply, "claimant_type": "landowner", "supply_use": "residential",
            "well_kind": "drilled", "dwelling_units": 1, "sample_dates": "2024-01-01;2024-01-15", "lab_certified": True,
            "annual_family_income": "30000", "eligible_costs": "8000", "claimed_on": "2024-02-01",
            "completed_on": "2024-02-10"}


@pytest.fixture
def paid(dane, staff, make_user, determination, apply, system):
    """Olive's application and a stranger's on the same county, allocated, paid to the county and disbursed;
    a well claim of Olive's and one of someone else's, in one payment run."""
    from powts.wells import services as wells
    from powts.wells.models import WellClaim

    app = apply(determination)
    services.application_decide(application=app, by=staff)
    other = application(dane, fiscal_year=app.fiscal_year, table="3000", applied_on="2026-04-01")
    fy = app.fiscal_year
    participation.certify(jurisdiction=dane, fiscal_year=fy, user=staff, official_title="Sanitarian")
    start = int(fy[:4])
    participation.submit(jurisdiction=dane, fiscal_year=fy, user=staff, received_on=dt.date(start - 1, 12, 1))
    dsps = make_user("dee", "dsps")
    run = allocating.run_allocation(fiscal_year=fy, funds_cents=1_000_000_00, user=dsps)
    pay = allocating.pay_county(run=run, jurisdiction=dane, user=dsps, paid_on=dt.date(start, 7, 15))
    allocating.disburse(payment=pay, user=staff, paid_on=dt.date(start, 7, 20))
    wells.claims_import(rows=[well_row("W-OLIVE", "S1"), well_row("W-OTHER", "S2")])
    WellClaim.objects.filter(claim_id="W-OLIVE").update(owner=system.parcel.owner)
    WellClaim.objects.filter(claim_id="W-OTHER").update(owner=None, claimant_name="Somebody Else")
    wells.payment_run(funds=1_200_000, on=dt.date(2024, 6, 1))
    return app, other


def test_owner_sees_own_disbursement_and_well_payment_only(paid, owner_user):
    app, other = paid
    page = client_for(owner_user).get(reverse("grants:my-payments"))
    assert page.status_code == 200
    html = page.content.decode()
    assert reverse("grants:detail", args=[app.pk]) in html and "$5,200.00" in html  # the table amount, paid in full
    assert reverse("grants:detail", args=[other.pk]) not in html and "$3,000.00" not in html
    lines = list(page.context["well_lines"])
    assert [x.claim.claim_id for x in lines] == ["W-OLIVE"] and lines[0].paid == 600_000
    assert "water supply S1" in html and "water supply S2" not in html


def test_another_owner_sees_none_of_it(paid, make_user):
    page = client_for(make_user("otto", "owner")).get(reverse("grants:my-payments"))
    assert page.status_code == 200
    assert not page.context["disbursements"] and not page.context["well_lines"]
    assert "No grant has been paid to you yet" in page.content.decode()


@pytest.mark.parametrize("role", ["county_staff", "dsps", "dnr"])
def test_only_owners_open_the_page(paid, make_user, dane, role):
    user = make_user(f"u-{role}", role, dane if role == "county_staff" else None)
    assert client_for(user).get(reverse("grants:my-payments")).status_code == 403
