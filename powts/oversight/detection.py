"""What a county's reports show by themselves (Wis. Stat. s. 145.20(5)(c)): the reports powts flags.

- a pumping report, then an inspection of the same system soon after finding the tank at the pumping
  threshold or above (the pumping is in doubt);
- two reports for one system on one day by licences whose holders are based far apart;
- work dated before the licence was issued or after it expired.
Each finding comes with its evidence in plain words; the thresholds are the profile's (oversight.yaml).
"""
from __future__ import annotations

import datetime as dt
from collections import defaultdict

from powts.oversight import choices as c


def findings(jurisdiction, profile):
    """(report, kind, reason, evidence) for each report the county's records put in doubt.

    Read from the database only where a finding can be: the reports dated outside their licence's validity, and the
    reports of systems with two or more reports (a pumping then an inspection; two reports one day). A county's
    other reports, nearly all of them, are never loaded."""
    from django.db.models import Count, F, Q

    from powts.maintenance.models import Report

    base = Report.objects.filter(jurisdiction=jurisdiction)
    outside = base.filter(Q(license__issued_on__isnull=False, work_date__lt=F("license__issued_on"))
                          | Q(license__expires_on__isnull=False, work_date__gt=F("license__expires_on")))
    for r in outside.select_related("license").order_by("system_ref", "work_date", "id"):
        yield from _license_dates(r)
    shared = base.values("system_ref").annotate(n=Count("pk")).filter(n__gte=2).values("system_ref")
    reports = list(base.filter(system_ref__in=shared).select_related("license").order_by("system_ref", "work_date", "id"))
    by_system = defaultdict(list)
    for r in reports:
        by_system[r.system_ref].append(r)
    window = dt.timedelta(days=profile.never_pumped_within_days)
    for rows in by_system.values():
        for pumped in (r for r in rows if r.kind == "pumping"):
            for later in rows:
                if (later.kind == "inspection" and pumped.work_date < later.work_date <= pumped.work_date + window
                        and later.sludge_scum_fraction is not None
                        and later.sludge_scum_fraction >= profile.never_pumped_fraction):
                    yield (pumped, c.FlagKind.NEVER_PUMPED,
                           f"pumped on {pumped.work_date.isoformat()}, yet an inspection on "
                           f"{later.work_date.isoformat()} found the tank {later.sludge_scum_fraction:.0%} full of "
                           f"sludge and scum", [
                               {"on": pumped.work_date.isoformat(), "what": f"pumping report by {pumped.license}"},
                               {"on": later.work_date.isoformat(),
                                "what": f"inspection report by {later.license}: sludge and scum "
                                        f"{later.sludge_scum_fraction:.0%} of the tank ({profile.never_pumped_citation})"}])
                    break
        by_day = defaultdict(list)
        for r in rows:
            by_day[r.work_date].append(r)
        for day, same in by_day.items():
            for i, a in enumerate(same):
                for b in same[i + 1:]:
                    miles = _miles(a.license, b.license)
                    if a.license_id != b.license_id and miles is not None and miles > profile.far_apart_miles:
                        for mine, other in ((a, b), (b, a)):
                            yield (mine, c.FlagKind.FAR_APART,
                                   f"two reports for system {mine.system_ref} on {day.isoformat()} by licences based "
                                   f"{miles:.0f} miles apart (more than {profile.far_apart_miles})", [
                                       {"on": day.isoformat(), "what": f"report by {mine.license}"},
                                       {"on": day.isoformat(), "what": f"report by {other.license}"}])


def _miles(a, b):
    from powts.oversight.services import _miles as miles

    return miles(a, b)


def _license_dates(report):
    lic = report.license
    if lic.issued_on and report.work_date < lic.issued_on:
        yield (report, c.FlagKind.LICENSE_NOT_VALID,
               f"work dated {report.work_date.isoformat()}, before licence {lic.number} was issued "
               f"({lic.issued_on.isoformat()})",
               [{"on": report.work_date.isoformat(), "what": f"{report} filed under {lic}, issued {lic.issued_on}"}])
    elif lic.expires_on and report.work_date > lic.expires_on:
        yield (report, c.FlagKind.LICENSE_NOT_VALID,
               f"work dated {report.work_date.isoformat()}, after licence {lic.number} expired "
               f"({lic.expires_on.isoformat()})",
               [{"on": report.work_date.isoformat(), "what": f"{report} filed under {lic}, expired {lic.expires_on}"}])
