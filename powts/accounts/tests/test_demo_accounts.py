"""Sign-in and tokens: "no default superuser with a known password" (finding: "the demo creates a superuser
admin with a published password"), and the demo's sign-ins pass the 12-character validators."""
import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import RequestFactory

from powts.accounts.models import User
from powts.core.management.commands.demo import DEMO_PASSWORD


@pytest.mark.django_db(transaction=True)
def test_demo_makes_no_administrator_and_its_sign_ins_work(capsys):
    call_command("demo", jurisdiction="dane", systems=12)
    out = capsys.readouterr().out
    assert not User.objects.filter(is_superuser=True).exists()
    assert not User.objects.filter(is_staff=True).exists()  # no admin-site access either
    assert not User.objects.filter(username="admin").exists()
    assert "powts createsuperuser" in out and DEMO_PASSWORD in out
    assert len(DEMO_PASSWORD) >= 12
    staff = User.objects.get(username="staff")
    assert staff.check_password(DEMO_PASSWORD)
    assert authenticate(RequestFactory().post("/accounts/login/"), username="staff", password=DEMO_PASSWORD) == staff
