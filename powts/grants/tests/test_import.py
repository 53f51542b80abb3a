"""`powts grants import FILE --jurisdiction SLUG [--json]`: rows stored and decided, or rejected with their reason."""
import datetime as dt
import json

import pytest

from powts.audit.models import AuditEvent
from powts.grants.models import GrantApplication, GrantDecision

HEADER = ["id", "applicant_type", "failure_conditions", "failure_determined_on", "applied_on", "system_installed_on",
          "annual_family_income", "funding_table_amount", "owner_name", "site_address", "municipality", "system_id"]


def row(i, income="30000", address=None, **kw):
    values = dict(id=f"A{i}", applicant_type="residence", failure_conditions="b", failure_determined_on="2026-03-02",
                  applied_on="2026-04-01", system_installed_on="1970-01-01", annual_family_income=income,
                  funding_table_amount="5200", owner_name=f"Owner {i}", site_address=address or f"{i} Elm St",
                  municipality="Verona", system_id="")
    values.update(kw)
    return [values[h] for h in HEADER]


def run(cli, write_csv, rows, *extra):
    path = write_csv([HEADER, *rows], name="apps.csv")
    code, out, err = cli("grants", "import", str(path), "--jurisdiction", "dane", "--json", *extra)
    return code, (json.loads(out) if out.strip() else None), err


@pytest.mark.django_db
def test_json_counts_rows_stored_and_rejected(cli, write_csv, dane):
    """Every row is stored or rejected with its line and reason: rows = stored + rejected."""
    code, out, _ = run(cli, write_csv, [row(1), row(2, income="45000.01"), row(3, failure_conditions="z")])
    assert code == 0
    assert set(out) == {"rows", "stored", "eligible", "ineligible", "rejected"}
    assert (out["rows"], out["stored"], out["eligible"], out["ineligible"]) == (3, 2, 1, 1)
    assert out["rejected"] == [{"line": 4, "id": "A3", "reason": "failure_conditions: 'z' is not a failure condition (a-e)"}]
    assert GrantApplication.objects.count() == GrantDecision.objects.count() == 2


@pytest.mark.django_db
def test_decisions_match_the_rules_command(cli, write_csv, dane, tmp_path):
    """One engine: the stored decision is the one `powts rules evaluate` gives for the same row."""
    rows = [row(1), row(2, income="45000.01"), row(3, income="38000")]
    path = write_csv([HEADER, *rows], name="apps.csv")
    out = tmp_path / "out.jsonl"
    assert cli("rules", "evaluate", "wisconsin-fund-grant", "--input", str(path), "--output", str(out))[0] == 0
    expected = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert cli("grants", "import", str(path), "--jurisdiction", "dane")[0] == 0
    for app in GrantApplication.objects.all():
        d = app.decisions.get()
        e = expected[app.external_id]
        assert d.eligible == e["eligible"] and f"{d.amount // 100}.{d.amount % 100:02d}" == e["amount"]
        assert d.explanation == e["explanation"] and d.law_version == e["version"]
        assert [r["test"] for r in d.reasons] == [r["test"] for r in e["reasons"]]


@pytest.mark.django_db
def test_stored_fields_and_one_audit_row_per_application(cli, write_csv, dane):
    n_audit = AuditEvent.objects.count()
    run(cli, write_csv, [row(1)])
    app = GrantApplication.objects.get()
    assert (app.source, app.external_id, app.owner_name, app.status, app.fiscal_year) == (
        "import", "A1", "Owner 1", "eligible", "2027-28")  # received after Feb 1, 2026
    assert app.annual_family_income == 3_000_000 and app.funding_table_amount == 520_000
    assert app.imported_failure == {"conditions": ["b"], "determined_on": "2026-03-02", "system_installed_on": "1970-01-01"}
    assert AuditEvent.objects.count() == n_audit + 1


@pytest.mark.django_db
def test_same_residence_twice_in_a_file_gets_one_grant(cli, write_csv, dane):
    """s. 145.246(3)(b): the earlier application keeps the grant; the later one fails the one-grant test."""
    code, out, _ = run(cli, write_csv, [row(2, address="1 Elm Street", applied_on="2026-04-02"),
                                        row(1, address="1 Elm St")])
    assert (out["eligible"], out["ineligible"]) == (1, 1)
    later = GrantApplication.objects.get(external_id="A2")
    assert later.status == "ineligible"
    assert [r["test"] for r in later.decisions.get().reasons] == ["one_grant"]


@pytest.mark.django_db
def test_a_grant_in_another_county_counts(cli, write_csv, dane, lincoln):
    """s. 145.246(3)(b), across counties and years."""
    path = write_csv([HEADER, row(1, address="7 Oak Rd")], name="a.csv")
    cli("grants", "import", str(path), "--jurisdiction", "lincoln", "--json")
    code, out, _ = run(cli, write_csv, [row(9, address="7 Oak Road", failure_determined_on="2027-03-01",
                                        applied_on="2027-04-01")])
    assert (out["stored"], out["eligible"], out["ineligible"]) == (1, 0, 1)


@pytest.mark.django_db
def test_earlier_grants_are_found_in_every_group_of_keys_looked_up(cli, write_csv, dane, lincoln, monkeypatch):
    """s. 145.246(3)(b): the file's residences are looked up a few hundred keys at a time; a grant is found
    whichever group its key falls in, and an earlier application that was not eligible is no grant."""
    from powts.grants import importing

    monkeypatch.setattr(importing, "KEYS_PER_QUERY", 2)
    earlier = [row(k, address=f"{k} Oak Rd") for k in range(1, 6)] + [row(6, address="6 Oak Rd", income="99000")]
    path = write_csv([HEADER, *earlier], name="a.csv")
    cli("grants", "import", str(path), "--jurisdiction", "lincoln", "--json")
    later = [row(10 + k, address=f"{k} Oak Road", failure_determined_on="2027-03-01", applied_on="2027-04-01")
             for k in range(1, 9)]
    code, out, _ = run(cli, write_csv, later)
    assert (out["stored"], out["eligible"], out["ineligible"]) == (8, 3, 5)
    eligible = set(GrantApplication.objects.filter(jurisdiction=dane, status="eligible")
                   .values_list("external_id", flat=True))
    assert eligible == {"A16", "A17", "A18"}  # 6 Oak Rd's earlier application was over the income limit


@pytest.mark.django_db
def test_reimport_rejects_each_row_and_changes_nothing(cli, write_csv, dane):
    run(cli, write_csv, [row(1), row(2)])
    before = (GrantApplication.objects.count(), AuditEvent.objects.count())
    code, out, _ = run(cli, write_csv, [row(1), row(2)])
    assert code == 0 and out["stored"] == 0 and len(out["rejected"]) == 2
    assert "already imported" in out["rejected"][0]["reason"]
    assert (GrantApplication.objects.count(), AuditEvent.objects.count()) == before


@pytest.mark.django_db
def test_a_write_that_fails_part_way_leaves_nothing_half_saved(write_csv, dane, monkeypatch):
    """Bad input: the file is written in one transaction; when the last insert (the audit rows) fails,
    the applications and decisions inserted before it are not kept."""
    from powts.grants import importing
    from powts.grants.importing import import_applications

    real = importing.insert_rows

    def fail_on_audit(model, columns, rows):
        if model is AuditEvent:
            raise OSError("disk full")
        return real(model, columns, rows)

    monkeypatch.setattr(importing, "insert_rows", fail_on_audit)
    path = write_csv([HEADER, row(1), row(2)], name="apps.csv")
    before = AuditEvent.objects.count()
    with pytest.raises(OSError):
        import_applications(str(path), jurisdiction=dane)
    assert GrantApplication.objects.count() == GrantDecision.objects.count() == 0
    assert AuditEvent.objects.count() == before


@pytest.mark.django_db
def test_repeated_id_in_file_is_rejected(cli, write_csv, dane):
    code, out, _ = run(cli, write_csv, [row(1), row(1, address="2 Oak Rd")])
    assert out["stored"] == 1 and out["rejected"][0]["reason"] == "id 'A1' is repeated (line 2)"


@pytest.mark.django_db
def test_unknown_system_id_is_rejected(cli, write_csv, dane):
    code, out, _ = run(cli, write_csv, [row(1, system_id="NOPE")])
    assert out["stored"] == 0 and "NOPE" in out["rejected"][0]["reason"]


@pytest.mark.django_db
def test_row_with_system_links_inventory_and_its_determination(cli, write_csv, dane, make_system, determine):
    """A row naming the county's system takes its parcel, owner and the determination made on the row's date."""
    system = make_system(system_id="DA-7")
    det = determine(system, on=dt.date(2026, 3, 2))
    run(cli, write_csv, [row(1, system_id="DA-7", owner_name="")])
    app = GrantApplication.objects.get()
    assert (app.system, app.parcel, app.owner, app.failure_determination) == (system, system.parcel, system.parcel.owner, det)
    assert app.imported_failure is None and app.owner_name == "Olive Owner"


@pytest.mark.django_db
def test_unreadable_file_and_unknown_county_exit_1(cli, write_csv, dane, tmp_path):
    code, out, err = cli("grants", "import", str(tmp_path / "missing.csv"), "--jurisdiction", "dane", "--json")
    assert code != 0 and "cannot read" in err
    path = write_csv([HEADER, row(1)], name="apps.csv")
    code, out, err = cli("grants", "import", str(path), "--jurisdiction", "atlantis")
    assert code != 0 and "atlantis" in err and not GrantApplication.objects.exists()


@pytest.mark.django_db
def test_jsonl_input(cli, tmp_path, dane):
    path = tmp_path / "apps.jsonl"
    path.write_text(json.dumps(dict(zip(HEADER, row(1)))) + "\n" + json.dumps(dict(zip(HEADER, row(2)))) + "\n")
    code, out, err = cli("grants", "import", str(path), "--jurisdiction", "dane", "--json")
    assert json.loads(out)["stored"] == 2


TAXED = HEADER + ["income_tax_year", "income_evidence"]


def taxed(i, year, evidence="", **kw):
    return [*row(i, **kw), year, evidence]


def run_taxed(cli, write_csv, rows):
    path = write_csv([TAXED, *rows], name="apps.csv")
    code, out, _ = cli("grants", "import", str(path), "--jurisdiction", "dane", "--json")
    return code, json.loads(out)


@pytest.mark.django_db
def test_rows_carry_income_tax_year_and_evidence(cli, write_csv, dane):
    """s. 145.246(3)(c)2.: the prior year's return is for the taxable year before the year the failure was
    determined (2026-03-02: 2025); (3)(c)4.: current-year evidence is for the year of the application."""
    code, out = run_taxed(cli, write_csv, [taxed(1, "2025"), taxed(2, "2026", "current_year_evidence"),
                                           taxed(3, "")])
    assert (code, out["stored"], out["rejected"]) == (0, 3, [])
    got = {a.external_id: (a.income_tax_year, a.income_evidence) for a in GrantApplication.objects.all()}
    assert got == {"A1": (2025, "prior_year_return"), "A2": (2026, "current_year_evidence"), "A3": (None, "")}


@pytest.mark.django_db
@pytest.mark.parametrize("year, evidence, words", [
    ("2024", "", "the tax year before the year the failure was determined (2025)"),  # one year early
    ("2026", "", "the tax year before the year the failure was determined (2025)"),  # one year late
    ("2025", "current_year_evidence", "current-year evidence is for the year of the application (2026)"),
    ("twenty", "", "income_tax_year"),  # not a number: the bounded parser names the field
    ("2025.5", "", "whole number"),
    ("1989", "", "income_tax_year"),  # below the forms' bound
    ("2025", "a_letter", "income_evidence is required"),
])
def test_a_bad_income_tax_year_rejects_the_row(cli, write_csv, dane, year, evidence, words):
    """A bad tax year rejects its row with the reason (and the citation, (3)(c)2.-4.); the good row is stored."""
    code, out = run_taxed(cli, write_csv, [taxed(1, "2025"), taxed(2, year, evidence)])
    assert code == 0 and out["stored"] == 1 and [r["id"] for r in out["rejected"]] == ["A2"]
    assert words in out["rejected"][0]["reason"]
    assert list(GrantApplication.objects.values_list("external_id", flat=True)) == ["A1"]


@pytest.mark.django_db
@pytest.mark.parametrize("year, rejected", [("2025", False), ("2024", True)])
def test_a_revenue_tax_year_is_checked_with_the_revenue_citation(cli, write_csv, dane, year, rejected):
    """(3)(d)2.: a business's gross revenue is for the taxable year before the failure was determined (2025)."""
    header = TAXED + ["annual_gross_revenue", "daily_flow_gpd"]
    biz = [*taxed(1, year, applicant_type="business", annual_family_income=""), "100000", "1000"]
    path = write_csv([header, biz], name="apps.csv")
    out = json.loads(cli("grants", "import", str(path), "--jurisdiction", "dane", "--json")[1])
    assert out["stored"] == (0 if rejected else 1)
    if rejected:
        assert "gross revenue" in out["rejected"][0]["reason"] and "145.246(3)(d)2.-4." in out["rejected"][0]["reason"]


@pytest.mark.django_db
def test_imported_allowable_costs_are_stored_and_cap_the_grant(cli, write_csv, dane):
    """s. 145.246(6)(a)-(c): a row's allowable_cost caps its grant (table $5,200) and is kept with the application."""
    path = write_csv([HEADER + ["allowable_cost"], [*row(1), "4000"], [*row(2), "6000"]], name="apps.csv")
    out = json.loads(cli("grants", "import", str(path), "--jurisdiction", "dane", "--json")[1])
    assert out["stored"] == 2
    got = {a.external_id: (a.allowable_cost, a.decisions.get().amount) for a in GrantApplication.objects.all()}
    assert got == {"A1": (400_000, 400_000), "A2": (600_000, 520_000)}
