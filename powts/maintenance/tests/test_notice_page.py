"""The notices page and its speed: the page counts the next batch in the database (one query
per kind) and reads only the letters it shows. What it says must be what the send would do: the counts,
the letters and the owners held back equal `notices.preview` (the send's own plan) on both sides of every
date in Dane's sequence (Dane County Code s. 46.11(5): first notice 30 days before the due date; then the
reminder on the due date, delinquency at 30 days, violation at 60, enforcement order at 90, each at least
30 days after the one before)."""
import datetime as dt
import re

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from powts.maintenance import notice_page
from powts.maintenance.models import Notice, Schedule
from powts.maintenance.notices import preview
from powts.maintenance.services import schedule_sync

D = dt.date
AS_OF = D(2026, 6, 1)
DAY = dt.timedelta(days=1)

# (system id, due on, stage, stage on): each a day before or on a threshold as of AS_OF
ROWS = [
    ("FN-ON", AS_OF + 30 * DAY, "", None),            # notice date (due - 30) is today: a first notice
    ("FN-BEFORE", AS_OF + 31 * DAY, "", None),        # notice date tomorrow: nothing yet
    ("FN-SENT", AS_OF + 10 * DAY, "first_notice", AS_OF - 20 * DAY),  # already had it
    ("REM-DUE", AS_OF, "first_notice", AS_OF - 30 * DAY),       # due today: a reminder
    ("REM-NONE", AS_OF - 5 * DAY, "", None),           # overdue, never noticed: a reminder
    ("DEL-ON", AS_OF - 30 * DAY, "reminder", AS_OF - 30 * DAY),  # 30 days after due and after the reminder
    ("DEL-EARLY", AS_OF - 29 * DAY, "reminder", AS_OF - 29 * DAY),
    ("DEL-PREV", AS_OF - 40 * DAY, "reminder", AS_OF - 29 * DAY),  # due long ago, reminder only 29 days ago
    ("VIO-ON", AS_OF - 60 * DAY, "delinquent", AS_OF - 30 * DAY),
    ("VIO-EARLY", AS_OF - 59 * DAY, "delinquent", AS_OF - 30 * DAY),
    ("ORD-ON", AS_OF - 90 * DAY, "violation", AS_OF - 30 * DAY),
    ("ORD-PREV", AS_OF - 95 * DAY, "violation", AS_OF - 29 * DAY),
    ("LAST", AS_OF - 400 * DAY, "enforcement_order", AS_OF - 300 * DAY),  # nothing after the order
    ("EXEMPT", AS_OF - 5 * DAY, "", None),
    ("GONE", AS_OF - 5 * DAY, "", None),               # abandoned: no letter
    ("HELD", AS_OF - 5 * DAY, "", None),               # no usable mailing address
    ("HELD-2", AS_OF + 30 * DAY, "", None),            # one line only
    ("ALREADY", AS_OF - 5 * DAY, "reminder", AS_OF - DAY),  # its reminder on file, sent yesterday: nothing yet
]


@pytest.fixture
def county(dane, make_system):
    for ref, *_ in ROWS:
        address = {"HELD": "", "HELD-2": "12 Lake Rd Verona"}.get(ref, "12 Lake Rd\nVerona, WI 53593")
        make_system(system_id=ref, installed_on=D(2020, 1, 1), owner=f"Owner {ref}", address=address)
    schedule_sync(jurisdiction=dane)
    for ref, due, stage, stage_on in ROWS:
        Schedule.objects.filter(system_ref=ref).update(due_on=due, notice_on=due - 30 * DAY, stage=stage, stage_on=stage_on,
                                                       exempt=ref == "EXEMPT")
    from powts.inventory.models import System

    System.objects.filter(system_id="GONE").update(status="abandoned")
    s = Schedule.objects.get(system_ref="ALREADY")
    Notice.objects.create(jurisdiction=dane, system_id=s.pk, kind="reminder", due_on=s.due_on, as_of=AS_OF - DAY,
                          sent_at=dt.datetime(2026, 5, 31, tzinfo=dt.timezone.utc))
    return dane


@pytest.mark.parametrize("as_of", [AS_OF - DAY, AS_OF, AS_OF + DAY, AS_OF + 30 * DAY])
def test_page_counts_letters_and_held_equal_the_sends_preview(county, as_of):
    """Every threshold above on both sides (the day before, the day, the day after, a month on)."""
    sent = preview(jurisdiction=county, as_of=as_of)
    found = notice_page.summary(jurisdiction=county, as_of=as_of)
    assert found.counts == sent.counts
    assert found.held_total == len(sent.held)
    letters = notice_page.Letters(jurisdiction=county, found=found)
    assert len(letters) == sent.total
    assert sorted((p.system_ref, p.kind, p.due_on) for p in letters[0:1000]) == sorted(
        (p.system_ref, p.kind, p.due_on) for p in sent.letters)
    held = notice_page.Letters(jurisdiction=county, found=found, held=True)
    assert sorted((p.system_ref, p.kind, p.address_problem) for p in held[0:1000]) == sorted(
        (p.system_ref, p.kind, p.address_problem) for p in sent.held)


def test_the_thresholds_land_where_the_text_puts_them(county):
    """The fixture's own check: as of AS_OF the kinds are the ones its comments name (so the test above compares
    batches that hold every kind, not two empty ones)."""
    found = notice_page.summary(jurisdiction=county, as_of=AS_OF)
    rows = {p.system_ref: p.kind for p in notice_page.Letters(jurisdiction=county, found=found)[0:100]}
    assert rows == {"FN-ON": "first_notice", "REM-DUE": "reminder", "REM-NONE": "reminder", "DEL-ON": "delinquent",
                    "VIO-ON": "violation", "ORD-ON": "enforcement_order"}
    assert found.held_by_kind == {"reminder": 1, "first_notice": 1}


def test_page_reads_one_page_of_letters_not_the_batch(county, staff, settings):
    """A page of letters is read with LIMIT, however large the batch: 2 letters a page, 3 pages."""
    import powts.maintenance.notice_views as views

    settings.DEBUG = True
    old, views.PER_PAGE = views.PER_PAGE, 2
    try:
        client = Client()
        client.force_login(staff)
        with CaptureQueriesContext(connection) as queries:
            r = client.get(f"/maintenance/notices/?as_of={AS_OF}&page=2")
        assert r.status_code == 200
        page = r.context["page"]
        assert page.paginator.num_pages == 3 and len(page.object_list) == 2
        html = r.content.decode()  # the page's links to the pages on either side, and where it stands
        assert f'href="?as_of={AS_OF}&amp;page=1">Previous</a>' in html and f'href="?as_of={AS_OF}&amp;page=3">Next</a>' in html
        assert "Page 2 of 3" in html
        # the letters' ids: each kind's read with a LIMIT of at most the page (the held list has its own pages; a
        # page spanning kinds reads them in one statement); then only those rows are read whole, by id
        ids = [q["sql"] for q in queries.captured_queries if "LIMIT" in q["sql"] and "maintenance_schedule" in q["sql"]]
        limits = [int(n) for sql in ids for n in re.findall(r"LIMIT (\d+)", sql)]
        assert ids and limits and all(n <= 2 for n in limits), limits
        whole = [q["sql"] for q in queries.captured_queries if '"maintenance_schedule"."stage_on" AS' in q["sql"]]
        assert whole and all(re.search(r'"system_id" IN \([\d, ]+\)', sql) for sql in whole), whole
        assert max(len(re.search(r"IN \(([\d, ]+)\)", sql).group(1).split(",")) for sql in whole) <= 2
    finally:
        views.PER_PAGE = old


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's plan with statistics")
def test_with_statistics_a_later_step_is_found_through_the_notices_index_not_every_schedule_due(dane):
    """With the statistics powts now measures every night, SQLite chose the due-date index for a reminder and read
    every schedule due by the day (690 ms at 1,000,000 systems) instead of the stage index (4 ms). The statistics
    below are those of the benchmark's county of 1,000,000 systems."""
    from powts.maintenance.services import profile_for

    measured = {"maint_sched_notices": "1000000 1000000 166667 500 500 1 1 1 1 1", "maint_sched_due": "1000000 1000000 500",
                "maint_sched_due_list": "1000000 1000000 500 500 1", "sqlite_autoindex_maintenance_schedule_1": "1000000 1"}
    as_of = dt.date(2026, 11, 30)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # makes sqlite_stat1 (the test tables are empty: no rows in it)
        cursor.executemany("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('maintenance_schedule', %s, %s)", list(measured.items()))
        cursor.execute("ANALYZE sqlite_schema")  # reload the statistics
        for kind, _cite, condition in notice_page.conditions(profile_for(dane), as_of)[1:]:
            sql, params = notice_page._due(dane, condition).query.sql_with_params()
            cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
            first = [row[-1] for row in cursor.fetchall()][0]
            assert re.match(r"SEARCH maintenance_schedule USING (COVERING )?INDEX maint_sched_notices", first), (kind, first)


@pytest.mark.parametrize("held", [False, True])
def test_pages_spanning_several_kinds_keep_the_sequences_order_and_miss_no_letter(county, held):
    """A page that spans kinds reads them in one statement; the rows still come kind by kind in the sequence's
    order, each kind earliest notice date first, so that page after page every letter is shown once."""
    found = notice_page.summary(jurisdiction=county, as_of=AS_OF)
    letters = notice_page.Letters(jurisdiction=county, found=found, held=held)
    whole = [(p.kind, p.notice_on, p.due_on, p.system_id) for p in letters[0:1000]]
    rank = {kind: k for k, (kind, _cite, _condition) in enumerate(found._conditions)}
    assert len({kind for kind, *_ in whole}) > 1 and len(whole) == len(letters)
    assert whole == sorted(whole, key=lambda row: (rank[row[0]], *row[1:]))
    for size in (1, 2, 3):
        paged = [(p.kind, p.notice_on, p.due_on, p.system_id) for start in range(0, len(letters), size)
                 for p in letters[start:start + size]]
        assert paged == whole, size


def test_every_owner_held_back_is_reachable_page_by_page(county, staff):
    """The held list has pages of its own (before, only its first 500 were shown, with no way to the rest)."""
    import powts.maintenance.notice_views as views

    old, views.HELD_PER_PAGE = views.HELD_PER_PAGE, 1
    try:
        client = Client()
        client.force_login(staff)
        seen = []
        for n in (1, 2):
            r = client.get(f"/maintenance/notices/?as_of={AS_OF}&held_page={n}")
            held = r.context["held"]
            assert held.paginator.num_pages == 2 and len(held.object_list) == 1
            seen += [p.system_ref for p in held.object_list]
        assert sorted(seen) == ["HELD", "HELD-2"]
        assert "held_page=2#h-held" in client.get(f"/maintenance/notices/?as_of={AS_OF}").content.decode()
    finally:
        views.HELD_PER_PAGE = old


def test_each_row_links_to_the_url_reverse_gives_reversed_once_a_page(county, staff):
    """Every system and letter link on the page is the URL `reverse` gives for its row (as {% url %} gave it), and
    the page reverses each link once, not once per row (about 400 reverses took 10-15 ms of a 30-days-on page)."""
    from unittest import mock

    from django.urls import reverse
    from django.urls.resolvers import URLResolver

    client = Client()
    client.force_login(staff)
    url = f"/maintenance/notices/?as_of={AS_OF}"
    client.get(url)  # the links reversed once, as a running server has them
    real, calls = URLResolver._reverse_with_prefix, []

    def counted(self, lookup_view, *args, **kwargs):
        calls.append(lookup_view)
        return real(self, lookup_view, *args, **kwargs)

    with mock.patch.object(URLResolver, "_reverse_with_prefix", counted):
        r = client.get(url)
    html = r.content.decode()
    rows = list(r.context["page"].object_list) + list(r.context["held"].object_list)
    assert len(rows) == 8  # six letters and two held: each row's two links below
    for p in rows:
        assert f'href="{reverse("inventory:system-detail", args=[p.system_id])}"' in html
        assert f'href="{reverse("maintenance:notice-preview", args=[p.system_id])}?as_of={AS_OF.isoformat()}"' in html
    per_row = [name for name in calls if name in ("system-detail", "notice-preview")]
    assert per_row == [], per_row


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's plan")
def test_each_kind_is_counted_without_sorting_its_rows(county):
    """The page counts every kind in one statement, each kind's held and unchecked letters counted beside the rest:
    grouped by `held`, SQLite put every row read into a temporary B-tree to sort it (about a third of the page's
    counting)."""
    with CaptureQueriesContext(connection) as queries:
        found = notice_page.summary(jurisdiction=county, as_of=AS_OF)
    assert found.counts and found.held_by_kind
    counts = [q["sql"] for q in queries.captured_queries if "COUNT(" in q["sql"]]
    assert len(counts) == 1 and counts[0].count("COUNT(") == len(found._conditions), counts
    with connection.cursor() as cursor:
        for sql in counts:
            cursor.execute("EXPLAIN QUERY PLAN " + sql)
            plan = [row[-1] for row in cursor.fetchall()]
            assert not any("TEMP B-TREE" in step for step in plan), plan


# The rows as the page's template wrote them before the rows were written in one pass (notice_rows): the reference.
# (Since then one change: with no owner of record, or no address, the address column says "none", never "None".)
LETTER_ROWS_BEFORE = """{% for p in rows %}<tr>
      <td><a href="{% url 'inventory:system-detail' p.system_id %}">{{ p.system_ref }}</a></td><td>{{ p.to_name }}</td><td>{{ p.get_kind_display }}</td>
      <td>{{ p.due_on|date:"Y-m-d" }}</td><td>{{ p.language_label }}</td><td>{% if p.to_email %}yes{% endif %}</td>
      <td><a href="{% url 'maintenance:notice-preview' p.system_id %}?as_of={{ as_of|date:'Y-m-d' }}" aria-label="View the letter to {{ p.to_name }} for {{ p.system_ref }}">View letter</a></td></tr>{% endfor %}"""
HELD_ROWS_BEFORE = """{% for p in rows %}<tr>
      <td><a href="{% url 'inventory:system-detail' p.system_id %}">{{ p.system_ref }}</a></td><td>{{ p.to_name }}</td>
      <td>{{ p.to_address|default:""|linebreaksbr|default:"none" }}</td><td>{{ p.address_problem|capfirst }}</td>
      <td><a href="{% url 'maintenance:notice-preview' p.system_id %}?as_of={{ as_of|date:'Y-m-d' }}">View ({{ p.get_kind_display|lower }})</a></td></tr>{% endfor %}"""


def test_the_rows_written_in_one_pass_are_the_templates_rows_byte_for_byte(db):
    """Names and addresses with markup characters, line breaks of every kind, no owner, no address, no e-mail,
    each language and kind: the rows equal the template's loop (LETTER_ROWS_BEFORE, HELD_ROWS_BEFORE)."""
    from django.template import engines

    from powts.maintenance.choices import NoticeKind
    from powts.maintenance.notices import Planned
    from powts.maintenance.templatetags.notice_rows import held_rows, letter_rows

    names = ["Ann O'Brien & Sons <LLC>", 'The "Lake" Trust', "", "Émile Ñúñez"]
    addresses = ["12 Lake Rd\nVerona, WI 53593", "1 A St\r\nB, WI 53711\r\n", "PO Box 7\rMadison WI", "", None,
                 "<b>5 Main</b> & Co\n\nWI 53593"]
    rows = []
    for i, (kind, _label) in enumerate(NoticeKind.choices * 3):
        rows.append(Planned(
            system_id=i * 977 + 1, due_on=D(999 if i == 5 else 2026, 1 + i % 12, 1 + i % 28), notice_on=D(2025, 12, 1), exempt=False,
            stage="", stage_on=None, system_ref=f"S-{i}<&>\"'", system_type="mound", site_address="1 Site Rd",
            owner_id=None if i % 7 == 3 else i, owner_name=names[i % len(names)], owner_address=addresses[i % len(addresses)],
            owner_email=["", None, "a@b.org"][i % 3], owner_language=[None, "es", "hmn", "en"][i % 4], kind=kind))
    engine = engines["django"]
    for as_of in (D(2026, 6, 1), D(999, 1, 2)):
        context = {"rows": rows, "as_of": as_of}
        assert letter_rows(rows, as_of) == engine.from_string(LETTER_ROWS_BEFORE).render(context)
        assert held_rows(rows, as_of) == engine.from_string(HELD_ROWS_BEFORE).render(context)


def test_a_letter_held_for_no_owner_of_record_shows_no_mailing_address_as_none_not_as_python_none(db):
    """The held owners' table, "Mailing address on file": a letter with no owner of record (whose address the
    plan reads as nothing at all) and an owner with an empty address both say "none"; an address is shown."""
    from powts.maintenance.notices import Planned
    from powts.maintenance.templatetags.notice_rows import held_rows

    def row(owner_id, address):
        return Planned(system_id=1, due_on=D(2026, 6, 1), notice_on=D(2026, 5, 1), exempt=False, stage="", stage_on=None,
                       system_ref="S-1", system_type="mound", site_address="1 Site Rd", owner_id=owner_id, owner_name="",
                       owner_address=address, owner_email="", kind="first_notice")

    cells = [held_rows([row(owner_id, address)], D(2026, 5, 2)).split("<td>")[3] for owner_id, address in
             ((None, None), (None, "12 Lake Rd"), (7, ""), (7, "12 Lake Rd\nVerona"))]
    assert cells == ["none</td>", "none</td>", "none</td>", "12 Lake Rd<br>Verona</td>"]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plan")
def test_postgresql_counts_each_kind_from_the_notices_index_though_most_schedules_await_their_first_notice(county):
    """As in a county: over half the schedules have never had a notice (stage "", notice dates to come) and most of
    the rest had theirs long ago. Column by column PostgreSQL took most notice dates as reached and most schedules
    at stage "", so it expected a first notice for a quarter of the county and read the whole table for each kind;
    the statistics of stage and notice date together (maintenance migration 0019) tell it how few there are."""
    from powts.core.tests.table_copies import copies

    # g: 1..40,000 copies of the fixture's first schedule, as a county's are spread (see the docstring)
    day = f"DATE '{AS_OF.isoformat()}'"
    copies("inventory_system", 40_000, id="first.id + 1000000 + g", system_id="'C-' || g")
    copies("maintenance_schedule", 40_000, system_id="(SELECT MIN(id) FROM inventory_system) + 1000000 + g", system_ref="'C-' || g",
           stage="CASE WHEN g % 100 < 55 THEN '' WHEN g % 100 < 98 THEN 'enforcement_order' ELSE 'first_notice' END",
           notice_on=f"CASE WHEN g % 100 < 55 THEN {day} + 1 + g % 1000 WHEN g % 100 < 98 THEN {day} - 200 - g % 700 "
                     f"ELSE {day} - g % 30 END",
           due_on=f"CASE WHEN g % 100 < 55 THEN {day} + 31 + g % 1000 WHEN g % 100 < 98 THEN {day} - 170 - g % 700 "
                  f"ELSE {day} + 30 - g % 30 END",
           stage_on="NULL", exempt="false")
    month = AS_OF + 30 * DAY
    with CaptureQueriesContext(connection) as queries:
        found = notice_page.summary(jurisdiction=county, as_of=month)
    assert found.counts["first_notice"] > 500 and found.counts["reminder"] > 500  # the copies are counted
    counts = [q["sql"] for q in queries.captured_queries if "COUNT(" in q["sql"]]
    assert len(counts) == 1  # every kind in one statement
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + counts[0])
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert plan.count("maint_sched_notices") == len(found._conditions), plan  # each kind from the index
    assert "Seq Scan on maintenance_schedule" not in plan, plan
    # the plan the page keeps, made without the day's dates (a generic plan): also each kind from the index
    sql, params = notice_page.count_statement(county, found._conditions, "default")
    numbers = iter(range(1, len(params) + 1))
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        cursor.execute("PREPARE page_counts AS " + re.sub("%s", lambda _: f"${next(numbers)}", sql))
        cursor.execute(f"EXPLAIN EXECUTE page_counts ({', '.join(['%s'] * len(params))})", params)
        generic = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("DEALLOCATE page_counts")
    assert "$1" in generic and generic.count("maint_sched_notices") == len(found._conditions), generic
    assert "Seq Scan on maintenance_schedule" not in generic, generic
