"""Grant applications as records: create, decide (the law engine), withdraw, one grant per residence."""
import datetime as dt

import pytest

from powts.audit.models import AuditEvent
from powts.grants import services
from powts.grants.errors import GrantRefused
from powts.grants.models import GrantApplication, GrantDecision


def counts():
    return GrantApplication.objects.count(), GrantDecision.objects.count(), AuditEvent.objects.count()


@pytest.mark.django_db
def test_failure_facts_come_from_the_determination_not_retyped(apply, determination):
    """s. 145.246(1)(a), (3)(a): the application rests on the county's determination; its date and
    conditions are read from that record when the law decides."""
    app = apply(determination)
    assert app.failure_determination == determination and app.system == determination.system
    assert app.parcel == determination.system.parcel and app.owner == determination.system.parcel.owner
    decision = services.application_decide(application=app, by=app.created_by)
    assert decision.category == determination.category == 1
    assert determination.determined_on.isoformat() in decision.explanation
    assert decision.law_version == "145.246" and decision.decided_by == app.created_by


@pytest.mark.django_db
def test_no_failure_determination_is_refused_and_nothing_saved(staff):
    """s. 145.246(3)(a)1.: a determination of failure comes first; without one, refused naming the field."""
    before = counts()
    with pytest.raises(GrantRefused) as exc:
        services.application_create(
            by=staff, failure_determination=None, applied_on=dt.date(2026, 4, 1), source="paper",
            annual_family_income=3_000_000, income_tax_year=2025, income_evidence="prior_year_return",
            funding_table_amount=520_000)
    assert exc.value.field == "failure_determination" and "145.246" in exc.value.citation
    assert counts() == before


@pytest.mark.django_db
def test_income_without_tax_year_is_refused(apply, determination):
    """s. 145.246(3)(c)2.: income is the federal AGI for a named taxable year."""
    before = counts()
    with pytest.raises(GrantRefused) as exc:
        apply(determination, income_tax_year=None)
    assert exc.value.field == "income_tax_year" and "145.246(3)(c)" in exc.value.citation
    assert counts() == before


@pytest.mark.django_db
def test_prior_year_return_must_be_for_the_year_before_the_determination(apply, determination):
    """s. 145.246(3)(c)2.: 'the taxable year prior to the year in which the determination of failure is made'."""
    year = determination.determined_on.year
    with pytest.raises(GrantRefused) as exc:
        apply(determination, income_tax_year=year)
    assert exc.value.field == "income_tax_year"
    assert apply(determination, income_tax_year=year - 1).income_tax_year == year - 1


@pytest.mark.django_db
def test_current_year_evidence_is_for_the_year_of_the_application(apply, determination):
    """s. 145.246(3)(c)4.: the unit may use evidence of income in the current year instead."""
    with pytest.raises(GrantRefused):
        apply(determination, income_evidence="current_year_evidence", income_tax_year=2025)
    app = apply(determination, income_evidence="current_year_evidence", income_tax_year=2026)
    assert app.income_evidence == "current_year_evidence"


@pytest.mark.django_db
@pytest.mark.parametrize("income,eligible", [(4_500_000, True), (4_500_001, False)])
def test_income_limit_both_sides(apply, determination, income, eligible):
    """s. 145.246(3)(c)1.: family income may not exceed $45,000 ($45,000.00 passes, $45,000.01 fails)."""
    app = apply(determination, annual_family_income=income)
    decision = services.application_decide(application=app, by=app.created_by)
    assert decision.eligible is eligible
    app.refresh_from_db()
    assert app.status == ("eligible" if eligible else "ineligible")
    if not eligible:
        assert [r["test"] for r in decision.reasons] == ["income_limit"]
        assert decision.reasons[0]["citation"] == "Wis. Stat. s. 145.246(3)(c)1."


@pytest.mark.django_db
def test_a_decision_is_stored_with_version_explanation_amount_and_audit(apply, determination):
    """s. 145.246(6)(c)-(d): min($7,000, table $5,200) less nothing at $30,000 income = $5,200."""
    app = apply(determination)
    n_audit = AuditEvent.objects.count()
    d = services.application_decide(application=app, by=app.created_by)
    assert (d.eligible, d.amount, d.state_share) == (True, 520_000, 520_000)
    assert "$5,200.00" in d.explanation and d.reasons == []
    assert AuditEvent.objects.count() == n_audit + 2  # the decision and the status change


@pytest.mark.django_db
def test_one_grant_per_residence_across_counties_and_years(apply, determination, make_system, determine, lincoln,
                                                             make_user):
    """s. 145.246(3)(b): each residence may receive only one grant. An eligible application in another
    county, another fiscal year, for the same place makes the next one ineligible, naming the test."""
    first = apply(determination)
    assert services.application_decide(application=first, by=first.created_by).eligible
    other_staff = make_user("lin", "county_staff", lincoln)
    other = make_system(system_id="LI-9", jurisdiction=lincoln)  # same street address and municipality
    det = determine(other, on=dt.date(2027, 3, 1))
    second = apply(det, by=other_staff, applied_on=dt.date(2027, 4, 1), income_tax_year=2026, today=dt.date(2027, 5, 1))
    assert second.fiscal_year != first.fiscal_year and second.jurisdiction != first.jurisdiction
    d = services.application_decide(application=second, by=other_staff)
    assert not d.eligible
    assert [r["test"] for r in d.reasons] == ["one_grant"]
    assert d.reasons[0]["citation"] == "Wis. Stat. s. 145.246(3)(b)" and str(first.pk) in d.reasons[0]["found"]


@pytest.mark.django_db
def test_a_different_address_is_not_a_prior_grant(apply, determination, make_system, determine):
    """s. 145.246(3)(b) counts grants for the same residence only."""
    first = apply(determination)
    services.application_decide(application=first, by=first.created_by)
    other = make_system(system_id="DA-2", address="14 Lake Rd")
    second = apply(determine(other))
    assert services.application_decide(application=second, by=second.created_by).eligible


@pytest.mark.django_db
def test_second_pending_application_for_one_residence_is_refused(apply, determination):
    """s. 145.246(3)(b): one application waiting per residence; the second is refused, nothing saved."""
    apply(determination)
    before = counts()
    with pytest.raises(GrantRefused) as exc:
        apply(determination)
    assert exc.value.citation == "Wis. Stat. s. 145.246(3)(b)" and counts() == before


@pytest.mark.django_db
def test_owner_applies_for_own_system_only(apply, determination, make_user, owner_user, make_system, determine):
    app = apply(determination, by=owner_user, source="online")
    assert app.created_by == owner_user and app.source == "online"
    stranger = make_user("sid", "owner")
    other = make_system(system_id="DA-3", address="99 Hill Rd")
    with pytest.raises(GrantRefused):
        apply(determine(other), by=stranger, source="online")


@pytest.mark.django_db
def test_owner_cannot_decide(apply, determination, owner_user):
    app = apply(determination, by=owner_user, source="online")
    with pytest.raises(GrantRefused):
        services.application_decide(application=app, by=owner_user)
    assert not GrantDecision.objects.exists()


@pytest.mark.django_db
def test_withdraw_then_decide_is_refused(apply, determination, owner_user, staff):
    app = apply(determination, by=owner_user, source="online")
    services.application_withdraw(application=app, by=owner_user)
    assert GrantApplication.objects.get().status == "withdrawn"
    with pytest.raises(GrantRefused):
        services.application_withdraw(application=app, by=owner_user)
    with pytest.raises(GrantRefused):
        services.application_decide(application=app, by=staff)


@pytest.mark.django_db
def test_holding_tank_is_not_the_least_cost_benchmark(apply, determination):
    """s. 145.246(6)(b): a holding tank may not be the measure of the least costly method for another system."""
    base = dict(claimed_cost=2_000_000, allowable_cost=1_500_000, meets_code_minimum=True, least_costly_method=True)
    with pytest.raises(GrantRefused) as exc:
        apply(determination, cost_benchmark="holding_tank", **base)
    assert exc.value.field == "cost_benchmark" and exc.value.citation == "Wis. Stat. s. 145.246(6)(b)"
    assert apply(determination, cost_benchmark="mound", **base).allowable_cost == 1_500_000


@pytest.mark.django_db
@pytest.mark.parametrize("flag,citation", [("meets_code_minimum", "(6)(a)"), ("least_costly_method", "(6)(b)")])
def test_allowable_costs_need_code_minimum_and_least_cost(apply, determination, flag, citation):
    """s. 145.246(6)(a)-(b): allowable costs only to the code minimum, by the least costly method."""
    values = dict(claimed_cost=2_000_000, allowable_cost=1_500_000, meets_code_minimum=True, least_costly_method=True)
    values[flag] = False
    with pytest.raises(GrantRefused) as exc:
        apply(determination, **values)
    assert exc.value.field == flag and exc.value.citation.endswith(citation)


@pytest.mark.django_db
def test_allowable_cost_above_claimed_is_refused(apply, determination):
    with pytest.raises(GrantRefused) as exc:
        apply(determination, claimed_cost=100_000, allowable_cost=100_001, meets_code_minimum=True,
              least_costly_method=True)
    assert exc.value.field == "allowable_cost"


@pytest.mark.django_db
@pytest.mark.parametrize("applied_on,fy", [(dt.date(2026, 1, 31), "2026-27"), (dt.date(2026, 2, 1), "2027-28")])
def test_fiscal_year_follows_the_february_1_participation_deadline(apply, determine, system, applied_on, fy):
    """s. 145.246(7)(a): the county applies before February 1 of the previous fiscal year."""
    det = determine(system, on=dt.date(2026, 1, 5))
    app = apply(det, applied_on=applied_on, income_tax_year=2025)
    assert app.fiscal_year == fy


@pytest.mark.django_db
@pytest.mark.parametrize("allowable, amount", [(519_999, 519_999), (520_000, 520_000), (None, 520_000)])
def test_recorded_allowable_costs_cap_the_decided_grant(apply, determination, allowable, amount):
    """s. 145.246(6)(a)-(c): the law engine caps the grant at the recorded allowable costs (table $5,200)."""
    costs = dict(claimed_cost=2_000_000, allowable_cost=allowable, meets_code_minimum=True, least_costly_method=True)
    app = apply(determination, **costs)
    d = services.application_decide(application=app, by=app.created_by)
    assert (d.eligible, d.amount) == (True, amount)
    assert ("limited by the allowable costs" in d.explanation) is (amount < 520_000)
