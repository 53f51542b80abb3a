"""The state view of every county's program (SPS 383.255's annual summaries side by side) and
the reports powts flags (Wis. Stat. s. 145.20(5)(c)), made cheap: each figure of the state view is one query
grouped by county, however many counties there are, and equals the county's own annual summary; the automatic
flagging reads only the reports a finding can be among, and its queries do not grow with its findings."""
import datetime as dt

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.test.utils import CaptureQueriesContext

from powts.maintenance.annual import annual_summaries, annual_summary
from powts.oversight import selectors, services
from powts.oversight.models import ReportFlag

D = dt.date
TODAY = D(2026, 11, 2)


def _county(k):
    from powts.jurisdictions.models import Jurisdiction

    return Jurisdiction.objects.create(slug=f"x-{k}", name=f"County {k}", profile_slug="dane" if k % 2 else "lincoln")


def _records(unit, n, file_report, pumper_license):
    """n systems (one failing), a report a system (one late), an open order past its day, a notice."""
    from powts.inventory.models import Parcel
    from powts.inventory.services import system_create
    from powts.maintenance.models import Notice
    from powts.permits.models import CorrectionOrder

    for i in range(n):
        system = system_create(jurisdiction=unit, system_id=f"S{unit.pk}-{i}", parcel_number=f"P{unit.pk}-{i}",
                               system_type="mound" if i % 2 else "conventional", owner_name="Olive Owner",
                               owner_mailing_address="" if i == 0 else "1 Lake Rd, Verona, WI", site_address="1 Lake Rd",
                               installed_on=D(2020, 6, 1), status="failing" if i == 1 else "active")
        Parcel.objects.filter(pk=system.parcel_id).update(legal_description=f"Lot {i}")
        file_report(unit, system_id=system.system_id, work_date=D(2026, 3, 2 + i))
        if i == 0:
            CorrectionOrder.objects.create(jurisdiction=unit, system=system, issued_on=D(2026, 1, 5), correct_by=D(2026, 2, 1),
                                           requirement="Pump", citation="SPS 383.54(4)")
            Notice.objects.create(jurisdiction=unit, system=system, kind="delinquent", due_on=D(2026, 1, 1), as_of=D(2026, 3, 1),
                                  sent_at=dt.datetime(2026, 3, 1, tzinfo=dt.timezone.utc), batch="b", to_name="Olive")


@pytest.fixture
def counties(db, file_report, pumper_license):
    units = [_county(k) for k in range(1, 5)]
    for k, unit in enumerate(units):
        _records(unit, k + 1, file_report, pumper_license)
    return units


def test_the_grouped_annual_summaries_equal_each_countys_own(counties):
    """SPS 383.255's annual summary of every county at once is the one each county's own report gives."""
    every = annual_summaries(year=2026)
    for unit in counties:
        assert every[unit.pk] == annual_summary(jurisdiction=unit, year=2026)
    assert every[counties[3].pk][:3] == [("systems in the inventory by type", "conventional", 2),
                                          ("systems in the inventory by type", "mound", 2),
                                          ("systems in the inventory by type", "total", 4)]


def test_the_state_view_asks_the_same_queries_for_2_counties_as_for_4(db, file_report, pumper_license):
    """Before: about 16 queries a county (1,150 at 72 counties); now one a figure, whatever the counties."""
    units = [_county(k) for k in range(1, 3)]
    for unit in units:
        _records(unit, 2, file_report, pumper_license)
    with CaptureQueriesContext(connection) as two:
        selectors.county_programs_fresh(year=2026, today=TODAY)
    for unit in [_county(k) for k in range(3, 5)]:
        _records(unit, 2, file_report, pumper_license)
    with CaptureQueriesContext(connection) as four:
        rows = selectors.county_programs_fresh(year=2026, today=TODAY)
    assert len(rows) == 4 and len(four.captured_queries) == len(two.captured_queries) <= 12


def test_the_state_view_rows_are_each_countys_figures(counties):
    """Each row as computed for its county alone: completeness (an owner without a mailing address is not
    complete), reports, late reports, notices, open and overdue orders."""
    rows = {r["unit"].pk: r for r in selectors.county_programs(year=2026, today=TODAY)}
    for k, unit in enumerate(counties):
        r = rows[unit.pk]
        summary = dict(((s, i), n) for s, i, n in annual_summary(jurisdiction=unit, year=2026))
        assert (r["systems"], r["complete"], r["reports"]) == (k + 1, k, k + 1)
        assert (r["notices"], r["open_orders"], r["overdue_orders"]) == (1, 1, 1)
        assert r["summary"] == summary and r["hold"] is None


@pytest.fixture(autouse=True)
def nothing_kept():
    selectors._KEPT.clear()
    yield
    selectors._KEPT.clear()


def _figures(rows):
    return [{k: v for k, v in r.items() if k not in ("unit", "hold")} | {"hold": r["hold"] and r["hold"].pk,
                                                                        "unit": r["unit"].pk} for r in rows]


def test_a_second_load_with_nothing_written_reads_only_the_fingerprint(counties):
    first = selectors.county_programs(year=2026, today=TODAY)
    with CaptureQueriesContext(connection) as again:
        assert selectors.county_programs(year=2026, today=TODAY) is first
    assert len(again.captured_queries) == 1
    # another day (orders fall overdue) or another year is computed afresh
    assert _figures(selectors.county_programs(year=2026, today=TODAY + dt.timedelta(days=1))) == \
        _figures(selectors.county_programs_fresh(year=2026, today=TODAY + dt.timedelta(days=1)))


def test_the_kept_view_equals_a_fresh_computation_after_each_write(counties, file_report, make_user):
    """Each kind of write the figures depend on, through its service; after each, the view served equals one
    computed afresh (and differs from the one before, so the test can fail)."""
    from powts.inventory.services import system_create
    from powts.maintenance.services import schedule_sync
    from powts.permits.models import CorrectionOrder

    unit = counties[1]

    def check():
        before = _figures(next(iter(selectors._KEPT.values()))) if selectors._KEPT else None
        served = _figures(selectors.county_programs(year=2026, today=TODAY))
        assert served == _figures(selectors.county_programs_fresh(year=2026, today=TODAY))
        return before, served

    check()
    file_report(unit, system_id=f"S{unit.pk}-1", work_date=D(2026, 6, 1))  # a report
    before, served = check()
    assert before != served
    system_create(jurisdiction=unit, system_id="NEW-1", parcel_number="PNEW-1", system_type="mound", owner_name="N",
                  installed_on=D(2024, 1, 1))  # a system
    before, served = check()
    assert before != served
    hold = services.hold_place(jurisdiction=unit, on=TODAY, reason="audit")  # a hold, then lifted
    before, served = check()
    assert before != served
    services.hold_lift(hold=hold, on=TODAY, note="done")
    before, served = check()
    assert before != served
    schedule_sync(jurisdiction=unit)
    check()
    from powts.permits.services.enforcement import correction_order_close

    correction_order_close(order=CorrectionOrder.objects.filter(jurisdiction=unit).first(), on=TODAY)  # an order complied with
    before, served = check()
    assert before != served


@pytest.fixture
def pumped_then_full(dane, make_system, file_report):
    """k systems each pumped and then found full by an inspection 5 days later: k findings."""
    def make(k, start=0):
        for i in range(start, start + k):
            make_system(system_id=f"DA-{i}")
            file_report(dane, system_id=f"DA-{i}", work_date=D(2026, 3, 2))
            file_report(dane, system_id=f"DA-{i}", kind="inspection", work_date=D(2026, 3, 7), sludge_scum_fraction="0.5")
    return make


def test_automatic_flagging_asks_the_same_queries_for_1_finding_as_for_4(dane, pumped_then_full, make_system, file_report,
                                                                         pumper_license):
    """Before: one query a finding to see whether it was already flagged; now the county's flags are read once."""
    for i in range(20):  # reports with nothing to find: never read
        make_system(system_id=f"QUIET-{i}")
        file_report(dane, system_id=f"QUIET-{i}", work_date=D(2026, 4, 1))
    pumped_then_full(1)
    ContentType.objects.get_for_model(ReportFlag)  # the audit's content type, cached after its first use
    with CaptureQueriesContext(connection) as one:
        first = services.flags_detect(jurisdiction=dane, on=TODAY)
    pumped_then_full(3, start=1)
    ReportFlag.objects.all().delete()
    with CaptureQueriesContext(connection) as four:
        made = services.flags_detect(jurisdiction=dane, on=TODAY)
    assert (len(first), len(made)) == (1, 4)
    writes = lambda ctx: [q for q in ctx.captured_queries if q["sql"].lstrip().upper().startswith(("INSERT", "SAVEPOINT", "RELEASE"))]  # noqa: E731
    assert len(four.captured_queries) - len(writes(four)) == len(one.captured_queries) - len(writes(one))
    assert services.flags_detect(jurisdiction=dane, on=TODAY) == []  # flagged once


def test_automatic_flagging_finds_what_it_found_before(dane, pumped_then_full, make_system, file_report, pumper_license):
    """The same findings as reading every report: a pumping contradicted, and work before the licence was issued."""
    pumped_then_full(2)
    pumper_license.issued_on = D(2026, 3, 5)
    pumper_license.save()
    kinds = sorted((f.report.system_ref, f.kind) for f in services.flags_detect(jurisdiction=dane, on=TODAY))
    assert kinds == [("DA-0", "license_dates"), ("DA-0", "never_pumped"), ("DA-1", "license_dates"), ("DA-1", "never_pumped")]
