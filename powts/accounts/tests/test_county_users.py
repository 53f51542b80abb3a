"""Licenses edited by county staff; a county administrator manages its own county's
users (create, change role, deactivate, invite an owner by email and link that sign-in to their owner
record) and sees no other county; mail through Django's email backend; a refused address saves nothing."""
import datetime as dt
import re
import smtplib

import pytest
from django.test import Client
from django.core import mail

from powts.accounts.models import License, User
from powts.accounts.services import license_create
from powts.audit.models import AuditEvent
from powts.inventory.models import Owner
from powts.inventory.services import system_create


@pytest.fixture
def admin(make_user, dane):
    return make_user("ada", "county_admin", dane, first_name="Ada", last_name="Admin")


@pytest.fixture
def as_admin(client, admin):
    client.force_login(admin)
    return client


@pytest.fixture
def two_systems(dane, lincoln):
    mine = system_create(jurisdiction=dane, system_id="DA-1", parcel_number="0810-1", system_type="mound",
                         owner_name="Jane Smith", site_address="1 Main St")
    other = system_create(jurisdiction=dane, system_id="DA-2", parcel_number="0810-2", system_type="mound",
                          owner_name="Tom Vang", site_address="2 Main St")
    far = system_create(jurisdiction=lincoln, system_id="LI-1", parcel_number="L-1", system_type="mound",
                        owner_name="Lincoln Owner")
    return mine, other, far


def _link(message) -> str:
    return re.search(r"https?://\S+", message.body)[0]


def _signs_in(client, username, password) -> bool:
    """Through the sign-in page, as a person does (django-axes wants the request)."""
    response = client.post("/accounts/login/", {"username": username, "password": password})
    return response.status_code == 302 and "/login/" not in response["Location"]


def _count():
    return User.objects.count(), Owner.objects.filter(user__isnull=False).count(), AuditEvent.objects.count()


# ---------------------------------------------------------------- licenses

@pytest.fixture
def plumber_license(make_user):
    return license_create(kind="master_plumber", number="MP-1", holder_name="Pat Plumber", user=make_user("pat", "plumber"))


def _license_form(**changes):
    return {"kind": "master_plumber", "number": "MP-1", "holder_name": "Pat Plumber", "business_name": "",
            "mailing_address": "", "expires_on": "2027-06-30", "version": "1", "reason": "renewal card", **changes}


def test_staff_edit_a_license_with_a_reason(client, staff, plumber_license):
    client.force_login(staff)
    assert "Pat Plumber" in client.get("/accounts/licenses/?q=MP-1").content.decode()
    assert client.post(f"/accounts/licenses/{plumber_license.pk}/edit/", _license_form()).status_code == 302
    plumber_license.refresh_from_db()
    assert (plumber_license.expires_on, plumber_license.version) == (dt.date(2027, 6, 30), 2)
    assert AuditEvent.objects.get(content_type__model="license", verb="update").action == "license edited: renewal card"


def test_a_license_number_already_on_record_is_refused_and_a_stale_form_told(client, staff, plumber_license):
    license_create(kind="master_plumber", number="MP-2", holder_name="Other")
    client.force_login(staff)
    response = client.post(f"/accounts/licenses/{plumber_license.pk}/edit/", _license_form(number="MP-2"))
    assert response.context["form"].errors["number"] == ["number 'MP-2' is already on record for another master plumber license"]
    client.post(f"/accounts/licenses/{plumber_license.pk}/edit/", _license_form())
    stale = client.post(f"/accounts/licenses/{plumber_license.pk}/edit/", _license_form(expires_on="2028-01-01"))
    assert stale.status_code == 400 and "expires_on (blank) → 2027-06-30" in stale.content.decode()
    assert License.objects.get(pk=plumber_license.pk).expires_on == dt.date(2027, 6, 30)


@pytest.mark.parametrize("role", ["plumber", "pumper", "owner", "state_auditor"])
def test_only_county_staff_edit_licenses(client, make_user, plumber_license, role):
    client.force_login(make_user("x", role))
    assert client.get("/accounts/licenses/").status_code == 403
    assert client.post(f"/accounts/licenses/{plumber_license.pk}/edit/", _license_form(number="MP-9")).status_code == 403
    assert License.objects.get(pk=plumber_license.pk).number == "MP-1"


# ---------------------------------------------------------------- a county's people

def test_the_administrator_sees_only_its_own_county(as_admin, make_user, dane, lincoln, two_systems):
    make_user("sam", "county_staff", dane)
    far = make_user("lincoln-larry", "county_staff", lincoln)
    page = as_admin.get("/accounts/users/").content.decode()
    assert "<td>sam</td>" in page and "lincoln-larry" not in page
    assert as_admin.get(f"/accounts/users/{far.pk}/edit/").status_code == 404
    before = _count()
    assert as_admin.post(f"/accounts/users/{far.pk}/edit/", {"role": "county_admin", "reason": "x"}).status_code == 404
    assert as_admin.post(f"/accounts/users/invite/{two_systems[2].parcel.owner_id}/",
                         {"email": "l@example.com", "reason": "x"}).status_code == 404
    assert _count() == before and User.objects.get(pk=far.pk).role == "county_staff"


@pytest.mark.parametrize("role", ["county_staff", "owner", "pumper", "state_auditor"])
def test_only_a_county_administrator_manages_users(client, make_user, dane, role, two_systems):
    client.force_login(make_user("x", role, dane if role == "county_staff" else None))
    before = _count()
    assert client.get("/accounts/users/").status_code == 403
    assert client.post("/accounts/users/new/", {"username": "n", "email": "n@example.com", "role": "county_admin",
                                                "reason": "x"}).status_code == 403
    assert client.post(f"/accounts/users/invite/{two_systems[0].parcel.owner_id}/",
                       {"email": "j@example.com", "reason": "x"}).status_code == 403
    assert _count() == before and not mail.outbox


def test_create_a_staff_member_who_chooses_a_password_from_the_email(as_admin, client, dane):
    response = as_admin.post("/accounts/users/new/", {"username": "nina", "first_name": "Nina", "last_name": "Nowak",
                                                      "email": "nina@example.com", "role": "county_staff",
                                                      "reason": "new sanitarian"})
    assert response.status_code == 302
    nina = User.objects.get(username="nina")
    assert (nina.role, nina.jurisdiction, nina.has_usable_password()) == ("county_staff", dane, False)
    assert AuditEvent.objects.filter(object_id=nina.pk, content_type__model="user",
                                     action="account created by Ada Admin: new sanitarian").exists()
    (message,) = mail.outbox
    assert message.to == ["nina@example.com"] and "nina" in message.body
    link = _link(message)
    anonymous = client.__class__()
    form = anonymous.get(link, follow=True)
    assert "Choose your password" in form.content.decode()
    done = anonymous.post(form.redirect_chain[-1][0] if form.redirect_chain else link,
                          {"new_password1": "a-long-new-password-1", "new_password2": "a-long-new-password-1"})
    assert done.status_code == 302
    assert _signs_in(client.__class__(), "nina", "a-long-new-password-1")
    # the link works once
    assert "already been used or has expired" in client.__class__().get(link, follow=True).content.decode()


def test_change_a_role_and_deactivate(as_admin, make_user, dane, admin):
    sam = make_user("sam", "county_staff", dane)
    assert as_admin.post(f"/accounts/users/{sam.pk}/edit/", {"role": "county_admin", "is_active": "on",
                                                             "reason": "deputy", "version": "1"}).status_code == 302
    assert User.objects.get(pk=sam.pk).role == "county_admin"
    assert as_admin.post(f"/accounts/users/{sam.pk}/edit/", {"role": "county_admin", "reason": "left",
                                                             "version": "2"}).status_code == 302
    assert not User.objects.get(pk=sam.pk).is_active
    events = AuditEvent.objects.filter(object_id=sam.pk, content_type__model="user", verb="update").order_by("id")
    assert [e.action for e in events][:2] == ["account changed by Ada Admin: deputy", "account changed by Ada Admin: left"]
    # not themselves: another administrator does that
    response = as_admin.post(f"/accounts/users/{admin.pk}/edit/", {"role": "county_staff", "is_active": "on", "reason": "x",
                                                                   "version": "1"})
    assert response.status_code == 400 and User.objects.get(pk=admin.pk).role == "county_admin"


def test_two_administrators_changing_one_person_the_second_is_told(as_admin, make_user, dane):
    """Edits from a record's page ("concurrent edits of one record do not silently overwrite each other") for the
    county's users: both open Sam's page at version 1; the first saves; the second's save is refused with
    what the first changed, and Sam keeps the first's change."""
    sam = make_user("sam", "county_staff", dane)
    client = Client()
    client.force_login(make_user("otto", "county_admin", dane))
    form = as_admin.get(f"/accounts/users/{sam.pk}/edit/").context["form"]
    assert form.initial["version"] == 1 and client.get(f"/accounts/users/{sam.pk}/edit/").status_code == 200
    assert as_admin.post(f"/accounts/users/{sam.pk}/edit/", {"role": "county_admin", "is_active": "on",
                                                             "reason": "deputy", "version": "1"}).status_code == 302
    stale = client.post(f"/accounts/users/{sam.pk}/edit/", {"role": "county_staff", "reason": "left", "version": "1"})
    page = stale.content.decode()
    assert stale.status_code == 400 and "Changed by someone else" in page and "role county_staff → county_admin" in page
    sam.refresh_from_db()
    assert (sam.role, sam.is_active, sam.version) == ("county_admin", True, 2)
    # the second administrator's form now carries the current version: saving again is deliberate, and applies
    assert stale.context["form"].data["version"] == "2"
    assert client.post(f"/accounts/users/{sam.pk}/edit/", {"role": "county_staff", "reason": "left", "version": "2"}).status_code == 302
    sam.refresh_from_db()
    assert (sam.role, sam.is_active, sam.version) == ("county_staff", False, 3)


def test_a_change_of_a_person_without_the_version_seen_is_refused(as_admin, make_user, dane):
    """The web form always carries the version; a post without one saves nothing."""
    sam = make_user("sam", "county_staff", dane)
    response = as_admin.post(f"/accounts/users/{sam.pk}/edit/", {"role": "county_admin", "is_active": "on", "reason": "x"})
    assert response.status_code == 400 and User.objects.get(pk=sam.pk).role == "county_staff"


def test_a_role_outside_the_county_is_refused(as_admin, make_user, dane):
    sam = make_user("sam", "county_staff", dane)
    response = as_admin.post(f"/accounts/users/{sam.pk}/edit/", {"role": "state_auditor", "is_active": "on", "reason": "x",
                                                                 "version": "1"})
    assert response.status_code == 400 and "only county staff and administrators" in response.content.decode()
    response = as_admin.post("/accounts/users/new/", {"username": "z", "email": "z@example.com", "role": "dsps", "reason": "x"})
    assert response.status_code == 400 and not User.objects.filter(username="z").exists()


def test_invite_an_owner_who_signs_in_and_sees_only_their_property(as_admin, client, two_systems):
    mine, other, _ = two_systems
    owner = mine.parcel.owner
    response = as_admin.post(f"/accounts/users/invite/{owner.pk}/", {"email": "jane@example.com", "reason": "asked by phone"})
    assert response.status_code == 302
    owner.refresh_from_db()
    assert owner.user.username == "jane@example.com" and owner.user.role == "owner" and owner.email == "jane@example.com"
    assert owner.version == 2
    assert AuditEvent.objects.filter(content_type__model="owner", object_id=owner.pk,
                                     action="sign-in jane@example.com linked by Ada Admin: asked by phone").exists()
    link = _link(mail.outbox[0])
    anonymous = client.__class__()
    form = anonymous.get(link, follow=True)
    anonymous.post(form.redirect_chain[-1][0], {"new_password1": "a-long-new-password-1",
                                                "new_password2": "a-long-new-password-1"})
    assert _signs_in(anonymous, "jane@example.com", "a-long-new-password-1")
    listing = anonymous.get("/inventory/").content.decode()
    assert "DA-1" in listing and "DA-2" not in listing
    assert anonymous.get(mine.get_absolute_url()).status_code == 200
    assert anonymous.get(other.get_absolute_url()).status_code == 404
    # the administrator's list shows them, linked to their owner record
    assert "owner record: Jane Smith" in as_admin.get("/accounts/users/").content.decode()


def test_an_address_the_mail_server_refuses_saves_nothing(as_admin, two_systems, monkeypatch):
    def refuse(*args, **kwargs):
        raise smtplib.SMTPRecipientsRefused({"jane@nowhere.invalid": (550, b"no such user")})

    monkeypatch.setattr("powts.accounts.services.send_mail", refuse)
    owner = two_systems[0].parcel.owner
    before = _count()
    response = as_admin.post(f"/accounts/users/invite/{owner.pk}/", {"email": "jane@nowhere.invalid", "reason": "x"})
    assert response.status_code == 400
    assert "email 'jane@nowhere.invalid' could not be sent to" in response.context["form"].errors["email"][0]
    assert _count() == before and Owner.objects.get(pk=owner.pk).version == 1


def test_an_owner_with_a_sign_in_is_not_invited_twice(as_admin, two_systems):
    owner = two_systems[0].parcel.owner
    as_admin.post(f"/accounts/users/invite/{owner.pk}/", {"email": "jane@example.com", "reason": "x"})
    response = as_admin.post(f"/accounts/users/invite/{owner.pk}/", {"email": "jane2@example.com", "reason": "x"})
    assert response.status_code == 400 and "already has a sign-in" in response.content.decode()
    assert len(mail.outbox) == 1
