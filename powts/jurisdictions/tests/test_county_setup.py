"""A county's first day: the department sets up one of Wisconsin's 72 counties (command or page) on the state
minimum profile, and the county's administrator changes its own settings, each cited, audited and kept in
the database, laid over the profile and checked as the shipped profiles are (Wis. Stat. s. 145.20(5)(a))."""
import datetime as dt

import pytest
from django.contrib.contenttypes.models import ContentType
from django.urls import reverse

from powts.accounts.services import user_create
from powts.audit.models import AuditEvent
from powts.calendars.loading import calendar_for
from powts.inventory.models import System
from powts.jurisdictions import counties
from powts.jurisdictions.models import CountySetting, CountySettingChange, Jurisdiction
from powts.jurisdictions.services import CountyRefused, county_add, county_setting_change, jurisdiction_ensure
from powts.kernel.profiles import load_profile, refresh
from powts.maintenance.profile import maintenance_profile
from powts.permits.rules import fee_for

SAUK_ADDRESS = ["505 Broadway, Room 248", "Baraboo, WI 53913"]


@pytest.fixture(autouse=True)
def forget_settings_after():
    """The test's rows are rolled back at its end: this process forgets what it read of them too."""
    yield
    refresh()


@pytest.fixture
def sauk(db):
    return county_add(slug="sauk", name="Sauk County")


@pytest.fixture
def admin(sauk):
    return user_create(username="sara", password="x-Pass-2026!", role="county_admin", jurisdiction=sauk)


def _contact(**changes):
    return {"office": "Sauk County Land Resources and Environment", "address": SAUK_ADDRESS, "phone": "(608) 355-3245",
            "email": "lre@saukcountywi.gov", "hours": "Monday to Friday, 8 a.m. to 4:30 p.m.", **changes}


# ---------------------------------------------------------------- the command

def test_the_command_sets_up_sauk_on_the_state_minimum_profile_and_its_inventory_imports(db, cli, write_csv):
    code, out, err = cli("county", "add", "sauk", "--name", "Sauk County")
    assert code == 0, err
    assert "Sauk County set up (slug sauk) on the state minimum profile" in out
    assert "powts import inventory FILE --jurisdiction sauk" in out and "/counties/settings/" in out
    unit = Jurisdiction.objects.get(slug="sauk")
    assert (unit.name, unit.profile_slug) == ("Sauk County", "sauk")
    profile = load_profile("sauk")
    assert profile["name"] == "Sauk County" and profile["slug"] == "sauk"
    assert profile["maintenance"] == load_profile("state")["maintenance"]  # the state minimum, not a copy of Dane's
    assert maintenance_profile("sauk").lead_time_days == maintenance_profile("state").lead_time_days
    path = write_csv([["system_id", "parcel_id", "system_type", "owner_name"], ["S-1", "P-1", "mound", "A. Owner"]])
    code, out, err = cli("import", "inventory", str(path), "--jurisdiction", "sauk")
    assert code == 0, err
    assert System.objects.filter(jurisdiction=unit, system_id="S-1").exists()


def test_an_import_into_a_county_not_set_up_is_refused_and_names_the_command(db, cli, write_csv):
    path = write_csv([["system_id", "parcel_id", "system_type", "owner_name"]])
    code, _, err = cli("import", "inventory", str(path), "--jurisdiction", "juneau")
    assert code == 1 and "unknown jurisdiction 'juneau'" in err
    assert 'powts county add juneau --name "Juneau County"' in err
    assert not Jurisdiction.objects.filter(slug="juneau").exists()


@pytest.mark.parametrize("slug, name, reason", [
    ("Sauk", "Sauk County", "slug 'Sauk' is not a slug"),
    ("sauk county", "Sauk County", "is not a slug"),
    ("sauk-", "Sauk County", "is not a slug"),
    ("atlantis", "Atlantis County", "'Atlantis County' is not one of Wisconsin's 72 counties"),
    ("baraboo", "Baraboo", "'Baraboo' is not one of Wisconsin's 72 counties"),
    ("juneau", "Sauk County", "the slug of Sauk County is 'sauk', not 'juneau'"),
])
def test_a_bad_slug_or_a_name_that_is_no_wisconsin_county_is_refused_with_the_reason(db, cli, slug, name, reason):
    code, out, err = cli("county", "add", slug, "--name", name)
    assert code == 1 and reason in err and "Traceback" not in err
    assert not Jurisdiction.objects.exclude(slug__in=["dane", "lincoln"]).exists()


def test_a_county_already_set_up_is_refused(db, cli):
    assert cli("county", "add", "sauk", "--name", "Sauk County")[0] == 0
    code, _, err = cli("county", "add", "sauk", "--name", "sauk county")
    assert code == 1 and "Sauk County is already set up (slug 'sauk')" in err
    assert Jurisdiction.objects.filter(slug="sauk").count() == 1
    jurisdiction_ensure(slug="dane")
    with pytest.raises(CountyRefused, match="Dane County is already set up"):
        county_add(slug="dane", name="Dane County")


def test_the_list_of_counties_is_the_72_of_wisconsin_each_with_its_own_slug():
    listed = counties.wisconsin_counties()
    assert len(listed) == 72 and len(set(listed.values())) == 72
    assert listed["st-croix"] == "St. Croix County" and listed["fond-du-lac"] == "Fond du Lac County"
    assert counties.county_named("green lake") == "green-lake" and counties.county_named("Green") == "green"
    assert counties.citation().startswith("Wis. Stat. ch. 2")


# ---------------------------------------------------------------- the county administrator's settings

def test_a_changed_return_address_is_cited_audited_and_in_the_profile(sauk, admin):
    row = county_setting_change(jurisdiction=sauk, key="contact", value=_contact(), citation="county policy", by=admin,
                                reason="the new office")
    contact = load_profile("sauk")["contact"]
    assert contact["address"] == SAUK_ADDRESS and contact["source"] == "county policy" and contact["confirmed"] is True
    change = CountySettingChange.objects.get(jurisdiction=sauk, key="contact")
    assert (change.citation, change.by, change.before, change.after["address"]) == ("county policy", admin, None, SAUK_ADDRESS)
    event = AuditEvent.objects.get(content_type=ContentType.objects.get_for_model(CountySetting), object_id=row.pk)
    assert "return address" in event.action and "county policy" in event.action
    # a second change records before and after
    county_setting_change(jurisdiction=sauk, key="contact", value=_contact(phone="(608) 355-3200"),
                          citation="Sauk County Code s. 25.05", by=admin)
    assert load_profile("sauk")["contact"]["phone"] == "(608) 355-3200"
    last = CountySettingChange.objects.filter(key="contact").first()
    assert last.before["phone"] == "(608) 355-3245" and last.after["phone"] == "(608) 355-3200"


def test_a_setting_survives_a_reload_from_the_database(sauk, admin):
    county_setting_change(jurisdiction=sauk, key="notice_lead_time", value={"days": 45},
                          citation="Sauk County Code s. 25.10(2)", by=admin)
    refresh()  # as a new process: nothing cached, read again from the database
    profile = maintenance_profile("sauk")
    assert profile.lead_time_days == 45 and profile.citations["lead_time"] == "Sauk County Code s. 25.10(2)"
    assert maintenance_profile("state").lead_time_days == 30  # the state minimum is untouched


def test_another_process_sees_a_change_on_its_next_request_by_the_version_stamp(sauk, admin):
    from powts.jurisdictions.overlay import touch_stamp
    from powts.kernel.profiles import check_done, check_soon

    assert maintenance_profile("sauk").lead_time_days == 30
    # another process stores the setting: here its rows are written behind this process's cache
    CountySetting.objects.create(jurisdiction=sauk, key="notice_lead_time", value={"days": 60}, citation="county policy",
                                 changed_at=dt.datetime(2026, 12, 1, tzinfo=dt.UTC))
    token = check_soon()
    try:
        assert maintenance_profile("sauk").lead_time_days == 30  # the stamp has not moved: the cached profile
    finally:
        check_done(token)
    touch_stamp()  # the other process's change commits
    assert maintenance_profile("sauk").lead_time_days == 30  # outside a request or job nothing is asked
    token = check_soon()  # a request begins
    try:
        assert maintenance_profile("sauk").lead_time_days == 60
    finally:
        check_done(token)


@pytest.mark.parametrize("days, refused", [(0, True), (1, False), (365, False), (366, True)])
def test_a_lead_time_outside_1_to_365_days_is_refused_and_nothing_changes(sauk, admin, days, refused):
    if not refused:
        county_setting_change(jurisdiction=sauk, key="notice_lead_time", value={"days": days}, citation="county policy", by=admin)
        assert maintenance_profile("sauk").lead_time_days == days
        return
    with pytest.raises(CountyRefused, match=f"not saved: .*lead_time_days: {days} is not a whole number of days from 1 to 365"):
        county_setting_change(jurisdiction=sauk, key="notice_lead_time", value={"days": days}, citation="county policy", by=admin)
    assert not CountySetting.objects.exists() and not CountySettingChange.objects.filter(key="notice_lead_time").exists()
    assert maintenance_profile("sauk").lead_time_days == 30


def test_notice_steps_out_of_order_are_refused_and_the_old_steps_stand(sauk, admin):
    steps = [{"kind": "reminder", "days_after_due": 0, "days_after_previous": 0},
             {"kind": "delinquent", "days_after_due": 45, "days_after_previous": 45}]
    county_setting_change(jurisdiction=sauk, key="notice_steps", value={"steps": steps}, citation="Sauk County Code s. 25.10(3)", by=admin)
    assert [s.days_after_due for s in maintenance_profile("sauk").steps][:2] == [0, 45]
    bad = [{"kind": "violation", "days_after_due": 10, "days_after_previous": 10}]  # before the delinquency notice
    with pytest.raises(CountyRefused, match="the steps go out in order"):
        county_setting_change(jurisdiction=sauk, key="notice_steps", value={"steps": bad}, citation="county policy", by=admin)
    assert [s.days_after_due for s in maintenance_profile("sauk").steps][:2] == [0, 45]
    assert CountySetting.objects.get(key="notice_steps").citation == "Sauk County Code s. 25.10(3)"


def test_an_office_closure_is_no_working_day_from_the_day_it_is_set(sauk, admin):
    closed = dt.date(2027, 1, 4)  # a Monday
    assert calendar_for("sauk").is_working_day(closed)
    county_setting_change(jurisdiction=sauk, key="closures", value={"closures": [{"date": "2027-01-04", "reason": "Courthouse closed"}]},
                          citation="county policy", by=admin)
    assert not calendar_for("sauk").is_working_day(closed)
    assert calendar_for("sauk").is_working_day(dt.date(2027, 1, 5))
    assert calendar_for("dane").is_working_day(closed)  # another county's calendar is its own


def test_a_fee_schedule_starts_on_its_date_and_the_shipped_one_ends_the_day_before(db, admin):
    dane = jurisdiction_ensure(slug="dane")
    dane_admin = user_create(username="dana", password="x-Pass-2026!", role="county_admin", jurisdiction=dane)
    before = fee_for("dane", "application", dt.date(2027, 6, 30)).amount
    county_setting_change(jurisdiction=dane, key="fees", by=dane_admin, citation="Dane County Code s. 46.23",
                          value={"effective_from": "2027-07-01", "effective_through": "",
                                 "fees": {"application": {"label": "Sanitary permit application", "amount": "480.00"}}})
    assert fee_for("dane", "application", dt.date(2027, 6, 30)).amount == before
    fee = fee_for("dane", "application", dt.date(2027, 7, 1))
    assert str(fee.amount) == "480.00" and fee.authority == "Dane County Code s. 46.23"


def test_a_fee_schedule_ending_before_it_begins_is_refused(sauk, admin):
    with pytest.raises(CountyRefused, match="effective_through 2027-01-01 is before effective_from 2027-07-01"):
        county_setting_change(jurisdiction=sauk, key="fees", by=admin, citation="county policy",
                              value={"effective_from": "2027-07-01", "effective_through": "2027-01-01",
                                     "fees": {"application": {"label": "Application", "amount": "300.00"}}})
    assert not CountySetting.objects.filter(key="fees").exists()


def test_a_change_without_a_citation_is_refused(sauk, admin):
    with pytest.raises(CountyRefused, match="cite the county's ordinance section"):
        county_setting_change(jurisdiction=sauk, key="contact", value=_contact(), citation="  ", by=admin)


def test_dane_and_lincoln_stay_the_shipped_examples(db):
    dane, lincoln = jurisdiction_ensure(slug="dane"), jurisdiction_ensure(slug="lincoln")
    assert (dane.name, lincoln.name) == ("Dane County", "Lincoln County")
    assert load_profile("dane")["ordinance"]["short_cite"] == "Dane County Code ch. 46"


# ---------------------------------------------------------------- the pages and who may use them

def _post_contact(client, **changes):
    data = {"office": "Sauk County Land Resources", "address": "505 Broadway\nBaraboo, WI 53913", "phone": "(608) 355-3245",
            "email": "lre@saukcountywi.gov", "hours": "8 to 4:30", "citation": "county policy", "reason": "", **changes}
    return client.post(reverse("jurisdictions:setting-edit", args=["contact"]), data)


def test_the_county_administrator_changes_the_return_address_on_the_page(client, sauk, admin):
    client.force_login(admin)
    page = client.get(reverse("jurisdictions:settings"))
    assert page.status_code == 200 and "Contact and return address" in page.content.decode()
    response = _post_contact(client)
    assert response.status_code == 302
    assert load_profile("sauk")["contact"]["address"] == ["505 Broadway", "Baraboo, WI 53913"]
    assert "county policy" in client.get(reverse("jurisdictions:settings")).content.decode()


def test_a_return_address_without_a_zip_code_is_refused_on_its_field(client, sauk, admin):
    client.force_login(admin)
    response = _post_contact(client, address="505 Broadway\nBaraboo, WI")
    assert response.status_code == 400 and "does not end with a ZIP code" in response.content.decode()
    assert not CountySetting.objects.exists()


def test_staff_of_the_county_and_another_countys_administrator_cannot_change_its_settings(client, sauk, admin):
    dane = jurisdiction_ensure(slug="dane")
    staff = user_create(username="sam", password="x-Pass-2026!", role="county_staff", jurisdiction=sauk)
    other_admin = user_create(username="dana", password="x-Pass-2026!", role="county_admin", jurisdiction=dane)
    other_staff = user_create(username="pat", password="x-Pass-2026!", role="county_staff", jurisdiction=dane)
    for person in (staff, other_staff):
        client.force_login(person)
        assert client.get(reverse("jurisdictions:settings")).status_code == 403
        assert _post_contact(client).status_code == 403
    # Dane's administrator changes Dane's settings, never Sauk's: the page acts on the signed-in county only
    client.force_login(other_admin)
    assert _post_contact(client).status_code == 302
    assert load_profile("sauk").get("contact") in (None, {}) or "Baraboo, WI 53913" not in load_profile("sauk")["contact"].get("address", [])
    assert CountySetting.objects.get().jurisdiction == dane


def test_the_departments_page_adds_a_county(client, db):
    dsps = user_create(username="dee", password="x-Pass-2026!", role="dsps")
    client.force_login(dsps)
    assert client.get(reverse("jurisdictions:county-new")).status_code == 200
    response = client.post(reverse("jurisdictions:county-new"), {"name": "Juneau County", "slug": "juneau"})
    assert response.status_code == 302
    unit = Jurisdiction.objects.get(slug="juneau")
    assert unit.name == "Juneau County" and load_profile("juneau")["name"] == "Juneau County"
    assert AuditEvent.objects.filter(content_type=ContentType.objects.get_for_model(Jurisdiction), object_id=unit.pk).exists()
    again = client.post(reverse("jurisdictions:county-new"), {"name": "Juneau County", "slug": "juneau"})
    assert again.status_code == 400 and "already set up" in again.content.decode()


def test_only_the_department_adds_a_county(client, sauk, admin):
    client.force_login(admin)
    assert client.post(reverse("jurisdictions:county-new"), {"name": "Juneau County", "slug": "juneau"}).status_code == 403
    assert not Jurisdiction.objects.filter(slug="juneau").exists()
