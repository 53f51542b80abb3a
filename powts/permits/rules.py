"""Permit and fee rules read from a county profile (permits.yaml, fees.yaml). No Django imports.

Every rule here is data with a citation; this module only does the date and money arithmetic the
texts describe and explains each answer with its citation. County differences never appear as
`if county == ...`: they are the values in the profile.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from itertools import pairwise

from powts.calendars import calendar_for
from powts.core.refusals import Refused
from powts.kernel.cited import UNITS, line_of
from powts.kernel.dates import add_years
from powts.kernel.errors import DataFileError
from powts.kernel.money import cents, parse_amount
from powts.kernel.profiles import PROFILES_DIR, STATE_MINIMUM, layers, load_profile, profile_cached


class RuleError(Refused):
    """A profile rule that is missing, uncited or malformed; or a date no fee schedule covers."""


class FeeFileError(DataFileError, RuleError):
    """A fees.yaml that is wrong; the message names file, line and problem."""


FEE_UNIT = "USD"  # the only unit a fee may have; a fee or schedule may say so with `unit:`


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


def _require_citation(entry, where: str) -> None:
    if isinstance(entry, dict) and not entry.get("citation"):
        line = line_of(entry)
        raise RuleError(f"{where}{f' (line {line})' if line else ''}: rule has no citation")


@profile_cached
def permit_rules(slug: str) -> dict:
    """The permits.yaml section of `slug`'s profile (or the state's), every rule checked for a citation."""
    rules = load_profile(slug).get("permits")
    if not rules:
        raise RuleError(f"profile {slug!r} has no permits.yaml (nor does the state minimum)")
    for key in ("expiry", "renewal", "transfer", "plumber_change", "denial", "disapproval_retention", "revocation",
                "amendment"):
        _require_citation(rules.get(key), f"{slug}/permits.yaml {key}")
    for step, entry in (rules.get("steps") or {}).items():
        if not isinstance(entry, dict) or not entry.get("citation"):
            raise RuleError(f"{slug}/permits.yaml steps.{step}: rule has no citation")
    _require_citation(rules.get("included_inspections"), f"{slug}/permits.yaml included_inspections")
    if not rules.get("applicant_citation"):
        raise RuleError(f"{slug}/permits.yaml: applicant_license_kinds has no applicant_citation")
    for i, req in enumerate(rules.get("application_requirements") or []):
        _require_citation(req, f"{slug}/permits.yaml application_requirements[{i}]")
        kinds = [k for k in ("field", "any_of", "document", "fee_paid") if k in req]
        if len(kinds) != 1:
            raise RuleError(f"{slug}/permits.yaml application_requirements[{i}] ({req.get('id')}): "
                            f"needs exactly one of field, any_of, document, fee_paid")
    return rules


def step_citation(slug: str, step: str) -> str:
    """Where the county's text puts a step of a permit's life (permits.yaml `steps`), or "" where it is silent."""
    entry = (permit_rules(slug).get("steps") or {}).get(step) or {}
    return entry.get("citation", "")


def included_inspections(slug: str) -> tuple[int, str]:
    """How many required inspections the application fee covers, and the citation; refused when the profile
    charges an additional-inspection fee without saying after how many."""
    entry = permit_rules(slug).get("included_inspections")
    if not isinstance(entry, dict) or entry.get("value") is None:
        raise RuleError(f"{slug}/permits.yaml: included_inspections is needed with an additional_inspection fee")
    return int(entry["value"]), entry["citation"]


def _fees_path(slug: str):
    own, _state = layers(slug, "fees")
    return PROFILES_DIR / (slug if own is not None else STATE_MINIMUM) / "fees.yaml"


def _check_unit(entry: dict, path, what: str) -> None:
    unit = entry.get("unit", FEE_UNIT)
    if unit != FEE_UNIT:
        known = "known unit for a fee: USD" if unit in UNITS else f"known units: {', '.join(sorted(UNITS))}"
        raise FeeFileError(path, line_of(entry), f"{what}: unknown unit {unit!r} ({known})")


@profile_cached
def _schedules(slug: str) -> tuple[dict, ...]:
    """The fee schedules of `slug`, refused (naming file and line) when uncited, overlapping, gapped or not in USD."""
    data = load_profile(slug).get("fees") or {}
    path = _fees_path(slug)
    out = []
    for s in data.get("schedules") or []:
        line = line_of(s)
        where = f"schedule {s.get('id')}"
        start, end = s.get("effective_from"), s.get("effective_through")
        for key, day in (("effective_from", start), ("effective_through", end)):
            if not isinstance(day, dt.date):
                raise FeeFileError(path, line, f"{where}: {key} {day!r} is missing or not a date (YYYY-MM-DD)")
        if end < start:
            raise FeeFileError(path, line, f"{where}: effective_through {end} is before effective_from {start}")
        _check_unit(s, path, where)
        for code, fee in (s.get("fees") or {}).items():
            fline = line_of(fee) or line
            if not isinstance(fee, dict):
                raise FeeFileError(path, line, f"{where}: fee {code!r} must be a mapping with label, amount, authority")
            if not fee.get("authority"):
                raise FeeFileError(path, fline, f"{where}: fee {code!r} has no authority citation")
            if not (fee.get("amount_citation") or s.get("amount_citation")):
                raise FeeFileError(path, fline, f"{where}: fee {code!r} has no amount_citation")
            _check_unit(fee, path, f"{where}: fee {code!r}")
            if parse_amount(fee.get("amount")) is None:
                raise FeeFileError(path, fline, f"{where}: fee {code!r} amount {fee.get('amount')!r} is not an "
                                                "amount in dollars and cents (write it as a string, e.g. \"50.00\")")
        out.append(s)
    out.sort(key=lambda s: s["effective_from"])
    for a, b in pairwise(out):
        if b["effective_from"] <= a["effective_through"]:
            raise FeeFileError(path, line_of(b), f"schedules {a['id']} and {b['id']} overlap "
                                                 f"({a['effective_from']}..{a['effective_through']} and {b['effective_from']}..)")
        if b["effective_from"] > a["effective_through"] + dt.timedelta(days=1):
            raise FeeFileError(path, line_of(b), f"gap between schedules {a['id']} and {b['id']} "
                                                 f"({a['effective_through']} and {b['effective_from']})")
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


# -- recorded documents, holding tanks, delayed connection, appeals, nonplumbing systems ------------
# Each is a permits.yaml section; a county whose text is silent leaves the section (or the entry) out.

RECORDING_STEPS = ("approve", "issue")


def recorded_documents(slug: str) -> list[dict]:
    """The documents the county's text requires recorded with the register of deeds: for each, the document
    kind, the facts of the permit that make it required (`applies_if_any`), the step it must be verified before
    (`before`: approve or issue) and its citation."""
    out = permit_rules(slug).get("recorded_documents") or []
    for i, entry in enumerate(out):
        _require_citation(entry, f"{slug}/permits.yaml recorded_documents[{i}]")
        if entry.get("before") not in RECORDING_STEPS or not entry.get("document") or not entry.get("applies_if_any"):
            raise RuleError(f"{slug}/permits.yaml recorded_documents[{i}] ({entry.get('id')}): needs document, "
                            f"applies_if_any and before (one of {', '.join(RECORDING_STEPS)})")
    return out


def section(slug: str, name: str) -> dict:
    """A permits.yaml section whose every rule (a mapping) carries its citation; {} where the text is silent."""
    entry = permit_rules(slug).get(name) or {}
    for key, rule in entry.items():
        _require_citation(rule, f"{slug}/permits.yaml {name}.{key}")
    return entry


def holding_tank(slug: str) -> dict:
    return section(slug, "holding_tank")


def nonplumbing(slug: str) -> dict:
    return section(slug, "nonplumbing")


def contract_change_due(slug: str, changed_on: dt.date) -> tuple[dt.date | None, dict]:
    """The last day a change of servicing contract may be filed (working days after the change), or None when
    the county sets no period; with the rule."""
    rule = holding_tank(slug).get("contract_change") or {}
    days = rule.get("business_days")
    if days is None:
        return None, rule
    return calendar_for(slug).add_working_days(changed_on, int(days)), rule


def check_delayed_connection(slug: str, *, installed_on: dt.date, connected_on: dt.date) -> Verdict:
    """A structure connected to a system more than the county's period after the system was installed needs a
    new permit; where the county's text sets no period, any connection date is accepted."""
    rule = section(slug, "connection").get("new_permit_after") or {}
    years = rule.get("years")
    if years is None:
        return Verdict(True, "the county's ordinance sets no period between installation and connection", "")
    last = add_years(installed_on, int(years))
    if connected_on > last:
        return Verdict(False, f"connected on {connected_on.isoformat()}, more than {years} year(s) after the system was "
                              f"installed and approved on {installed_on.isoformat()} (last day {last.isoformat()}): "
                              "a new sanitary permit is needed before the connection", rule["citation"], last)
    return Verdict(True, f"connected on {connected_on.isoformat()}, within {years} year(s) of installation "
                         f"(last day {last.isoformat()})", rule["citation"], last)
