"""A read on a hot path compiled to SQL once and run again with new values (the report API's CPU per report).

Building a query's SQL is most of Django's cost per query (a report through the API spent more CPU
compiling its SELECTs than the database spent running them). `Prepared` compiles a queryset the first
time, keeps the SQL and the compiler's plan for turning rows into model instances (converters,
select_related), and afterwards only executes. The instances are the ones the ORM would have built.

Only for querysets whose SQL parameters are exactly the arguments in order, unchanged (a date as the
backend passes it: SQLite's ISO text): equality lookups (`field=value`), comparisons (`__lte`...) and
`__isnull`, no `__iexact`/`__contains` (Django rewrites those values), no values in
LIMIT/slices. Rows come back as model instances, or as tuples for `values_list(...)`. This is checked when it compiles: anything else runs through the ORM every time, as does
a call whose values are not of the types it was compiled with (a number where text was, say).
"""
from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable

from django.db import connections
from django.db.models.lookups import Exact, GreaterThan, GreaterThanOrEqual, IsNull, LessThan, LessThanOrEqual
from django.db.models.query import ValuesListIterable, get_related_populators
from django.db.models.sql.where import WhereNode

from powts.core import server_prepared


# Lookups that pass their value to the database as given: `column = value` (also a foreign key by its id,
# RelatedExact), the four comparisons, and IS [NOT] NULL (no value at all).
_PASSED_AS_GIVEN = (Exact, GreaterThan, GreaterThanOrEqual, LessThan, LessThanOrEqual, IsNull)


def _values_as_given(node) -> bool:
    """True when every condition is one of _PASSED_AS_GIVEN on a value (Django passes it unchanged)."""
    if isinstance(node, WhereNode):
        return all(_values_as_given(child) for child in node.children)
    return isinstance(node, _PASSED_AS_GIVEN) and node.rhs_is_direct_value()


def _is_date(value) -> bool:
    return isinstance(value, dt.date) and not isinstance(value, dt.datetime)


def _as_passed(args: tuple, dated: tuple, using: str) -> tuple:
    """The values as the backend passes them: the dates at positions `dated` adapted (SQLite: ISO text)."""
    adapt = connections[using].ops.adapt_datefield_value
    return tuple(adapt(a) if k in dated else a for k, a in enumerate(args))


class Prepared:
    def __init__(self, build: Callable):
        """build(*args) -> the queryset for those values (called once per database, and when unsupported)."""
        self.build = build
        self._plans: dict[str, tuple | None] = {}
        self._lock = threading.Lock()

    def _plan(self, using: str, args: tuple):
        queryset = self.build(*args)
        if not _values_as_given(queryset.query.where):
            return None
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        types, dated = tuple(map(type, args)), tuple(k for k, a in enumerate(args) if _is_date(a))
        args = _as_passed(args, dated, using)
        # values_list(...) of plain columns (not flat or named): Django 5.2 lists them in annotation_col_map
        # too, so "no annotations" is asked of the query itself.
        rows_as_tuples = queryset._iterable_class is ValuesListIterable and not queryset.query.annotations
        if tuple(params) != args or (compiler.annotation_col_map and not rows_as_tuples) or \
                (compiler.klass_info is None and not rows_as_tuples):
            return None  # values rewritten, or not plain model rows or tuples: the ORM each time
        select, klass_info = compiler.select, compiler.klass_info
        converters = compiler.get_converters([s[0] for s in select[0:compiler.col_count]])
        if rows_as_tuples:
            return types, sql, compiler, converters, None, 0, 0, [], [], dated
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        init_list = [f[0].target.attname for f in select[start:end]]
        return (types, sql, compiler, converters, klass_info["model"], start, end, init_list,
                get_related_populators(klass_info, select, using), dated)

    def __call__(self, *args, using: str = "default") -> list:
        plan = self._plans.get(using, False)
        if plan is False:
            with self._lock:
                plan = self._plans[using] = self._plan(using, args)
        if plan is None or plan[0] != tuple(map(type, args)):
            return list(self.build(*args).using(using))
        _, sql, compiler, converters, model, start, end, init_list, populators, dated = plan
        if dated:
            args = _as_passed(args, dated, using)
        with server_prepared.cursor(using) as cursor:
            cursor.execute(sql, args)
            rows = cursor.fetchall()
        if converters:
            rows = compiler.apply_converters(rows, converters)
        if model is None:
            return [tuple(row) for row in rows]
        out = []
        for row in rows:
            obj = model.from_db(using, init_list, row[start:end])
            for populator in populators:
                populator.populate(row, obj)
            out.append(obj)
        return out
