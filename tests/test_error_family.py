"""One family of errors. A service refuses with a Refused (field, message, citation), never
a bare ValueError or Django's ValidationError; every error class of the project is a Refused (but the two
command lines' private usage errors); the two FileRefused are named apart; the law's FieldError is the core's."""
import ast
from pathlib import Path

from powts.core.refusals import Refused

POWTS = Path(__file__).resolve().parents[1] / "powts"
BARE = {"ValueError", "ValidationError"}
# Usage errors of two command lines: caught in the same module to print the usage, never cross a service.
# Not refusals: a command line's usage error, and a document reader's signal caught in its own module and turned into
# the attachment's refusal there.
NOT_REFUSALS = {("calendars/cli.py", "_UsageError"), ("setbacks/cli.py", "_UsageError"), ("attachments/content.py", "_TooMuch")}


def _sources(select):
    for path in sorted(POWTS.rglob("*.py")):
        rel = path.relative_to(POWTS)
        if "tests" in rel.parts or "migrations" in rel.parts or not select(rel):
            continue
        yield rel, ast.parse(path.read_text(), filename=str(path))


def _name(node) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def test_no_service_raises_a_bare_value_error_or_validation_error():
    found = []
    services = list(_sources(lambda rel: rel.name == "services.py" or rel.parent.name == "services"))
    assert len(services) >= 10  # accounts, audit, inventory, jurisdictions, maintenance, permits/services/*
    for rel, tree in services:
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and _name(node.exc.func) in BARE:
                found.append(f"{rel}:{node.lineno}: raise {_name(node.exc.func)}(...)")
    assert found == []


def test_every_error_class_is_a_refusal():
    roots = {"Exception", "ValueError", "ValidationError"}
    found = []
    for rel, tree in _sources(lambda rel: True):
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(_name(b) in roots for b in node.bases):
                found.append((str(rel), node.name))
    assert sorted(found) == sorted([("kernel/refusals.py", "Refused"), *NOT_REFUSALS])


def test_the_error_classes_are_refusals_and_the_two_file_refusals_are_named_apart():
    from powts.calendars.errors import CalendarError
    from powts.core.backup.archive import BackupError
    from powts.inventory.importing.readers import InventoryFileRefused
    from powts.inventory.importing.rows import RowRejected
    from powts.inventory.importing.values import BadValue
    from powts.kernel.errors import DataFileError
    from powts.law.engine import LawDateError
    from powts.law.io import InputError
    from powts.maintenance.csv_upload import ReportFileRefused
    from powts.permits.rules import RuleError
    from powts.setbacks.errors import PlanError, SetbackRulesError

    classes = [CalendarError, BackupError, InventoryFileRefused, RowRejected, BadValue, DataFileError, LawDateError,
               InputError, ReportFileRefused, RuleError, PlanError, SetbackRulesError]
    assert all(issubclass(cls, Refused) for cls in classes)
    assert InventoryFileRefused.__name__ != ReportFileRefused.__name__


def test_the_law_field_error_is_the_core_field_error():
    from powts.core.fields import FieldError as CoreFieldError
    from powts.law.fields import FieldError, parse_date

    try:
        parse_date("applied_on", "2024-13-01")
    except CoreFieldError as exc:
        assert isinstance(exc, FieldError) and exc.field == "applied_on" and str(exc).startswith("applied_on: ")
    else:
        raise AssertionError("a bad date was accepted")


def test_a_refusal_naming_several_fields_maps_to_each():
    exc = Refused.several({"gallons": "gallons is required", "__all__": ["the report is late"]}, citation="SPS 383.55")
    assert exc.field == "gallons" and exc.citation == "SPS 383.55"
    assert exc.as_dict() == {"errors": {"gallons": ["gallons is required"], "non_field_errors": ["the report is late"]},
                             "citation": "SPS 383.55"}
