"""Each rule of law once: no import cycles inside powts.law, every module
importable on its own, every citation of a decision read from the parameter files, and the
failure categories of s. 145.246(2) in one module."""
from __future__ import annotations

import ast
import datetime as dt
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from powts.law import failure, grants, wells
from powts.law.engine import PARAMETER_DIR, ParameterSet

LAW = Path(__file__).resolve().parent.parent
MODULES = sorted(p.stem for p in LAW.glob("*.py") if p.stem != "__init__")


def _imports(module: str) -> set[str]:
    """powts.law modules a module imports, at the top or inside functions."""
    tree = ast.parse((LAW / f"{module}.py").read_text())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                out.add(node.module.split(".")[0])
            elif node.level == 1:
                out.update(a.name for a in node.names)
            elif node.module and node.module.startswith("powts.law."):
                out.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[2] for a in node.names if a.name.startswith("powts.law."))
    return out & set(MODULES)


def test_no_import_cycles():
    graph = {m: _imports(m) for m in MODULES}
    state: dict[str, int] = {}

    def visit(m, path):
        if state.get(m) == 1:
            raise AssertionError("import cycle: " + " -> ".join([*path, m]))
        if state.get(m) == 2:
            return
        state[m] = 1
        for n in graph[m]:
            visit(n, [*path, m])
        state[m] = 2

    for m in MODULES:
        visit(m, [])


@pytest.mark.parametrize("module", MODULES)
def test_each_module_imports_alone(module):
    code = f"import powts.law.{module}"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, check=False).returncode == 0


def _params_with(tmp_path: Path, file: str, old: str, new: str) -> ParameterSet:
    for p in PARAMETER_DIR.glob("*.yaml"):
        shutil.copy(p, tmp_path / p.name)
    text = (tmp_path / file).read_text()
    assert old in text
    (tmp_path / file).write_text(text.replace(old, new))
    return ParameterSet(tmp_path)


WELL = {"id": "W", "claimant_type": "landowner", "supply_use": "residential", "well_kind": "drilled",
        "dwelling_units": 1, "sample_dates": ["2024-01-01", "2024-01-15"], "lab_certified": True,
        "annual_family_income": "50000", "eligible_costs": "10000", "claimed_on": "2024-02-01"}


def test_well_citations_come_from_the_parameter_file(tmp_path):
    """s. 281.75: the citation beside each test and the award is the parameter file's, not Python's."""
    params = _params_with(tmp_path, "wells-281.75.yaml", 'award: "Wis. Stat. s. 281.75(7)(a)-(b)"',
                          'award: "s. 281.75(7)(a)-(b) as amended"')
    d = wells.decide_row(WELL, params)
    assert "(s. 281.75(7)(a)-(b) as amended; rounded half up to the cent)" in d.explanation
    assert "as amended" not in wells.decide_row(WELL).explanation
    source = (LAW / "wells.py").read_text()
    assert "Wis. Stat. s. 281.75(" not in source


def test_grant_citations_come_from_the_parameter_file(tmp_path):
    row = {"id": "A", "applicant_type": "residence", "failure_conditions": "a", "failure_determined_on": "2024-03-15",
           "applied_on": "2024-04-01", "system_installed_on": "1970-05-01", "annual_family_income": "38000",
           "funding_table_amount": "5200"}
    params = _params_with(tmp_path, "grants-145.246.yaml", 'one_grant: "Wis. Stat. s. 145.246(3)(b)"',
                          'one_grant: "s. 145.246(3)(b) as amended"')
    assert "(s. 145.246(3)(b) as amended)" in grants.decide_row(row, params).explanation


def test_one_well_claim_is_a_batch_of_one():
    """s. 281.75(7)(a)-(b): decide (one claim) and decide_rows (many) are the same computation."""
    rows = [dict(WELL, id=f"W{i}", annual_family_income=str(40000 + 5000 * i)) for i in range(6)]
    many = wells.decide_rows(rows)
    for row, d in zip(rows, many):
        one = wells.decide_row(row)
        assert (one.award, one.eligible, one.explanation) == (d.award, d.eligible, d.explanation)
    assert [d.award for d in many] == [750000, 750000, 600000, 450000, 300000, 150000]


@pytest.mark.parametrize("letters,category", [(["a"], 1), (["b", "e"], 1), (["c"], 1), (["d"], 2), (["d", "e"], 2),
                                              (["e"], 3)])
def test_failure_categories(letters, category):
    """s. 145.246(2)(a)-(c): category 1 = (a)-(c), 2 = (d), 3 = (e); the most serious governs."""
    assert failure.category_on(letters, dt.date(2024, 1, 1)) == category
    # in the 2021-2023 gap and before 2000 the next version's categories apply
    assert failure.category_on(letters, dt.date(2022, 1, 1)) == category
    assert failure.category_on(letters, dt.date(1995, 1, 1)) == category


def test_failure_conditions_refused_name_the_field():
    from powts.law.fields import FieldError

    with pytest.raises(FieldError, match="failure_conditions: 'f' is not a failure condition"):
        failure.parse_conditions("failure_conditions", "a;f")
    assert failure.parse_conditions("failure_conditions", ["D", "a", "d"]) == ["a", "d"]
