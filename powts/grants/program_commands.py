"""`powts grants certify|submit|allocate`: the county's and the department's steps from the command line.

  powts grants certify  --jurisdiction SLUG --fiscal-year 2026-27 [--user USERNAME] [--title TITLE] [--name NAME]
  powts grants submit   --jurisdiction SLUG --fiscal-year 2026-27 [--on DATE] [--user USERNAME]
  powts grants allocate --fiscal-year 2026-27 --funds AMOUNT --output FILE.csv [--summary FILE] [--user USERNAME]

The acting user is --user or the POWTS_USER environment variable: certify and submit are the county's own
staff's (s. 145.246(8), (7)(a)); allocate is the department's (a DSPS user, or none from a trusted shell).
A refusal exits non-zero with the reason and its citation and changes nothing. `allocate` writes one row per
application (id, jurisdiction, category, share, award, status, note) and the totals per county and category
to FILE.summary.csv (or --summary).
"""
from __future__ import annotations

import csv
import datetime as dt
import os
from pathlib import Path

from django.core.management.base import CommandError

from powts.audit.choices import Channel
from powts.audit.context import acting
from powts.core.refusals import Refused, refused_text

ACTIONS = ("certify", "submit", "allocate")
LINE_FIELDS = ["id", "jurisdiction", "category", "share", "award", "status", "note"]
SUMMARY_FIELDS = ["jurisdiction", "category", "applications", "share", "award"]


def add_certify(sub) -> None:
    c = sub.add_parser("certify", help="record the county's conditions for a fiscal year (s. 145.246(8))",
                       description="Record the county's certification of its conditions for a fiscal year "
                                   "(s. 145.246(8)).")
    c.add_argument("--jurisdiction", required=True, metavar="SLUG", help="the county (its profile slug)")
    c.add_argument("--fiscal-year", required=True, metavar="YYYY-YY", help="the fiscal year, e.g. 2026-27")
    c.add_argument("--user", "--as", dest="user", help="the acting county staff member (default: POWTS_USER)")
    c.add_argument("--name", default="", help="the certifying official's name (default: the user's name)")
    c.add_argument("--title", default="County sanitarian", help="the certifying official's title")


def add_submit(sub) -> None:
    s = sub.add_parser("submit", help="the county's application for participation (s. 145.246(7)(a))",
                       description="Submit the county's application for participation in a fiscal year "
                                   "(s. 145.246(7)(a)).")
    s.add_argument("--jurisdiction", required=True, metavar="SLUG", help="the county (its profile slug)")
    s.add_argument("--fiscal-year", required=True, metavar="YYYY-YY", help="the fiscal year, e.g. 2026-27")
    s.add_argument("--on", help="the date the department received it (YYYY-MM-DD; default today)")
    s.add_argument("--user", "--as", dest="user", help="the acting county staff member (default: POWTS_USER)")


def add_allocate(sub) -> None:
    a = sub.add_parser("allocate", help="the department's allocation for a fiscal year (s. 145.246(11)-(12))",
                       description="The department's allocation of a fiscal year's funds among the counties' "
                                   "applications (s. 145.246(11)-(12)).")
    a.add_argument("--fiscal-year", required=True, metavar="YYYY-YY", help="the fiscal year, e.g. 2026-27")
    a.add_argument("--funds", required=True, metavar="AMOUNT", help="dollars available, e.g. 840000 or 840000.00")
    a.add_argument("--output", required=True, metavar="FILE.csv", help="one row per application")
    a.add_argument("--summary", help="totals per county and category (default FILE.summary.csv)")
    a.add_argument("--user", "--as", dest="user", help="the acting DSPS user (default: POWTS_USER)")


def _user(name: str | None, required: bool):
    from django.contrib.auth import get_user_model

    name = name or os.environ.get("POWTS_USER") or ""
    if not name:
        if required:
            raise CommandError("name the acting user with --user USERNAME (or POWTS_USER)")
        return None
    user = get_user_model().objects.filter(username=name, is_active=True).first()
    if user is None:
        raise CommandError(f"--user: no active user {name!r}")
    return user


def _jurisdiction(slug):
    from powts.jurisdictions.models import Jurisdiction

    unit = Jurisdiction.objects.filter(slug=slug).first()
    if unit is None:
        raise CommandError(f"--jurisdiction: unknown jurisdiction {slug!r}")
    return unit


def _date(text):
    try:
        return dt.date.fromisoformat(str(text).strip())
    except ValueError:
        raise CommandError(f"--on {text!r} is not a date (YYYY-MM-DD)") from None


def _money(c: int) -> str:
    return f"{c // 100}.{c % 100:02d}"


def handle(command, action: str, options: dict) -> None:
    try:
        with acting(channel=Channel.CLI, actor_label=f"powts grants {action}"):
            {"certify": _certify, "submit": _submit, "allocate": _allocate}[action](command, options)
    except Refused as exc:
        raise CommandError(refused_text(exc)) from None


def _certify(command, o) -> None:
    from powts.grants import participation

    user = _user(o.get("user"), required=True)
    unit = _jurisdiction(o["jurisdiction"])
    with acting(actor=user, channel=Channel.CLI, actor_label="powts grants certify"):
        cert = participation.certify(jurisdiction=unit, fiscal_year=o["fiscal_year"], user=user,
                                     official_name=o.get("name") or "", official_title=o.get("title") or "")
    command.stdout.write(f"{unit.name}: conditions certified for fiscal year {cert.fiscal_year} by "
                         f"{cert.official_name}, {cert.official_title}; maintenance program and regulation and "
                         f"inspection process checked ({cert.checked['regulation_inspection']['systems_in_inventory']} "
                         "systems in the inventory)")


def _submit(command, o) -> None:
    from powts.grants import participation

    user = _user(o.get("user"), required=True)
    unit = _jurisdiction(o["jurisdiction"])
    on = _date(o["on"]) if o.get("on") else None
    with acting(actor=user, channel=Channel.CLI, actor_label="powts grants submit"):
        part = participation.submit(jurisdiction=unit, fiscal_year=o["fiscal_year"], user=user, received_on=on)
    command.stdout.write(f"{unit.name}: application for participation for {part.fiscal_year} received on "
                         f"{part.received_on.isoformat()} with {part.items.count()} eligible applications")


def _allocate(command, o) -> None:
    from powts.grants import allocating
    from powts.law import fields as F

    try:
        funds = F.parse_cents("--funds", o["funds"])
    except Refused as exc:
        raise CommandError(str(exc)) from None
    user = _user(o.get("user"), required=False)
    out = Path(o["output"])
    summary = Path(o["summary"]) if o.get("summary") else out.with_name(out.stem + ".summary" + (out.suffix or ".csv"))
    with acting(actor=user, channel=Channel.CLI, actor_label="powts grants allocate"):
        run = allocating.run_allocation(fiscal_year=o["fiscal_year"], funds_cents=funds, user=user)
    rows = run.lines.order_by("application_id").values_list("application_id", "jurisdiction__slug", "category",
                                                            "state_share", "award", "status", "note")
    totals: dict[tuple[str, str], list[int]] = {}
    try:
        with open(out, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(LINE_FIELDS)
            for app, slug, cat, share, award, status, note in rows.iterator(chunk_size=5000):
                w.writerow([app, slug, cat or "", _money(share), _money(award), status, note])
                for key in ((slug, str(cat or "")), (slug, "all"), ("ALL", str(cat or "")), ("ALL", "all")):
                    t = totals.setdefault(key, [0, 0, 0])
                    t[0] += 1
                    t[1] += share if status not in ("not eligible", "error", "not counted") else 0
                    t[2] += award
        with open(summary, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(SUMMARY_FIELDS)
            for (slug, cat), (n, share, award) in sorted(totals.items(), key=lambda kv: (kv[0][0] == "ALL", kv[0][0],
                                                                                           kv[0][1] == "all", kv[0][1])):
                w.writerow([slug, cat, n, _money(share), _money(award)])
            allocated = totals.get(("ALL", "all"), [0, 0, 0])[2]
            w.writerow(["ALL", "funds available", "", _money(funds), _money(allocated)])
            w.writerow(["ALL", "unallocated", "", "", _money(funds - allocated)])
    except OSError as exc:
        raise CommandError(f"{exc.filename}: cannot write ({exc.strerror})") from None
    command.stdout.write(f"allocation {run.pk} for {run.fiscal_year}: {_money(totals.get(('ALL', 'all'), [0, 0, 0])[2])} "
                         f"of {_money(funds)} to {len(run.parameters['counties'])} counties; {out} and {summary} written")
