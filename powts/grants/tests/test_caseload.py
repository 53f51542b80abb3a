"""The department's caseload (s. 145.246(11)(a)) decides stored applications as the county's decision did."""
import datetime as dt

from powts.grants import caseload, participation, services
from powts.grants.models import GrantDecision


def test_caseload_agrees_with_the_countys_decisions(dane, staff, make_system, determine, apply):
    """Built from the same records (determination, system, application), the batch gives each application the
    stored decision: eligibility, state share, category; one grant per residence ((3)(b)) included."""
    sys1, sys2 = make_system("DA-1"), make_system("DA-2", installed_on=dt.date(1975, 1, 1), address="40 Pine Rd")
    det1, det2 = determine(sys1, on=dt.date(2025, 9, 1)), determine(sys2, conditions=("d",), on=dt.date(2025, 9, 1))
    kw = dict(applied_on=dt.date(2025, 11, 3), today=dt.date(2025, 11, 3))
    apps = []
    for det, income in ((det1, 3_000_000), (det2, 4_100_000), (det1, 3_000_000), (det2, 5_000_000)):
        # the second for a residence comes after the first was decided: refused under (3)(b)
        apps.append(apply(det, annual_family_income=income, **kw))
        services.application_decide(application=apps[-1], by=staff)
    participation.certify(jurisdiction=dane, fiscal_year="2026-27", user=staff, official_title="Sanitarian")
    part = participation.submit(jurisdiction=dane, fiscal_year="2026-27", user=staff, received_on=dt.date(2026, 1, 9))
    load = caseload.load(participations=[part], carried_only=False)
    base = load.base()
    stored = {d.application_id: d for d in GrantDecision.objects.all()}
    assert load.application_ids == sorted(a.pk for a in apps)
    got = [(bool(base.eligible[i]), int(base.share[i]), int(base.category[i])) for i in range(load.n)]
    want = [(stored[i].eligible, stored[i].state_share, stored[i].category) for i in load.application_ids]
    reasons = {i: [r["test"] for r in stored[i].reasons] for i in load.application_ids}
    assert got == want, reasons
    assert [e for e, _, _ in got] == [True, True, False, False], reasons


def test_caseload_carries_the_allowable_costs(dane, staff, make_system, determine, apply):
    """s. 145.246(6)(a)-(c): the department's batch caps each grant at its recorded allowable costs, as the
    county's decision did ($3,000 under the table amount; none recorded: the table amount)."""
    sys1, sys2 = make_system("DA-1"), make_system("DA-2", address="40 Pine Rd")
    kw = dict(applied_on=dt.date(2025, 11, 3), today=dt.date(2025, 11, 3))
    costs = dict(claimed_cost=2_000_000, allowable_cost=300_000, meets_code_minimum=True, least_costly_method=True)
    for app in (apply(determine(sys1, on=dt.date(2025, 9, 1)), **costs, **kw),
                apply(determine(sys2, on=dt.date(2025, 9, 1)), **kw)):
        services.application_decide(application=app, by=staff)
    participation.certify(jurisdiction=dane, fiscal_year="2026-27", user=staff, official_title="Sanitarian")
    part = participation.submit(jurisdiction=dane, fiscal_year="2026-27", user=staff, received_on=dt.date(2026, 1, 9))
    load = caseload.load(participations=[part], carried_only=False)
    stored = {d.application_id: d.amount for d in GrantDecision.objects.all()}
    assert [int(a) for a in load.base().amount] == [stored[i] for i in load.application_ids]
    assert sorted(stored.values())[0] == 300_000
