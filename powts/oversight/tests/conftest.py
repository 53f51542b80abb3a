"""Fixtures for oversight: the permits' and the maintenance program's own helpers, a DSPS reviewer."""
import datetime as dt

import pytest

from powts.audit.choices import Channel
from powts.audit.context import acting
from powts.permits.tests.conftest import county, master, plumber_user  # noqa: F401  (fixtures reused)

D = dt.date


@pytest.fixture
def dsps(make_user):
    return make_user("dora", "dsps", first_name="Dora", last_name="Department")


@pytest.fixture
def as_user():
    """`with as_user(user):` the services see `user` as the one acting (as a signed-in request would)."""
    def run(user):
        return acting(actor=user, channel=Channel.WEB)
    return run


@pytest.fixture
def make_system(dane):
    from powts.inventory.services import system_create

    def make(system_id="DA-1", jurisdiction=None, owner="Olive Owner", **kw):
        return system_create(jurisdiction=jurisdiction or dane, system_id=system_id, parcel_number=f"P-{system_id}",
                             system_type="conventional", owner_name=owner, owner_mailing_address="12 Lake Rd, Verona, WI",
                             site_address="12 Lake Rd", installed_on=D(2020, 6, 1), **kw)
    return make


@pytest.fixture
def pumper_license(make_user):
    from powts.accounts.services import license_create

    return license_create(kind="septage_operator", number="SSO-1", holder_name="Perry Pumper", user=make_user("perry", "pumper"))


@pytest.fixture
def file_report():
    from django.utils import timezone

    from powts.maintenance.services import report_submit

    def submit(jurisdiction, *, system_id="DA-1", kind="pumping", work_date=D(2026, 3, 2), license="SSO-1", **kw):
        data = {"system_id": system_id, "kind": kind, "work_date": work_date.isoformat(), "license_number": license, **kw}
        if kind == "pumping":
            data.setdefault("gallons_pumped", "1000")
            data.setdefault("disposal_site", "Nine Springs WWTP")
        now = timezone.make_aware(dt.datetime.combine(work_date + dt.timedelta(days=3), dt.time(12)))
        return report_submit(jurisdiction=jurisdiction, data=data, now=now).report
    return submit
