"""The `powts` command explains itself: its version, a help grouped by what an administrator does, a usage
line and help text for every command, sub-command and option, an unknown command answered at once without
touching a database, one name (`--jurisdiction`) for the county, DATABASE_URL read plainly, and progress on
stderr for long commands (stdout stays the result)."""
import argparse
import importlib.metadata
import io
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from powts import cli as powts_cli
from powts.core.progress import Progress

ROOT = Path(__file__).resolve().parent.parent
DESTRUCTIVE = ["flush", "sqlflush", "startproject", "startapp"]


def _walk(path, parser):
    """(`powts a b`, parser) for a parser and every sub-command under it, however deep."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from _walk(f"{path} {name}", child)


def _every_parser():
    for name, parser in powts_cli.command_parsers():
        yield from _walk(f"powts {name}", parser)


def _subprocess_env(data_dir, **extra):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    env.update(POWTS_DATA_DIR=str(data_dir), PYTHONPATH=str(ROOT), **extra)
    return env


POWTS = [sys.executable, "-c", "import sys; from powts.cli import main; sys.exit(main())"]


# -- the version ---------------------------------------------------------------------------------------

def test_version_is_the_package_metadata_version_and_the_changelog_has_its_entry(cli):
    released = importlib.metadata.version("powts")
    code, out, _ = cli("--version")
    assert code == 0 and out.strip() == f"powts {released}"
    assert "Django" not in out and not re.fullmatch(r"powts 5\.\d+\.\d+", out.strip())
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert re.search(rf"^## {re.escape(released)}\b", changelog, flags=re.M), f"CHANGELOG.md has no entry for {released}"
    assert "a released migration never changes" in changelog


def test_a_command_version_option_prints_powts_version_not_djangos(capsys):
    with pytest.raises(SystemExit) as exit_:
        powts_cli.main(["permits", "--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == importlib.metadata.version("powts")


# -- the help --------------------------------------------------------------------------------------------

def test_help_lists_powts_commands_first_grouped_by_task_each_with_a_description(cli):
    code, out, _ = cli("--help")
    assert code == 0
    headings = [line[:-1] for line in out.splitlines() if line.endswith(":") and not line.startswith(" ")]
    assert headings[:6] == ["Set up", "Import and export", "Maintenance", "Permits", "Programs", "Operate"]
    assert headings[6].startswith("Other commands")
    own, others = out.split("Other commands", 1)
    listed = {m.group(1): m.group(2) for m in re.finditer(r"^  (\S+) +(.*)$", own, flags=re.M)}
    for name in powts_cli.powts_commands():
        assert name in listed, f"powts {name} is not in a group of `powts --help`"
        assert len(listed[name]) > 10, f"powts {name} has no one-line description"
    assert {"rules", "workdays", "setbacks"} <= set(listed)
    assert "check" in others and "check" not in listed  # Django's own, after powts's


def test_help_hides_the_commands_that_empty_a_database_unless_all(cli):
    _, out, _ = cli("--help")
    names = set(re.findall(r"^  (\S+)", out, flags=re.M))
    for name in DESTRUCTIVE:
        assert name not in names
    _, out_all, _ = cli("--help", "--all")
    names_all = set(re.findall(r"^  (\S+)", out_all, flags=re.M))
    for name in DESTRUCTIVE:
        assert name in names_all


def test_every_powts_command_and_sub_command_has_a_usage_line_naming_it_and_help_text():
    for name, parser in powts_cli.command_parsers():
        for action in (a for _, p in _walk(f"powts {name}", parser) for a in p._actions):
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    assert choice.help, f"sub-command {choice.dest} of powts {name} has no help text"
    paths = []
    for path, parser in _every_parser():
        usage = parser.format_usage()
        assert usage.startswith(f"usage: {path} ") or usage.strip() == f"usage: {path}", (path, usage)
        if path.count(" ") >= 2:  # a sub-command: its own description under the usage line
            assert parser.description, f"{path} has no description"
        paths.append(path)
    assert {"powts permits expire", "powts maintenance notices send", "powts inventory centroids load",
            "powts import inventory", "powts export inventory", "powts grants certify"} <= set(paths)


def test_every_nested_sub_command_prints_its_own_usage_with_help(cli):
    nested = [path for path, _ in _every_parser() if path.count(" ") >= 2]
    assert len(nested) > 20
    for path in nested:
        words = path.split()[1:]
        code, out, err = cli(*words, "--help")  # the fixture turns argparse's exit into the code
        assert code in (0, None), (path, err)
        assert out.startswith(f"usage: {path} "), (path, out[:200])


def test_powts_permits_expire_help_prints_its_own_usage(capsys):
    with pytest.raises(SystemExit) as exit_:
        powts_cli.main(["permits", "expire", "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: powts permits expire ")
    assert "--today YYYY-MM-DD" in out and "the day of the sweep" in out


def test_every_option_and_argument_of_every_powts_command_has_help_text():
    missing = []
    for path, parser in _every_parser():
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            if not action.help or action.help == argparse.SUPPRESS:
                missing.append(f"{path} {'/'.join(action.option_strings) or action.dest}")
    assert not missing, "no help text: " + ", ".join(missing)


def test_the_county_is_called_jurisdiction_in_every_command():
    for path, parser in _every_parser():
        for action in parser._actions:
            assert "--county" not in action.option_strings, f"{path} still names --county"


# -- unknown commands and the database -------------------------------------------------------------------

def test_an_unknown_command_is_answered_at_once_with_a_suggestion_and_no_database(tmp_path):
    started = time.monotonic()
    done = subprocess.run([*POWTS, "permit"], env=_subprocess_env(tmp_path), capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    took = time.monotonic() - started
    assert done.returncode == 1
    assert "unknown command 'permit'" in done.stderr and "Did you mean `powts permits`?" in done.stderr
    assert "Traceback" not in done.stderr and "migrat" not in done.stderr
    assert not list(tmp_path.glob("*.sqlite3*")), "an unknown command created a database"
    assert took < 5, f"an unknown command took {took:.1f} s"


def test_an_unknown_command_far_from_any_name_gets_no_suggestion(cli):
    code, _, err = cli("frobnicate")
    assert code == 1 and "unknown command 'frobnicate'" in err and "Did you mean" not in err


def test_a_database_behind_this_release_is_not_migrated_by_a_report_command(db, cli, monkeypatch):
    monkeypatch.setattr(powts_cli, "_pending", lambda connection: [("a migration", False)])
    monkeypatch.setattr(powts_cli, "apply_migrations", lambda *a, **k: pytest.fail("a report command migrated"))
    code, out, err = cli("maintenance", "due", "--jurisdiction", "dane", "--as-of", "2026-01-01")
    assert code == 1 and out == ""
    assert "1 migration(s) to apply" in err and "powts migrate" in err


def test_database_url_set_but_empty_means_the_embedded_default():
    from django.conf import settings as django_settings

    from powts import settings

    for value in ("", "   "):
        config = settings._database(value)
        assert config["ENGINE"] == "django.db.backends.sqlite3"
        assert config["NAME"] == str(django_settings.DATA_DIR / "powts.sqlite3")


@pytest.mark.parametrize("url", ["foo", "postgres://u:secret@host:port/db", "mysql://u@host/db", "postgres://u@host/"])
def test_a_malformed_database_url_is_one_line_naming_the_variable_and_the_form(tmp_path, url):
    done = subprocess.run([*POWTS, "check"], env=_subprocess_env(tmp_path, DATABASE_URL=url), capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith("powts: DATABASE_URL") and "postgres://USER:PASSWORD@HOST:PORT/NAME" in lines[0]
    assert "secret" not in lines[0]


# -- the old option name ---------------------------------------------------------------------------------

@pytest.mark.parametrize("words", [["--county", "dane"], ["--county=dane"]])
def test_the_old_county_option_still_works_with_a_one_line_notice(db, cli, words):
    code, out, err = cli("inventory", "map-cells", *words)
    assert code == 0 and out.startswith("Map clusters counted:")
    notices = [line for line in err.splitlines() if "--county" in line]
    assert notices == ["powts: --county is now --jurisdiction; --county still works for now but will be removed"]
    code, out, err = cli("inventory", "map-cells", "--jurisdiction", "dane")
    assert code == 0 and "--county" not in err


# -- progress --------------------------------------------------------------------------------------------

def test_progress_off_a_terminal_is_a_line_with_count_and_share_only_when_one_is_due():
    quiet = io.StringIO()
    with Progress("powts backup", stream=quiet, every=3600, tty=False) as bar:
        bar.step(5, 10, "files")
    assert quiet.getvalue() == ""  # work that ends before the first line is due prints nothing
    stream = io.StringIO()
    with Progress("powts export inventory", unit="systems", stream=stream, every=0, tty=False) as bar:
        bar.step(2500, 10000, "systems")
    assert stream.getvalue().strip() == "powts export inventory: 2,500 of 10,000 systems (25%)"


def test_progress_on_a_terminal_is_a_bar_with_the_count_and_time_left():
    stream = io.StringIO()
    with Progress("powts demo", unit="rows", stream=stream, tty=True) as bar:
        bar.step(10, 40, "inventory rows")
        bar.step(20, 40, "inventory rows")
        shown = str(bar.bar)  # the line tqdm draws (it redraws at most ten times a second)
    assert shown.startswith("powts demo: inventory rows:  50%")
    assert "20/40 [" in shown and "<" in shown  # the count, then time spent<time left
    assert "powts demo: inventory rows" in stream.getvalue()


def test_long_commands_report_progress_on_stderr_and_keep_stdout_as_it_was(db, cli, write_csv, monkeypatch, tmp_path):
    monkeypatch.setenv("POWTS_PROGRESS_SECONDS", "0")
    path = write_csv([["system_id", "parcel_id", "system_type", "owner_name"], ["D-1", "P-1", "Mound", "A"],
                      ["D-2", "P-2", "Mound", "B"]])
    code, out, err = cli("import", "inventory", str(path), "--jurisdiction", "dane", "--json")
    assert code == 0 and json.loads(out)["created"] == 2  # stdout: pure JSON
    code, out, err = cli("export", "inventory", "--jurisdiction", "dane", "--output", str(tmp_path / "out.csv"))
    assert code == 0 and out.strip() == f"2 systems written to {tmp_path / 'out.csv'}"
    assert "powts export inventory: 2 of 2 systems (100%)" in err
    code, out, err = cli("maintenance", "sync", "--jurisdiction", "dane")
    assert code == 0 and out.startswith("Dane County: ") and "powts maintenance sync:" in err
