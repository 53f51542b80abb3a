"""Permit and fee rules read from a county profile (permits.yaml, fees.yaml). No Django imports.

Every rule here is data with a citation; this module only does the date and money arithmetic the
texts describe and explains each answer with its citation. County differences never appear as
`if county == ...`: they are the values in the profile.
"""
from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from powts.calendars import calendar_for
from powts.jurisdictions.profiles import load_profile


class RuleError(ValueError):
    """A profile rule that is missing, uncited or malformed; or a date no fee schedule covers."""


@dataclass(frozen=True)
class Fee:
    code: str
    label: str
    amount: Decimal
    authority: str
    amount_citation: str
    amount_outside_texts: bool
    schedule_id: str
    due_working_days: int | None = None
    due_citation: str = ""


@dataclass(frozen=True)
class Verdict:
    """A yes/no on a rule, with the words and the citation that explain it."""
    ok: bool
    message: str
    citation: str
    day: dt.date | None = None


def cents(amount: Decimal) -> Decimal:
    """Rounded once, to the cent, half up (no text says otherwise)."""
    return amount.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _require_citation(entry, where: str) -> None:
    if isinstance(entry, dict) and not entry.get("citation"):
        raise RuleError(f"{where}: rule has no citation")


@functools.cache
def permit_rules(slug: str) -> dict:
    """The permits.yaml section of `slug`'s profile (or the state's), every rule checked for a citation."""
    rules = load_profile(slug).get("permits")
    if not rules:
        raise RuleError(f"profile {slug!r} has no permits.yaml (nor does the state minimum)")
    for key in ("expiry", "renewal", "transfer", "plumber_change", "denial", "disapproval_retention", "revocation"):
        _require_citation(rules.get(key), f"{slug}/permits.yaml {key}")
    if not rules.get("applicant_citation"):
        raise RuleError(f"{slug}/permits.yaml: applicant_license_kinds has no applicant_citation")
    for i, req in enumerate(rules.get("application_requirements") or []):
        _require_citation(req, f"{slug}/permits.yaml application_requirements[{i}]")
        kinds = [k for k in ("field", "any_of", "document", "fee_paid") if k in req]
        if len(kinds) != 1:
            raise RuleError(f"{slug}/permits.yaml application_requirements[{i}] ({req.get('id')}): "
                            f"needs exactly one of field, any_of, document, fee_paid")
    return rules


@functools.cache
def _schedules(slug: str) -> tuple[dict, ...]:
    data = load_profile(slug).get("fees") or {}
    out = []
    for s in data.get("schedules") or []:
        where = f"{slug}/fees.yaml schedule {s.get('id')}"
        try:
            start, end = s["effective_from"], s["effective_through"]
        except KeyError as exc:
            raise RuleError(f"{where}: missing {exc.args[0]}") from exc
        if end < start:
            raise RuleError(f"{where}: effective_through {end} is before effective_from {start}")
        for code, fee in (s.get("fees") or {}).items():
            if not fee.get("authority"):
                raise RuleError(f"{where}: fee {code!r} has no authority citation")
            if not (fee.get("amount_citation") or s.get("amount_citation")):
                raise RuleError(f"{where}: fee {code!r} has no amount_citation")
            try:
                Decimal(str(fee["amount"]))
            except (KeyError, InvalidOperation) as exc:
                raise RuleError(f"{where}: fee {code!r} amount {fee.get('amount')!r} is not an amount") from exc
        out.append(s)
    out.sort(key=lambda s: s["effective_from"])
    for a, b in zip(out, out[1:]):
        if b["effective_from"] <= a["effective_through"]:
            raise RuleError(f"{slug}/fees.yaml: schedules {a['id']} and {b['id']} overlap")
    return tuple(out)


def fee_schedule(slug: str, on: dt.date) -> dict:
    for s in _schedules(slug):
        if s["effective_from"] <= on <= s["effective_through"]:
            return s
    covered = ", ".join(f"{s['effective_from']}..{s['effective_through']}" for s in _schedules(slug)) or "none"
    raise RuleError(f"no fee schedule of {slug} covers {on.isoformat()} (schedules: {covered})")


def fee_for(slug: str, code: str, on: dt.date) -> Fee:
    """The fee `code` in force on `on`; RuleError when no schedule covers the date or lacks the fee."""
    s = fee_schedule(slug, on)
    fee = (s.get("fees") or {}).get(code)
    if fee is None:
        raise RuleError(f"fee schedule {s['id']} has no {code!r} fee; it has: {', '.join(sorted(s.get('fees') or {}))}")
    return Fee(code=code, label=fee.get("label", code), amount=cents(Decimal(str(fee["amount"]))),
               authority=fee["authority"], amount_citation=fee.get("amount_citation") or s["amount_citation"],
               amount_outside_texts=bool(fee.get("amount_outside_texts", s.get("amount_outside_texts"))),
               schedule_id=s["id"], due_working_days=fee.get("due_working_days"), due_citation=fee.get("due_citation", ""))


def fee_codes(slug: str, on: dt.date) -> list[str]:
    try:
        return sorted(fee_schedule(slug, on).get("fees") or {})
    except RuleError:
        return []


def add_years(day: dt.date, years: int) -> dt.date:
    """The same calendar day `years` later; February 29 falls to February 28 (interpretation)."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)


def expiry_date(slug: str, issued_on: dt.date) -> tuple[dt.date, str]:
    rule = permit_rules(slug)["expiry"]
    return add_years(issued_on, int(rule["years"])), rule["citation"]


def renewal_last_day(slug: str, expires_on: dt.date) -> tuple[dt.date, str]:
    """The last day a renewal application may be received, and why."""
    rule = permit_rules(slug)["renewal"]
    deadline = rule.get("deadline") or {}
    if "working_days_before_expiry" in deadline:
        n = int(deadline["working_days_before_expiry"])
        day = calendar_for(slug).add_working_days(expires_on, -n)
        why = f"at least {n} working day(s) before the expiration date {expires_on.isoformat()}"
    elif "days_before_expiry" in deadline:
        n = int(deadline["days_before_expiry"])
        day = expires_on - dt.timedelta(days=n)
        why = "before the expiration date " + expires_on.isoformat() if n == 1 else \
            f"at least {n} day(s) before the expiration date {expires_on.isoformat()}"
    else:
        raise RuleError(f"{slug}/permits.yaml renewal: deadline needs working_days_before_expiry or days_before_expiry")
    return day, why


def check_renewal(slug: str, *, expires_on: dt.date, received_on: dt.date, renewals_so_far: int) -> Verdict:
    rule = permit_rules(slug)["renewal"]
    cite = rule["citation"]
    limit = rule.get("max_renewals")
    if limit is not None and renewals_so_far >= int(limit):
        return Verdict(False, f"the permit was already renewed {renewals_so_far} time(s); it may be renewed "
                              f"{'one time' if int(limit) == 1 else f'{limit} times'} only", cite)
    last, why = renewal_last_day(slug, expires_on)
    if received_on > last:
        return Verdict(False, f"renewal application received {received_on.isoformat()} is too late: it must be "
                              f"received {why}, that is by {last:%A} {last.isoformat()}", cite, last)
    return Verdict(True, f"renewal application received {received_on.isoformat()}, on time (last day "
                         f"{last.isoformat()}, {why})", cite, last)


def renewed_expiry(slug: str, expires_on: dt.date) -> tuple[dt.date, str]:
    rule = permit_rules(slug)["renewal"]
    return add_years(expires_on, int(rule["extension_years"])), rule["citation"]


def retained_on_disapproval(slug: str, paid: Decimal) -> tuple[Decimal, str] | None:
    """How much of the paid application fee the county keeps on a disapproval for failure to correct."""
    rule = permit_rules(slug).get("disapproval_retention")
    if not rule:
        return None
    return cents(paid * Decimal(str(rule["fraction"]))), rule["citation"]
