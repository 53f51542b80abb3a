"""The one call into the law engine (powts.law): applications as the engine's input columns, and
the engine's decisions, reasons and words back. One application and a file of 100,000 take the
same path (batch.evaluate over columns, render.grant_frame for the words), so they get the same
answer and the same sentences. No rule is written here.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np

from powts.law import batch
from powts.law.render import grant_frame


@dataclass
class Outcome:
    """Per row: decided (False: the row's input or date could not be decided, see `error`)."""

    decided: np.ndarray
    eligible: np.ndarray
    amount: np.ndarray  # cents
    share: np.ndarray  # cents
    category: np.ndarray  # 0 = none
    version: list
    reasons: list  # [{test, citation, text}] per row: the failed tests
    explanation: list
    error: list
    cols: object = None  # the engine's parsed input columns (batch.GrantColumns): stored as parsed

    def __len__(self):
        return len(self.decided)


def _dollars(cents: int | None) -> str:
    return "" if cents is None else f"{cents // 100}.{cents % 100:02d}"


def _day(d: dt.date | None) -> str:
    return d.isoformat() if d else ""


def failure_facts(app) -> tuple[list[str], dt.date | None, dt.date | None]:
    """(conditions, determined on, system installed on) from the linked determination and system,
    or, for an import row without one, as the file gave them."""
    if app.failure_determination_id:
        det = app.failure_determination
        installed = det.system.installed_on if det.system_id else None
        return list(det.conditions or []), det.determined_on, installed
    facts = app.imported_failure or {}
    to_date = lambda v: dt.date.fromisoformat(v) if v else None  # noqa: E731
    return list(facts.get("conditions") or []), to_date(facts.get("determined_on")), \
        to_date(facts.get("system_installed_on"))


def law_row(app, *, prior_grant: bool) -> dict:
    """The engine's input row (the fields of `powts rules evaluate wisconsin-fund-grant`) for a stored application."""
    conditions, determined_on, installed_on = failure_facts(app)
    row = {
        "id": str(app.pk or "new"),
        "applicant_type": app.applicant_type,
        "failure_conditions": ";".join(conditions),
        "failure_determined_on": _day(determined_on),
        "applied_on": _day(app.applied_on),
        "system_installed_on": _day(installed_on),
        "work_started_on": _day(app.work_started_on),
        "sewer_available": app.sewer_available,
        "principal_residence": app.principal_residence,
        "units_served": str(app.units_served),
        "annual_family_income": _dollars(app.annual_family_income),
        "annual_gross_revenue": _dollars(app.annual_gross_revenue),
        "daily_flow_gpd": "" if app.daily_flow_gpd is None else repr(float(app.daily_flow_gpd)),
        "funding_table_amount": _dollars(app.funding_table_amount),
        "allowable_cost": _dollars(app.allowable_cost),  # (6)(a)-(b): the engine caps the grant at it
        "components": ";".join(app.components or []),
        "design_flow_gpd": "" if app.design_flow_gpd is None else repr(float(app.design_flow_gpd)),
        "experimental": app.experimental,
        "prior_grant": prior_grant,
        "intentionally_caused": app.intentionally_caused,
        "on_support_lien_docket": app.on_support_lien_docket,
        "has_payment_agreement": app.has_payment_agreement,
    }
    return row


def decide_rows(rows: list[dict]) -> Outcome:
    keys: dict[str, None] = {}
    for r in rows:
        keys.update(dict.fromkeys(r))
    return decide_columns({k: [r.get(k) for r in rows] for k in keys}, len(rows))


def evaluate_columns(columns: dict, n: int, line_errors: dict[int, str] | None = None):
    """The engine's batch decision (no words yet) of n rows given as columns (lists or polars Series)."""
    cols = batch.read_columns(columns, n)
    for i, msg in (line_errors or {}).items():
        cols.errors.msg[i], cols.errors.any[i] = msg, True
    return batch.evaluate(cols)


def outcome(r) -> Outcome:
    """Decisions, failed tests with citations and explanations of a batch result, written column-wise."""
    n = r.cols.n
    frame = grant_frame(r, explain=True, reason_list=True) if n else None
    error = [None if e is None else str(e) for e in r.error.tolist()] if n else []
    return Outcome(
        decided=r.decided.copy(), eligible=r.eligible & r.decided, amount=np.where(r.decided, r.amount, 0),
        share=np.where(r.decided, r.share, 0), category=np.where(r.decided, r.category, 0).astype(np.int64),
        version=list(r.versions()), reasons=frame["reason_list"].to_list() if n else [],
        explanation=frame["explanation"].to_list() if n else [], error=error, cols=r.cols)


def decide_columns(columns: dict, n: int, line_errors: dict[int, str] | None = None) -> Outcome:
    """Decide n rows in one call into the engine, with their words."""
    return outcome(evaluate_columns(columns, n, line_errors))
