"""A lean write path (few queries per request, the checks on data already in memory, the
duplicate check by the unique constraint): one report through the API was 20 queries (12 for a report
filed twice); these numbers pin today's so they cannot creep back."""
import datetime as dt
from decimal import Decimal

from django.db import connection
from django.test.utils import CaptureQueriesContext
from knox.models import AuthToken
from rest_framework.test import APIClient

from powts.audit.models import AuditEvent
from powts.maintenance.models import Report, Schedule

D = dt.date
BODY = {"jurisdiction": "dane", "system_id": "DA-1", "kind": "pumping", "work_date": "2026-01-05", "license_number": "SSO-1",
        "gallons_pumped": 1000, "disposal_site": "Nine Springs"}


def _client(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=user)[1]}")
    return client


def _post(client, **kw):
    with CaptureQueriesContext(connection) as ctx:
        r = client.post("/api/maintenance/reports/", {**BODY, **kw}, format="json")
    # The test's own transaction turns the service's one transaction into a savepoint (2 statements, as
    # BEGIN and COMMIT are in production); a savepoint inside it would show as 2 more.
    return r, [q["sql"] for q in ctx.captured_queries]


def test_a_new_report_takes_thirteen_statements_and_a_duplicate_nine(dane, make_system, pumper_license):
    """Token and person (1), county (1), license (1), system with its parcel (1); in the transaction: the
    report (1), the system's last service (1), the schedule row and the system's events (2), the letters
    already sent for the new due date (1: a due date that comes back takes back its stage,
    powts.maintenance.stages), the schedule (1), and the three audit rows (report, system, schedule) in one
    INSERT (1). A duplicate: the four reads, the refused insert, the stored report. Before: 20 and 12 (knox
    read all the person's tokens, the events were read twice, two savepoints), then 14 with an INSERT per
    audit row, then 12 before the letters were read."""
    make_system()
    client = _client(pumper_license.user)
    AuthToken.objects.create(user=pumper_license.user)  # another token of the same person: not read per request
    client.post("/api/maintenance/reports/", {**BODY, "work_date": "2025-01-05"}, format="json")
    events = AuditEvent.objects.count()
    r, queries = _post(client)
    assert r.status_code == 201, r.content
    assert len(queries) == 13, "\n".join(queries)
    audit_inserts = [q for q in queries if q.startswith('INSERT INTO "audit_auditevent"')]
    assert len(audit_inserts) == 1 and AuditEvent.objects.count() - events == 3
    if connection.vendor == "postgresql":  # the schedule row is locked before the events are read
        assert [q for q in queries if "FOR UPDATE" in q][0].startswith('SELECT "maintenance_schedule"')
    row = Schedule.objects.get()
    assert row.basis_on == D(2026, 1, 5)  # the schedule counted the new report, read inside the transaction
    # the flags the database keeps (powts.maintenance.notice_flags) are not written back from what was read
    [update] = [q for q in queries if q.startswith('UPDATE "maintenance_schedule"')]
    assert '"retired"' not in update and '"held"' not in update, update
    assert (row.retired, row.held) == (False, None)
    r, queries = _post(client)
    assert r.status_code == 200 and r.json()["duplicate"] is True and r.json()["license_number"] == "SSO-1"
    assert len(queries) == 9, "\n".join(queries)
    assert Report.objects.filter(work_date=D(2026, 1, 5)).count() == 1


def test_a_report_for_a_system_not_on_record_takes_eight_statements(dane, pumper_license):
    """The four reads, the report and its audit row, and the savepoint's two statements."""
    client = _client(pumper_license.user)
    r, queries = _post(client, system_id="NOT-ON-RECORD")
    assert r.status_code == 201 and r.json()["in_inventory"] is False
    assert len(queries) == 8, "\n".join(queries)


def test_an_older_report_read_with_a_stale_system_does_not_move_last_service_back(dane, make_system):
    """Two reports at once: the second, older one, read the system before the first was stored. The
    database keeps the newer date and no audit row claims a change."""
    from powts.inventory.lifecycle import system_record_service
    from powts.inventory.models import System

    system = make_system()
    stale = System.objects.get(pk=system.pk)
    system_record_service(system=System.objects.get(pk=system.pk), on=D(2026, 3, 1), cause="newer report")
    events = AuditEvent.objects.count()
    system_record_service(system=stale, on=D(2026, 2, 1), cause="older report")
    assert System.objects.get(pk=system.pk).last_serviced_on == D(2026, 3, 1)
    assert stale.last_serviced_on == D(2026, 3, 1)
    assert AuditEvent.objects.count() == events


def test_the_compiled_read_of_a_systems_events_gives_what_events_for_gives(dane, make_system, pumper_license):
    """The report path reads one system's events through a compiled query (powts.core.prepared): the same
    events, in the same order, with their fractions as numbers, and a rejected report left out."""
    from powts.maintenance.choices import ReviewStatus
    from powts.maintenance.services import _events_of_one, events_for, report_submit

    system = make_system()
    for day, kind, extra in ((5, "pumping", {"gallons_pumped": 900}), (9, "inspection", {"sludge_scum_fraction": "0.25"}),
                             (12, "pumping", {"gallons_pumped": 800})):
        report_submit(jurisdiction=dane, data={"system_id": "DA-1", "kind": kind, "work_date": f"2026-01-{day:02d}",
                                               "license_number": "SSO-1", **extra}, filed_by=pumper_license.user)
    Report.objects.filter(work_date=D(2026, 1, 12)).update(review_status=ReviewStatus.REJECTED)
    got = _events_of_one(system)
    assert got == events_for([system.pk], holding=False)[system.pk]
    assert [e.on for e in got] == [D(2026, 1, 9), D(2026, 1, 5)] and got[0].sludge_scum_fraction == Decimal("0.25")


def test_a_holding_tanks_events_read_through_compiled_queries_are_what_events_for_gives(dane, make_system, pumper_license):
    """A holding tank's reports and its servicings (holding-tank reports, e. date), as events_for reads them:
    the same events in the same order, a servicing without a readable date skipped; and a report on one
    builds no SELECT after the first (before, events_for built two on every such report)."""
    from unittest import mock

    from django.db.models.sql.compiler import SQLCompiler

    from powts.maintenance.models import HoldingTankReport
    from powts.maintenance.services import _events_of_one, events_for, schedule_refresh

    tank = make_system("HT-1", system_type="holding_tank", installed_on=D(2024, 5, 1))
    schedule_refresh(system=tank)
    for n, (start, end, services) in enumerate(((D(2025, 1, 1), D(2025, 6, 30), [{"date": "2025-03-02"}, {"date": "2025-05-20"}]),
                                                (D(2025, 7, 1), D(2025, 12, 31), [{"date": "2025-09-09"}, {"date": "not a date"}, {}]))):
        HoldingTankReport.objects.create(system=tank, period_start=start, period_end=end, servicer_name="Sal", servicer_address="1 Pump Rd",
                                         owner_name="Olive Owner", location="12 Lake Rd", sanitary_permit_number=f"P-{n}",
                                         filed_at=dt.datetime(2026, 1, 5, tzinfo=dt.UTC), services=services)
    client = _client(pumper_license.user)
    assert _post(client, system_id="HT-1", work_date="2025-10-01")[0].status_code == 201
    got = _events_of_one(tank)
    assert got == events_for([tank.pk]).get(tank.pk, [])
    assert [e.on for e in got] == [D(2025, 10, 1), D(2025, 9, 9), D(2025, 3, 2), D(2025, 5, 20)]
    with mock.patch.object(SQLCompiler, "as_sql", autospec=True, side_effect=SQLCompiler.as_sql) as selects:
        r, _ = _post(client, system_id="HT-1", work_date="2025-11-01")
    assert r.status_code == 201 and selects.call_count == 0


def test_the_license_is_found_in_any_case_through_its_index_and_a_percent_sign_is_no_pattern(dane, make_system, pumper_license):
    """The license named is looked up on every report: through the index on UPPER(number), not by reading
    every license of the state (SQLite's LIKE, 2.7 ms a report at 20,000 licenses)."""
    make_system()
    client = _client(pumper_license.user)
    r, queries = _post(client, license_number="sso-1")
    assert r.status_code == 201 and r.json()["license_number"] == "SSO-1"
    [sql] = [q for q in queries if q.startswith('SELECT "accounts_license"')]
    assert 'WHERE UPPER("accounts_license"."number") = UPPER(' in sql
    from powts.core.tests.table_copies import copies
    from powts.maintenance.services import _licenses_numbered

    # the state's licenses (on three rows PostgreSQL's indexes all cost the same: a CI run walked the holder's)
    copies("accounts_license", 3000, number="'SSO-' || (g + 1000)")
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL enable_seqscan = off")
        plan = _licenses_numbered.build("sso-1").explain()
    assert "license_number_upper" in plan, plan
    r, _ = _post(client, license_number="SSO-%", work_date="2026-01-06")
    assert r.status_code == 400 and "not a known license" in r.content.decode(), r.content


def test_a_report_builds_no_insert_or_update_statement_after_the_first(dane, make_system, pumper_license):
    """The report, its schedule row, the system's last service and the audit rows are written by statements
    compiled once (powts.core.prepared_writes): building them was a fifth of a report's CPU, most of it
    while SQLite's one write lock was held."""
    from unittest import mock

    from django.db.models.sql.compiler import SQLInsertCompiler, SQLUpdateCompiler

    from powts.maintenance.services import schedule_refresh

    schedule_refresh(system=make_system("DA-2", installed_on=None))  # its row, as after an import
    client = _client(pumper_license.user)
    assert _post(client, system_id="DA-2", work_date="2025-01-05")[0].status_code == 201  # the first: compiled
    with mock.patch.object(SQLInsertCompiler, "as_sql", autospec=True, side_effect=SQLInsertCompiler.as_sql) as inserts, \
            mock.patch.object(SQLUpdateCompiler, "as_sql", autospec=True, side_effect=SQLUpdateCompiler.as_sql) as updates:
        r, queries = _post(client, system_id="DA-2")
    compiled = [(c.args[0].query.model.__name__, len(c.args[0].query.objs)) for c in inserts.call_args_list]
    # The INSERT of the three audit rows is compiled once too (it was not, before).
    assert r.status_code == 201 and updates.call_count == 0 and compiled == []
    from powts.inventory.models import System

    assert System.objects.get(system_id="DA-2").last_serviced_on == D(2026, 1, 5)
    assert Schedule.objects.get(system__system_id="DA-2").basis_on == D(2026, 1, 5)
    assert len(queries) == 13


def test_on_postgresql_a_reports_statements_are_parsed_and_planned_once_per_connection(dane, make_system, pumper_license):
    """Client-side binding sent every statement as new text, parsed and planned again: about a third of
    PostgreSQL's CPU for a report. Now the report's fixed statements are prepared (powts.core.server_prepared):
    the second and third reports add none, and each of the writes is among them."""
    if connection.vendor != "postgresql":
        return
    from powts.maintenance.services import schedule_refresh

    for ref in ("DA-1", "DA-2", "DA-3"):
        schedule_refresh(system=make_system(ref, installed_on=None))
    client = _client(pumper_license.user)

    def prepared():
        with connection.cursor() as c:
            c.execute("SELECT statement FROM pg_prepared_statements WHERE from_sql = false")
            return sorted(row[0] for row in c.fetchall())

    assert _post(client, system_id="DA-1", work_date="2025-01-05")[0].status_code == 201
    first = prepared()
    for ref in ("DA-2", "DA-3"):
        assert _post(client, system_id=ref, work_date="2025-01-05")[0].status_code == 201
    assert prepared() == first
    for start in ('INSERT INTO "maintenance_report"', 'INSERT INTO "audit_auditevent"', 'UPDATE "maintenance_schedule"',
                  'UPDATE "inventory_system"', 'SELECT "maintenance_schedule"', 'SELECT "knox_authtoken"', 'SELECT "accounts_license"',
                  'SELECT "inventory_system"', 'SELECT "jurisdictions_jurisdiction"'):
        assert any(s.startswith(start) for s in first), (start, first)
    assert Report.objects.filter(work_date=D(2025, 1, 5)).count() == 3
