"""The demo hook the lead calls from `powts demo`: every step through the services, both counties."""
import pytest
from django.core.management import call_command

from powts.permits import demo
from powts.permits.models import Permit


@pytest.mark.parametrize("slug", ["dane", "lincoln"])
def test_demo_permits(db, slug):
    call_command("demo", jurisdiction=slug, systems=12, stdout=open("/dev/null", "w"))
    from powts.jurisdictions.models import Jurisdiction

    unit = Jurisdiction.objects.get(slug=slug)
    demo.load(unit)  # `powts demo` may already have called it (then 0)
    assert Permit.objects.filter(jurisdiction=unit).count() == 9
    new_build = Permit.objects.get(jurisdiction=unit, parcel__pending=True)  # new construction: staff confirm
    assert new_build.changes.filter(kind="amendment").exists()
    statuses = set(Permit.objects.filter(jurisdiction=unit).values_list("status", flat=True))
    assert {"applied", "held", "issued", "completed", "denied", "expired", "approved"} <= statuses
    # a permit whose required recordings wait for staff's verification; Dane's appeal to the board
    from powts.permits import selectors
    from powts.permits.models import Appeal

    waiting = [p for p in Permit.objects.filter(jurisdiction=unit, status="approved")
               if any(r["document"] and not r["verified"] for r in selectors.recordings(p))]
    assert len(waiting) == 1
    assert Appeal.objects.filter(permit__jurisdiction=unit).count() == {"dane": 1, "lincoln": 0}[slug]
    assert demo.load(unit) == 0  # idempotent


def test_expire_command(dane, master):
    import io

    from powts.permits.tests.conftest import issue

    permit = issue(dane, master)
    out = io.StringIO()
    call_command("permits", "expire", today=permit.expires_on.isoformat(), stdout=out)
    assert out.getvalue().startswith("0 permit(s)")
    out = io.StringIO()
    call_command("permits", "expire", today="2030-01-01", stdout=out)
    assert permit.number in out.getvalue()
