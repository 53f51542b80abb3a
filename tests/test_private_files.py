"""Private files: the database, letters, uploads and the secret key were world-readable (0644 in 0755).
Through the real entry points (`powts` and the WSGI application), everything the application writes in
its data directory is the service account's alone: files 0600, directories 0700 (static files excepted)."""
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs in the web server's process: load the WSGI application, sign in as the demo's county staff, upload an
# inventory file (kept for the preview), then list the data directory while the database is still open
# (so its -wal and -shm files are there).
WEB = """
import json, os, sys
import powts.wsgi
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from powts.accounts.models import User
from powts.inventory import demo_data

c = Client()
c.force_login(User.objects.filter(role="county_staff").first())
path = demo_data.write_csv(sys.argv[1], "dane", 5, 2, messy=False)
upload = SimpleUploadedFile("upload.csv", open(path, "rb").read(), content_type="text/csv")
r = c.post("/inventory/import/", {"file": upload})
assert r.status_code == 200, r.status_code
out = [(oct(os.stat(os.path.join(d, n)).st_mode & 0o777), os.path.join(d, n))
       for d, dirs, files in os.walk(os.environ["POWTS_DATA_DIR"]) for n in dirs + files]
print(json.dumps(out))
"""


def _exposed(entries):
    """Entries readable, writable or searchable by group or others, outside the static files."""
    return [(mode, path) for mode, path in entries if int(mode, 8) & 0o077 and "/static" not in path]


def test_files_the_application_writes_are_private(tmp_path):
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    data.chmod(0o755)  # as a plain mkdir of ~/.local/share/powts would leave it
    env = {**{k: v for k, v in os.environ.items() if k != "DATABASE_URL"}, "POWTS_DATA_DIR": str(data)}
    powts = Path(sys.executable).with_name("powts")
    # the command line: database, secret key, demo inventory and notice letters (PDFs)
    subprocess.run([str(powts), "demo", "--systems", "20"], env=env, check=True, capture_output=True, cwd=ROOT)
    # the web server: an upload kept for its preview, while the database is open
    web = subprocess.run([sys.executable, "-c", WEB, str(tmp_path / "upload.csv")], env={**env, "DJANGO_SETTINGS_MODULE": "powts.settings"},
                         check=True, capture_output=True, text=True, cwd=ROOT)
    entries = json.loads(web.stdout.strip().splitlines()[-1])
    names = [Path(p).name for _, p in entries]
    assert "powts.sqlite3" in names and "secret_key" in names
    assert any(n.endswith(".pdf") for n in names), "the demo wrote no letters"
    assert any(n.endswith(".csv") and "imports" in p for (_, p), n in zip(entries, names)), "no upload kept"
    assert "powts.sqlite3-wal" in names
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    assert _exposed(entries) == []
    on_disk = [(oct(stat.S_IMODE(p.stat().st_mode)), str(p)) for p in data.rglob("*")]
    assert _exposed(on_disk) == []
