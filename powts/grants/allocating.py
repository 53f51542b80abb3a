"""The department's allocation of a fiscal year's funds (s. 145.246(11)-(12)), its payments to counties
((13)(b)) and the counties' disbursements to owners ((8)(g)).

The allocation is `powts.law.allocation.allocate` over the batch engine's decisions on the applications the
participating counties carry: the 10% caps of (11)(c)-(d) and the prorating of (12) are the law module's,
not repeated here. A run is stored with its inputs on each line (share, category, experimental, small
commercial, dates), so `replay(run)` gives the same lines from the stored inputs alone. A county that
receives less than its allocation prorates on the same basis as (12): the same law function over its own
lines, with the amount it received.
"""
from __future__ import annotations

import datetime as dt
import hashlib

import numpy as np
from django.db import transaction
from django.utils import timezone

from powts.audit.services import audit_create, build_event
from powts.core.refusals import Refused
from powts.grants import caseload as caseloads
from powts.grants import program_year as fiscal
from powts.grants import program_policies as may
from powts.grants.models import (
    PARTICIPATING,
    AllocationLine,
    AllocationRun,
    CountyPayment,
    Disbursement,
    ParticipationApplication,
)
from powts.core.bulk import insert_rows
from powts.law import columns as C
from powts.law.allocation import Allocation, allocate
from powts.law.batch import EPOCH, GrantColumns, GrantResults, segments
from powts.law.engine import default_parameters



def participating(fiscal_year: str):
    return (ParticipationApplication.objects.filter(fiscal_year=fiscal_year, status__in=PARTICIPATING)
            .select_related("jurisdiction").order_by("jurisdiction__slug"))


def _facts_results(*, ids, units, category, share, eligible, experimental, business, applied, received) -> GrantResults:
    """Decided facts (from the engine, or from a stored run's lines) in the shape law.allocate reads."""
    n = len(ids)
    z = np.zeros(n, dtype=np.int64)
    f = np.zeros(n, dtype=bool)
    cols = GrantColumns(
        n=n, id=np.array(ids, dtype=object), errors=C.Errors(n), business=np.asarray(business, dtype=bool),
        cond_mask=z.astype(np.uint8), determined=z, applied=np.asarray(applied, dtype=np.int64), installed=z, work=z,
        sewer=f, principal=f, units=z, experimental=np.asarray(experimental, dtype=bool), prior=f, intentional=f,
        lien=f, agreement=f, gu=np.array(units, dtype=object), gu_received=np.asarray(received, dtype=np.int64),
        income=z, revenue=z, flow=np.zeros(n), table=z, components=np.full(n, None, dtype=object),
        design_flow=np.zeros(n))
    share = np.asarray(share, dtype=np.int64)
    return GrantResults(cols=cols, segs=segments(default_parameters()), seg=np.ones(n, dtype=np.int64),
                        decided=np.ones(n, dtype=bool), eligible=np.asarray(eligible, dtype=bool), amount=share,
                        share=share, table=z, category=np.asarray(category, dtype=np.int8),
                        failed=np.zeros(n, dtype=np.uint16), error=np.full(n, None, dtype=object), trace={})


def _digest(fy: str, funds: int, results: GrantResults) -> str:
    h = hashlib.sha256(f"{fy}|{funds}|".encode())
    for arr in (results.share, results.category, results.cols.experimental, results.cols.business,
                results.cols.applied, results.cols.gu_received, results.eligible):
        h.update(np.ascontiguousarray(arr).tobytes())
    h.update("|".join(map(str, results.cols.id)).encode())
    h.update("|".join(map(str, results.cols.gu)).encode())
    return h.hexdigest()


def plan(*, fiscal_year: str, funds_cents: int, params=None):
    """The engine's decisions and the law's allocation for the participating counties (nothing stored)."""
    fy = fiscal.parse(fiscal_year)
    if funds_cents is None or funds_cents < 0:
        raise Refused("funds available must be an amount of zero or more", field="funds", citation=fy.cite("allocation"))
    parts = list(participating(fy.label))
    if not parts:
        raise Refused(f"no county's application for participation for fiscal year {fy.label} is on record, "
                      "so there is nothing to allocate", field="fiscal_year", citation=fy.cite("allocation"))
    load = caseloads.load(participations=parts)
    results = load.evaluate(params)
    return fy, load, results, allocate(results, funds_cents, fy.label, params)


@transaction.atomic
def run_allocation(*, fiscal_year: str, funds_cents: int, user=None) -> AllocationRun:
    """Allocate and store the run with one line per carried application."""
    fy = fiscal.parse(fiscal_year)
    if user is not None and not may.can_allocate(user):
        raise Refused("only the department (DSPS) allocates the funds", field="user", citation=fy.cite("allocation"))
    fy, load, results, a = plan(fiscal_year=fy.label, funds_cents=funds_cents)
    versions = sorted({v for v in results.versions() if v})
    run = AllocationRun.objects.create(
        fiscal_year=fy.label, funds=funds_cents, law_version=fy.version,
        parameters={"funds": funds_cents, "law_version": fy.version, "decision_versions": versions,
                    "counties": sorted(set(load.columns["governmental_unit"])), "applications": load.n},
        inputs_digest=_digest(fy.label, funds_cents, results), run_by=user if getattr(user, "pk", None) else None,
        run_by_label=getattr(user, "username", "") or "", run_at=timezone.now())
    day = np.vectorize(lambda d: EPOCH + dt.timedelta(days=int(d)), otypes=[object])
    applied = day(results.cols.applied) if load.n else []
    received = day(results.cols.gu_received) if load.n else []
    # plain tuples (powts.core.bulk): a state's caseload is 100,000 lines, where bulk_create's per-row
    # model instances cost more than the allocation itself
    cat, share, award = a.category.tolist(), results.share.tolist(), a.award.tolist()
    exp, biz = results.cols.experimental.tolist(), results.cols.business.tolist()
    insert_rows(AllocationLine, ["run_id", "application_id", "jurisdiction_id", "category", "state_share", "award",
                                 "status", "note", "experimental", "business", "applied_on", "received_on"],
                [(run.pk, load.application_ids[i], load.jurisdiction_ids[i], cat[i] or None, share[i], award[i],
                  a.status[i], a.note[i], exp[i], biz[i], applied[i], received[i]) for i in range(load.n)])
    total = int(a.award.sum())
    audit_create(run, action=f"allocation for fiscal year {fy.label}: {_money(total)} of {_money(funds_cents)} "
                             f"to {len(run.parameters['counties'])} counties, {load.n} applications")
    return run


def replay(run: AllocationRun) -> Allocation:
    """The law's allocation recomputed from the run's stored lines alone (for the reproducibility check)."""
    rows = list(run.lines.order_by("application_id").values_list(
        "application_id", "jurisdiction__slug", "category", "state_share", "status", "experimental", "business",
        "applied_on", "received_on"))
    results = _facts_results(
        ids=[str(r[0]) for r in rows], units=[r[1] for r in rows], category=[r[2] or 0 for r in rows],
        share=[r[3] for r in rows], eligible=[r[4] != "not eligible" and r[4] != "error" for r in rows],
        experimental=[r[5] for r in rows], business=[r[6] for r in rows],
        applied=[(r[7] - EPOCH).days for r in rows], received=[(r[8] - EPOCH).days for r in rows])
    return allocate(results, run.funds, run.fiscal_year)


def county_total(run: AllocationRun, jurisdiction) -> int:
    from django.db.models import Sum

    return int(run.lines.filter(jurisdiction=jurisdiction).aggregate(s=Sum("award"))["s"] or 0)


@transaction.atomic
def pay_county(*, run: AllocationRun, jurisdiction, user, paid_on: dt.date | None = None,
               amount_cents: int | None = None) -> CountyPayment:
    """The department pays a county its allocation (or less, when it pays less; never more)."""
    fy = fiscal.parse(run.fiscal_year)
    if not may.can_pay(user):
        raise Refused("only the department (DSPS) pays counties", field="user", citation=fy.cite("payment"))
    allocated = county_total(run, jurisdiction)
    if not run.lines.filter(jurisdiction=jurisdiction).exists():
        raise Refused(f"{jurisdiction.name} has no applications in this allocation", field="jurisdiction",
                      citation=fy.cite("allocation"))
    amount = allocated if amount_cents is None else amount_cents
    if amount < 0 or amount > allocated:
        raise Refused(f"the payment must be between 0.00 and the county's allocation, {_money(allocated)}",
                      field="amount", citation=fy.cite("allocation"))
    if CountyPayment.objects.filter(run__fiscal_year=run.fiscal_year, jurisdiction=jurisdiction).exists():
        raise Refused(f"{jurisdiction.name} was already paid for fiscal year {run.fiscal_year}", field="jurisdiction",
                      citation=fy.cite("payment"))
    payment = CountyPayment.objects.create(run=run, jurisdiction=jurisdiction, amount=amount,
                                           paid_on=paid_on or timezone.localdate(), paid_by=user, recorded_at=timezone.now())
    audit_create(payment, action=f"{jurisdiction.name} paid {_money(amount)} of its allocation of {_money(allocated)} "
                                 f"for fiscal year {run.fiscal_year}")
    return payment


def disbursement_plan(payment: CountyPayment) -> list[tuple[int, int, int, str]]:
    """(application id, allocated, to pay, note) for each of the county's funded lines: the full award when
    the county received its allocation; otherwise prorated on the same basis as (12), by the law's
    allocation over the county's own lines with the amount received ((8)(g))."""
    fy = fiscal.parse(payment.run.fiscal_year)
    rows = list(payment.run.lines.filter(jurisdiction=payment.jurisdiction, award__gt=0).order_by("application_id")
                .values_list("application_id", "category", "award", "applied_on", "received_on", "experimental"))
    total = sum(r[2] for r in rows)
    if payment.amount >= total:
        return [(r[0], r[2], r[2], "") for r in rows]
    # Within the county, the 10% caps (department-wide) do not apply again: business and experimental are
    # not set, so only (12)(a)-(c) prorating by category runs over the county's allocations.
    results = _facts_results(ids=[str(r[0]) for r in rows], units=[payment.jurisdiction.slug] * len(rows),
                             category=[r[1] or 0 for r in rows], share=[r[2] for r in rows], eligible=[True] * len(rows),
                             experimental=[False] * len(rows), business=[False] * len(rows),
                             applied=[(r[3] - EPOCH).days for r in rows], received=[(r[4] - EPOCH).days for r in rows])
    a = allocate(results, payment.amount, None)
    note = (f"the county received {_money(payment.amount)} of {_money(total)}: prorated on the same basis as "
            f"{fy.cite('prorating')} ({fy.cite('distribution')})")
    return [(r[0], r[2], int(a.award[i]), note) for i, r in enumerate(rows)]


@transaction.atomic
def disburse(*, payment: CountyPayment, user, paid_on: dt.date | None = None) -> list[Disbursement]:
    """The county pays each owner its share of the funds received, each payment recorded and audited."""
    fy = fiscal.parse(payment.run.fiscal_year)
    if not may.can_disburse(user, payment.jurisdiction_id):
        raise Refused(f"only {payment.jurisdiction.name} staff disburse its funds", field="user",
                      citation=fy.cite("distribution"))
    payment = CountyPayment.objects.select_for_update().get(pk=payment.pk)
    if payment.disbursements.exists():
        raise Refused("these funds were already disbursed", field="payment", citation=fy.cite("distribution"))
    paid_on = paid_on or timezone.localdate()
    if paid_on < payment.paid_on:
        raise Refused(f"owners cannot be paid before the county received the funds on {payment.paid_on.isoformat()}",
                      field="paid_on", citation=fy.cite("distribution"))
    now = timezone.now()
    made = [Disbursement(payment=payment, jurisdiction_id=payment.jurisdiction_id, application_id=app, allocated=alloc,
                         amount=amount, paid_on=paid_on, note=note, paid_by=user, recorded_at=now)
            for app, alloc, amount, note in disbursement_plan(payment)]
    Disbursement.objects.bulk_create(made, batch_size=5000)
    from powts.audit.models import AuditEvent

    AuditEvent.objects.bulk_create([build_event(d, action=f"grant of {_money(d.amount)} paid to the owner "
                                                        f"(application {d.application_id})", verb="create",
                                                changes={"amount": [None, d.amount], "allocated": [None, d.allocated]},
                                                at=now)
                                    for d in Disbursement.objects.filter(payment=payment)], batch_size=5000)
    return made


def _money(c: int) -> str:
    return f"${c // 100:,}.{c % 100:02d}"
