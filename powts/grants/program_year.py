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

# The subsections of the version in force that the county's side rests on, each in that version's own numbering:
# s. 145.246 as 2023 Wisconsin Act 19 created it (the whole section is in the texts), s. 145.245 as the excerpt
# shows it (application (8)(a), conditions (9), (9)(b)-(e)). Tests check each number against its text.
SUBSECTIONS = {
    "145.246": {"application": "(7)(a)", "conditions": "(8)", "maintenance_program": "(8)(a)",
                "certify_eligibility": "(8)(b)", "certify_installed": "(8)(c)", "certify_disbursed": "(8)(d)",
                "regulation_inspection": "(8)(e)", "distribution": "(8)(g)", "determination": "(11)(a)",
                "allocation": "(11)(b)-(d)", "prorating": "(12)", "review": "(13)(a)", "payment": "(13)(b)"},
    "145.245": {"application": "(8)(a)", "conditions": "(9)", "certify_eligibility": "(9)(b)",
                "certify_installed": "(9)(c)", "certify_disbursed": "(9)(d)", "regulation_inspection": "(9)(e)"},
}
# Where a version's own text puts a rule in another section: before Act 19 the excerpt of s. 145.245(9) lacks its
# par. (a), and s. 145.20(5)(am) (the pre-Act 19 text, which names s. 145.245) makes the maintenance program's
# deadlines a condition of grant funding.
ELSEWHERE = {"145.245": {"maintenance_program": "Wis. Stat. s. 145.20(5)(am)"}}
# The rules of s. 145.245 that its excerpt does not reproduce (the allocation, prorating, review and payment
# subsections and par. (9)(g)): cited by section, saying in plain words that its text is not reproduced and which
# subsection of s. 145.246 recreated it; the rule applied is s. 145.246's.
RECREATED_AS = "145.246"


def cite(version: str, what: str) -> str:
    """The citation of `what` ("conditions", "review"...) in `version`'s own numbering."""
    if version not in SUBSECTIONS:
        raise ValueError(f"no subsections are known for s. {version}")
    subs = SUBSECTIONS[version]
    if what in subs:
        return f"Wis. Stat. s. {version}{subs[what]}"
    if what in ELSEWHERE.get(version, {}):
        return ELSEWHERE[version][what]
    if what not in SUBSECTIONS[RECREATED_AS]:
        raise KeyError(what)
    return (f"Wis. Stat. s. {version} (text not reproduced here; "
            f"recreated as s. {RECREATED_AS}{SUBSECTIONS[RECREATED_AS][what]})")


@dataclass(frozen=True)
class FiscalYear:
    label: str
    start: dt.date
    end: dt.date
    deadline: dt.date  # the county's application must be received before this day
    version: str

    def cite(self, what: str) -> str:
        """The citation of `what` in the numbering of the version in force for this fiscal year."""
        return cite(self.version, what)

    @property
    def cites(self) -> dict[str, str]:
        """Every citation by name, for templates (`year.cites.application`)."""
        return {what: self.cite(what) for what in SUBSECTIONS[RECREATED_AS]}

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
