"""schemathesis against /api/schema/, through the WSGI app (no network),
bounded and seeded, signed in as county staff with a token. No server errors, every response matches
the schema, every status code and content type is documented.

Runs in the normal suite on both databases; `pytest -m fuzz` selects it alone. FUZZ_EXAMPLES (default
10 an operation) sets how many generated requests each operation gets.
"""
import datetime as dt
import os

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import checks as core_checks
from schemathesis.specs.openapi import checks as openapi_checks

CHECKS = [core_checks.not_a_server_error, openapi_checks.status_code_conformance,
          openapi_checks.content_type_conformance, openapi_checks.response_schema_conformance]
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "10"))
COUNT_FILE = os.environ.get("FUZZ_COUNT_FILE")  # a line per request sent, to count the cases of a run


@pytest.fixture
def api_schema(staff_token):
    """The schema as the app serves it, built when the test runs, not when the module is imported, so that collecting
    the suite does not pay for it; after the test's records (a request may read the county's settings)."""
    from powts.wsgi import application

    return schemathesis.openapi.from_wsgi("/api/schema/", application)


@pytest.fixture
def wsgi_keeps_the_test_connection():
    """Called through WSGI, Django closes the database connection at each request's start and end; the test's
    transaction lives on it (PostgreSQL). Django's own test client disconnects these signals the same way."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def staff_token(db, wsgi_keeps_the_test_connection, settings, dane, lincoln, make_user):
    """County staff's token, and a county's records to find: a system, a permit with its invoices."""
    from knox.models import AuthToken

    from powts.accounts.services import license_create
    from powts.inventory.services import system_create
    from powts.permits.tests.conftest import file_complete

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    system_create(jurisdiction=dane, system_id="DA-1", parcel_number="P-DA-1", system_type="conventional",
                  owner_name="Olive Owner", installed_on=dt.date(2020, 6, 1))
    plumber = make_user("pete", "plumber")
    file_complete(dane, license_create(kind="master_plumber", number="MP-1001", holder_name="Pete Plumber", user=plumber))
    return AuthToken.objects.create(user=make_user("fuzz-staff", "county_staff", dane))[1]


@pytest.mark.fuzz
def test_api_conforms_to_its_schema(api_schema, staff_token):
    """No operation of the API answers a server error, every response matches the schema, and every status code
    and content type it answers is documented. Each operation gets its own seeded Hypothesis run; a failure names
    the operation and the request that failed."""
    failures, operations = [], 0
    for result in api_schema.get_all_operations():
        operation = result.ok()
        operations += 1

        @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy())
        def conforms(case):
            response = case.call_and_validate(headers={"Authorization": f"Token {staff_token}"}, checks=CHECKS)
            if COUNT_FILE:
                with open(COUNT_FILE, "a") as out:
                    out.write(f"{case.method} {case.path} {response.status_code}\n")

        try:
            conforms()
        except Exception as failure:  # Hypothesis raises the smallest failing request; keep going to name them all
            failures.append(f"{operation.method.upper()} {operation.path}: {failure}")
    assert operations > 80, f"only {operations} operations in the schema"
    assert not failures, f"{len(failures)} of {operations} operations fail:\n" + "\n\n".join(failures)
