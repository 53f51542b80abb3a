"""`powts rules ...` end to end, through powts.cli.main (no Django)."""
from __future__ import annotations

import csv
import json

from powts.cli import main

HEADER = ("id,applicant_type,failure_conditions,failure_determined_on,applied_on,system_installed_on,"
          "annual_family_income,funding_table_amount,governmental_unit\n")


def _csv(tmp_path, body):
    p = tmp_path / "in.csv"
    p.write_text(HEADER + body)
    return p


def test_grants_csv_to_csv(tmp_path):
    src = _csv(tmp_path, "A1,residence,a;d,2024-03-15,2024-04-01,1970-05-01,38000,5200,Dane\n"
                         "A2,residence,a,2024-03-15,2024-13-01,1970-05-01,38000,5200,Dane\n"
                         "A3,short\n")
    out = tmp_path / "out.csv"
    assert main(["rules", "evaluate", "wisconsin-fund-grant", "--input", str(src), "--output", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    assert [r["id"] for r in rows] == ["A1", "A2", "A3"]
    assert rows[0]["amount"] == "3400.00" and rows[0]["eligible"] == "true" and rows[0]["version"] == "145.246"
    assert "less 30% of ($38,000.00 - $32,000.00) = $1,800.00; grant $3,400.00" in rows[0]["explanation"]
    assert rows[1]["amount"] == "0.00" and "applied_on" in rows[1]["reasons"]
    assert "line 4" in rows[2]["reasons"]


def test_grants_jsonl_to_stdout(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "J1", "applicant_type": "residence", "failure_conditions": ["e"],
                               "failure_determined_on": "2024-03-15", "applied_on": "2024-04-01",
                               "system_installed_on": "1970-05-01", "annual_family_income": 1000,
                               "funding_table_amount": 5000}) + "\nnot json\n")
    assert main(["rules", "evaluate", "wisconsin-fund-grant", "--input", str(src), "--output", "-"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[0]["eligible"] is False and lines[0]["category"] == 3
    assert lines[0]["reasons"][0]["test"] == "category" and "145.246(2)" in lines[0]["reasons"][0]["citation"]
    assert "not valid JSON" in lines[1]["reasons"][0]["text"]


def test_wells_and_allocation(tmp_path, capsys):
    src = tmp_path / "w.jsonl"
    src.write_text(json.dumps({"id": "W1", "claimant_type": "landowner", "supply_use": "residential",
                               "well_kind": "drilled", "dwelling_units": 1, "sample_dates": ["2024-01-01", "2024-01-15"],
                               "lab_certified": True, "annual_family_income": "50000", "eligible_costs": 20000,
                               "claimed_on": "2024-02-01"}) + "\n")
    assert main(["rules", "evaluate", "well-compensation", "--input", str(src), "--output", "-"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["award"] == "7500.00" and row["eligible"] is True
    assert main(["rules", "allocate", "well-compensation", "--funds", "5000", "--input", str(src), "--output", "-"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["status"] == "conditionally approved"

    g = _csv(tmp_path, "A1,residence,a,2024-03-15,2024-04-01,1970-05-01,20000,5000,Dane\n"
                       "A2,residence,d,2024-03-15,2024-04-01,1970-05-01,20000,5000,Lincoln\n")
    out = tmp_path / "alloc.csv"
    assert main(["rules", "allocate", "wisconsin-fund", "--funds", "7500", "--input", str(g), "--output", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    assert [(r["id"], r["award"]) for r in rows] == [("A1", "5000.00"), ("A2", "2500.00")]
    summary = list(csv.DictReader((tmp_path / "alloc.summary.csv").open()))
    assert {"governmental_unit": "ALL", "category": "all", "applications": "2", "requested": "10000.00", "award": "7500.00"} in summary


def test_bad_file_and_usage_exit_non_zero(tmp_path, capsys):
    assert main(["rules", "evaluate", "wisconsin-fund-grant", "--input", str(tmp_path / "missing.csv"), "--output", "-"]) == 1
    assert "cannot read" in capsys.readouterr().err
    assert main(["rules", "evaluate", "wisconsin-fund-grant", "--input", str(tmp_path / "x.txt"), "--output", "-"]) == 1
    assert main(["rules", "allocate", "wisconsin-fund", "--funds", "-5", "--input", "x.csv", "--output", "-"]) == 1
    assert main(["rules", "evaluate", "nonsense"]) == 2


def test_parameter_file_error_exits_1(tmp_path, monkeypatch, capsys):
    from powts.law import engine

    (tmp_path / "programs.yaml").write_text("programs: {}\n")
    (tmp_path / "bad.yaml").write_text("program: x\nversion: y\nparameters:\n  p:\n    unit: furlongs\n    values: []\n")
    monkeypatch.setattr(engine, "PARAMETER_DIR", tmp_path)
    engine.default_parameters.cache_clear()
    try:
        assert main(["rules", "check"]) == 1
        assert "bad.yaml:5: parameter 'p': unknown unit 'furlongs'" in capsys.readouterr().err
    finally:
        engine.default_parameters.cache_clear()


def test_errors_quote_the_value_plainly_from_the_fast_csv_reader(tmp_path, capsys):
    src = _csv(tmp_path, "A1,residence,a,2024-03-15,2024-13-01,1970-05-01,38000,5200,Dane\n"
                         "A2,farm,a,2024-03-15,2024-04-01,1970-05-01,38000,5200,Dane\n")
    assert main(["rules", "evaluate", "wisconsin-fund-grant", "--input", str(src), "--output", "-"]) == 0
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert out[0]["reasons"][0]["text"] == "applied_on: '2024-13-01' is not a date (YYYY-MM-DD)"
    assert out[1]["reasons"][0]["text"].startswith("applicant_type: 'farm' is not one of")
    w = tmp_path / "w.csv"
    w.write_text("id,claimant_type\nW1,alien\n")
    assert main(["rules", "evaluate", "well-compensation", "--input", str(w), "--output", "-"]) == 0
    assert "claimant_type: 'alien' is not one of" in capsys.readouterr().out


def test_no_explanation_keeps_reasons(tmp_path):
    src = _csv(tmp_path, "A1,residence,e,2024-03-15,2024-04-01,1970-05-01,38000,5200,Dane\n"
                         "A2,residence,a,2024-03-15,2024-04-01,1970-05-01,38000,5200,Dane\n")
    out = tmp_path / "out.csv"
    assert main(["rules", "evaluate", "wisconsin-fund-grant", "--no-explanation", "--input", str(src), "--output", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    assert rows[0]["explanation"] == "" and "category 3" in rows[0]["reasons"]
    assert rows[1]["amount"] == "3400.00" and rows[1]["reasons"] == ""


def test_allocating_a_fiscal_year_with_no_program_is_a_clear_error(tmp_path, capsys):
    src = _csv(tmp_path, "A1,residence,a,2024-03-15,2024-04-01,1970-05-01,20000,5000,Dane\n")
    assert main(["rules", "allocate", "wisconsin-fund", "--funds", "1000", "--fiscal-year", "2022-23",
                 "--input", str(src), "--output", str(tmp_path / "a.csv")]) == 1
    assert "No Wisconsin Fund grant program was in force" in capsys.readouterr().err


def test_columns_decisions_only(tmp_path, capsys):
    """--columns id,eligible,amount: the decisions alone, as the OpenFisca peer of the benchmark writes them."""
    src = _csv(tmp_path, "A1,residence,a,2024-03-15,2024-04-01,1970-05-01,38000,5200,Dane\n"
                         "A2,residence,e,2024-03-15,2024-04-01,1970-05-01,38000,5200,Dane\n")
    out = tmp_path / "out.csv"
    assert main(["rules", "evaluate", "wisconsin-fund-grant", "--columns", "id,eligible,amount", "--input", str(src),
                 "--output", str(out)]) == 0
    assert out.read_text() == "id,eligible,amount\nA1,true,3400.00\nA2,false,0.00\n"
    assert main(["rules", "evaluate", "wisconsin-fund-grant", "--columns", "id,colour", "--input", str(src),
                 "--output", str(out)]) == 1
    assert "--columns: colour not among" in capsys.readouterr().err


def test_the_grants_batch_imports_neither_numba_nor_django(tmp_path):
    """Speed: the batch command's fixed cost. Importing numba and loading its cached code
    cost about 0.5 s of CPU in every process, more than the rules over 1,000,000 rows; the rules are
    numpy array expressions, and the command imports no Django."""
    import subprocess
    import sys

    src = _csv(tmp_path, "A1,residence,a;d,2024-03-15,2024-04-01,1970-05-01,38000,5200,Dane\n"
                         "A2,residence,a,2024-03-15,2024-04-02,1970-05-01,46000,5200,Dane\n")
    out = tmp_path / "out.csv"
    code = ("import sys; from powts.cli import main; rc = main(sys.argv[1:]); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'numba', 'llvmlite', 'django'})); sys.exit(rc)")
    for extra in ([], ["--columns", "id,eligible,amount"]):
        proc = subprocess.run([sys.executable, "-c", code, "rules", "evaluate", "wisconsin-fund-grant", "--input",
                               str(src), "--output", str(out), *extra], capture_output=True, text=True, check=False)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip() == "[]"
        assert [r["eligible"] for r in csv.DictReader(out.open())] == ["true", "false"]
