"""Well compensation claims as records, each test naming the subsection of
Wis. Stat. s. 281.75 it checks."""
from __future__ import annotations

import csv
import datetime as dt
import json

import pytest
from django.core.management import call_command

from powts.audit.models import AuditEvent
from powts.core.refusals import Refused
from powts.wells import services
from powts.wells.models import WaterSupply, WellClaim, WellPaymentRun

pytestmark = pytest.mark.django_db


def row(id_, supply, claimed="2024-02-01", completed="2024-02-10", **kw):
    base = {"id": id_, "supply_id": supply, "claimant_type": "landowner", "supply_use": "residential", "well_kind": "drilled",
            "dwelling_units": 1, "sample_dates": "2024-01-01;2024-01-15", "lab_certified": True,
            "annual_family_income": "30000", "eligible_costs": "8000", "claimed_on": claimed, "completed_on": completed}
    return {**base, **kw}


def test_import_stores_and_decides_complete_claims_5c():
    """(5)(c), (7)(a): a complete claim is decided by the law engine ($8,000 x 75% = $6,000) with its
    explanation and law version; a claim without completed_on is stored incomplete, not decided."""
    r = services.claims_import(rows=[row("A", "S1"), row("B", "S2", completed="")])
    assert r.counts() == {"rows": 2, "stored": 2, "eligible": 1, "ineligible": 0, "incomplete": 1, "consolidated": 0, "rejected": 0}
    a, b = WellClaim.objects.get(claim_id="A"), WellClaim.objects.get(claim_id="B")
    assert (a.status, a.eligible, a.award, a.completed_on) == ("complete", True, 600000, dt.date(2024, 2, 10))
    assert "281.75(7)(a)" in a.explanation and a.law_version == "Wis. Stat. s. 281.75"
    assert (b.status, b.eligible, b.award) == ("incomplete", None, None)
    assert b.missing == ["affidavit", "tax_returns"]
    assert AuditEvent.objects.filter(object_repr="well claim A").exists()


def test_dug_well_is_refused_with_citation_1h():
    """(1)(h): "Well" does not include dug wells, so no claim may be submitted for one ((3)(a)): the
    row is rejected with the reason and citation; a bored well on the other side is stored."""
    r = services.claims_import(rows=[row("D", "S1", well_kind="dug"), row("E", "S2", well_kind="bored")])
    assert r.stored == 1 and len(r.rejected) == 1
    assert r.rejected[0]["line"] == 2 and "281.75(1)(h)" in r.rejected[0]["reason"] and "dug" in r.rejected[0]["reason"]
    assert not WellClaim.objects.filter(claim_id="D").exists() and not WaterSupply.objects.filter(supply_id="S1").exists()
    with pytest.raises(Refused) as e:
        services.claim_create(data=row("D2", "S9", well_kind="dug"))
    # one claim (the form, the API): the refusal itself, naming the field, with its citation apart
    assert "281.75(1)(h)" in e.value.citation and list(e.value.errors) == ["well_kind"]
    assert not WellClaim.objects.filter(claim_id="D2").exists()


def test_bad_rows_are_reported_each_with_reason_nothing_else_lost():
    """Bad input: rows in = stored + rejected; each rejected row names its field; duplicates refused."""
    r = services.claims_import(rows=[row("A", "S1"), row("B", "", ), row("A", "S2"), row("C", "S3", claimed="2024-13-01")])
    assert r.stored == 1 and len(r.rejected) == 3
    reasons = [x["reason"] for x in r.rejected]
    assert "supply_id" in reasons[0] and "twice" in reasons[1] and "claimed_on" in reasons[2]
    again = services.claims_import(rows=[row("A", "S1")])
    assert again.stored == 0 and "already recorded" in again.rejected[0]["reason"]


def test_claims_on_one_supply_are_consolidated_5e():
    """(5)(e): the second claim on the same supply is consolidated into the first received, in the same
    file and in a later import; it is not decided or paid on its own."""
    r = services.claims_import(rows=[row("B", "S1", claimed="2024-03-01", completed="2024-03-02"),
                                     row("A", "S1", claimed="2024-02-01")])
    assert r.consolidated == 1 and r.eligible == 1
    a, b = WellClaim.objects.get(claim_id="A"), WellClaim.objects.get(claim_id="B")
    assert b.status == "consolidated" and b.consolidated_into == a and a.status == "complete"
    services.claims_import(rows=[row("C", "S1", claimed="2024-04-01", completed="")])
    assert WellClaim.objects.get(claim_id="C").consolidated_into == a


def test_missing_items_then_complete_on_the_day_they_arrive_5c_4mc():
    """(5)(c), (5)(a), (4m)(c): without affidavit and tax returns the claim is incomplete with the list;
    the affidavit alone leaves it incomplete; the tax returns on 2024-03-05 make it complete on that date."""
    claim = services.claim_create(data=row("A", "S1", completed=""))
    assert claim.status == "incomplete" and claim.missing == ["affidavit", "tax_returns"]
    with pytest.raises(Refused, match="not complete"):
        services.claim_mark_complete(claim=claim, on=dt.date(2024, 3, 1))
    claim = services.claim_receive_items(claim=claim, on=dt.date(2024, 3, 1), affidavit=True)
    assert claim.status == "incomplete" and claim.missing == ["tax_returns"] and claim.completed_on is None
    claim = services.claim_receive_items(claim=claim, on=dt.date(2024, 3, 5), tax_returns=True)
    assert claim.status == "complete" and claim.completed_on == dt.date(2024, 3, 5) and claim.award == 600000


def test_items_dated_before_the_claim_are_refused():
    """(5)(c): items arrive on or after the day the claim was received; nothing changes when refused."""
    claim = services.claim_create(data=row("A", "S1", completed=""))
    with pytest.raises(Refused):
        services.claim_receive_items(claim=claim, on=dt.date(2024, 1, 31), affidavit=True, tax_returns=True)
    claim.refresh_from_db()
    assert claim.affidavit_on is None and claim.status == "incomplete"


def test_income_over_65000_is_ineligible_4ma():
    """(4m)(a): $65,000.00 is eligible, $65,000.01 is not."""
    services.claims_import(rows=[row("A", "S1", annual_family_income="65000.00"), row("B", "S2", annual_family_income="65000.01")])
    assert WellClaim.objects.get(claim_id="A").eligible is True
    b = WellClaim.objects.get(claim_id="B")
    assert b.eligible is False and b.status == "ineligible" and "281.75(4m)(a)" in b.explanation


def test_payment_in_order_completed_then_conditional_first_5f():
    """(5)(f): A claimed first but complete later; B complete first. $6,000 pays B; A is conditionally
    approved. A later run with $6,000 pays A first, before C completed in between."""
    services.claims_import(rows=[row("A", "S1", claimed="2024-02-01", completed="2024-05-01"),
                                 row("B", "S2", claimed="2024-03-01", completed="2024-03-01")])
    run1 = services.payment_run(funds=600000, on=dt.date(2024, 6, 1))
    lines = {x.claim.claim_id: x for x in run1.lines.select_related("claim")}
    assert (lines["B"].status, lines["B"].paid) == ("paid", 600000) and lines["A"].status == "conditional"
    services.claims_import(rows=[row("C", "S3", claimed="2024-01-16", completed="2024-04-01")])
    run2 = services.payment_run(funds=600000, on=dt.date(2024, 7, 1))
    lines = {x.claim.claim_id: x for x in run2.lines.select_related("claim")}
    assert "B" not in lines  # runs accumulate: B was paid by the first run
    assert (lines["A"].status, lines["A"].paid, lines["C"].status) == ("paid", 600000, "conditional")
    assert WellClaim.objects.get(claim_id="A").paid == 600000 and run2.paid == 600000


def test_claim_completed_after_the_run_date_waits():
    """(5)(f) "completed claims": a claim complete on 2024-06-02 is not paid by a run on 2024-06-01."""
    services.claims_import(rows=[row("A", "S1", completed="2024-06-02")])
    run = services.payment_run(funds=10_000_000, on=dt.date(2024, 6, 1))
    assert run.lines.get().status == "incomplete"
    run = services.payment_run(funds=10_000_000, on=dt.date(2024, 6, 2))
    assert run.lines.get().status == "paid"


def test_commands_import_json_and_pay_csv(tmp_path, capsys):
    """The commands other tools call: `powts wells import FILE --json` and `powts wells pay`."""
    src = tmp_path / "claims.jsonl"
    src.write_text("\n".join(json.dumps(r) for r in [
        row("A", "S1"), row("B", "S1", claimed="2024-02-02", completed=""), row("C", "S2", completed=None),
        row("D", "S3", well_kind="dug"), row("E", "S4", annual_family_income="90000")]) + "\nnot json\n")
    call_command("wells", "import", str(src), "--json")
    out = json.loads(capsys.readouterr().out)
    assert {k: out[k] for k in ("rows", "stored", "eligible", "ineligible", "incomplete", "rejected")} == \
        {"rows": 6, "stored": 4, "eligible": 1, "ineligible": 1, "incomplete": 1, "rejected": 2}
    assert [r["id"] for r in out["rejected_rows"]] == ["D", ""]
    dest = tmp_path / "pay.csv"
    call_command("wells", "pay", "--funds", "5000", "--on", "2024-06-01", "--output", str(dest))
    rows = {r["id"]: r for r in csv.DictReader(dest.open())}
    assert {k: (v["supply_id"], v["status"], v["paid"]) for k, v in rows.items()} == {
        "A": ("S1", "conditional", "0.00"), "B": ("S1", "consolidated", "0.00"), "C": ("S2", "incomplete", "0.00"),
        "E": ("S4", "ineligible", "0.00")}
    call_command("wells", "pay", "--funds", "6000", "--on", "2024-06-02", "--output", str(dest))
    rows = {r["id"]: r for r in csv.DictReader(dest.open())}
    assert rows["A"]["status"] == "paid" and rows["A"]["paid"] == "6000.00"
    assert WellPaymentRun.objects.count() == 2


def test_pay_with_bad_funds_exits_non_zero_changes_nothing(tmp_path):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="funds"):
        call_command("wells", "pay", "--funds", "lots", "--output", str(tmp_path / "x.csv"))
    assert not WellPaymentRun.objects.exists()


def test_county_column_places_the_supply_unknown_county_refused(dane):
    """The supply's county (where its documents are kept); a county not set up is refused, naming the field."""
    r = services.claims_import(rows=[row("A", "S1", county="dane"), row("B", "S2", county="atlantis")])
    assert r.stored == 1 and "county" in r.rejected[0]["reason"]
    assert WaterSupply.objects.get(supply_id="S1").jurisdiction == dane
