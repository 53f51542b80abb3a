"""The command line: `powts import inventory`, `powts export inventory`, exit codes and messages."""
import json

import pytest

from powts.inventory.models import System


def test_import_json_counts_add_up(db, cli, write_csv):
    path = write_csv([["system_id", "parcel_id", "system_type", "owner_name"], ["D-1", "P-1", "Mound", "A"], ["D-2", "", "Mound", "B"]])
    code, out, _ = cli("import", "inventory", str(path), "--jurisdiction", "dane", "--json")
    assert code == 0
    rejects = path.with_name("inventory.rejects.csv")
    assert json.loads(out) == {"rows": 2, "created": 1, "updated": 0, "unchanged": 0, "rejected": 1,
                               "warnings": 0, "warnings_shown": [], "rejects_path": str(rejects)}
    assert rejects.exists()


def test_import_rejects_path_and_dry_run(db, cli, write_csv, tmp_path):
    path = write_csv([["system_id", "parcel_id", "system_type", "owner_name"], ["D-1", "P-1", "bogus", "A"], ["D-2", "P-2", "mound", "B"]])
    code, out, _ = cli("import", "inventory", str(path), "--jurisdiction", "dane", "--dry-run", "--rejects", str(tmp_path / "r.csv"))
    assert code == 0 and "Dry run: nothing was stored." in out and "1 would be created" in out
    assert (tmp_path / "r.csv").read_text().count("\n") == 2
    assert System.objects.count() == 0


@pytest.mark.parametrize("setup, message", [
    (lambda p: None, "does not exist"),
    (lambda p: p.write_text("system_id,owner_name\nD-1,A\n"), "missing required columns parcel_id, system_type"),
])
def test_unreadable_input_exits_non_zero_with_a_clear_message(db, cli, tmp_path, setup, message):
    path = tmp_path / "in.csv"
    setup(path)
    code, _, err = cli("import", "inventory", str(path), "--jurisdiction", "dane")
    assert code == 1 and message in err and "Traceback" not in err


def test_unknown_jurisdiction(db, cli, write_csv):
    path = write_csv([["system_id", "parcel_id", "system_type", "owner_name"]])
    code, _, err = cli("import", "inventory", str(path), "--jurisdiction", "atlantis")
    assert code == 1 and "unknown jurisdiction 'atlantis'" in err


def test_importing_an_export_changes_nothing(db, cli, tmp_path):
    from powts.inventory.demo_data import write_csv as demo_csv

    source = demo_csv(tmp_path / "demo.csv", "dane", 300, seed=7, messy=True)
    assert cli("import", "inventory", str(source), "--jurisdiction", "dane", "--json")[0] == 0
    exported = tmp_path / "export.csv"
    code, out, _ = cli("export", "inventory", "--jurisdiction", "dane", "--output", str(exported))
    assert code == 0 and "300 systems written" in out
    code, out, _ = cli("import", "inventory", str(exported), "--jurisdiction", "dane", "--json")
    assert json.loads(out) == {"rows": 300, "created": 0, "updated": 0, "unchanged": 300, "rejected": 0,
                               "warnings": 0, "warnings_shown": [], "rejects_path": None}


def test_export_keeps_extra_columns(db, cli, write_csv, tmp_path):
    path = write_csv([["system_id", "parcel_id", "system_type", "owner_name", "Legacy Code"], ["D-1", "P-1", "mound", "A", "L9"]])
    cli("import", "inventory", str(path), "--jurisdiction", "dane")
    cli("export", "inventory", "--jurisdiction", "dane", "--output", str(tmp_path / "e.csv"))
    header, row = (tmp_path / "e.csv").read_text().splitlines()
    assert header.endswith(",legacy_code") and row.endswith(",L9")
