"""Every web list, one way: a django-tables2 table over a FilterSet's rows, paged without COUNT(*),
with its total (exact up to COUNT_LIMIT, estimated beyond) and its CSV and XLSX exports.

A view calls `filtered(request, FilterSet, queryset)` then `table_or_export(request, Table, rows, name=...)`
and renders `tables/uswds.html` through `{% render_table table %}`; `?export=csv|xlsx` is answered with
every row of the filtered list (all pages), streamed, each cell made safe by powts.core.spreadsheet.
"""
from __future__ import annotations

import datetime as dt
import json
import tempfile
from dataclasses import dataclass

from django.conf import settings
from django.contrib import messages
from django.core.paginator import EmptyPage, PageNotAnInteger
from django.db import connection
from django.db.models import QuerySet
from django.http import FileResponse, StreamingHttpResponse
import django_tables2 as tables
from django_tables2 import LazyPaginator
from django_tables2.rows import BoundRow, BoundRows

from powts.core import fields, spreadsheet

PER_PAGE = 50
MAX_PAGE = 1_000_000  # 50 million rows at 50 a page; a larger page number would overflow the database's OFFSET
COUNT_LIMIT = 10_000  # counted exactly up to here; beyond, the planner's estimate (PostgreSQL) or "more than"
EXPORTS = ("csv", "xlsx")
EXPORT_CHUNK = 2_000


class DateColumn(tables.Column):
    """A date as YYYY-MM-DD, on screen and in exports. django-tables2's DateColumn renders a template
    per cell, which is most of a 50-row page's time; this is a string method."""

    def render(self, value):
        return _day(value)

    def value(self, value):
        return _day(value) if value else ""


def _day(value) -> str:
    """YYYY-MM-DD; a moment is shown on the county's calendar (America/Chicago), not UTC's."""
    if isinstance(value, dt.datetime):
        from django.utils import timezone

        value = timezone.localtime(value) if timezone.is_aware(value) else value
    return value.isoformat()[:10]


@dataclass(frozen=True)
class Total:
    """How many rows the list has: `exact`, or at least `n` (estimated when `estimated`)."""

    n: int
    exact: bool
    estimated: bool = False

    def __str__(self) -> str:
        if self.exact:
            return f"{self.n:,}"
        if self.estimated:
            return f"about {self.n:,}"
        return f"more than {self.n:,}"


def total(queryset) -> Total:
    """Counts at most COUNT_LIMIT + 1 rows (a bounded subquery), so a million-row list costs the same as
    a 10,001-row one; beyond that PostgreSQL's planner estimates the filtered query, SQLite says "more than"."""
    ids = queryset.values("pk")  # the ids only: no joined columns
    if not ids.query.extra_order_by:
        ids = ids.order_by()
    # A search's order is kept (powts.inventory.search on SQLite: the full-text index's rowid): it makes SQLite
    # read the index's matches as the outer loop and stop at the limit. Without it SQLite walked every system
    # of the county and asked the index about each: 5 s or more for "mary olson" at 1,000,000 systems.
    bounded = ids[:COUNT_LIMIT + 1].count()
    if bounded <= COUNT_LIMIT:
        return Total(bounded, exact=True)
    if connection.vendor == "postgresql":
        estimate = _planner_rows(queryset)
        if estimate is not None:
            return Total(max(estimate, COUNT_LIMIT + 1), exact=False, estimated=True)
    return Total(COUNT_LIMIT, exact=False)


def _planner_rows(queryset) -> int | None:
    sql, params = queryset.order_by().values("pk").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
        plan = cursor.fetchone()[0]
    plan = json.loads(plan) if isinstance(plan, str) else plan
    try:
        return int(plan[0]["Plan"]["Plan Rows"])
    except (KeyError, IndexError, TypeError, ValueError):
        return None


class _IdsFirst:
    """The table's rows sliced in two reads: the slice's ids alone (from an index: no joined row is read or
    sorted for the rows skipped or sorted past), then those rows with their joins. In one read, page 200 of
    the systems list joined the parcel and owner of the 9,950 rows before it, and a filtered page sorted the
    filter's every row with all its columns (87 ms for a year's 16,000 systems at 1,000,000; the ids alone
    come sorted from a covering index in 2 ms)."""

    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, key):
        if not isinstance(key, slice):
            return self.rows[key]
        queryset = self.rows.data.data
        ids = list(queryset.values_list("pk", flat=True)[key])
        found = {r.pk: r for r in queryset.order_by().filter(pk__in=ids)} if ids else {}
        return BoundRows(data=[found[pk] for pk in ids if pk in found], table=self.rows.table,
                         pinned_data=self.rows.pinned_data)


class BoundedPaginator(LazyPaginator):
    """django-tables2's look-ahead paginator (one row more than a page tells whether there is a next
    page), refusing page numbers beyond MAX_PAGE; a queryset's page is read ids first (_IdsFirst)."""

    def __init__(self, object_list, per_page, **kwargs):
        data = getattr(getattr(object_list, "data", None), "data", None)
        if isinstance(object_list, BoundRows) and isinstance(data, QuerySet):
            object_list = _IdsFirst(object_list)
        super().__init__(object_list, per_page, **kwargs)

    def validate_number(self, number):
        number = super().validate_number(number)
        if number > MAX_PAGE:
            raise PageNotAnInteger(f"page must be at most {MAX_PAGE:,}")
        return number


def _page_number(request) -> int:
    try:
        return fields.integer("page", request.GET.get("page"), minimum=1, maximum=MAX_PAGE, thousands=False) or 1
    except fields.FieldError as exc:
        messages.error(request, f"{exc.message}; showing page 1.")
        return 1


def filtered(request, filterset_class, queryset):
    """(the list's FilterSet, its rows): no rows when a filter is invalid (the form says which)."""
    filterset = filterset_class(clean_query(request), queryset=queryset)
    return filterset, (filterset.qs if filterset.is_valid() else filterset.queryset.none())


def table_or_export(request, table_class, rows, *, name: str, **table_kwargs):
    """The list's answer: (None, the export of every filtered row) for ?export=csv|xlsx, else (this page's
    table, None). An export is sorted like the page but neither counts nor pages the rows."""
    fmt = wants_export(request)
    if fmt:
        if not getattr(request, "export_inline", False) and _more_than(rows, settings.POWTS_EXPORT_JOB_ROWS):
            # A large export is a background job, so no request holds a web thread for minutes: the worker asks
            # this page again as this person.
            from powts.jobs.exports import export_as_job

            return None, export_as_job(request, name=name, fmt=fmt)
        return None, export_response(request, _sorted_table(request, table_class, rows, **table_kwargs), name=name)
    return table_page(request, table_class, rows, **table_kwargs), None


def _more_than(queryset, limit: int) -> bool:
    if not hasattr(queryset, "order_by"):
        return len(queryset) > limit
    return queryset.order_by().values("pk")[:limit + 1].count() > limit  # bounded, like `total`


def _sorted_table(request, table_class, rows, **table_kwargs):
    """The table sorted by ?sort= (unknown columns ignored). Made without `request=`: django-tables2 would
    then page it with Django's Paginator, whose COUNT(*) of every filtered row took a second of a
    million-system list before table_page paged it again with the bounded paginator."""
    table = table_class(rows, **table_kwargs)
    table.request = request
    sort = request.GET.get(table.prefixed_order_by_field)
    if sort:
        table.order_by = sort
    return table


def table_page(request, table_class, rows, *, per_page: int = PER_PAGE, **table_kwargs):
    """The table for this request: sorted by ?sort=, page ?page=, with `total`."""
    table = _sorted_table(request, table_class, rows, **table_kwargs)
    page = _page_number(request)
    try:
        table.paginate(paginator_class=BoundedPaginator, per_page=per_page, page=page)
    except (EmptyPage, PageNotAnInteger):
        table.paginate(paginator_class=BoundedPaginator, per_page=per_page, page=1)
    table.total = total(rows)
    table.first_row = (table.page.number - 1) * per_page + 1
    table.last_row = table.first_row + len(table.page.object_list) - 1
    table.export_links = export_links(request)
    table.body = page_cells(table)
    return table


def page_cells(table) -> list[list[tuple]]:
    """The page's rows as [(bound column, cell)], rendered as django-tables2 renders them (a choice's label,
    the column's default when empty, the table's render_<name>, the column's link) but planned once per
    column instead of once per cell: its per-cell signature inspection and field look-ups were most of
    a 50-row page's time. tests/test_lists.py checks the two agree cell by cell."""
    from django_tables2.utils import signature

    plan = []
    for bound in table.columns:
        column = bound.column
        custom = getattr(table, f"render_{bound.name}", None)
        if custom is None and type(column).render is not tables.Column.render:
            custom = column.render
        wants = signature(custom)[0] if custom is not None else ()
        plan.append((bound, column, custom, wants, str(bound.accessor).split("__")))
    rows = []
    for row in table.page.object_list:  # django-tables2's BoundRows
        record = row.record
        cells = []
        for bound, column, custom, wants, path in plan:
            owner = record
            for part in path[:-1]:
                owner = getattr(owner, part, None)
                if owner is None:
                    break
            value = None
            if owner is not None:
                display = getattr(owner, f"get_{path[-1]}_display", None)
                value = display() if display is not None else getattr(owner, path[-1], None)
            if value in column.empty_values:
                cells.append((bound, bound.default))
                continue
            given = {"value": value, "record": record, "column": column, "bound_column": bound, "table": table}
            cell = custom(**{k: given[k] for k in wants if k in given}) if custom is not None else value
            if bound.link:
                cell = bound.link(cell, bound_row=None, **given)
            cells.append((bound, cell))
        rows.append(cells)
    return rows


# ---------------------------------------------------------------- exports

def wants_export(request) -> str | None:
    fmt = request.GET.get("export")
    return fmt if fmt in EXPORTS else None


def _columns(table):
    return [c for c in table.columns if c.column.exclude_from_export is False and not getattr(c.column, "screen_only", False)]


def _records(table):
    """Every row of the filtered, sorted list, fetched in chunks (not the page on screen)."""
    data = table.data.data
    return data.iterator(chunk_size=EXPORT_CHUNK) if hasattr(data, "iterator") else iter(data)


def _row_values(table, columns, record):
    row = BoundRow(record, table=table)
    return [_plain(row.get_cell_value(c.name)) for c in columns]


def _plain(value):
    if isinstance(value, (dt.datetime, dt.date)):
        return value.isoformat()[:10] if not isinstance(value, dt.datetime) else value.isoformat(timespec="minutes")
    return "" if value is None else value


class _Echo:
    """A file-like that hands back what is written: csv.writer then yields each line to the response."""

    def write(self, value):
        return value


def export_response(request, table, *, name: str):
    """?export=csv: streamed CSV; ?export=xlsx: a write-only workbook spooled to a temporary file, then streamed."""
    fmt = wants_export(request)
    columns = _columns(table)
    headers = [str(c.header) for c in columns]
    stamp = dt.date.today().isoformat()
    if fmt == "csv":
        writer = spreadsheet.writer(_Echo(), lineterminator="\r\n")

        def lines():
            yield "\ufeff"  # so Excel reads the file as UTF-8 (names with accents)
            yield writer.writerow(headers)
            for record in _records(table):
                yield writer.writerow(_row_values(table, columns, record))

        response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}-{stamp}.csv"'
        return response
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    sheet = book.create_sheet(title=name[:31])
    sheet.append([spreadsheet.xlsx_cell(sheet, h) for h in headers])
    for record in _records(table):
        sheet.append([spreadsheet.xlsx_cell(sheet, v) for v in _row_values(table, columns, record)])
    spool = tempfile.TemporaryFile()
    book.save(spool)
    spool.seek(0)
    return FileResponse(spool, as_attachment=True, filename=f"{name}-{stamp}.xlsx",
                        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")


def export_links(request) -> list[tuple[str, str]]:
    """(label, href) for the list's exports: the current filters and sort, every page."""
    query = request.GET.copy()
    query.pop("page", None)
    links = []
    for fmt, label in (("csv", "CSV"), ("xlsx", "Excel (XLSX)")):
        query["export"] = fmt
        links.append((label, "?" + query.urlencode()))
    return links


def clean_query(request):
    """The filter form submits every field; an empty one ("Any") means no filter, not an invalid choice."""
    data = request.GET.copy()
    for key in [k for k, values in data.lists() if not any(v.strip() for v in values)]:
        del data[key]
    return data
