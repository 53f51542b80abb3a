"""The deploy/ folder and docs/deploy.md cannot rot silently. Each unit's command and
options exist (`powts serve --help`, `powts worker --help`), every setting the example environment file
names is one powts reads, every powts command the page tells an administrator to run exists, the nginx
example passes `nginx -t` (when nginx is installed) and sends to the ports the page's units use."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
PAGE = ROOT / "docs" / "deploy.md"
POWTS = [sys.executable, "-c", "import sys; from powts.cli import main; sys.exit(main())"]
INSTALLED = "/opt/powts/.venv/bin/powts"


def _help(*subcommand: str) -> str:
    done = subprocess.run([*POWTS, *subcommand, "--help"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, f"powts {' '.join(subcommand)} --help failed: {done.stderr[-1000:]}"
    return done.stdout


def _exec_start(unit: Path) -> list[str]:
    lines = [line.split("=", 1)[1] for line in unit.read_text().splitlines() if line.startswith("ExecStart=")]
    assert len(lines) == 1, f"{unit.name}: one ExecStart"
    return lines[0].split()


@pytest.mark.parametrize("unit", ["powts-web@.service", "powts-worker@.service"])
def test_each_unit_runs_a_powts_command_with_options_it_has(unit):
    words = _exec_start(DEPLOY / "systemd" / unit)
    assert words[0] == INSTALLED  # where the page installs it
    subcommand = words[1]
    options = [w for w in words[2:] if w.startswith("--")]
    text = _help(subcommand)
    for option in options:
        assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text), f"{unit}: powts {subcommand} has no {option}"


def test_the_units_read_the_settings_file_and_belong_to_the_target():
    for unit in ("powts-web@.service", "powts-worker@.service"):
        text = (DEPLOY / "systemd" / unit).read_text()
        assert "EnvironmentFile=/etc/powts/powts.env" in text
        assert "WantedBy=powts.target" in text and "PartOf=powts.target" in text
    assert (DEPLOY / "systemd" / "powts.target").exists()


def test_every_setting_of_the_example_file_is_read_by_powts():
    settings = (ROOT / "powts" / "settings.py").read_text()
    names = re.findall(r"^#?([A-Z][A-Z0-9_]+)=", (DEPLOY / "powts.env.example").read_text(), flags=re.M)
    assert {"DATABASE_URL", "POWTS_QUEUE_URL", "POWTS_DATA_DIR", "SECRET_KEY", "POWTS_ALLOWED_HOSTS"} <= set(names)
    unread = [n for n in names if f'"{n}"' not in settings]
    assert not unread, f"deploy/powts.env.example names settings powts does not read: {unread}"


def test_every_powts_command_on_the_page_exists():
    page = PAGE.read_text()
    commands = set(re.findall(r"powts-manage ([a-z_]+(?: [a-z]+)?)", page))
    commands |= {"serve"} | {c for c in re.findall(r"\.venv/bin/powts ([a-z_]+)", page)}
    assert {"migrate", "backup", "restore", "import inventory"} <= commands
    for command in sorted(commands):
        words = command.split()
        if words[0] == "import":  # `import inventory` is one command with a positional kind
            assert "inventory" in _help("import")
            continue
        _help(words[0])


def test_the_files_the_page_names_exist():
    for path in set(re.findall(r"deploy/[\w@./-]+\w", PAGE.read_text())):
        assert (ROOT / path).exists(), path
    assert (DEPLOY / "powts-manage").stat().st_mode & 0o111, "deploy/powts-manage is executable"
    assert subprocess.run(["sh", "-n", str(DEPLOY / "powts-manage")]).returncode == 0


def test_nginx_sends_to_the_web_units_the_page_enables():
    page = PAGE.read_text()
    enabled = set(re.findall(r"powts-web@(\d+)", page.split("## Many machines")[0]))
    upstream = set(re.findall(r"server 127\.0\.0\.1:(\d+)", (DEPLOY / "nginx" / "powts.conf").read_text()))
    assert enabled and enabled == upstream


@pytest.mark.skipif(not (shutil.which("nginx") and shutil.which("openssl")), reason="nginx or openssl not installed")
def test_the_nginx_example_passes_nginx_t(tmp_path):
    conf = (DEPLOY / "nginx" / "powts.conf").read_text()
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=powts.test",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    conf = conf.replace("/etc/ssl/certs/powts.example.gov.pem", str(cert)).replace("/etc/ssl/private/powts.example.gov.key", str(key))
    (tmp_path / "powts.conf").write_text(conf)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n access_log off;\n include {tmp_path}/powts.conf;\n}}\n")
    done = subprocess.run(["nginx", "-t", "-p", str(tmp_path), "-e", str(tmp_path / "error.log"), "-c", str(tmp_path / "nginx.conf")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
