"""Stored owner applications as the law engine's input columns, read in one query per table.

The department's allocation ((11)(a): "at the beginning of each fiscal year the department shall
determine the state grant share") and the what-if both run the batch engine (powts.law.batch) over
the applications carried by the participating counties' applications. The columns carry the names of
`powts rules evaluate wisconsin-fund-grant`, so the engine reads them with the same parsers as a file.
The failure determination's conditions and date, and the system's install date, come from the
permits and inventory records (or, for an imported row without an inventory system, from what the
file gave).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import orjson
import polars as pl

from powts.law.batch import GrantColumns, GrantResults, evaluate, read_columns
from powts.law.engine import ParameterSet

FIELDS = ("id", "applicant_type", "failure_conditions", "failure_determined_on", "applied_on", "system_installed_on",
          "work_started_on", "sewer_available", "principal_residence", "annual_family_income", "annual_gross_revenue",
          "daily_flow_gpd", "units_served", "funding_table_amount", "components", "design_flow_gpd", "experimental",
          "prior_grant", "intentionally_caused", "on_support_lien_docket", "has_payment_agreement",
          "governmental_unit", "gu_application_received_on", "allowable_cost")


@dataclass
class Caseload:
    """The applications (by id, in id order) and their engine columns."""

    application_ids: list[int]
    jurisdiction_ids: list[int]
    columns: dict[str, list]
    _parsed: GrantColumns | None = None
    _base: GrantResults | None = None
    _base_allocations: dict = dataclasses.field(default_factory=dict)

    @property
    def n(self) -> int:
        return len(self.application_ids)

    def parsed(self) -> GrantColumns:
        if self._parsed is None:
            self._parsed = read_columns(self.columns, self.n)
        return self._parsed

    def base(self) -> GrantResults:
        """The engine's decisions under the law as it is (kept: the what-if compares every scenario with it)."""
        if self._base is None:
            self._base = evaluate(self.parsed())
        return self._base

    def base_allocation(self, funds_cents: int, fiscal_year: str):
        """The law's allocation of the base decisions with these funds (kept per amount)."""
        from powts.law.allocation import allocate

        key = (funds_cents, fiscal_year)
        if key not in self._base_allocations:
            self._base_allocations[key] = allocate(self.base(), funds_cents, fiscal_year)
        return self._base_allocations[key]

    def evaluate(self, params: ParameterSet | None = None, *, table_scale: tuple[int, int] | None = None) -> GrantResults:
        """The engine's decisions under `params`. `table_scale` (numerator, denominator) scales each
        application's funding-table amount as the law as it is found it (given, or from its components)."""
        if params is None and not table_scale:
            return self.base()
        cols = self.parsed()
        if table_scale:
            num, den = table_scale
            base = self.base()
            table = cols.table.copy()
            known = base.table >= 0
            table[known] = (base.table[known] * num + den // 2) // den
            cols = dataclasses.replace(cols, table=table)
        return evaluate(cols, params)


# The what-if's caseload, kept between requests while nothing it reads has changed: the department tries
# several parameter sets in a row, and reading 100,000 applications costs more than deciding them.
_KEPT: dict[tuple, tuple[tuple, Caseload]] = {}


def fingerprint(parts) -> tuple:
    """What the caseload of these participation applications depends on, read afresh on every call (so
    each web process, which keeps its own copy, reloads when another process has changed anything), in one
    statement of index-only reads: the participations' statuses (already read by the caller); the
    applications (count and newest: a deleted or added one); the newest decision; the items (newest, and
    how many are taken out); and the newest audited write to an application, a determination, a system, a
    participation or an item. Every write is audited, so an edited failure determination or install date,
    a withdrawal (no new decision) or an item taken out is seen there."""
    from django.contrib.contenttypes.models import ContentType
    from django.db import connection

    from powts.audit.models import AuditEvent
    from powts.grants.models import GrantApplication, GrantDecision, ParticipationApplication, ParticipationItem
    from powts.inventory.models import System
    from powts.permits.models import FailureDetermination

    types = sorted(ct.pk for ct in ContentType.objects.get_for_models(
        GrantApplication, FailureDetermination, System, ParticipationApplication, ParticipationItem).values())
    q, t = connection.ops.quote_name, lambda model: connection.ops.quote_name(model._meta.db_table)
    in_types = ", ".join(["%s"] * len(types))
    sql = (f"SELECT (SELECT COUNT(*) FROM {t(GrantApplication)}), (SELECT MAX({q('id')}) FROM {t(GrantApplication)}), "
           f"(SELECT MAX({q('id')}) FROM {t(GrantDecision)}), (SELECT MAX({q('id')}) FROM {t(ParticipationItem)}), "
           f"(SELECT COUNT(*) FROM {t(ParticipationItem)} WHERE NOT {q('included')}), "
           f"(SELECT MAX({q('id')}) FROM {t(AuditEvent)} WHERE {q('content_type_id')} IN ({in_types})), "
           # and when: ids are used again after a rollback or a restore, times are not
           f"(SELECT MAX({q('at')}) FROM {t(AuditEvent)} WHERE {q('content_type_id')} IN ({in_types}))")
    with connection.cursor() as cursor:
        cursor.execute(sql, types + types)
        marks = cursor.fetchone()
    return tuple((p.pk, p.status, p.received_on) for p in parts), tuple(marks)


def load_kept(*, participations, carried_only: bool = False) -> Caseload:
    """`load`, from memory when nothing it depends on has changed since the last call; else from the copy
    another process left in the data folder for the same state of the database; else from the database
    (and then left there for the other processes of `powts serve`)."""
    parts = list(participations)
    key = (tuple(sorted(p.pk for p in parts)), carried_only)
    mark = fingerprint(parts)
    hit = _KEPT.get(key)
    if hit and hit[0] == mark:
        return hit[1]
    shared = _shared_file(key, mark)
    load_ = _read_shared(shared)
    if load_ is None:
        load_ = load(participations=parts, carried_only=carried_only)
        _write_shared(shared, load_)
    _KEPT.clear()  # one caseload kept: a state's is the size of a few tens of megabytes
    _KEPT[key] = (mark, load_)
    return load_


# The copy shared by the processes: Arrow IPC (columns only, no pickled objects), one file named by a digest
# of the database, the participations and their fingerprint, so a file is only ever read for the state of
# the database it was made from. Written to a temporary name and renamed (a reader never sees half a file).
SHARED_FOLDER = "caseloads"
_IDS, _UNITS = "__application_id", "__jurisdiction_id"


def _shared_file(key, mark):
    import hashlib
    from pathlib import Path

    from django.conf import settings
    from django.db import connection

    db = connection.settings_dict
    name = repr((db.get("ENGINE"), db.get("HOST"), db.get("PORT"), str(db.get("NAME")), key, mark))
    return Path(settings.DATA_DIR) / SHARED_FOLDER / f"{hashlib.sha256(name.encode()).hexdigest()[:32]}.arrow"


def _read_shared(path) -> Caseload | None:
    try:
        frame = pl.read_ipc(path)
    except (OSError, pl.exceptions.PolarsError):
        return None  # none yet (or unreadable): read from the database
    return Caseload(frame[_IDS].to_list(), frame[_UNITS].to_list(),
                    {name: frame[name] for name in frame.columns if name not in (_IDS, _UNITS)})


def _write_shared(path, load_: Caseload) -> None:
    import os
    import threading

    frame = pl.DataFrame([pl.Series(_IDS, load_.application_ids, dtype=pl.Int64),
                          pl.Series(_UNITS, load_.jurisdiction_ids, dtype=pl.Int64),
                          *(pl.Series(name, values) for name, values in load_.columns.items())])
    tmp = path.with_name(f"{path.stem}.{os.getpid()}.{threading.get_ident()}.tmp")  # one per writer
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        frame.write_ipc(tmp)
        os.replace(tmp, path)
        for old in path.parent.glob("*.arrow"):  # older states of the database are never read again
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        tmp.unlink(missing_ok=True)  # a full or read-only disk: each process keeps its own copy, as before


def _cents(c):
    return "" if c is None else f"{c // 100}.{c % 100:02d}"


def _day(d):
    """ISO text of a date as the driver gives it: text on SQLite, a date on PostgreSQL."""
    return "" if d is None else d if isinstance(d, str) else d.isoformat()


# Stored values as the text columns of a file, column-wise (polars): the engine's own parser
# (batch.read_columns) reads them with its vectorised paths, as it reads a CSV file.

def _money(values) -> pl.Series:
    s = pl.Series(values, dtype=pl.Int64)
    text = pl.concat_str([(s // 100).cast(pl.String), pl.lit("."), (s % 100).cast(pl.String).str.zfill(2)])
    return pl.select(text).to_series().fill_null("")


def _dates(values, fallback=None) -> pl.Series:
    s = pl.Series(values, dtype=pl.String).str.slice(0, 10)  # 'YYYY-MM-DD' from the database's text
    if fallback is not None:  # an imported determination's dates, as its JSON gave them
        s = s.fill_null(pl.Series(fallback, dtype=pl.String))
    return s.fill_null("")


def _numbers(values) -> pl.Series:
    return pl.Series(values, dtype=pl.Float64).cast(pl.String).fill_null("")


def _flags(values) -> pl.Series:
    flags = pl.Series(values, strict=False).cast(pl.Boolean).fill_null(False)  # SQLite gives 0/1, PostgreSQL bools
    return flags.replace_strict([True, False], ["true", "false"], return_dtype=pl.String)


def _json(v):
    """A JSON column as the driver gives it (Django has both drivers return it as text)."""
    return orjson.loads(v) if isinstance(v, (str, bytes)) else v


COLUMNS = ("id", "jurisdiction_id", "applicant_type", "failure_determination__conditions", "sewer_available",
           "principal_residence", "annual_family_income", "annual_gross_revenue", "daily_flow_gpd", "units_served",
           "funding_table_amount", "components", "design_flow_gpd", "experimental", "intentionally_caused",
           "on_support_lien_docket", "has_payment_agreement", "allowable_cost")
# computed by the database: dates as ISO text (no date objects made and formatted again), the imported
# determination's facts out of its JSON, and the one-grant finding
COMPUTED = ("t_determined", "t_installed", "t_applied", "t_work", "imp_conditions", "imp_determined", "imp_installed",
            "found_prior")


def load(*, participations, carried_only: bool = True) -> Caseload:
    """The applications of the given participation applications, in application id order: those each
    carries (the allocation), or every application of those counties for the fiscal year that the
    department has not taken out (the what-if, where a changed test may bring in an application that
    is not eligible today).

    One SQL query, read column by column: the rows come straight from the driver (no per-row model
    converters), each JSON list of letters or components is decoded once per distinct value, and the
    engine's own parser (batch.read_columns) reads the text columns, as it reads a file."""
    from django.db import connection
    from django.db.models import BooleanField, Case, CharField, Q, Value, When
    from django.db.models.fields.json import KeyTextTransform, KeyTransform
    from django.db.models.functions import Cast

    from powts.grants.choices import ApplicationStatus
    from powts.grants.models import GrantApplication

    parts = list(participations)
    received = {p.jurisdiction_id: (p.jurisdiction.slug, _day(p.received_on)) for p in parts}
    if carried_only:
        qs = GrantApplication.objects.filter(participation_items__participation__in=parts,
                                             participation_items__included=True)
    else:
        years = {p.fiscal_year for p in parts}
        qs = (GrantApplication.objects.filter(jurisdiction_id__in=list(received), fiscal_year__in=years)
              .exclude(participation_items__included=False))
    # s. 145.246(3)(b), as the grants app decides it (services.found_prior_grant): another application for the
    # same residence or establishment found eligible, in any county and year. An eligible application was
    # decided without one, so for the others it is "an eligible application has this key": one uncorrelated
    # IN (SELECT ...), computed once, not a correlated subquery per row (quadratic at a state's caseload).
    granted = (GrantApplication.objects.filter(status=ApplicationStatus.ELIGIBLE).exclude(residence_key="")
               .values("residence_key"))
    found = Q(prior_grant=True) | (~Q(status=ApplicationStatus.ELIGIBLE) & Q(residence_key__in=granted))
    qs = qs.annotate(
        t_determined=Cast("failure_determination__determined_on", CharField()),
        t_installed=Cast("failure_determination__system__installed_on", CharField()),
        t_applied=Cast("applied_on", CharField()), t_work=Cast("work_started_on", CharField()),
        imp_conditions=KeyTransform("conditions", "imported_failure"),
        imp_determined=KeyTextTransform("determined_on", "imported_failure"),
        imp_installed=KeyTextTransform("system_installed_on", "imported_failure"),
        found_prior=Case(When(found, then=Value(True)), default=Value(False), output_field=BooleanField()))
    sql, params = qs.order_by("id").values_list(*COLUMNS, *COMPUTED).query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    n = len(rows)
    c = dict(zip(COLUMNS + COMPUTED, zip(*rows))) if n else {k: () for k in COLUMNS + COMPUTED}
    letters: dict = {}

    def joined(v):  # a JSON list as the engine's 'a;b' text, decoded once per distinct value
        if v not in letters:
            letters[v] = ";".join(_json(v) or [])
        return letters[v]

    ids = pl.Series(c["id"], dtype=pl.Int64)
    juris = pl.Series(c["jurisdiction_id"], dtype=pl.Int64)
    slugs = {j: v[0] for j, v in received.items()}
    days = {j: v[1] for j, v in received.items()}
    cols = {
        "id": ids.cast(pl.String),
        "applicant_type": pl.Series(c["applicant_type"], dtype=pl.String),
        "failure_conditions": pl.Series([joined(d if d is not None else f) for d, f in
                                         zip(c["failure_determination__conditions"], c["imp_conditions"])], dtype=pl.String),
        "failure_determined_on": _dates(c["t_determined"], c["imp_determined"]),
        "system_installed_on": _dates(c["t_installed"], c["imp_installed"]),
        "applied_on": _dates(c["t_applied"]),
        "work_started_on": _dates(c["t_work"]),
        "annual_family_income": _money(c["annual_family_income"]),
        "annual_gross_revenue": _money(c["annual_gross_revenue"]),
        "daily_flow_gpd": _numbers(c["daily_flow_gpd"]),
        "units_served": pl.Series(c["units_served"], dtype=pl.Int64).cast(pl.String),
        "funding_table_amount": _money(c["funding_table_amount"]),
        "components": pl.Series([joined(v) for v in c["components"]], dtype=pl.String),
        "design_flow_gpd": _numbers(c["design_flow_gpd"]),
        "prior_grant": _flags(c["found_prior"]),
        "governmental_unit": juris.replace_strict(list(slugs), list(slugs.values()), return_dtype=pl.String),
        "gu_application_received_on": juris.replace_strict(list(days), list(days.values()), return_dtype=pl.String),
        "allowable_cost": _money(c["allowable_cost"]),
    }
    for name in ("sewer_available", "principal_residence", "experimental", "intentionally_caused",
                 "on_support_lien_docket", "has_payment_agreement"):
        cols[name] = _flags(c[name])
    return Caseload(list(c["id"]), list(c["jurisdiction_id"]), cols)
