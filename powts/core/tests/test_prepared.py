"""The report API's hot reads are compiled to SQL once (powts.core.prepared). They must
give the instances the ORM gives, read fresh rows every call (a deleted token is refused at once), and
fall back to the ORM for anything they cannot reuse."""
import datetime as dt
from unittest import mock

import pytest
from django.db import connection
from django.db.models import Count
from django.db.models.sql.compiler import SQLCompiler
from django.test.utils import CaptureQueriesContext
from knox.models import AuthToken
from rest_framework.test import APIClient

from powts.accounts.models import License, User
from powts.accounts.services import license_create
from powts.core.prepared import Prepared
from powts.inventory.models import System
from powts.inventory.services import system_create

pytestmark = pytest.mark.django_db

system_with_parcel = Prepared(lambda unit_id, ref: System.objects.select_related("parcel").filter(jurisdiction_id=unit_id, system_id=ref))


def _system(unit, ref, installed_on=dt.date(1987, 12, 31)):
    return system_create(jurisdiction=unit, system_id=ref, parcel_number=f"P-{ref}", system_type="conventional", owner_name="Olive",
                         owner_mailing_address="1 Main St", site_address=f"{ref} Lake Rd", municipality="Town of Verona",
                         installed_on=installed_on)


def test_the_instances_are_the_ones_the_orm_builds_with_their_related_row_and_no_second_compile(dane):
    _system(dane, "DA-1"), _system(dane, "DA-2", installed_on=None)
    for ref in ("DA-1", "DA-2"):
        orm = System.objects.select_related("parcel").get(jurisdiction=dane, system_id=ref)
        with mock.patch.object(SQLCompiler, "as_sql", autospec=True, side_effect=SQLCompiler.as_sql) as compiled, \
                CaptureQueriesContext(connection) as ctx:
            [got] = system_with_parcel(dane.pk, ref)
            assert got.parcel.site_address == f"{ref} Lake Rd"  # select_related filled: no query for it
        assert len(ctx.captured_queries) == 1
        if ref == "DA-2":
            assert compiled.call_count == 0  # compiled for DA-1, reused
        for field in System._meta.concrete_fields:
            assert getattr(got, field.attname) == getattr(orm, field.attname), field.name
        assert isinstance(got.installed_on, dt.date | None) and got.parcel == orm.parcel and got._state.adding is False
    assert system_with_parcel(dane.pk, "NOT-THERE") == []


def test_values_django_rewrites_or_of_another_type_go_through_the_orm(dane, make_user):
    """__iexact escapes % and _ for LIKE: a compiled statement would match 'A%' as a pattern."""
    user = make_user("perry", "pumper")
    license_create(kind="septage_operator", number="A1", holder_name="P", user=user)
    by_number = Prepared(lambda number: License.objects.filter(number__iexact=number))
    assert [x.number for x in by_number("a1")] == ["A1"]
    assert by_number("A%") == []
    by_id = Prepared(lambda pk: User.objects.filter(pk=pk))
    assert by_id(user.pk) == [user]
    assert by_id(str(user.pk)) == [user]  # text where a number was: the ORM converts it


def test_a_token_is_refused_as_soon_as_it_is_deleted_and_when_its_person_is_made_inactive(staff):
    """Token reads are compiled once but never cached: logging out (the token deleted) or deactivating the
    person takes effect on the next call, in every process."""
    token, key = AuthToken.objects.create(user=staff)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get("/api/maintenance/due/").status_code == 200
    token.delete()
    assert client.get("/api/maintenance/due/").status_code == 401
    key = AuthToken.objects.create(user=staff)[1]
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get("/api/maintenance/due/").status_code == 200
    User.objects.filter(pk=staff.pk).update(is_active=False)
    assert client.get("/api/maintenance/due/").status_code == 401


def test_a_values_list_is_compiled_once_and_gives_the_orms_tuples(dane):
    """Django 5.2 lists a values_list's columns in annotation_col_map: read as "annotated", every call
    went through the ORM again (the report API's events of one system compiled on every report)."""
    _system(dane, "DA-1"), _system(dane, "DA-2", installed_on=None)
    refs = Prepared(lambda unit_id, ref: System.objects.filter(jurisdiction_id=unit_id, system_id=ref)
                    .values_list("system_id", "installed_on", "parcel__site_address"))
    assert refs(dane.pk, "DA-1") == [("DA-1", dt.date(1987, 12, 31), "DA-1 Lake Rd")]
    with mock.patch.object(SQLCompiler, "as_sql", autospec=True, side_effect=SQLCompiler.as_sql) as compiled:
        got = refs(dane.pk, "DA-2")
    assert compiled.call_count == 0
    assert got == list(System.objects.filter(jurisdiction_id=dane.pk, system_id="DA-2")
                       .values_list("system_id", "installed_on", "parcel__site_address")) == [("DA-2", None, "DA-2 Lake Rd")]
    annotated = Prepared(lambda ref: System.objects.filter(system_id=ref).annotate(n=Count("pk")).values_list("system_id", "n"))
    assert annotated("DA-1") == [("DA-1", 1)]
    assert annotated._plans["default"] is None  # an annotation: the ORM each time


def test_a_date_is_passed_as_the_database_takes_it_and_compiled_once(dane):
    """SQLite takes a date as its ISO text, PostgreSQL as a date: either way the statement is compiled once
    (the letters sent for a due date are read on every report that moves one)."""
    _system(dane, "DA-1"), _system(dane, "DA-2", installed_on=None)
    installed = Prepared(lambda on: System.objects.filter(installed_on=on).values_list("system_id"))
    assert installed(dt.date(1987, 12, 31)) == [("DA-1",)]
    with mock.patch.object(SQLCompiler, "as_sql", autospec=True, side_effect=SQLCompiler.as_sql) as compiled:
        assert installed(dt.date(1987, 12, 30)) == []
        assert installed(dt.date(1987, 12, 31)) == [("DA-1",)]
    assert compiled.call_count == 0
    # a date and time is not a date: it is another type, and goes through the ORM
    assert installed._plans["default"][0] == (dt.date,)


def test_a_comparison_and_is_null_are_compiled_once_and_give_the_orms_rows(dane):
    """The dashboard's lists read `due_on <= as_of` and `reviewed IS NULL`: each is compiled once (before, any
    lookup but `=` went through the ORM on every call), and reads what the ORM reads for each value."""
    _system(dane, "DA-1"), _system(dane, "DA-2", installed_on=None), _system(dane, "DA-3", installed_on=dt.date(2001, 5, 1))

    def orm(on):
        return list(System.objects.filter(installed_on__lte=on, parcel__owner__isnull=False).order_by("system_id")
                    .values_list("system_id"))

    by_day = Prepared(lambda on: System.objects.filter(installed_on__lte=on, parcel__owner__isnull=False).order_by("system_id")
                      .values_list("system_id"))
    assert by_day(dt.date(2001, 5, 1)) == orm(dt.date(2001, 5, 1)) == [("DA-1",), ("DA-3",)]
    days = (dt.date(1987, 12, 30), dt.date(1987, 12, 31), dt.date(2001, 4, 30))
    with mock.patch.object(SQLCompiler, "as_sql", autospec=True, side_effect=SQLCompiler.as_sql) as compiled:
        got = [by_day(on) for on in days]
    assert compiled.call_count == 0
    assert got == [orm(on) for on in days] == [[], [("DA-1",)], [("DA-1",)]]
    unowned = Prepared(lambda ref: System.objects.filter(system_id=ref, installed_on__isnull=True).values_list("system_id"))
    assert unowned("DA-2") == [("DA-2",)] and unowned("DA-1") == []
    assert unowned._plans["default"] is not None and by_day._plans["default"] is not None
