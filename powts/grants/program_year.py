"""Fiscal years of the Wisconsin Fund and the deadline of a county's application for participation.

A label "2026-27" is the state fiscal year July 1, 2026 to June 30, 2027. The deadline and its
citation come from the law parameters of the version in force when the fiscal year starts
(`gu_application_deadline`: received "prior to February 1 of the previous fiscal year", s. 145.246(7)(a)).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from powts.grants import fiscal as labels
from powts.law.engine import default_parameters
from powts.law.grants import PROGRAM

# The subsections of the version in force that the county's side rests on (the numbering differs
# between s. 145.245 and s. 145.246; only versions with a program in force are listed).
SUBSECTIONS = {
    "145.246": {"application": "(7)(a)", "conditions": "(8)", "maintenance_program": "(8)(a)",
                "certify_eligibility": "(8)(b)", "certify_installed": "(8)(c)", "certify_disbursed": "(8)(d)",
                "regulation_inspection": "(8)(e)", "distribution": "(8)(g)", "determination": "(11)(a)",
                "allocation": "(11)(b)-(d)", "prorating": "(12)", "review": "(13)(a)", "payment": "(13)(b)"},
}


@dataclass(frozen=True)
class FiscalYear:
    label: str
    start: dt.date
    end: dt.date
    deadline: dt.date  # the county's application must be received before this day
    version: str

    def cite(self, what: str) -> str:
        subs = SUBSECTIONS.get(self.version, SUBSECTIONS["145.246"])
        return f"Wis. Stat. s. {self.version}{subs[what]}"

    @property
    def deadline_citation(self) -> str:
        return default_parameters().snapshot(PROGRAM, self.start)["test_citations"]["gu_deadline"]


def parse(label, field: str = "fiscal_year") -> FiscalYear:
    """'2026-27' -> the fiscal year with its deadline; anything else is refused naming the field (powts.grants.fiscal)."""
    text = labels.parse(field, label)
    start = labels.start(text)
    snap = default_parameters().snapshot(PROGRAM, start)  # LawDateError (a Refused) when no program is in force
    month, day = snap["gu_application_deadline"]
    return FiscalYear(text, start, dt.date(start.year + 1, 6, 30), dt.date(start.year, month, day), snap.version)


def upcoming(today: dt.date) -> str:
    """The fiscal year a county is applying for on `today` (the one an owner's application received today
    goes into, powts.grants.fiscal.for_application)."""
    return labels.for_application(today)
