"""`powts grants import FILE --jurisdiction SLUG`: a county's file of owners' applications, stored
and decided, in bulk.

Rows carry the fields of `powts rules evaluate wisconsin-fund-grant` (law/columns.py names), plus
optional `system_id` (the county's POWTS id), `owner_name`, `site_address`, `municipality`,
`parcel_number`, `fiscal_year`, `income_tax_year` and `income_evidence` (the tax year of the income or
revenue given and what shows it, s. 145.246(3)(c)2.-4., (d)2.-4.; checked as on the forms). The whole file is decided by the engine's batch path in one call
and written set-based in one transaction (applications, decisions, audit rows); nothing is half
written. Every row is stored or reported back rejected with its line and reason (rows = stored +
rejected).

Failure determinations: the permits app makes them (an inspection by a certified inspector or an
enforcement order, s. 145.246(1)(a)); an import does not invent them. A row naming a system of the
county's inventory links that system's determination made on the row's failure_determined_on when
one is on record; otherwise (and for rows without a system) the application keeps the file's
conditions and dates as the county's statement of its determination (`imported_failure`).
"""
from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass, field

import numpy as np
import orjson
import polars as pl
from django.contrib.contenttypes.models import ContentType
from django.db import connection, transaction
from django.utils import timezone

from powts.audit.choices import Channel
from powts.audit.context import acting, current
from powts.audit.models import AuditEvent
from powts.core.bulk import allocate_ids, insert_rows
from powts.grants import choices as c
from powts.core import fields
from powts.core.refusals import Refused, refused_text
from powts.grants import deciding, fiscal, residence, services
from powts.grants.models import GrantApplication, GrantDecision
from powts.law import columns as C
from powts.law import failure
from powts.law.batch import EPOCH
from powts.law.io import read_table

EXTRA = ("system_id", "owner_name", "site_address", "municipality", "parcel_number", "fiscal_year",
         "income_tax_year", "income_evidence")
FIRST_TAX_YEAR = 1990  # the same bound as the paper and online forms (forms.py)


@dataclass
class ImportResult:
    rows: int = 0
    stored: int = 0
    eligible: int = 0
    ineligible: int = 0
    rejected: list = field(default_factory=list)  # [{"line", "id", "reason"}]
    seconds: float = 0.0

    def as_dict(self) -> dict:
        return {"rows": self.rows, "stored": self.stored, "eligible": self.eligible, "ineligible": self.ineligible,
                "rejected": self.rejected}


def _strings(table, name: str) -> list[str]:
    values = table.columns.get(name)
    if values is None:
        return [""] * table.n
    if isinstance(values, pl.Series):
        return values.fill_null("").cast(pl.String).str.strip_chars().to_list()
    return ["" if v is None else str(v).strip() for v in values]


def _line(table, i: int) -> int:
    return table.lines[i] if table.lines else i + 2


def _days_to_dates(days: np.ndarray) -> list:
    """int64 day numbers to dates (None for no date), converting each distinct day once."""
    uniq, inv = np.unique(days, return_inverse=True)
    conv = [None if d == C.NAT else EPOCH + dt.timedelta(days=int(d)) for d in uniq.tolist()]
    return [conv[k] for k in inv.tolist()]


def import_applications(path: str, *, jurisdiction, by=None, today: dt.date | None = None) -> ImportResult:
    import time

    started = time.perf_counter()
    batch = uuid.uuid4().hex[:16]
    channel = Channel.IMPORT
    with acting(channel=channel, actor=by if getattr(by, "pk", None) else None,
                actor_label="powts grants import", batch=batch):
        result = _import(path, jurisdiction=jurisdiction, today=today or timezone.localdate())
    result.seconds = time.perf_counter() - started
    return result


def _import(path: str, *, jurisdiction, today: dt.date) -> ImportResult:
    table = read_table(path)  # InputError (a Refused) when the file as a whole cannot be read
    n = table.n
    result = ImportResult(rows=n)
    extra = {name: _strings(table, name) for name in EXTRA}
    ids = _strings(table, "id")
    reject: dict[int, str] = dict(table.line_errors)

    # systems of the county's inventory named by the file: one query
    named = {s for s in extra["system_id"] if s}
    systems = {}
    if named:
        from powts.inventory.models import System

        for row in (System.objects.filter(jurisdiction=jurisdiction, system_id__in=named)
                    .values("id", "system_id", "parcel_id", "parcel__owner_id", "parcel__owner__name",
                            "parcel__site_address", "parcel__municipality", "parcel__parcel_number")):
            systems[row["system_id"]] = row
    for i, sid in enumerate(extra["system_id"]):
        if sid and sid not in systems and i not in reject:
            reject[i] = f"system_id {sid!r} is not in {jurisdiction.name}'s inventory"

    # one key per residence: the inventory's address where the row names a system, else the file's
    keys = []
    for i in range(n):
        s = systems.get(extra["system_id"][i])
        if s:
            keys.append(residence.key(site_address=s["parcel__site_address"] or "",
                                      municipality=s["parcel__municipality"] or "",
                                      parcel_number=s["parcel__parcel_number"] or "", county=jurisdiction.slug))
        else:
            keys.append(residence.key(site_address=extra["site_address"][i], municipality=extra["municipality"][i],
                                      parcel_number=extra["parcel_number"][i], county=jurisdiction.slug))
    granted = _granted_before({k for k in keys if k})

    columns = dict(table.columns)
    given_prior = columns.get("prior_grant")
    found = np.array([bool(k) and k in granted for k in keys], dtype=bool)
    results = _decide(columns, n, reject, found, given_prior)

    # the same residence twice in the file: the first eligible row (by date received, then line) keeps
    # its grant; the later ones are decided again as having had one (s. 145.246(3)(b)). Deciding is
    # cheap; the words are written once, for the final decisions.
    again = _repeated_residences(keys, results, reject)
    if again.any():
        results = _decide(columns, n, reject, found | again, given_prior)
    outcome = deciding.outcome(results)

    fys = []
    applied = _days_to_dates(outcome.cols.applied)
    determined = _days_to_dates(outcome.cols.determined)
    tax_years: dict[int, tuple[int, str]] = {}
    for i in range(n):
        if i in reject or not outcome.decided[i]:
            fys.append("")
            continue
        try:
            if (got := _tax_year(extra, i, bool(outcome.cols.business[i]), determined[i], applied[i], today)):
                tax_years[i] = got
        except Refused as exc:
            reject[i] = refused_text(exc)  # the reason with its citation
            fys.append("")
            continue
        fy_given = extra["fiscal_year"][i]
        if fy_given:
            try:
                fys.append(fiscal.parse("fiscal_year", fy_given))
            except Exception as exc:  # noqa: BLE001 (a GrantRefused: this row's reason)
                reject[i] = str(exc)
                fys.append("")
                continue
        else:
            fys.append(fiscal.for_application(applied[i]))

    # ids: required by the engine; unique per county and fiscal year, in the file and in the database
    seen: dict[tuple, int] = {}
    for i in range(n):
        if i in reject or not outcome.decided[i]:
            continue
        k = (fys[i], ids[i])
        if k in seen:
            reject[i] = f"id {ids[i]!r} is repeated (line {_line(table, seen[k])})"
        else:
            seen[k] = i
    if seen:
        stored = GrantApplication.objects.filter(jurisdiction=jurisdiction, fiscal_year__in={fy for fy, _ in seen},
                                                 external_id__isnull=False).values_list("fiscal_year", "external_id")
        for k in stored.iterator(chunk_size=20000):
            if k in seen:
                reject[seen[k]] = f"id {k[1]!r} was already imported for fiscal year {k[0]}"

    keep = np.array([i not in reject and bool(outcome.decided[i]) for i in range(n)], dtype=bool)
    for i in np.flatnonzero(~keep).tolist():
        reason = reject.get(i) or outcome.error[i] or "could not be decided"
        result.rejected.append({"line": _line(table, i), "id": ids[i] or None, "reason": reason})
    rows = np.flatnonzero(keep)
    with transaction.atomic():
        _write(rows, outcome, extra=extra, ids=ids, keys=keys, fys=fys, tax_years=tax_years, systems=systems, jurisdiction=jurisdiction,
               stated_prior=_stated(given_prior, n), path=path)
    result.stored = int(rows.size)
    result.eligible = int(outcome.eligible[rows].sum())
    result.ineligible = result.stored - result.eligible
    return result


KEYS_PER_QUERY = 900  # under every database's limit on a statement's parameters


def _granted_before(keys: set[str]) -> set[str]:
    """The file's residences already granted, in any county and year (s. 145.246(3)(b)): looked up by the
    file's own keys on the residence_key index, a few hundred per query, so a county's file reads its own
    residences and not every grant in the state (72 county files would read the state's grants 72 times)."""
    wanted = sorted(keys)
    granted: set[str] = set()
    for start in range(0, len(wanted), KEYS_PER_QUERY):
        # by key alone, the status read back: with "status = eligible" in the WHERE clause SQLite walks the
        # status index (half the state's applications) instead of the key index
        rows = GrantApplication.objects.filter(residence_key__in=wanted[start:start + KEYS_PER_QUERY])
        granted.update(k for k, status in rows.values_list("residence_key", "status")
                       if status == c.ApplicationStatus.ELIGIBLE)
    return granted


def _tax_year(extra, i: int, business: bool, determined_on, applied_on, today: dt.date) -> tuple[int, str] | None:
    """The row's income_tax_year and income_evidence, parsed and checked as the forms do (services._tax_year);
    None when the row gives neither. Evidence left blank with a year given is the prior year's return, the
    evidence (3)(c)2. and (d)2. name first."""
    raw_year, raw_evidence = extra["income_tax_year"][i], extra["income_evidence"][i]
    if not raw_year and not raw_evidence or determined_on is None or applied_on is None:
        return None
    year = fields.integer("income_tax_year", raw_year, minimum=FIRST_TAX_YEAR, maximum=today.year, thousands=False)
    evidence = raw_evidence or c.IncomeEvidence.PRIOR_YEAR_RETURN
    cite, what = (services.CITE_REVENUE, "gross revenue") if business else (services.CITE_INCOME, "income")
    services._tax_year("income_tax_year", year, evidence, determined_on, applied_on, cite, what)
    return year, evidence


def _stated(given_prior, n: int) -> np.ndarray:
    return np.zeros(n, dtype=bool) if given_prior is None else C.bools("prior_grant", given_prior, C.Errors(n))


def _decide(columns: dict, n: int, reject: dict, found: np.ndarray, given_prior):
    """One call into the engine for the whole file. prior_grant is "true" where a grant was found for
    the residence, else the file's own value as written (so a bad one is that row's error)."""
    cols = dict(columns)
    if given_prior is None:
        raw = np.full(n, "", dtype=object)
    elif isinstance(given_prior, pl.Series):
        raw = given_prior.fill_null("").cast(pl.String).to_numpy().astype(object)
    else:
        raw = np.array(["" if v is None else v for v in given_prior], dtype=object)
    words = np.where(found, "true", raw)
    cols["prior_grant"] = pl.Series("prior_grant", words.astype(str).tolist(), dtype=pl.String) if any(
        isinstance(v, pl.Series) for v in columns.values()) else words.tolist()
    return deciding.evaluate_columns(cols, n, line_errors=dict(reject))


def _repeated_residences(keys: list[str], results, reject: dict) -> np.ndarray:
    first: dict[str, int] = {}
    later = np.zeros(len(keys), dtype=bool)
    eligible = results.eligible & results.decided
    order = np.lexsort((np.arange(len(keys)), results.cols.applied))
    for i in order.tolist():
        k = keys[i]
        if not k or i in reject or not eligible[i]:
            continue
        if k in first:
            later[i] = True
        else:
            first[k] = i
    return later


def _write(rows: np.ndarray, o: deciding.Outcome, *, extra, ids, keys, fys, tax_years, systems, jurisdiction, stated_prior, path):
    if not rows.size:
        return
    cols = o.cols
    dump = lambda v: orjson.dumps(v, default=str).decode()  # noqa: E731 (JSON text for a JSON column)
    now = timezone.now()
    now_db = connection.ops.adapt_datetimefield_value(now)
    ctx = current()
    actor = ctx.resolved_actor()
    actor_id = getattr(actor, "pk", None)
    label = actor.username if actor_id else ctx.actor_label
    app_ids = allocate_ids(GrantApplication, int(rows.size))
    dec_ids = allocate_ids(GrantDecision, int(rows.size))
    take = lambda a: a[rows]  # noqa: E731
    determined, applied, installed, work = (_days_to_dates(take(a)) for a in
                                            (cols.determined, cols.applied, cols.installed, cols.work))
    money = lambda a: [None if v == C.MISSING else int(v) for v in take(a).tolist()]  # noqa: E731
    income, revenue, table = money(cols.income), money(cols.revenue), money(cols.table)
    allowable = money(cols.allowable) if cols.allowable is not None else [None] * int(rows.size)
    flows = [None if np.isnan(v) else float(v) for v in take(cols.flow).tolist()]
    design = [None if np.isnan(v) else float(v) for v in take(cols.design_flow).tolist()]
    masks = take(cols.cond_mask).tolist()
    letters = [failure.letters_of(m) for m in range(32)]
    business = take(cols.business).tolist()
    flags = {k: take(getattr(cols, k)).tolist() for k in ("sewer", "principal", "experimental", "prior", "intentional",
                                                         "lien", "agreement")}
    units = take(cols.units).tolist()
    components = take(cols.components).tolist()
    eligible = take(o.eligible).tolist()
    amount, share, category = take(o.amount).tolist(), take(o.share).tolist(), take(o.category).tolist()
    stated = take(stated_prior).tolist()  # the file's own statement (a grant found here is the decision's reason)

    # the determination on record for a named system on the row's date, if any
    dets = {}
    sys_pks = {systems[extra["system_id"][i]]["id"] for i in rows.tolist() if extra["system_id"][i]}
    if sys_pks:
        from powts.permits.models import FailureDetermination

        for d in FailureDetermination.objects.filter(system_id__in=sys_pks).values("id", "system_id", "determined_on"):
            dets.setdefault((d["system_id"], d["determined_on"]), d["id"])

    app_rows, dec_rows, events = [], [], []
    ct_app = ContentType.objects.get_for_model(GrantApplication).pk
    action = f"grant application imported from {path.rsplit('/', 1)[-1]} and decided"[:300]
    for j, i in enumerate(rows.tolist()):
        s = systems.get(extra["system_id"][i])
        det_id = dets.get((s["id"], determined[j])) if s else None
        imported = None if det_id else {"conditions": letters[masks[j]], "determined_on": determined[j],
                                        "system_installed_on": installed[j]}
        kind = c.ApplicantType.BUSINESS if business[j] else c.ApplicantType.RESIDENCE
        status = c.ApplicationStatus.ELIGIBLE if eligible[j] else c.ApplicationStatus.INELIGIBLE
        owner_name = extra["owner_name"][i] or (s["parcel__owner__name"] if s else "") or ""
        app_rows.append((
            app_ids[j], jurisdiction.pk, fys[i], s["parcel__owner_id"] if s else None, owner_name[:200],
            s["id"] if s else None, s["parcel_id"] if s else None, det_id, None if imported is None else dump(imported),
            kind, applied[j], flags["principal"][j], flags["sewer"][j], work[j],
            None if business[j] else income[j], *tax_years.get(i, (None, "")), revenue[j] if business[j] else None,
            flows[j] if business[j] else None, design[j], units[j], dump(components[j].split(";") if components[j] else []),
            # a county's file states allowable costs as (6)(a)-(b) define them: code minimum, least costly method
            flags["experimental"][j], table[j], None, allowable[j], allowable[j] is not None, allowable[j] is not None,
            "", stated[j],
            flags["intentional"][j], flags["lien"][j], flags["agreement"][j], keys[i], status, c.ApplicationSource.IMPORT,
            ids[i][:100], actor_id, now_db))
        reasons = o.reasons[i]
        dec_rows.append((dec_ids[j], app_ids[j], bool(eligible[j]), int(amount[j]), int(share[j]),
                         int(category[j]) or None, o.version[i] or "", dump(reasons), o.explanation[i], actor_id, now_db))
        # one audit row per application: imported and decided in the same step, the decision's outcome in it
        summary = {"external_id": [None, ids[i]], "fiscal_year": [None, fys[i]], "status": [None, status],
                   "decision": [None, dec_ids[j]], "amount": [None, int(amount[j])]}
        events.append((now_db, actor_id, label, ctx.channel, action, "create", ct_app, app_ids[j],
                       f"Grant application {app_ids[j]} ({fys[i]})", dump(summary), ctx.batch))
    insert_rows(GrantApplication, [
        "id", "jurisdiction_id", "fiscal_year", "owner_id", "owner_name", "system_id", "parcel_id",
        "failure_determination_id", "imported_failure", "applicant_type", "applied_on", "principal_residence",
        "sewer_available", "work_started_on", "annual_family_income", "income_tax_year", "income_evidence",
        "annual_gross_revenue", "daily_flow_gpd", "design_flow_gpd", "units_served", "components", "experimental",
        "funding_table_amount", "claimed_cost", "allowable_cost", "meets_code_minimum", "least_costly_method",
        "cost_benchmark", "prior_grant", "intentionally_caused", "on_support_lien_docket", "has_payment_agreement",
        "residence_key", "status", "source", "external_id", "created_by_id", "created_at"], app_rows)
    insert_rows(GrantDecision, ["id", "application_id", "eligible", "amount", "state_share", "category", "law_version",
                                "reasons", "explanation", "decided_by_id", "decided_at"], dec_rows)
    insert_rows(AuditEvent, ["at", "actor_id", "actor_label", "channel", "action", "verb", "content_type_id",
                             "object_id", "object_repr", "changes", "batch"], events)
