"""Large exports run as jobs. A list's export over POWTS_EXPORT_JOB_ROWS rows becomes a
job whose page links to the file; at the limit it is still streamed from the request."""
import csv
import io

import pytest
from django.test import Client

from powts.jobs.models import Job, JobState


@pytest.fixture
def three(dane, staff):
    from powts.inventory.services import system_create

    for n in (1, 2, 3):
        system_create(jurisdiction=dane, system_id=f"EX-{n}", parcel_number=f"P-{n}", system_type="mound",
                      owner_name=f"Owner {n}")
    c = Client()
    c.force_login(staff)
    return c


def test_at_the_limit_the_export_is_streamed_from_the_request(three, settings):
    settings.POWTS_EXPORT_JOB_ROWS = 3
    response = three.get("/inventory/?export=csv")
    assert response.status_code == 200 and not Job.objects.exists()
    assert len(list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))) == 4


def test_over_the_limit_the_export_is_a_job_with_a_download_for_its_asker_only(three, settings, make_user, dane, tmp_path):
    settings.POWTS_EXPORT_JOB_ROWS = 2
    settings.DATA_DIR = tmp_path
    response = three.get("/inventory/?export=csv&q=owner")
    job = Job.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/jobs/{job.pk}/"
    assert (job.kind, job.state, job.params["query"]) == ("export", JobState.DONE, "export=csv&q=owner")
    page = three.get(f"/jobs/{job.pk}/").content.decode()
    assert "Download the CSV file" in page
    download = three.get(f"/jobs/{job.pk}/download/")
    assert download.status_code == 200 and 'filename="systems-' in download["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(b"".join(download.streaming_content).decode("utf-8-sig"))))
    assert len(rows) == 4 and {r[0] for r in rows[1:]} == {"EX-1", "EX-2", "EX-3"}
    colleague = Client()
    colleague.force_login(make_user("dee", "county_staff", dane))
    assert colleague.get(f"/jobs/{job.pk}/").status_code == 404  # the file holds what its asker may read
    assert colleague.get(f"/jobs/{job.pk}/download/").status_code == 404
