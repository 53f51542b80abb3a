"""Explanations of decisions, in sentences a county can paste into a letter.

A decision is a list of tests (citation, pass or fail, a sentence with the numbers) and the
arithmetic of the amount. The sentence templates live here once; the one-case path and the batch
path both fill them, so an applicant gets the same words whichever path decided the case.
"""
from __future__ import annotations

from dataclasses import dataclass


def money(cents: int) -> str:
    """$45,000.01 from 4500001 (integer cents; no floats anywhere)."""
    sign = "-" if cents < 0 else ""
    cents = abs(int(cents))
    return f"{sign}${cents // 100:,}.{cents % 100:02d}"


@dataclass(frozen=True)
class Test:
    key: str
    citation: str
    passed: bool
    sentence: str

    def line(self) -> str:
        return f"{'PASS' if self.passed else 'FAIL'} {self.sentence} ({self.citation})"

    def reason(self) -> dict:
        return {"test": self.key, "citation": self.citation, "text": self.sentence}


# key -> (sentence when passed, sentence when failed). Placeholders are filled with str.format.
GRANT_SENTENCES: dict[str, tuple[str, str]] = {
    "category": (
        "Failure conditions {conditions} make this a category {category} failing system; grants are for category 1 or 2.",
        "Failure conditions {conditions} make this a category {category} failing system; grants are only for category 1 or 2.",
    ),
    "installed_before": (
        "The system was installed on {installed}, before {cutoff}.",
        "The system was installed on {installed}, not before {cutoff}.",
    ),
    "principal_residence": (
        "The residence is the owner's principal residence (occupied at least {occupancy} of the year).",
        "The residence is not the owner's principal residence (occupied at least {occupancy} of the year).",
    ),
    "small_commercial": (
        "Daily wastewater flow {flow} gallons per day is less than {flow_limit}: a small commercial establishment.",
        "Daily wastewater flow {flow} gallons per day is not less than {flow_limit}: not a small commercial establishment.",
    ),
    "income_limit": (
        "Annual family income {income} does not exceed the {income_limit} limit.",
        "Annual family income {income} exceeds the {income_limit} limit.",
    ),
    "revenue_limit": (
        "Annual gross revenue {revenue} does not exceed the {revenue_limit} limit.",
        "Annual gross revenue {revenue} exceeds the {revenue_limit} limit.",
    ),
    "not_sewered": (
        "The property is not in an area served by a sewer.",
        "The property is in an area served by a sewer.",
    ),
    "determined_before_work": (
        "Failure was determined on {determined}, before rehabilitation or replacement began{work}.",
        "Failure was determined on {determined}, not before rehabilitation or replacement began{work}.",
    ),
    "application_window": (
        "The application of {applied} is within the {years}-year period after the determination of failure on {determined} (last day {last_day}).",
        "The application of {applied} is outside the {years}-year period after the determination of failure on {determined} (last day {last_day}).",
    ),
    "one_grant": (
        "No grant has been received before for this residence or establishment.",
        "A grant has already been received for this residence or establishment; only one is allowed.",
    ),
    "not_intentional": (
        "The failure was not intentionally caused by the applicant or a person who would benefit.",
        "The failure was intentionally caused by the applicant or a person who would benefit: the application must be denied.",
    ),
    "support_lien": (
        "{lien_pass}",
        "The applicant or a person who would benefit is on the statewide support lien docket without an approved payment agreement: the application must be denied.",
    ),
    "minimum_grant": (
        "The grant of {share} is at least {minimum}.",
        "The grant of {share} is less than {minimum}.",
    ),
}

# The arithmetic of the state share, filled from the computation's trace (batch.state_share).
GRANT_ARITHMETIC: dict[str, str] = {
    "lead": "State share: lesser of",
    "lead_experimental": "Experimental system: lesser of",
    "table_label": "table amount",
    "table_label_experimental": "the department-approved amount",
    "cap_units": "{cap} ({units} x {per_unit})",
    "head": "{lead} {cap_words} and {table_label} {table} = {base}",
    "reduction": "less {rate}% of ({income} - {threshold}) = {cut}",
    "not_below_zero": "not less than zero",
    "no_reduction_experimental": "no income reduction for an experimental system",
    "cost_cap": "limited by the allowable costs: {cost_rate}% of {allowable} = {cost_limit} ({cost_cite})",
    "grant": "grant {share}",
    "close": " ({cite}; rounded half up to the cent).",
}
GRANT_OUTCOME: dict[str, str] = {
    "eligible": "Eligible: grant {share}.",
    "not_eligible": "Not eligible, so no grant is paid ($0.00).",
    "not_decided": "Not decided: {error}",
}

LIEN_PASS_NONE = "The applicant is not on the statewide support lien docket."
LIEN_PASS_AGREEMENT = "The applicant is on the statewide support lien docket but has an approved payment agreement."

WELL_SENTENCES: dict[str, tuple[str, str]] = {
    "claimant": (
        "A {claimant} of the property may submit a claim.",
        "A {claimant} may not submit a claim.",
    ),
    "residential_supply": (
        "A residential water supply connected to {units} dwelling units ({max_units} or fewer) is a private water supply.",
        "A well connected to {units} dwelling units (more than {max_units}) is not a residential water supply.",
    ),
    "livestock_supply": (
        "A well used as a source of potable water only for livestock is a livestock water supply, a private water supply.",
        "",
    ),
    "advisory": (
        "The department has issued a written advisory opinion recommending that this well not be used.",
        "",
    ),
    "well_kind": (
        "A {kind} well is a well (made by boring, drilling or driving).",
        "A dug well is not a well under the statute.",
    ),
    "income_limit": (
        "Annual family income {income} does not exceed the {income_limit} limit.",
        "Annual family income {income} exceeds the {income_limit} limit.",
    ),
}

# The proof of contamination ((1)(b), (6)(a)), the award's arithmetic ((7)) and the outcome of a claim,
# filled column-wise from the trace of wells.evaluate (well_render.py).
WELL_PROOF: dict[str, str] = {
    "too_few": "{count} sample(s) exceeding a standard ({shown}){note}, fewer than {need}",
    "too_close": "samples of {shown} are {span} days apart, less than 2 weeks ({gap} days)",
    "not_certified": "the samples were not tested by a laboratory certified under s. 299.11",
    "not_established": "Contamination is not established: {problems}.",
    "established": ("Samples of {shown}{note}, {span} days apart (at least {gap}), tested by a certified laboratory, "
                    "establish contamination."),
    "later": " ({later} sample(s) dated after the claim not counted)",
    "no_samples": "none",
}
WELL_ARITHMETIC: dict[str, str] = {
    "items": "Eligible costs: {listed} = {total}.",
    "item": "{item} {amount} ({cite})",
    "award": "Award: {pct}% of the lesser of eligible costs {total} and {cap} = {pct}% of {counted} = {base}",
    "reduction": "less {rate}% of ({income} - {threshold}) = {cut}",
    "not_below_zero": "not less than zero",
    "grant": "award {award}",
    "close": " ({cite}; rounded half up to the cent).",
}
WELL_OUTCOME: dict[str, str] = {
    "eligible": "Eligible: award {award}.",
    "not_eligible": "Not eligible, so no award is paid ($0.00).",
    "not_decided": "Not decided: {error}",
}


class FailedTests:
    """For a decision dataclass with `tests` and `error`: the failed tests as output reasons."""

    @property
    def reasons(self) -> list[dict]:
        if self.error:
            return [{"test": "input", "citation": "", "text": self.error}]
        return [t.reason() for t in self.tests if not t.passed]
