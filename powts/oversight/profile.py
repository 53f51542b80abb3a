"""The oversight part of a county profile (oversight.yaml over the state's), checked. No Django imports."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from powts.kernel.profiles import ProfileError, resolve, profile_cached

SECTIONS = ("audit", "hold", "exemption", "referral", "detection", "assessment", "conflicts")
AUTHORITIES = {"county", "town"}


@dataclass(frozen=True)
class OversightProfile:
    slug: str
    citations: dict  # section -> citation people see
    sample_size: int
    respond_within_days: int
    agencies: dict
    errors_must_be_reported: bool
    never_pumped_within_days: int
    never_pumped_fraction: Decimal
    never_pumped_citation: str
    far_apart_miles: int
    authorities: tuple[str, ...]
    revocation_notice_days: int
    revocation_citation: str
    # Errors found on permit applications reported to the licensing agency (a county ordinance, cited in the profile); "" where the county's
    # text has no such rule.
    application_errors_citation: str = ""
    # Random inspections of permit applications (a county ordinance, cited); None where the county's text has none.
    application_inspections: ApplicationInspections | None = None
    # Reviewers and inspectors step aside from work of their own, their firm's or a relative's: a county's policy
    # (oversight.yaml `recusal`), cited as the county has it; "" where the profile has none. Wis. Stat. s. 145.20(6)
    # has no such rule (it bars an employee's own work in the county and adjacent ones).
    recusal_citation: str = ""


@dataclass(frozen=True)
class ApplicationInspections:
    """The county's random inspection of applications: the text sets the duty, the county the share and frequency."""

    citation: str
    share_percent: int  # of the applications filed in the period, rounded up
    at_least: int
    every_months: int

    def size(self, population: int) -> int:
        """How many of `population` applications are drawn: the share rounded up, at least `at_least`, at most all."""
        return min(population, max(self.at_least, -(-population * self.share_percent // 100)))


def _whole(section: dict, key: str, where: str) -> int:
    value = section.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ProfileError(f"{where}: {key} {value!r} is not a whole number of at least 1")
    return value


@profile_cached
def oversight_profile(slug: str) -> OversightProfile:
    data, _ = resolve(slug, "oversight")
    where = f"{slug}/oversight.yaml"
    citations = {}
    for name in SECTIONS:
        section = data.get(name)
        if not isinstance(section, dict) or not str(section.get("citation") or "").strip():
            raise ProfileError(f"{where}: section {name!r} has no citation")
        citations[name] = str(section["citation"])
    audit, referral, detection, assessment = data["audit"], data["referral"], data["detection"], data["assessment"]
    try:
        fraction = Decimal(str(detection.get("never_pumped_fraction")))
    except InvalidOperation:
        raise ProfileError(f"{where}: detection.never_pumped_fraction is not a number") from None
    if not (0 < fraction <= 1):
        raise ProfileError(f"{where}: detection.never_pumped_fraction {fraction} is not between 0 and 1")
    authorities = tuple(assessment.get("authorities") or ())
    if not authorities or set(authorities) - AUTHORITIES:
        raise ProfileError(f"{where}: assessment.authorities must list some of {sorted(AUTHORITIES)}")
    agencies = referral.get("agencies") or {}
    if not isinstance(agencies, dict) or not agencies:
        raise ProfileError(f"{where}: referral.agencies must map each licence kind to its agency")
    return OversightProfile(
        slug=slug, citations=citations, sample_size=_whole(audit, "sample_size", where),
        respond_within_days=_whole(audit, "respond_within_days", where), agencies=dict(agencies),
        errors_must_be_reported=bool(referral.get("errors_must_be_reported", False)),
        never_pumped_within_days=_whole(detection, "never_pumped_within_days", where), never_pumped_fraction=fraction,
        never_pumped_citation=str(detection.get("never_pumped_citation") or citations["detection"]),
        far_apart_miles=_whole(detection, "far_apart_miles", where), authorities=authorities,
        revocation_notice_days=_whole(data["exemption"], "revocation_notice_days", where),
        revocation_citation=str(data["exemption"].get("revocation_citation") or citations["exemption"]),
        application_errors_citation=str((data.get("application_errors") or {}).get("citation") or ""),
        application_inspections=_inspections(data.get("application_inspections"), where),
        recusal_citation=_recusal(data.get("recusal"), where),
    )


def _recusal(section, where: str) -> str:
    """The recusal policy's citation, "" where the county has none (or says `applies: false`)."""
    if not section:
        return ""
    if not isinstance(section, dict) or not str(section.get("citation") or "").strip():
        raise ProfileError(f"{where}: section 'recusal' has no citation")
    applies = section.get("applies", True)
    if not isinstance(applies, bool):
        raise ProfileError(f"{where}: recusal.applies {applies!r} is not true or false")
    return str(section["citation"]) if applies else ""


def _inspections(section, where: str) -> ApplicationInspections | None:
    if not section:
        return None
    if not isinstance(section, dict) or not str(section.get("citation") or "").strip():
        raise ProfileError(f"{where}: section 'application_inspections' has no citation")
    share = _whole(section, "share_percent", where)
    if share > 100:
        raise ProfileError(f"{where}: application_inspections.share_percent {share} is more than 100")
    return ApplicationInspections(citation=str(section["citation"]), share_percent=share,
                                  at_least=_whole(section, "at_least", where),
                                  every_months=_whole(section, "every_months", where))
