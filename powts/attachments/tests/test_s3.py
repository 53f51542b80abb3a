"""Documents and photos "in S3-compatible storage by setting (django-storages; tested against a local ... moto
server)". The fixture starts moto's S3 server on a free loopback port for this module (no service for
.ci/run to start); a file goes in through the service and comes out through the download view."""
import os
import subprocess
import sys
import time
import urllib.request

import pytest
from django.test import Client

from powts.attachments import services
from powts.attachments.tests import samples
from powts.jobs.tests.ports import free_port

BUCKET = "powts-test"


@pytest.fixture(scope="module")
def moto_endpoint():
    pytest.importorskip("moto.server")
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(url + "/moto-api/", timeout=1)
                break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail("moto_server did not start")
                time.sleep(0.1)
        else:
            pytest.fail("moto_server did not answer in 15 s")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def s3(moto_endpoint, settings):
    import boto3

    keys = {"aws_access_key_id": "testing", "aws_secret_access_key": "testing", "region_name": "us-east-1"}
    client = boto3.client("s3", endpoint_url=moto_endpoint, **keys)
    client.create_bucket(Bucket=BUCKET)
    settings.STORAGES = {**settings.STORAGES, "attachments": {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": {
        "bucket_name": BUCKET, "endpoint_url": moto_endpoint, "access_key": "testing", "secret_key": "testing",
        "region_name": "us-east-1", "location": "attachments", "default_acl": "private", "file_overwrite": False}}}
    yield client
    for obj in client.list_objects_v2(Bucket=BUCKET).get("Contents", []):
        client.delete_object(Bucket=BUCKET, Key=obj["Key"])


def test_upload_and_download_through_s3(s3, permit, people, attachment_dir, django_capture_on_commit_callbacks):
    content = samples.pdf(pages=2)
    att = services.attachment_add(record=permit, kind="plan", upload=samples.upload(content, "plans.pdf"),
                                  uploaded_by=people["plumber"])
    keys = [o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET)["Contents"]]
    assert keys == [f"attachments/{att.storage_name}"]
    assert not attachment_dir.exists()  # nothing written locally
    c = Client()
    c.force_login(people["staff"])
    r = c.get(f"/attachments/{att.pk}/")
    assert r.status_code == 200 and b"".join(r.streaming_content) == content
    assert r["Content-Disposition"].startswith("attachment;")
    with django_capture_on_commit_callbacks(execute=True):
        services.attachment_delete(attachment=att)
    assert s3.list_objects_v2(Bucket=BUCKET).get("Contents", []) == []


def _clean_env() -> dict:
    return {k: v for k, v in os.environ.items() if not k.startswith(("POWTS_STORAGE", "POWTS_S3_"))}


@pytest.mark.parametrize("env,expected", [
    ({}, "django.core.files.storage.FileSystemStorage"),
    ({"POWTS_STORAGE": "s3", "POWTS_S3_BUCKET": "b", "POWTS_S3_ENDPOINT_URL": "http://127.0.0.1:9"},
     "storages.backends.s3.S3Storage"),
])
def test_the_setting_chooses_the_storage(env, expected, tmp_path):
    code = "import powts.settings as s; a = s.STORAGES['attachments']; print(a['BACKEND'], a['OPTIONS'].get('location'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**_clean_env(), "POWTS_DATA_DIR": str(tmp_path), **env}).stdout.split()
    assert out[0] == expected
    assert out[1] == (str(tmp_path / "attachments") if not env else "attachments")


def test_s3_without_a_bucket_refuses_to_start(tmp_path):
    r = subprocess.run([sys.executable, "-c", "import powts.settings"], capture_output=True, text=True,
                       env={**_clean_env(), "POWTS_DATA_DIR": str(tmp_path), "POWTS_STORAGE": "s3", "POWTS_S3_BUCKET": ""})
    assert r.returncode != 0 and "POWTS_S3_BUCKET" in r.stderr
