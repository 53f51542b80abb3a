"""Finding: "upload tokens not tied to the uploader or county (Lincoln staff confirmed
Dane's upload into Lincoln)". Now a preview-confirm token is the uploader's, for their county."""
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from powts.inventory.models import System

CONTENT = b"system_id,parcel_id,system_type,owner_name\nD-1,P-1,Mound,Ann Rowe\nD-2,P-2,Spaceship,Bob Reject\n"


@pytest.fixture
def preview(staff, tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path
    c = Client()
    c.force_login(staff)
    response = c.post("/inventory/import/", {"file": SimpleUploadedFile("dane.csv", CONTENT)})
    assert response.status_code == 200
    return response.context["token"]


def _client(user):
    c = Client()
    c.force_login(user)
    return c


def test_other_county_staff_may_not_confirm_or_read_rejects(preview, lincoln, make_user):
    """Lincoln staff confirming Dane's upload: 404 and nothing imported anywhere; the rejects (owners' names) stay hidden."""
    other = _client(make_user("lou", "county_staff", lincoln))
    assert other.post(f"/inventory/import/{preview}/confirm/").status_code == 404
    assert System.objects.count() == 0
    assert other.get(f"/inventory/import/{preview}/rejects.csv").status_code == 404


def test_same_county_other_staff_may_not_confirm(preview, dane, make_user):
    """Tied to the uploader, not only the county."""
    colleague = _client(make_user("dee", "county_staff", dane))
    assert colleague.post(f"/inventory/import/{preview}/confirm/").status_code == 404
    assert System.objects.count() == 0


def test_uploader_confirms_and_reads_rejects(preview, staff, dane):
    """The other side: the uploader reads the rejects and confirms into their own county."""
    mine = _client(staff)
    rejects = mine.get(f"/inventory/import/{preview}/rejects.csv")
    assert rejects.status_code == 200 and b"Spaceship" in b"".join(rejects.streaming_content)
    assert mine.post(f"/inventory/import/{preview}/confirm/").status_code == 302
    assert list(System.objects.values_list("jurisdiction__slug", "system_id")) == [("dane", "D-1")]
