"""`powts demo`: a working county for a newcomer, with a sign-in per role, and safe to run twice."""
import pytest
from django.core.management import call_command

from powts.accounts.models import User
from powts.inventory.models import System


@pytest.mark.django_db(transaction=True)
def test_demo_loads_a_county_with_each_role_and_runs_twice(capsys):
    call_command("demo", jurisdiction="dane", systems=60)
    # 60 imported, and the one the demo's completed replacement permit installed (final approval
    # records the system it installed and marks the one it replaced).
    assert System.objects.filter(jurisdiction__slug="dane").count() == 61
    assert System.objects.filter(jurisdiction__slug="dane", status="replaced").count() == 1
    roles = set(User.objects.values_list("role", flat=True))
    assert {"county_staff", "state_auditor", "plumber", "pumper", "soil_tester", "owner"} <= roles
    owner = User.objects.get(username="owner")
    assert System.objects.restrict(owner).count() >= 1
    call_command("demo", jurisdiction="dane", systems=60)
    assert System.objects.count() == 61
    assert "already has 61 systems" in capsys.readouterr().out
