"""Demo of the program between the county and the department (after the grants demo's applications):
the county certifies its conditions and applies for participation for the demo fiscal year before
February 1, and DSPS allocates the year's funds, a little short of the state share asked so the page shows
category 2 prorated. A DSPS sign-in ("dsps", the demo password) is made once for the whole state."""
from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model

from powts.audit.choices import Channel
from powts.audit.context import acting
from powts.core.demo_people import demo_name
from powts.grants import allocating, participation
from powts.grants.demo import FISCAL_YEAR
from powts.grants.models import ParticipationApplication

RECEIVED_ON = dt.date(2026, 1, 26)  # before February 1, 2026 (s. 145.246(7)(a))


def _dsps():
    from powts.accounts.services import user_create
    from powts.core.management.commands.demo import DEMO_PASSWORD

    User = get_user_model()
    user = User.objects.filter(username="dsps").first()
    return user or user_create(username="dsps", password=DEMO_PASSWORD, role="dsps", first_name="Dana",
                               last_name="State")


def load(jurisdiction) -> str:
    if ParticipationApplication.objects.filter(jurisdiction=jurisdiction, fiscal_year=FISCAL_YEAR).exists():
        return "already there"
    staff = get_user_model().objects.filter(username=demo_name("staff", jurisdiction.slug)).first()
    if staff is None or not participation.eligible_applications(jurisdiction=jurisdiction, fiscal_year=FISCAL_YEAR).exists():
        return "no demo staff or no eligible applications"
    dsps = _dsps()
    with acting(actor=staff, channel=Channel.CLI, actor_label="powts demo grants program"):
        participation.certify(jurisdiction=jurisdiction, fiscal_year=FISCAL_YEAR, user=staff,
                              official_title="County sanitarian")
        part = participation.submit(jurisdiction=jurisdiction, fiscal_year=FISCAL_YEAR, user=staff, received_on=RECEIVED_ON)
    with acting(actor=dsps, channel=Channel.CLI, actor_label="powts demo grants program"):
        _, _, results, _ = allocating.plan(fiscal_year=FISCAL_YEAR, funds_cents=0)
        asked = int(results.share[results.eligible].sum())
        funds = asked * 9 // 10 // 100 * 100  # 90% of the state share asked, in whole dollars
        run = allocating.run_allocation(fiscal_year=FISCAL_YEAR, funds_cents=funds, user=dsps)
    return (f"conditions certified and application for participation received {RECEIVED_ON.isoformat()} with "
            f"{part.items.count()} eligible applications; allocation {run.pk} of ${funds / 100:,.2f} "
            f"(sign in as dsps to review, pay and ask what-if)")
