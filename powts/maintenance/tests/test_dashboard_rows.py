"""Speed: the dashboard's long lists and tables are written by template tags (dashboard_rows) and its
morning lists are compiled once (powts.core.prepared). The page must show what it showed: each tag gives the
HTML the template's loop gave (the loops below are the template's before), byte for byte, with text that must be
escaped, a missing owner, blank towns and dates; the holding tanks list reads the same tanks as before."""
import datetime as dt
from unittest import mock

from django.db.models.sql.compiler import SQLCompiler
from django.template import Context, Template

from powts.inventory.choices import SystemType
from powts.inventory.models import Owner, Parcel, System
from powts.maintenance.models import Report, Schedule
from powts.maintenance.selectors import holding_overdue_lines, holding_reports_overdue

D = dt.date
# the dashboard template's loops before the tags (dashboard.html at fd51ebc)
BEFORE = {
    "delinquent": '{% for s in rows %}<li><a href="{{ s.system.get_absolute_url }}">{{ s.system_ref }}</a>, due {{ s.due_on|date:"Y-m-d" }}, '
                  '{{ s.get_stage_display }} sent {{ s.stage_on|date:"Y-m-d" }}</li>{% endfor %}',
    "pumping": '{% for s in rows %}<li><a href="{{ s.system.get_absolute_url }}">{{ s.system_ref }}</a>: pump by {{ s.due_on|date:"Y-m-d" }}'
               '</li>{% endfor %}',
    "systems": '{% for s in rows %}<li><a href="{{ s.get_absolute_url }}">{{ s.system_id }}</a> {{ s.parcel.site_address }}</li>{% endfor %}',
    "holding": '{% for s in rows %}<li><a href="{{ s.get_absolute_url }}">{{ s.system_id }}</a> {{ s.parcel.site_address }}, '
               '{{ s.parcel.owner.name }}</li>{% endfor %}',
    "by_type": '{% for label, cells in rows %}<tr><th scope="row">{{ label }}</th>{% for n, href in cells %}<td class="text-right">{% if n %}'
               '<a href="{{ href }}">{{ n|intcomma }}</a>{% else %}0{% endif %}</td>{% endfor %}</tr>{% endfor %}',
    "by_town": '{% for name, cells in rows %}<tr><th scope="row">{{ name|default:"(none on file)" }}</th>{% for n, href in cells %}'
               '<td class="text-right">{% if n %}<a href="{{ href }}">{{ n|intcomma }}</a>{% else %}0{% endif %}</td>{% endfor %}</tr>'
               '{% endfor %}',
}
AFTER = {"delinquent": "{% delinquent_items rows %}", "pumping": "{% pumping_items rows %}", "systems": "{% system_items rows %}",
         "holding": "{% holding_items rows %}", "by_type": "{% standing_rows rows %}", "by_town": '{% standing_rows rows "(none on file)" %}'}


def _render(source: str, rows) -> str:
    return Template("{% load humanize dashboard_rows %}" + source).render(Context({"rows": rows}))


def _same(kind: str, rows, after_rows=None) -> str:
    before = _render(BEFORE[kind], rows)
    assert _render(AFTER[kind], rows if after_rows is None else after_rows) == before
    return before


def _systems():
    owned = System(pk=7, system_id='HT-<7> & "8"', parcel=Parcel(site_address="1 <Lake> & Rd", owner=Owner(name="O'Brien & <Sons>")))
    unowned = System(pk=12345, system_id="HT-9", parcel=Parcel(site_address="", owner=None))
    return [owned, unowned]


def test_each_list_tag_writes_what_the_templates_loop_wrote():
    first, second = _systems()
    schedules = [Schedule(system=first, system_ref="DA-<1>&", due_on=D(2024, 3, 9), stage="delinquent", stage_on=D(2024, 4, 8)),
                 Schedule(system=second, system_ref="DA-2", due_on=None, stage="", stage_on=None),
                 Schedule(system=first, system_ref="DA-3", due_on=D(999, 1, 2), stage="violation", stage_on=D(2030, 12, 31))]
    assert "&lt;1&gt;&amp;" in _same("delinquent", schedules) and "Notice of delinquency sent 2024-04-08" in _same("delinquent", schedules)
    assert ", due 0999-01-02," in _same("delinquent", schedules)
    assert "pump by 2024-03-09" in _same("pumping", schedules)
    assert "1 &lt;Lake&gt; &amp; Rd" in _same("systems", _systems())
    lines = [(s.pk, s.system_id, s.parcel.site_address, s.parcel.owner.name if s.parcel.owner else None) for s in _systems()]
    html = _same("holding", _systems(), lines)
    assert "O&#x27;Brien &amp; &lt;Sons&gt;" in html and html.endswith('">HT-9</a> , </li>') and "/12345/" in html
    for kind in AFTER:
        assert _render(AFTER[kind], []) == _render(BEFORE[kind], []) == ""


def test_the_standing_tables_rows_are_the_templates():
    cells = [(88071, "/inventory/?standing=current&as_of=2026-12-01&municipality=A+%26+B"), (0, "/x"), (1234567, "/y?a=<b>"), (5, "/z")]
    by_type = [(SystemType.MOUND.label, cells), ("holding_<tank>", cells[:1]), ("", cells[1:2])]
    html = _same("by_type", by_type)
    assert '<a href="/inventory/?standing=current&amp;as_of=2026-12-01&amp;municipality=A+%26+B">88,071</a>' in html
    assert '<td class="text-right">0</td>' in html and "1,234,567" in html and "holding_&lt;tank&gt;" in html
    html = _same("by_town", [("Town of <Verona>", cells), ("", cells), (None, cells[:2])])
    assert html.count("(none on file)") == 2 and "Town of &lt;Verona&gt;" in html


def test_the_holding_tanks_list_reads_the_same_tanks_as_before(dane, make_system):
    for n in (3, 1, 2):
        make_system(system_id=f"HT-{n}", system_type="holding_tank", installed_on=D(2020, 1, 1), owner=f"Owner & {n}",
                    address=f"{n} Lake Rd")
    Parcel.objects.filter(systems__system_id="HT-2").update(owner=None)
    period, tanks = holding_reports_overdue(jurisdiction=dane, as_of=D(2026, 7, 31))
    same_period, lines = holding_overdue_lines(jurisdiction=dane, as_of=D(2026, 7, 31))
    assert same_period == period and [s.system_id for s in tanks] == ["HT-1", "HT-2", "HT-3"]
    assert lines == [(s.pk, s.system_id, s.parcel.site_address, s.parcel.owner.name if s.parcel.owner else None) for s in tanks]
    assert lines[1][3] is None
    assert _render(AFTER["holding"], lines) == _render(BEFORE["holding"], tanks)


def test_a_second_visit_compiles_none_of_the_lists(client, staff, dane, make_system):
    """Each of the morning's five lists, and the complaints, audits and hold of the other apps' panels, cost about
    1 ms of CPU a visit to compile (the page's CPU median was 62 ms at 1,000,000 systems); the second visit runs
    their SQL without building it again."""
    from powts.oversight.models import IssuanceHold, ProgramAudit
    from powts.permits.models import Complaint

    make_system(system_id="DA-1")
    client.force_login(staff)
    assert client.get("/maintenance/").status_code == 200
    with mock.patch.object(SQLCompiler, "as_sql", autospec=True, side_effect=SQLCompiler.as_sql) as as_sql:
        response = client.get("/maintenance/")
    compiled = [c.args[0].query.model for c in as_sql.call_args_list]
    assert response.status_code == 200 and compiled  # other reads are still compiled (the check sees them)
    assert not {Report, Schedule, Complaint, ProgramAudit, IssuanceHold} & set(compiled)
