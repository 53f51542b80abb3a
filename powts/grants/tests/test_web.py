"""Web pages and API for grant applications: the owner applies and follows; county staff enter, decide, read."""
import datetime as dt
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from powts.grants.models import GrantApplication, GrantDecision


def _pdf(name="return.pdf"):
    from pypdf import PdfWriter

    writer, buf = PdfWriter(), io.BytesIO()
    writer.add_blank_page(width=612, height=792)
    writer.write(buf)
    return SimpleUploadedFile(name, buf.getvalue(), content_type="application/pdf")


def client_for(user):
    c = Client()
    c.force_login(user)
    return c


def owner_form(determination, **kw):
    year = determination.determined_on.year - 1
    data = {"failure_determination": determination.pk, "applicant_type": "residence", "principal_residence": "yes",
            "annual_family_income": "30,000.00", "income_tax_year": str(year), "income_evidence": "prior_year_return",
            "funding_table_amount": "5200", "units_served": "1"}
    data.update(kw)
    return data


@pytest.mark.django_db
def test_owner_applies_online_with_evidence(owner_user, determination):
    c = client_for(owner_user)
    assert c.get("/grants/apply/").status_code == 200
    r = c.post("/grants/apply/", {**owner_form(determination), "evidence": _pdf()})
    assert r.status_code == 302, r.content.decode().split("usa-list")[1][:300]
    app = GrantApplication.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/grants/{app.pk}/"
    assert (app.source, app.created_by, app.status) == ("online", owner_user, "received")
    assert app.applied_on == dt.date.today() and app.annual_family_income == 3_000_000
    assert app.attachments.get().kind == "income_evidence"
    page = c.get(f"/grants/{app.pk}/").content.decode()
    assert "Not decided yet" in page and "return.pdf" in page and "Decide" not in page


@pytest.mark.django_db
def test_refused_form_shows_the_field_and_citation_and_saves_nothing(owner_user, determination):
    c = client_for(owner_user)
    r = c.post("/grants/apply/", {**owner_form(determination, income_tax_year=""), "evidence": _pdf()})
    assert r.status_code == 400
    text = r.content.decode()
    assert "income_tax_year" in text and "145.246(3)(c)" in text
    assert not GrantApplication.objects.exists()
    from powts.attachments.models import Attachment

    assert not Attachment.objects.exists()


@pytest.mark.django_db
def test_owner_cannot_apply_on_someone_elses_determination(make_user, determination):
    stranger = make_user("sid", "owner")
    r = client_for(stranger).post("/grants/apply/", owner_form(determination))
    assert r.status_code == 404 and not GrantApplication.objects.exists()


@pytest.mark.django_db
def test_staff_decides_and_opens_the_letter(staff, owner_user, apply, determination):
    app = apply(determination, annual_family_income=4_500_001)
    c = client_for(staff)
    assert c.post(f"/grants/{app.pk}/decide/").status_code == 302
    d = GrantDecision.objects.get()
    assert not d.eligible and d.decided_by == staff
    page = c.get(f"/grants/{app.pk}/").content.decode()
    assert "Not eligible" in page and "145.246(3)(c)1." in page
    r = c.get(f"/grants/{app.pk}/letter.pdf")
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf" and r.content.startswith(b"%PDF")
    # the owner sees the status and the letter, and cannot decide
    o = client_for(owner_user)
    assert o.get(f"/grants/{app.pk}/letter.pdf").status_code == 200
    assert o.post(f"/grants/{app.pk}/decide/").status_code == 403


@pytest.mark.django_db
def test_no_letter_before_a_decision(staff, apply, determination):
    app = apply(determination)
    assert client_for(staff).get(f"/grants/{app.pk}/letter.pdf").status_code == 404


@pytest.mark.django_db
def test_intake_list_filters_and_exports(staff, apply, determination, lincoln, make_user):
    app = apply(determination)
    c = client_for(staff)
    page = c.get("/grants/?status=received").content.decode()
    assert f"Application {app.pk}" in page
    assert f"Application {app.pk}" not in c.get("/grants/?status=eligible").content.decode()
    export = c.get("/grants/?export=csv")
    body = b"".join(export.streaming_content).decode() if export.streaming else export.content.decode()
    assert export.status_code == 200 and "Olive Owner" in body
    other = client_for(make_user("lin", "county_staff", lincoln))
    assert f"Application {app.pk}" not in other.get("/grants/").content.decode()
    assert other.get(f"/grants/{app.pk}/").status_code == 404


@pytest.mark.django_db
def test_api_apply_decide_and_refusal(staff, determination):
    c = client_for(staff)
    bad = c.post("/api/grants/applications/", {"failure_determination": determination.pk, "annual_family_income": "30000",
                                                "funding_table_amount": "5200"}, content_type="application/json")
    assert bad.status_code == 400 and "income_tax_year" in bad.json()["errors"]
    assert "145.246(3)(c)" in bad.json()["citation"]
    missing = c.post("/api/grants/applications/", {"annual_family_income": "30000"}, content_type="application/json")
    assert missing.status_code == 400 and "failure_determination" in missing.json()["errors"]
    r = c.post("/api/grants/applications/", {
        "failure_determination": determination.pk, "annual_family_income": "30000", "income_tax_year": 2025,
        "income_evidence": "prior_year_return", "funding_table_amount": "5200", "applied_on": "2026-04-01"},
        content_type="application/json")
    assert r.status_code == 201, r.content
    pk = r.json()["id"]
    d = c.post(f"/api/grants/applications/{pk}/decide/")
    assert d.status_code == 201 and d.json()["eligible"] is True and d.json()["amount"] == 520_000
    assert c.get(f"/api/grants/applications/{pk}/").json()["decision"]["law_version"] == "145.246"
    listing = c.get("/api/grants/applications/?status=eligible").json()
    assert [a["id"] for a in listing["results"]] == [pk]
