"""Documents and photos through the API: list, upload and download on the same services and policies; a file that is
not what it says is a 400 naming the file; other counties' staff and other people get a 404."""
import pytest
from rest_framework.test import APIClient

from powts.attachments import services
from powts.attachments.models import Attachment
from powts.attachments.tests import samples


def api(user=None) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def test_upload_list_and_download(permit, people):
    c = api(people["plumber"])
    r = c.post("/api/attachments/", {"permit": permit.pk, "kind": "soil_report",
                                     "file": samples.upload(samples.pdf(), "soils.pdf")}, format="multipart")
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["record"] == {"type": "permit", "id": permit.pk} and body["content_type"] == "application/pdf"
    listed = api(people["staff"]).get(f"/api/attachments/?permit={permit.pk}").json()
    assert [a["original_name"] for a in listed] == ["soils.pdf"]
    r = api(people["staff"]).get(body["download"])
    assert r.status_code == 200 and r["Content-Disposition"].startswith("attachment;")
    assert r["X-Content-Type-Options"] == "nosniff" and b"".join(r.streaming_content).startswith(b"%PDF")


def test_an_executable_named_pdf_is_a_400_naming_the_file(permit, people):
    r = api(people["plumber"]).post("/api/attachments/", {"permit": permit.pk, "kind": "plan",
                                                          "file": samples.upload(samples.exe(), "plan.pdf")}, format="multipart")
    assert r.status_code == 400 and "plan.pdf" in r.json()["errors"]["file"][0]
    assert not Attachment.objects.exists()


@pytest.mark.parametrize("data,field", [
    ({"kind": "plan"}, "record"),
    ({"permit": "x", "kind": "plan"}, "permit"),
    ({"kind": "blueprint"}, "kind"),
])
def test_bad_fields_are_named(permit, people, data, field):
    data = {"permit": permit.pk, **data} if field == "kind" else data
    r = api(people["plumber"]).post("/api/attachments/", {**data, "file": samples.upload(samples.pdf(), "p.pdf")},
                                    format="multipart")
    assert r.status_code == 400 and field in r.json()["errors"]


def test_no_file_is_named(permit, people):
    r = api(people["plumber"]).post("/api/attachments/", {"permit": permit.pk, "kind": "plan"}, format="multipart")
    assert r.status_code == 400 and "file" in r.json()["errors"]


def test_other_counties_and_other_people_see_nothing(permit, people):
    att = services.attachment_add(record=permit, kind="plan", upload=samples.upload(samples.pdf(), "p.pdf"))
    for who in ("staff_b", "other_plumber", "owner"):
        assert api(people[who]).get(f"/api/attachments/{att.pk}/download").status_code == 404
        assert api(people[who]).get(f"/api/attachments/?permit={permit.pk}").status_code == 404
        r = api(people[who]).post("/api/attachments/", {"permit": permit.pk, "kind": "plan",
                                                         "file": samples.upload(samples.pdf(), "p.pdf")}, format="multipart")
        assert r.status_code == 404
    assert api().get(f"/api/attachments/{att.pk}/download").status_code in (401, 403)
    assert Attachment.objects.count() == 1


def test_delete_by_the_uploader_or_staff(permit, people):
    att = services.attachment_add(record=permit, kind="plan", upload=samples.upload(samples.pdf(), "p.pdf"),
                                  uploaded_by=people["plumber"])
    assert api(people["auditor"]).delete(f"/api/attachments/{att.pk}/").status_code == 403
    assert api(people["plumber"]).delete(f"/api/attachments/{att.pk}/").status_code == 204
    assert not Attachment.objects.exists()
