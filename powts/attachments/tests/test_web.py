"""Documents and photos on the web: "served only to those who may see the record"; uploads from the permit
page, the plumber's application, the pumper's report form and the public complaint form; an oversized
upload refused before its body is read."""
import datetime as dt

import pytest
from django.test import Client

from powts.attachments import services
from powts.attachments.models import Attachment
from powts.attachments.tests import samples
from powts.attachments.tests.conftest import stored_files
from powts.audit.models import AuditEvent


def client_for(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


@pytest.fixture
def plan(permit, people):
    return services.attachment_add(record=permit, kind="plan", upload=samples.upload(samples.pdf(), "site plan.pdf"),
                                   uploaded_by=people["plumber"])


def test_download_is_an_attachment_with_nosniff_for_the_records_readers(plan, people):
    for who in ("staff", "plumber", "auditor"):
        r = client_for(people[who]).get(f"/attachments/{plan.pk}/")
        assert r.status_code == 200, who
        # named by powts (the record, the kind, the file's number, the detected type), not "site plan.pdf"
        assert r["Content-Disposition"] == f'attachment; filename="permit-{plan.permit.number.lower()}-plan-{plan.pk}.pdf"'
        assert r["X-Content-Type-Options"] == "nosniff" and r["Content-Type"] == "application/pdf"
    body = b"".join(client_for(people["staff"]).get(f"/attachments/{plan.pk}/").streaming_content)
    assert body.startswith(b"%PDF") and len(body) == plan.size


@pytest.mark.parametrize("who", ["staff_b", "other_plumber", "owner", "pumper"])
def test_others_get_a_404_and_anonymous_the_sign_in(plan, people, who):
    assert client_for(people[who]).get(f"/attachments/{plan.pk}/").status_code == 404
    r = client_for().get(f"/attachments/{plan.pk}/")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]


def test_the_permit_page_lists_files_and_offers_the_upload(plan, permit, people):
    page = client_for(people["plumber"]).get(f"/permits/{permit.pk}/").content.decode()
    assert "site plan.pdf" in page and f"/attachments/{plan.pk}/" in page and 'enctype="multipart/form-data"' in page
    owner_page = client_for(people["auditor"]).get(f"/permits/{permit.pk}/").content.decode()
    assert "site plan.pdf" in owner_page and f"/attachments/permit/{permit.pk}/add/" not in owner_page  # reads, may not add


def test_plumber_uploads_a_plan_from_the_permit_page(permit, people):
    r = client_for(people["plumber"]).post(f"/attachments/permit/{permit.pk}/add/", {
        "kind": "plan", "file": samples.upload(samples.pdf(), "plans.pdf"), "next": f"/permits/{permit.pk}/"}, follow=True)
    assert r.status_code == 200 and "Added: plans.pdf." in r.content.decode()
    assert permit.attachments.get().kind == "plan"


def test_an_executable_renamed_pdf_is_refused_with_a_message_and_nothing_changes(permit, people, attachment_dir):
    events = AuditEvent.objects.count()
    r = client_for(people["plumber"]).post(f"/attachments/permit/{permit.pk}/add/", {
        "kind": "plan", "file": samples.upload(samples.exe(), "plans.pdf")}, follow=True)
    text = r.content.decode()
    assert "Nothing was added. plans.pdf is not accepted as a plan" in text and "Windows program" in text
    assert not Attachment.objects.exists() and stored_files(attachment_dir) == [] and AuditEvent.objects.count() == events


def test_a_good_file_and_a_bad_one_in_one_post_save_neither(permit, people, attachment_dir):
    client_for(people["plumber"]).post(f"/attachments/permit/{permit.pk}/add/", {
        "kind": "plan", "file": [samples.upload(samples.pdf(), "good.pdf"), samples.upload(samples.exe(), "bad.pdf")]})
    assert not Attachment.objects.exists() and stored_files(attachment_dir) == []


def test_who_may_not_add_is_refused_and_nothing_changes(permit, people):
    assert client_for(people["other_plumber"]).post(f"/attachments/permit/{permit.pk}/add/", {
        "kind": "plan", "file": samples.upload(samples.pdf(), "p.pdf")}).status_code == 404
    assert client_for(people["auditor"]).post(f"/attachments/permit/{permit.pk}/add/", {
        "kind": "plan", "file": samples.upload(samples.pdf(), "p.pdf")}).status_code == 403
    assert not Attachment.objects.exists()


def test_remove_by_staff_and_not_by_a_reader(plan, people):
    assert client_for(people["auditor"]).post(f"/attachments/{plan.pk}/remove/").status_code == 403
    assert Attachment.objects.filter(pk=plan.pk).exists()
    r = client_for(people["staff"]).post(f"/attachments/{plan.pk}/remove/")
    assert r.status_code == 302 and not Attachment.objects.filter(pk=plan.pk).exists()


def test_the_plumbers_application_takes_plans(people, dane, permit):
    """The application form files the permit and its plans together; a bad plan files nothing."""
    from powts.permits.models import Permit

    c = client_for(people["plumber"])
    data = {"jurisdiction": "dane", "parcel_number": "0810-123-4567-0", "plumber_license": "MP-1001",
            "kind": "state", "system_type": "standard"}
    before = Permit.objects.count()
    r = c.post("/permits/new/", {**data, "plans": samples.upload(samples.exe(), "mound.pdf")})
    assert r.status_code == 200 and "mound.pdf is not accepted as a plan" in r.content.decode()
    assert Permit.objects.count() == before and not Attachment.objects.exists()
    r = c.post("/permits/new/", {**data, "plans": [samples.upload(samples.pdf(), "mound.pdf"),
                                                   samples.upload(samples.image("PNG"), "detail.png")]})
    assert r.status_code == 302
    new = Permit.objects.exclude(pk=permit.pk).get()
    assert sorted(new.attachments.values_list("original_name", flat=True)) == ["detail.png", "mound.pdf"]


def test_the_pumper_files_a_report_with_photos(people, report):
    from powts.maintenance.models import Report

    c = client_for(people["pumper"])
    data = {"jurisdiction": "dane", "system_id": "DA-1", "kind": "pumping", "license_number": "SSO-7",
            "work_date": dt.date.today().isoformat(), "gallons_pumped": "1000"}
    r = c.post("/maintenance/report/", {**data, "photos": samples.upload(samples.pdf(), "tank.jpg")})
    assert "Nothing was filed. tank.jpg is not accepted as a photo" in r.content.decode()
    assert Report.objects.count() == 1
    r = c.post("/maintenance/report/", {**data, "photos": samples.upload(samples.image("JPEG"), "tank.jpg")})
    assert r.status_code == 302
    new = Report.objects.exclude(pk=report.pk).get()
    assert new.attachments.get().original_name == "tank.jpg"
    # the owner of that system sees the photo; the other plumber does not
    att = new.attachments.get()
    assert client_for(people["owner"]).get(f"/attachments/{att.pk}/").status_code == 200
    assert client_for(people["other_plumber"]).get(f"/attachments/{att.pk}/").status_code == 404


def test_the_public_files_a_complaint_with_a_photo(dane, people):
    from powts.permits.models import Complaint

    r = client_for().post("/permits/complaints/new/", {
        "jurisdiction": "dane", "service_code": "failing-septic", "description": "Sewage in the ditch",
        "address": "12 Lake Rd", "photo": samples.upload(samples.image("JPEG"), "ditch.jpg")})
    assert r.status_code == 200 and "received your report" in r.content.decode()
    att = Complaint.objects.get().attachments.get()
    assert (att.kind, att.uploaded_by, att.original_name) == ("photo", None, "ditch.jpg")
    assert client_for(people["staff"]).get(f"/attachments/{att.pk}/").status_code == 200
    assert client_for(people["staff_b"]).get(f"/attachments/{att.pk}/").status_code == 404
    assert client_for(people["owner"]).get(f"/attachments/{att.pk}/").status_code == 404


def test_a_public_complaint_with_a_program_for_a_photo_files_nothing(dane):
    from powts.permits.models import Complaint

    r = client_for().post("/permits/complaints/new/", {
        "jurisdiction": "dane", "service_code": "failing-septic", "description": "Sewage", "address": "12 Lake Rd",
        "photo": samples.upload(samples.exe(), "ditch.jpg")})
    assert r.status_code == 400 and "photo: ditch.jpg is not accepted as a photo" in r.content.decode()
    assert not Complaint.objects.exists() and not Attachment.objects.exists()


def test_an_oversized_public_upload_is_refused_before_its_body_is_read(dane, settings, monkeypatch):
    """The declared length decides: the body is never parsed (request.POST would read it)."""
    from django.http.request import HttpRequest

    from powts.permits.models import Complaint

    settings.POWTS_PUBLIC_UPLOAD_MAX_BYTES = 1000
    monkeypatch.setattr(HttpRequest, "_load_post_and_files", lambda self: pytest.fail("the body was read"))
    big = samples.image("PNG", size=(400, 400)) + bytes(70_000)
    r = client_for().post("/permits/complaints/new/", {
        "jurisdiction": "dane", "service_code": "failing-septic", "description": "x", "photo": samples.upload(big, "b.png")})
    assert r.status_code == 413 and "one upload may carry at most" in r.content.decode()
    assert not Complaint.objects.exists()


def test_an_oversized_signed_in_upload_is_refused_naming_the_limit(permit, people, settings):
    settings.POWTS_UPLOAD_REQUEST_MAX_BYTES = 10_000
    r = client_for(people["plumber"]).post(f"/attachments/permit/{permit.pk}/add/", {
        "kind": "plan", "file": samples.upload(samples.pdf() + bytes(20_000), "p.pdf")})
    assert r.status_code == 413 and "at most 10 KB" in r.content.decode()
    assert not Attachment.objects.exists()


def test_the_system_page_shows_its_permits_and_reports_files(people, report):
    services.attachment_add(record=report, kind="photo", upload=samples.upload(samples.image("JPEG"), "lid.jpg"),
                            uploaded_by=people["pumper"])
    page = client_for(people["staff"]).get(f"/inventory/systems/{report.system_id}/").content.decode()
    assert "Documents and photos" in page and "lid.jpg" in page


def test_staff_see_the_publics_photo_with_the_complaint(complaint, people):
    att = services.attachment_add(record=complaint, kind="photo", upload=samples.upload(samples.image("JPEG"), "ditch.jpg"),
                                  public=True)
    page = client_for(people["staff"]).get("/permits/site/").content.decode()
    assert f"/attachments/{att.pk}/" in page and "ditch.jpg" in page


def test_the_public_form_caps_a_signed_in_persons_photo_too(dane, people, settings):
    """Signed in, the request cap is the larger one; the public form still holds the public photo's cap."""
    from powts.permits.models import Complaint

    settings.POWTS_PUBLIC_UPLOAD_MAX_BYTES = 1000
    big = samples.image("PNG", size=(400, 400)) + bytes(70_000)
    r = client_for(people["owner"]).post("/permits/complaints/new/", {
        "jurisdiction": "dane", "service_code": "failing-septic", "description": "x", "photo": samples.upload(big, "b.png")})
    assert r.status_code == 413 and "a photo of at most 1 KB" in r.content.decode()
    assert "The report is too large" in r.content.decode() and not Complaint.objects.exists()
