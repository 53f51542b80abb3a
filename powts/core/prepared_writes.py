"""Writes on a hot path with their SQL compiled once (CPU per report), as powts.core.prepared does for reads.

Model.save() and bulk_create() build their INSERT or UPDATE anew on every call: on the report API that
was about a fifth of a report's CPU, most of it while SQLite's one write lock was held. Here Django's own
compiler builds the statement the first time for a model (and its fields, and its number of rows), and
later rows only have their values converted, by each field as the compiler converts them
(`pre_save`, then `get_db_prep_save`). Only where that is all save() would do: no pre_save/post_save
receivers, no parent model, plain values (an expression, such as a database default, is left to the
ORM), a database that returns the new ids (RETURNING), a statement whose parameters are the rows' values,
row by row. Anything else goes through the ORM.
"""
from __future__ import annotations

import threading
from types import MethodType, NoneType

from django.db import DatabaseError, connections, router, transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models import fields as model_fields
from django.db.models import signals
from django.db.models.fields.related import ForeignKey
from django.db.models.sql import InsertQuery, UpdateQuery
from django.db.models.sql.compiler import SQLInsertCompiler

from powts.core import server_prepared

_plans: dict[tuple, tuple | None] = {}
_lock = threading.Lock()
MAX_ROWS = 20  # an INSERT of more rows at once (a bulk load) is left to bulk_create's batching


def _plain_model(model) -> bool:
    meta = model._meta
    return not (meta.parents or meta.order_with_respect_to or meta.select_on_save
                or signals.pre_save.has_listeners(model) or signals.post_save.has_listeners(model))


def _as_is(field, connection) -> tuple[type, ...]:
    """The types of value that `field` sends to `connection` unchanged: Django's own conversion of text,
    yes/no and (where the database adapts none) whole numbers, not overridden by the field's class. Most
    of a report's 70 values are such; converting each through four or five calls was about half the time of
    turning a report or audit row into parameters (timeit: 46 against 23 µs for a report)."""
    cls, ops = type(field), type(connection.ops)
    if cls.get_db_prep_save is ForeignKey.get_db_prep_save:
        return _as_is(field.target_field, connection)
    if cls.get_db_prep_save is not model_fields.Field.get_db_prep_save:
        return ()
    if cls.get_db_prep_value is model_fields.Field.get_db_prep_value:
        for kind, python_type in ((model_fields.CharField, str), (model_fields.TextField, str), (model_fields.BooleanField, bool)):
            if cls.get_prep_value is kind.get_prep_value and cls.to_python is kind.to_python:
                return (python_type, NoneType)
        return ()
    whole = (cls.get_prep_value is model_fields.IntegerField.get_prep_value
             and ops.adapt_integerfield_value is BaseDatabaseOperations.adapt_integerfield_value)
    if whole and cls.get_db_prep_value is model_fields.IntegerField.get_db_prep_value:
        return (int, NoneType)
    if whole and cls.get_db_prep_value is model_fields.AutoFieldMixin.get_db_prep_value \
            and ops.validate_autopk_value is BaseDatabaseOperations.validate_autopk_value:
        return (int, NoneType)
    return ()


def _conversions(fields, connection) -> list[tuple]:
    """Per field: the field, its attribute when pre_save only reads it (else None), the types sent as they are."""
    return [(f, f.attname if type(f).pre_save is model_fields.Field.pre_save else None, _as_is(f, connection)) for f in fields]


def _values(conversions, obj, add: bool, connection) -> list | None:
    """The row's values as the compiler sends them (pre_save, then get_db_prep_save, skipped where they
    return the value as it is), or None when one is an expression."""
    out = []
    for field, attname, as_is in conversions:
        value = getattr(obj, attname) if attname else field.pre_save(obj, add)
        if type(value) not in as_is:
            if hasattr(value, "resolve_expression"):
                return None
            value = field.get_db_prep_save(value, connection=connection)
        out.append(value)
    return out


def _same_shape(ours: list, django: list) -> bool:
    """The compiler's parameters are ours: value by value, or by type for an adapter compared by
    identity (psycopg's Jsonb for a JSONField)."""
    if len(ours) != len(django):
        return False
    for a, b in zip(ours, django, strict=True):
        if type(a) is not type(b) or (type(a).__eq__ is not object.__eq__ and a != b):
            return False
    return True


def _insert_plan(model, objs, using):
    connection = connections[using]
    if not (connection.features.can_return_columns_from_insert and connection.features.can_return_rows_from_bulk_insert):
        return None
    meta = model._meta
    fields = [f for f in meta.local_concrete_fields if not f.generated and f is not meta.auto_field]
    returning = list(meta.db_returning_fields)
    if any(f is not meta.auto_field for f in returning) or any(hasattr(f, "get_placeholder") for f in fields):
        return None  # a database default returned, or a field with its own SQL: the ORM
    rows = []
    conversions = _conversions(fields, connection)
    for obj in objs:
        values = _values(conversions, obj, True, connection)  # pre_save has run (an auto_now value is set)
        if values is None:
            return None
        rows.append(values)
    query = InsertQuery(model, on_conflict=None)
    query.insert_values(fields, objs, raw=True)  # the values pre_save left, as they are
    compiler = query.get_compiler(using=using)
    compiler.returning_fields = returning
    # Row by row (VALUES (...), (...)), not one array per column (UNNEST), which Django 5.2 chooses on PostgreSQL
    # to spare the server planning a long VALUES list. This statement is planned once per connection, and
    # psycopg builds arrays in Python: a report's three audit rows took 520-640 µs of CPU to send, now 220-320.
    compiler.assemble_as_sql = MethodType(SQLInsertCompiler.assemble_as_sql, compiler)
    statements = compiler.as_sql()
    if len(statements) != 1:
        return None
    sql, params = statements[0]
    if not _same_shape([v for row in rows for v in row], list(params)):
        return None
    converters = compiler.get_converters([f.get_col(meta.db_table) for f in returning])
    return sql, conversions, returning, compiler, converters


def insert(objs: list, using: str | None = None) -> None:
    """obj.save() of each new row (model instances of one model, not yet saved), in one INSERT whose SQL is
    compiled once per model and number of rows; the new ids are set on the objects."""
    if not objs:
        return
    model = type(objs[0])
    using = using or router.db_for_write(model, instance=objs[0])
    for obj in objs:
        obj._prepare_related_fields_for_save(operation_name="save")
    key = ("insert", model, len(objs), using)
    plan = _plans.get(key, False)
    if plan is False and len(objs) <= MAX_ROWS and _plain_model(model):
        with _lock:
            plan = _plans[key] = _insert_plan(model, objs, using)
    connection = connections[using]
    params = None
    if plan and _plain_model(model) and all(type(obj) is model and obj._state.adding and obj.pk is None for obj in objs):
        sql, conversions, returning, compiler, converters = plan
        params = []
        for obj in objs:
            values = _values(conversions, obj, True, connection)
            if values is None:
                params = None
                break
            params.append(values)
        if params is not None:
            params = [v for row in params for v in row]
    if params is None:  # what the ORM does for one row or several
        if len(objs) == 1:
            objs[0].save(force_insert=True, using=using)
        else:
            model._base_manager.using(using).bulk_create(objs)
        return
    with transaction.mark_for_rollback_on_error(using), server_prepared.cursor(using) as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    if converters:
        rows = list(compiler.apply_converters(rows, converters))
    if len(rows) != len(objs):
        raise DatabaseError(f"INSERT of {len(objs)} {model._meta.label} rows returned {len(rows)} ids")
    for obj, row in zip(objs, rows, strict=True):
        for value, field in zip(row, returning, strict=True):
            setattr(obj, field.attname, value)
        obj._state.adding = False
        obj._state.db = using


def _update_plan(model, obj, fields: list, raw: list, values: list, using):
    if any(f.primary_key or f.generated or not f.concrete or hasattr(f, "get_placeholder") for f in fields):
        return None
    query = UpdateQuery(model)
    query.add_update_fields([(f, None, v) for f, v in zip(fields, raw, strict=True)])  # converted by the compiler
    query.add_filter("pk", obj.pk)
    sql, params = query.get_compiler(using=using).as_sql()
    pk_value = model._meta.pk.get_db_prep_value(obj.pk, connections[using])
    if not _same_shape([*(v for v in values if v is not None), pk_value], list(params)):
        return None
    return sql


def update(obj, fields: tuple[str, ...], using: str | None = None) -> None:
    """obj.save(update_fields=fields) of a row read from the database, its UPDATE compiled once per model,
    field list and which of the values are NULL (the compiler writes `= NULL` for those). A row that is
    no longer there is an error, as it is for save(update_fields=...)."""
    model = type(obj)
    using = using or router.db_for_write(model, instance=obj)
    connection = connections[using]
    sql = None
    if _plain_model(model) and not obj._state.adding:
        conversions_key = ("conversions", model, fields, using)
        conversions = _plans.get(conversions_key)
        if conversions is None:
            with _lock:
                conversions = _plans[conversions_key] = _conversions([model._meta.get_field(name) for name in fields], connection)
        values = _values(conversions, obj, False, connection)
        if values is not None:
            key = ("update", model, fields, using, tuple(v is None for v in values))
            sql = _plans.get(key, False)
            if sql is False:
                field_list = [field for field, _, _ in conversions]
                raw = [getattr(obj, f.attname) for f in field_list]  # as pre_save left them (in _values)
                with _lock:
                    sql = _plans[key] = _update_plan(model, obj, field_list, raw, values, using)
    if sql is None:
        obj.save(update_fields=fields, using=using)
        return
    params = [*(v for v in values if v is not None), model._meta.pk.get_db_prep_value(obj.pk, connection)]
    with transaction.mark_for_rollback_on_error(using), server_prepared.cursor(using) as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")
