"""The department's side: allocation (s. 145.246(11)-(12)), payment ((13)(b)), disbursement ((8)(g)), what-if."""
import datetime as dt
from decimal import Decimal

import pytest

from powts.core.refusals import Refused
from powts.grants import allocating, participation, whatif
from powts.grants.models import AllocationLine, AllocationRun, Disbursement
from powts.grants.tests.program_helpers import application, inventory_system

FY = "2026-27"


@pytest.fixture
def dsps(make_user):
    return make_user("dee", "dsps")


@pytest.fixture
def lstaff(make_user, lincoln):
    return make_user("lin", "county_staff", lincoln)


def join(county, user, apps):
    inventory_system(county, f"S-{county.slug}")
    participation.certify(jurisdiction=county, fiscal_year=FY, user=user, official_title="Sanitarian")
    made = [application(county, **kw) for kw in apps]
    part = participation.submit(jurisdiction=county, fiscal_year=FY, user=user, received_on=dt.date(2026, 1, 15))
    return part, made


def awards(run):
    return dict(run.lines.values_list("application_id", "award"))


def test_no_participating_county_refused(db, dsps):
    """Bad input: an allocation with no participating county is refused; nothing stored."""
    with pytest.raises(Refused) as e:
        allocating.run_allocation(fiscal_year=FY, funds_cents=100_000_00, user=dsps)
    assert "fiscal_year" in e.value.errors and "145.246(11)" in e.value.citation
    assert not AllocationRun.objects.exists()


def test_enough_funds_every_share_awarded_11b(dane, lincoln, staff, lstaff, dsps):
    """(11)(b): each county's allocation is the total state share of its eligible applications."""
    join(dane, staff, [{"table": "5000"}, {"table": "6000", "category": 2}])
    join(lincoln, lstaff, [{"table": "4000"}])
    run = allocating.run_allocation(fiscal_year=FY, funds_cents=1_000_000_00, user=dsps)
    lines = list(run.lines.order_by("application_id"))
    assert [(ln.state_share, ln.award, ln.status) for ln in lines] == [(500000, 500000, "funded"), (600000, 600000, "funded"),
                                                                     (400000, 400000, "funded")]
    assert allocating.county_total(run, dane) == 1_100_000 and allocating.county_total(run, lincoln) == 400000
    assert run.law_version == "145.246" and run.run_by == dsps


def test_short_funds_category_1_full_category_2_prorated_12b(dane, staff, dsps):
    """(12)(b): funds cover category 1 but not category 2: category 1 in full, category 2 proportionally."""
    _, (c1, c2a, c2b) = join(dane, staff, [{"table": "5000"}, {"table": "3000", "category": 2},
                                           {"table": "1000", "category": 2}])
    run = allocating.run_allocation(fiscal_year=FY, funds_cents=7000_00, user=dsps)
    got = awards(run)
    assert got[c1.pk] == 5000_00 and got[c2a.pk] == 1500_00 and got[c2b.pk] == 500_00
    assert sum(got.values()) == 7000_00


def test_short_funds_category_1_prorated_category_2_denied_12c(dane, staff, dsps):
    """(12)(c): funds do not cover category 1: category 1 proportionally, category 2 denied."""
    _, (a, b, c) = join(dane, staff, [{"table": "6000"}, {"table": "2000"}, {"table": "1000", "category": 2}])
    run = allocating.run_allocation(fiscal_year=FY, funds_cents=4000_00, user=dsps)
    got = awards(run)
    assert (got[a.pk], got[b.pk], got[c.pk]) == (3000_00, 1000_00, 0)
    assert run.lines.get(application=c).status == "denied"


def test_small_commercial_capped_at_10_percent_11c(dane, staff, dsps):
    """(11)(c): small commercial establishments get at most 10% of the funds (the law module's cap)."""
    _, apps = join(dane, staff, [{"table": "5000", "business": True}, {"table": "5000"}])
    run = allocating.run_allocation(fiscal_year=FY, funds_cents=20000_00, user=dsps)
    got = awards(run)
    assert got[apps[0].pk] == 2000_00 and got[apps[1].pk] == 5000_00


def test_run_is_reproducible_from_its_lines(dane, lincoln, staff, lstaff, dsps):
    """A stored run replays to the same awards; the same inputs give the same digest and lines."""
    join(dane, staff, [{"table": "5000"}, {"table": "3000", "category": 2}, {"table": "2500", "experimental": True}])
    join(lincoln, lstaff, [{"table": "4000"}, {"table": "1234.56", "category": 2}])
    run = allocating.run_allocation(fiscal_year=FY, funds_cents=9000_00, user=dsps)
    again = allocating.run_allocation(fiscal_year=FY, funds_cents=9000_00, user=dsps)
    assert run.inputs_digest == again.inputs_digest and awards(run) == awards(again)
    replayed = allocating.replay(run)
    stored = list(run.lines.order_by("application_id").values_list("award", "status"))
    assert [(int(x), s) for x, s in zip(replayed.award, replayed.status)] == stored


def test_revised_item_and_county_left_out_11a(dane, lincoln, staff, lstaff, dsps):
    """(11)(a): an application taken out, and a county whose determination was revised, get nothing."""
    dpart, (d1, d2) = join(dane, staff, [{"table": "5000"}, {"table": "5000"}])
    lpart, _ = join(lincoln, lstaff, [{"table": "4000"}])
    participation.revise_item(item=dpart.items.get(application=d2), user=dsps, reason="not a principal residence")
    participation.revise_county(participation=lpart, user=dsps, reason="no maintenance program administered")
    run = allocating.run_allocation(fiscal_year=FY, funds_cents=1_000_000_00, user=dsps)
    assert list(run.lines.values_list("application_id", flat=True)) == [d1.pk]


def test_county_staff_cannot_allocate(dane, staff):
    with pytest.raises(Refused):
        allocating.run_allocation(fiscal_year=FY, funds_cents=1, user=staff)


def test_payment_and_full_disbursement_8g(dane, staff, dsps):
    """(13)(b) payment of the allocation; (8)(g) each owner paid the amount approved."""
    _, (a, b) = join(dane, staff, [{"table": "5000"}, {"table": "3000", "category": 2}])
    run = allocating.run_allocation(fiscal_year=FY, funds_cents=1_000_000_00, user=dsps)
    pay = allocating.pay_county(run=run, jurisdiction=dane, user=dsps, paid_on=dt.date(2026, 7, 15))
    assert pay.amount == 8000_00
    with pytest.raises(Refused):
        allocating.pay_county(run=run, jurisdiction=dane, user=dsps)  # once per county and year
    with pytest.raises(Refused):
        allocating.disburse(payment=pay, user=dsps)  # the county disburses, not DSPS
    made = allocating.disburse(payment=pay, user=staff, paid_on=dt.date(2026, 7, 20))
    assert sorted((d.application_id, d.amount) for d in made) == [(a.pk, 5000_00), (b.pk, 3000_00)]


def test_short_payment_prorated_on_same_basis_as_12_8g(dane, staff, dsps):
    """(8)(g): a county that receives less prorates on the same basis as (12): category 1 first."""
    _, (a, b) = join(dane, staff, [{"table": "5000"}, {"table": "3000", "category": 2}])
    run = allocating.run_allocation(fiscal_year=FY, funds_cents=1_000_000_00, user=dsps)
    with pytest.raises(Refused) as e:
        allocating.pay_county(run=run, jurisdiction=dane, user=dsps, amount_cents=8000_01)  # more than allocated
    assert "amount" in e.value.errors
    pay = allocating.pay_county(run=run, jurisdiction=dane, user=dsps, amount_cents=6000_00, paid_on=dt.date(2026, 7, 15))
    with pytest.raises(Refused):
        allocating.disburse(payment=pay, user=staff, paid_on=dt.date(2026, 7, 14))  # before the money came
    assert not Disbursement.objects.exists()
    made = {d.application_id: d for d in allocating.disburse(payment=pay, user=staff, paid_on=dt.date(2026, 7, 15))}
    assert made[a.pk].amount == 5000_00 and made[b.pk].amount == 1000_00
    assert "(8)(g)" in made[b.pk].note


def test_whatif_income_limit_and_funds(dane, lincoln, staff, lstaff, dsps):
    """The same caseload under a higher income limit ((3)(c)1.) and less money: winners and losers by county."""
    join(dane, staff, [{"table": "5000"}, {"table": "5000", "income": "44000"}])
    join(lincoln, lstaff, [{"table": "4000", "income": "20000"}])
    base = whatif.run(fiscal_year=FY, funds_cents=1_000_000_00)
    assert base.cost == base.base_cost and base.winners == base.losers == 0
    cheaper = whatif.run(fiscal_year=FY, funds_cents=5000_00, base_funds_cents=1_000_000_00)
    assert cheaper.cost == 5000_00 and cheaper.losers == 3
    lower = whatif.run(fiscal_year=FY, funds_cents=1_000_000_00, income_limit_cents=40000_00)
    by = {c.slug: c for c in lower.counties}
    assert by["dane"].no_longer_eligible == 1 and by["dane"].losers == 1 and by["lincoln"].losers == 0
    higher = whatif.run(fiscal_year=FY, funds_cents=1_000_000_00, income_limit_cents=50000_00)
    assert higher.applications == 3 and higher.winners == 0  # nobody over the limit applied yet
    application(dane, table="5000", income="46000")  # over $45,000: not eligible, not carried
    higher = whatif.run(fiscal_year=FY, funds_cents=1_000_000_00, income_limit_cents=50000_00)
    by = {c.slug: c for c in higher.counties}
    assert higher.applications == 4 and by["dane"].newly_eligible == 1 and by["dane"].winners == 1
    assert higher.cost - higher.base_cost == 800_00  # 5,000 - 30% x (46,000 - 32,000), s. 145.246(6)(d)
    bigger = whatif.run(fiscal_year=FY, funds_cents=1_000_000_00, table_percent=Decimal("110"))
    assert bigger.cost > bigger.base_cost and bigger.winners == 3
    assert not AllocationLine.objects.exists()


def test_whatif_kept_caseload_follows_a_withdrawal_and_an_edited_determination(dane, staff, dsps, make_system,
                                                                              determine, apply):
    """The caseload a process keeps is checked against the database on every call, so a write made by any
    process is seen: a withdrawal (no new decision) frees the residence's one grant ((3)(b)); an edited failure
    determination (conditions d to e, category 2 to 3, s. 145.246(2)) changes the engine's input."""
    from powts.grants import caseload, services
    from powts.permits.models import FailureDetermination

    sys1 = make_system("DA-1")
    det = determine(sys1, conditions=("d",), on=dt.date(2025, 9, 1))
    kw = dict(applied_on=dt.date(2025, 11, 3), today=dt.date(2025, 11, 3))
    first = apply(det, **kw)
    services.application_decide(application=first, by=staff)
    join(dane, staff, [])
    part = list(allocating.participating(FY))
    before = caseload.load_kept(participations=part)
    assert before is caseload.load_kept(participations=part)  # nothing changed: kept
    services.application_withdraw(application=first, by=staff)
    after = caseload.load_kept(participations=part)
    assert after is not before
    # an edit through the permits app's records (audited as every write is) reaches the caseload
    from powts.audit.services import audit_update, snapshot

    d = FailureDetermination.objects.get(pk=det.pk)
    old = snapshot(d, ["conditions"])
    d.conditions = ["e"]
    d.save(update_fields=["conditions"])
    audit_update(d, before=old, action="conditions corrected")
    edited = caseload.load_kept(participations=part)
    assert edited is not after and edited.columns["failure_conditions"].to_list() == ["e"]


def test_whatif_from_the_kept_caseload_equals_a_fresh_computation_after_each_edit(dane, lincoln, staff, lstaff, dsps):
    """Speed: the what-if keeps its caseload between calls and checks it with one query. After each
    kind of write (a new application, an audited edit that makes no new decision, an application taken out
    ((11)(a)), a county's determination revised) the answer is the one a fresh process computes."""
    from powts.audit.services import audit_update, snapshot
    from powts.grants import caseload
    from powts.grants.models import GrantApplication
    from powts.grants.tests.conftest import forget_shared_caseloads

    dane_part, (a1, a2) = join(dane, staff, [{"table": "5000"}, {"table": "5000", "income": "44000"}])
    lin_part, _ = join(lincoln, lstaff, [{"table": "4000", "income": "20000"}])
    kw = dict(fiscal_year=FY, funds_cents=1_000_000_00, base_funds_cents=1_000_000_00, income_limit_cents=50000_00)

    def kept_and_fresh():
        kept = whatif.run(**kw)  # this process's copy, if still good
        caseload._KEPT.clear()
        other_process = whatif.run(**kw)  # the copy shared in the data folder, if still good
        caseload._KEPT.clear()
        forget_shared_caseloads()
        fresh = whatif.run(**kw)  # from the database
        assert kept == other_process == fresh
        return fresh

    first = kept_and_fresh()
    assert first.applications == 3
    application(dane, table="5000", income="46000")  # over $45,000 today, under the what-if's $50,000
    second = kept_and_fresh()
    assert second.applications == 4 and second.winners == 1
    # an audited edit that is not decided again: only the audit mark shows it
    app = GrantApplication.objects.get(pk=a2.pk)
    before = snapshot(app, ["funding_table_amount"])
    app.funding_table_amount = 2000_00
    app.save(update_fields=["funding_table_amount"])
    audit_update(app, before=before, action="table amount corrected")
    third = kept_and_fresh()
    assert third.base_cost != second.base_cost
    participation.revise_item(item=dane_part.items.get(application=a1), user=dsps, reason="not a principal residence")
    fourth = kept_and_fresh()
    assert fourth.applications == 3
    participation.revise_county(participation=lin_part, user=dsps, reason="no maintenance program adopted")
    fifth = kept_and_fresh()
    assert [c.slug for c in fifth.counties] == ["dane"] and fifth.applications == 2


def test_whatif_a_second_process_reads_the_shared_copy_not_the_database(dane, staff, dsps, monkeypatch):
    """Speed: a process that has no copy of the caseload (another worker of `powts serve`) reads the
    one left in the data folder for the same state of the database; after a write it reads the database."""
    from powts.grants import caseload

    join(dane, staff, [{"table": "5000"}, {"table": "5000", "income": "44000"}])
    kw = dict(fiscal_year=FY, funds_cents=1_000_000_00, income_limit_cents=50000_00)
    first = whatif.run(**kw)
    caseload._KEPT.clear()
    real_load = caseload.load

    def no_database(**_):
        raise AssertionError("read from the database")

    monkeypatch.setattr(caseload, "load", no_database)
    assert whatif.run(**kw) == first
    caseload._KEPT.clear()
    application(dane, table="5000", income="46000")
    with pytest.raises(AssertionError, match="read from the database"):
        whatif.run(**kw)
    monkeypatch.setattr(caseload, "load", real_load)
    assert whatif.run(**kw).applications == 3


def test_whatif_a_damaged_shared_copy_is_read_from_the_database_instead(dane, staff, dsps, settings):
    """A copy in the data folder that cannot be read (cut short by a full disk) is not used: the caseload is
    read from the database, and the answer is the same."""
    from pathlib import Path

    from powts.grants import caseload

    join(dane, staff, [{"table": "5000"}, {"table": "5000", "income": "44000"}])
    kw = dict(fiscal_year=FY, funds_cents=1_000_000_00, income_limit_cents=50000_00)
    first = whatif.run(**kw)
    (copy,) = (Path(settings.DATA_DIR) / caseload.SHARED_FOLDER).glob("*.arrow")
    copy.write_bytes(copy.read_bytes()[:100])
    caseload._KEPT.clear()
    assert whatif.run(**kw) == first
