import datetime as dt

import pytest


@pytest.fixture
def make_system(dane):
    from powts.inventory.services import system_create

    def make(system_id="DA-1", installed_on=dt.date(1970, 6, 1), jurisdiction=None, address="12 Lake Rd",
             municipality="Town of Verona", system_type="conventional", **kw):
        return system_create(jurisdiction=jurisdiction or dane, system_id=system_id, parcel_number=f"P-{system_id}",
                             system_type=system_type, owner_name="Olive Owner",
                             owner_mailing_address=f"{address}, Verona, WI 53593", site_address=address,
                             municipality=municipality, installed_on=installed_on, **kw)

    return make


@pytest.fixture
def determine():
    from powts.permits.services.enforcement import failure_determine

    def make(system, conditions=("b",), on=dt.date(2026, 3, 2)):
        return failure_determine(system=system, conditions=list(conditions), on=on, basis="order")

    return make


@pytest.fixture
def owner_user(make_user):
    return make_user("olive", "owner")


@pytest.fixture
def system(make_system, owner_user):
    s = make_system()
    owner = s.parcel.owner
    owner.user = owner_user
    owner.save()
    return s


@pytest.fixture
def determination(system, determine):
    return determine(system)


@pytest.fixture
def apply(staff):
    """A residence application from a paper form with sensible inputs; override any keyword."""
    from powts.grants import services

    def make(determination, by=None, **kw):
        values = dict(by=by or staff, failure_determination=determination, applied_on=dt.date(2026, 4, 1),
                      source="paper", annual_family_income=3_000_000, income_tax_year=determination.determined_on.year - 1,
                      income_evidence="prior_year_return", funding_table_amount=520_000, today=dt.date(2026, 5, 1))
        values.update(kw)
        return services.application_create(**values)

    return make


@pytest.fixture(autouse=True)
def forget_kept_caseload():
    """Each test's database is rolled back (ids reused): the what-if's kept caseload (in memory and the copy
    shared by processes) must not outlive it."""
    from powts.grants import caseload

    caseload._KEPT.clear()
    forget_shared_caseloads()
    yield
    caseload._KEPT.clear()
    forget_shared_caseloads()


def forget_shared_caseloads():
    from pathlib import Path

    from django.conf import settings

    from powts.grants import caseload

    for path in (Path(settings.DATA_DIR) / caseload.SHARED_FOLDER).glob("*.arrow"):
        path.unlink(missing_ok=True)
