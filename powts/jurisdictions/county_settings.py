"""The settings a county's administrator may change: what each is, where in the profile it goes, how it is
laid over the shipped profile and how it reads on the settings page. No Django.

A stored value (powts.jurisdictions.models.CountySetting: plain JSON, with its citation) becomes a layer,
a function from the profile's data for one concern to that data with the setting in it. The layered
profile is then read by the same readers that check the shipped files (powts.jurisdictions.data_check),
so a value they refuse is refused here too. Adding a setting is one more entry in SETTINGS.
"""
from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from powts.kernel.dates import MAX_DATE
from powts.kernel.profiles import combine

STEP_LABELS = {"reminder": "Reminder", "delinquent": "Delinquency notice", "violation": "Notice of violation",
               "enforcement_order": "Enforcement order"}


@dataclass(frozen=True)
class Setting:
    key: str
    label: str
    concern: str  # the profile's part it changes ("profile" for profile.yaml's own keys)
    help: str
    layer: Callable[[dict, str], Callable[[dict], dict]]  # (stored value, citation) -> layer
    shown: Callable[[dict], list[str]]  # the loaded profile -> its current value in plain words
    initial: Callable[[dict], dict]  # the loaded profile -> the value as the form starts from it


def _by_combine(fragment: dict) -> Callable[[dict], dict]:
    return lambda base: combine(base, fragment, "county settings ")


# ---------------------------------------------------------------- contact and return address (profile.yaml)

def _contact_layer(value: dict, citation: str):
    return _by_combine({"contact+": {**value, "source": citation, "confirmed": True}})


def _contact(profile: dict) -> dict:
    return profile.get("contact") or {}


def _contact_shown(profile: dict) -> list[str]:
    c = _contact(profile)
    address = c.get("address") or []
    lines = [str(c.get("office") or profile.get("agency") or ""), *([address] if isinstance(address, str) else address),
             f"Phone: {c.get('phone') or 'none'}", f"E-mail: {c.get('email') or 'none'}", f"Hours: {c.get('hours') or 'none'}"]
    if c and not c.get("confirmed"):
        lines.append("Not yet confirmed by the county.")
    return [line for line in lines if line]


def _contact_initial(profile: dict) -> dict:
    c = _contact(profile)
    address = c.get("address") or []
    return {"office": c.get("office") or "", "address": [address] if isinstance(address, str) else list(address),
            "phone": c.get("phone") or "", "email": c.get("email") or "", "hours": c.get("hours") or ""}


# ---------------------------------------------------------------- office closures (calendar.yaml)

def _closures_layer(value: dict, citation: str):
    entries = [{"date": dt.date.fromisoformat(c["date"]), "reason": c["reason"], "citation": citation}
               for c in value["closures"]]
    return _by_combine({"extra_closures+": entries})


def _closures_shown(profile: dict) -> list[str]:
    entries = (profile.get("calendar") or {}).get("extra_closures") or []
    return [f"{e.get('date')}: {e.get('reason', 'office closed')}" for e in entries] or ["No closure beyond the holidays."]


def _closures_initial(profile: dict) -> dict:
    return {"closures": []}  # the form adds closures; those already set are shown above it


# ---------------------------------------------------------------- maintenance notices (maintenance.yaml)

def _lead_layer(value: dict, citation: str):
    return _by_combine({"notices+": {"lead_time_days": value["days"], "lead_time_citation": citation,
                                      "lead_time_not_in_texts": False}})


def _notices(profile: dict) -> dict:
    return (profile.get("maintenance") or {}).get("notices") or {}


def _steps_layer(value: dict, citation: str):
    wanted = {s["kind"]: s for s in value["steps"]}

    def lay(base: dict) -> dict:
        out = copy.deepcopy(base)
        steps = (out.get("notices") or {}).get("steps") or []
        for step in steps:
            mine = wanted.get(step.get("kind"))
            if mine:
                step.update(days_after_due=mine["days_after_due"], days_after_previous=mine["days_after_previous"],
                            citation=citation, not_in_texts=False)
        return out
    return lay


def _steps_shown(profile: dict) -> list[str]:
    return [f"{STEP_LABELS.get(s.get('kind'), s.get('kind'))}: {s.get('days_after_due', 0)} days after the due date, "
            f"at least {s.get('days_after_previous', 0)} days after the step before" for s in _notices(profile).get("steps") or []]


def _steps_initial(profile: dict) -> dict:
    return {"steps": [{"kind": s.get("kind"), "days_after_due": s.get("days_after_due", 0),
                       "days_after_previous": s.get("days_after_previous", 0)} for s in _notices(profile).get("steps") or []]}


def _contractors_layer(value: dict, citation: str):
    return _by_combine({"reports+": {"contractors+": {"any_system": value["any_system"],
                                                      "filer_reads_system": value["filer_reads_system"],
                                                      "citation": citation, "not_in_texts": False}}})


def _contractors(profile: dict) -> dict:
    return (((profile.get("maintenance") or {}).get("reports") or {}).get("contractors")) or {}


def _contractors_shown(profile: dict) -> list[str]:
    c = _contractors(profile)
    return [("Any licensed contractor may report on any of the county's systems." if c.get("any_system", True)
             else "A contractor reports only on systems the county assigned to them."),
            ("Filing a report lets the filer read the system and its history." if c.get("filer_reads_system")
             else "A filer sees the report they filed, not the system's records.")]


def _contractors_initial(profile: dict) -> dict:
    c = _contractors(profile)
    return {"any_system": bool(c.get("any_system", True)), "filer_reads_system": bool(c.get("filer_reads_system"))}


# ---------------------------------------------------------------- fees (fees.yaml)

def _fees_layer(value: dict, citation: str):
    start = dt.date.fromisoformat(value["effective_from"])
    end = dt.date.fromisoformat(value["effective_through"]) if value.get("effective_through") else MAX_DATE

    def lay(base: dict) -> dict:
        out = copy.deepcopy(base)
        kept = []
        for s in out.get("schedules") or []:  # the shipped schedules end the day before the county's begins
            if isinstance(s.get("effective_from"), dt.date) and s["effective_from"] >= start:
                continue
            if isinstance(s.get("effective_through"), dt.date) and s["effective_through"] >= start:
                s["effective_through"] = start - dt.timedelta(days=1)
            kept.append(s)
        fees = {code: {"label": f["label"], "amount": f["amount"], "authority": citation} for code, f in value["fees"].items()}
        kept.append({"id": "county-settings", "effective_from": start, "effective_through": end,
                     "amount_citation": citation, "fees": fees})
        out["schedules"] = kept
        return out
    return lay


def _fees_now(profile: dict) -> dict | None:
    today = dt.date.today()
    for s in (profile.get("fees") or {}).get("schedules") or []:
        if s.get("effective_from") <= today <= s.get("effective_through"):
            return s
    return None


def _fees_shown(profile: dict) -> list[str]:
    s = _fees_now(profile)
    if s is None:
        return ["No fee schedule covers today."]
    return [f"From {s['effective_from']} through {s['effective_through']}:",
            *(f"{f.get('label', code)} ({code}): ${f.get('amount')}" for code, f in (s.get("fees") or {}).items())]


def _fees_initial(profile: dict) -> dict:
    s = _fees_now(profile) or {}
    return {"effective_from": "", "effective_through": "",
            "fees": {code: {"label": f.get("label", code), "amount": str(f.get("amount"))} for code, f in (s.get("fees") or {}).items()}}


SETTINGS: dict[str, Setting] = {s.key: s for s in (
    Setting("contact", "Contact and return address", "profile",
            "The office, return address, phone, e-mail and hours printed on every letter to owners.",
            _contact_layer, _contact_shown, _contact_initial),
    Setting("closures", "Office closures", "calendar",
            "Days the office is closed beyond the legal holidays: no inspection or deadline falls on them.",
            _closures_layer, _closures_shown, _closures_initial),
    Setting("notice_lead_time", "Notice lead time", "maintenance",
            "How many days before the due date the first maintenance notice reaches the owner.",
            _lead_layer, lambda p: [f"{_notices(p).get('lead_time_days', 30)} days before the due date"],
            lambda p: {"days": _notices(p).get("lead_time_days", 30)}),
    Setting("notice_steps", "Notice steps after the due date", "maintenance",
            "When the reminder, delinquency notice, notice of violation and enforcement order go out.",
            _steps_layer, _steps_shown, _steps_initial),
    Setting("fees", "Fees", "fees",
            "The county's fee schedule from a date on; the shipped schedule ends the day before.",
            _fees_layer, _fees_shown, _fees_initial),
    Setting("contractors", "Contractor reports", "maintenance",
            "Which systems a licensed contractor may report on, and what filing lets them read.",
            _contractors_layer, _contractors_shown, _contractors_initial),
)}


def layers_of(stored: list[tuple[str, dict, str]]) -> dict[str, Callable[[dict], dict]]:
    """(key, value, citation) rows of one county -> concern -> one layer (its settings in SETTINGS' order)."""
    by_concern: dict[str, list] = {}
    rows = {key: (value, citation) for key, value, citation in stored if key in SETTINGS}
    for key, setting in SETTINGS.items():
        if key in rows:
            by_concern.setdefault(setting.concern, []).append(setting.layer(*rows[key]))

    def chain(fns):
        def lay(base: dict) -> dict:
            for fn in fns:
                base = fn(base)
            return base
        return lay
    return {concern: chain(fns) for concern, fns in by_concern.items()}
