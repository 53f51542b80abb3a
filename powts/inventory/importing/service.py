"""Importing a county's inventory file: every row ends created, updated, unchanged or rejected.

The whole file's writes are one transaction: a crash or an error leaves nothing half-written, and
running the same command again does the whole job. Reading and checking happen before that
transaction, so other writes (reports, edits) wait only for the set-based writes. A dry run is the
checking phase alone: it compares every row with what is stored and writes nothing.
"""
from __future__ import annotations

import contextlib
import functools
import datetime as dt
import logging
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from powts.audit.choices import Channel
from powts.audit.context import acting
from powts.core import spreadsheet
from powts.core.sqlite_statistics import measure
from powts.inventory import pending
from powts.inventory.importing.lock import ImportBusy, county_import_lock
from powts.inventory.importing.readers import InventoryFileRefused, open_table
from powts.inventory import services
from powts.inventory.importing import values
from powts.inventory.importing.rows import CellWarning, RowRejected, clean_row
from powts.inventory.importing.spool import RowSpool
from powts.inventory.importing.staging import bulk_session
from powts.inventory.importing.writer import SAMPLE, ChunkWriter
from powts.inventory.models import ImportFollowUpPending

CHUNK = 2000
WARNING_PREFIX = "warning, row kept: "
WARNINGS_KEPT = 1000  # warnings kept in memory for the summary; the rejects file has them all
log = logging.getLogger("powts.inventory.importing")


@dataclass
class ImportResult:
    rows: int = 0
    rows_in_file: int = 0
    write_seconds: float = 0.0  # how long the write transaction (the write lock on SQLite) was held
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    rejected: int = 0
    rejects_path: str | None = None
    dry_run: bool = False
    batch: str = ""
    encoding: str = ""
    rejects_preview: list[dict] = field(default_factory=list)
    # The first SAMPLE rows to create (with their line) and to update (each changed column old -> new).
    created_preview: list[dict] = field(default_factory=list)
    updated_preview: list[dict] = field(default_factory=list)
    follow_up: dict = field(default_factory=dict)
    parcels_confirmed: int = 0  # pending parcels (new construction) the file named, now confirmed
    # Cells of kept rows that were left empty or read by a stated rule: counted apart from the rows (a row
    # with warnings is created, updated or unchanged all the same). The first WARNINGS_KEPT are kept here.
    warnings: int = 0
    warnings_preview: list[dict] = field(default_factory=list)
    columns: dict = field(default_factory=dict)  # the file's headers mapped to the import's columns

    def counts(self) -> dict:
        return {k: getattr(self, k) for k in ("rows", "created", "updated", "unchanged", "rejected")}

    def summary(self) -> dict:
        """The counts, the warnings (the first WARNINGS_KEPT, each with line, column, value and message) and the
        rejects file: what `--json` prints."""
        return {**self.counts(), "warnings": self.warnings, "warnings_shown": self.warnings_preview,
                "rejects_path": self.rejects_path}

    def as_dict(self) -> dict:
        return asdict(self)


class _Rejects:
    """Writes rejected rows as they come (memory stays flat) and keeps the first few for display."""

    def __init__(self, path: Path | None, headers: list[str], preview: int = SAMPLE):
        self.path, self.headers, self.preview_size = path, headers, preview
        self.preview: list[dict] = []
        self.warnings: list[dict] = []
        self.written = False
        self._handle = self._writer = None

    def add(self, line: int, cells: list, reason: str) -> None:
        if len(self.preview) < self.preview_size:
            self.preview.append({"line": line, "reason": reason, "cells": ["" if c is None else str(c) for c in cells]})
        self._write(line, cells, reason)

    def warn(self, line: int, cells: list, warning) -> None:
        """A kept row's cell that was left empty or read by a stated rule: in the same file, the row as it came and
        the reason starting with WARNING_PREFIX (a rejected row's reason never does)."""
        if len(self.warnings) < WARNINGS_KEPT:
            self.warnings.append({"line": line, "column": warning.column, "value": warning.value,
                                  "warning": warning.message})
        self._write(line, cells, f"{WARNING_PREFIX}{warning.message}")

    def _write(self, line: int, cells: list, reason: str) -> None:
        if self.path is None:
            return
        if self._writer is None:
            self._handle = open(self.path, "w", newline="", encoding="utf-8")
            self._writer = spreadsheet.writer(self._handle)  # formula-safe; the import reads it back as it was
            self._writer.writerow([*self.headers, "line", "reason"])
        self.written = True
        width = len(self.headers)
        row = ["" if c is None else c for c in list(cells)[:width]]
        self._writer.writerow([*row, *[""] * (width - len(row)), line, reason])

    def close(self) -> None:
        if self._handle:
            self._handle.close()


def default_rejects_path(path: Path) -> Path:
    return path.with_name(f"{path.stem}.rejects.csv")


def import_inventory(
    *,
    path: Path,
    jurisdiction,
    dry_run: bool = False,
    rejects_path: Path | None = None,
    write_rejects: bool = True,
    source_name: str | None = None,
    actor=None,
    channel: str = Channel.CLI,
    progress: Callable[[int], None] | None = None,
    today: dt.date | None = None,
    follow_up: bool = True,
    limit: int | None = None,
    columns: dict | None = None,
    strict: bool = False,
) -> ImportResult:
    """Import `path` into `jurisdiction`'s inventory. Raises InventoryFileRefused for a file it cannot read
    (ImportBusy when another import of the county is running).

    Two phases, so the write lock is held for the writes only: first every row is read, checked and
    compared with what is stored (no transaction; a dry run stops here), the changed rows kept (past
    50,000 of them, in a temporary file); then one transaction writes them set-based. Inside it each
    chunk's stored rows are read again and compared afresh, so an edit made between the phases is
    neither lost nor overwritten with a stale difference (a row found unchanged in the first phase is
    left as the concurrent edit made it).
    `limit` checks only the first rows (a dry run's preview) and counts the rest in `rows_in_file`.
    `columns` maps the file's own headers to the import's columns ("Permit #" -> system_id); an import (not a
    dry run) keeps it as the county's mapping for its next upload. A bad optional cell is left empty and
    reported as a warning; `strict` rejects its row instead.
    """
    path = Path(path)
    name = source_name or path.name
    if limit is not None and not dry_run:
        raise ValueError("limit is for dry runs only: an import stores every row or none")
    table = open_table(path, name=name, columns=columns)  # refuses unreadable files and missing columns before any write
    today = today or timezone.localdate()
    result = ImportResult(dry_run=dry_run, batch=f"import-{uuid.uuid4().hex[:12]}", encoding=table.encoding,
                          columns=dict(columns or {}))
    rejects = _Rejects((rejects_path or default_rejects_path(path)) if write_rejects else None, table.original_headers)
    # A dry run writes nothing, so it needs no lock; an import holds the county's lock through its follow-up.
    locked = contextlib.nullcontext() if dry_run else county_import_lock(jurisdiction)
    try:
        label = getattr(actor, "username", "") or f"powts import ({channel})"
        with locked, acting(channel=Channel.IMPORT if channel == Channel.CLI else channel, actor=actor,
                            actor_label=label, batch=result.batch):
            with RowSpool() as spool:
                _check(table, jurisdiction=jurisdiction, result=result, rejects=rejects, spool=spool,
                       today=today, limit=limit, progress=progress, strict=strict)
                if not dry_run:
                    _write(spool, jurisdiction=jurisdiction, provided=set(table.headers),
                           action=f"imported from {name}", result=result)
            if not dry_run and columns:
                services.import_columns_remember(jurisdiction=jurisdiction, columns=columns)
            if not dry_run and follow_up and ImportFollowUpPending.objects.filter(jurisdiction=jurisdiction).exists():
                result.follow_up = run_follow_up(jurisdiction)
                ImportFollowUpPending.objects.filter(jurisdiction=jurisdiction).delete()
    finally:
        rejects.close()
    if not dry_run and connection.vendor == "sqlite" and result.created + result.updated >= settings.POWTS_MEASURE_AFTER_IMPORT_ROWS:
        # A county's first file: its sorted lists read the sort column's index the same day, not after the
        # night's sweep (PostgreSQL's autovacuum measures a table once a tenth of it has changed).
        measure()
    result.rejects_preview = rejects.preview
    result.warnings_preview = rejects.warnings
    result.rejects_path = str(rejects.path) if rejects.path and rejects.written else None
    if not result.rows_in_file:
        result.rows_in_file = result.rows
    assert result.rows == result.created + result.updated + result.unchanged + result.rejected
    return result


def _check(table, *, jurisdiction, result: ImportResult, rejects: _Rejects, spool: RowSpool, today, limit,
           progress, strict: bool = False) -> None:
    """Phase one, outside any transaction: every row checked and compared with what is stored.
    Rows to create or update go to `spool`; the counts go to `result` as a dry run would report them."""
    comparer = ChunkWriter(jurisdiction=jurisdiction, action="", provided=set(table.headers))
    seen: dict[str, int] = {}
    refused: dict[str, tuple[int, str]] = {}  # a rejected row's system id -> (its line, its parcel)
    chunk: list = []
    comparer.samples = {"created": result.created_preview, "updated": result.updated_preview}
    comparer.lines = seen

    def flush():
        to_write, outcome = comparer.compare(chunk)
        _count(result, outcome)
        if to_write:
            spool.add(to_write)
        chunk.clear()
        if progress:
            progress(result.rows)

    clean = functools.partial(clean_row, strict=True) if strict else clean_row
    rows = iter(table)
    for line, raw, cells in rows:
        result.rows += 1
        try:
            row = clean(raw, today=today)
            first = seen.get(row.system_id)
            if first is not None:
                raise RowRejected(f"system_id {row.system_id!r} appears twice in this file (first on line {first})")
            seen[row.system_id] = line
            if row.system_id in refused:  # kept, but the same id was refused before: which one is right?
                other, parcel = refused[row.system_id]
                row.warnings.append(CellWarning(
                    "system_id", row.system_id, f"system_id {row.system_id!r} is also on line {other}"
                    f"{f' (parcel_id {parcel!r})' if parcel else ''}, which was rejected", "this row was kept"))
            chunk.append(row)
            for warning in row.warnings:
                result.warnings += 1
                rejects.warn(line, cells, warning)
        except RowRejected as exc:
            result.rejected += 1
            reason = str(exc)
            system_id = values.text(raw.get("system_id"))
            if system_id and "appears twice in this file" not in reason:
                if system_id in seen:
                    reason += f"; system_id {system_id!r} is also on line {seen[system_id]}"
                elif system_id in refused:
                    reason += f"; system_id {system_id!r} is also on line {refused[system_id][0]}"
            if system_id:
                refused.setdefault(system_id, (line, values.text(raw.get("parcel_id"))))
            rejects.add(line, cells, reason)
        if len(chunk) >= CHUNK:
            flush()
        if limit is not None and result.rows >= limit:
            break
    if chunk:
        flush()
    elif progress:
        progress(result.rows)
    if limit is not None:
        count = table.count_rows if result.rows >= limit else None
        result.rows_in_file = count() if count else result.rows + sum(1 for _ in rows)


def _write(spool: RowSpool, *, jurisdiction, provided: set[str], action: str, result: ImportResult) -> None:
    """Phase two: one transaction for the whole file's writes, each chunk compared again inside it."""
    if not spool:
        return
    # The first phase's created/updated were a forecast; the transaction's own comparison counts.
    forecast = result.created + result.updated
    result.created = result.updated = 0
    started = time.perf_counter()
    with bulk_session(), transaction.atomic():
        writer = ChunkWriter(jurisdiction=jurisdiction, action=action, provided=provided)
        named: set[str] = set()
        for chunk in spool:
            _count(result, writer.write(chunk))
            named.update(chunk.parcel_ids())
        writer.finish()
        # Pending parcels (new construction, powts.inventory.pending) that the county's file now names are confirmed.
        result.parcels_confirmed = len(pending.parcels_confirm_imported(jurisdiction=jurisdiction, parcel_numbers=named,
                                                                       cause=action))
        assert spool.rows == forecast
        if result.created or result.updated:
            ImportFollowUpPending.objects.get_or_create(jurisdiction=jurisdiction, defaults={"since": timezone.now()})
        committing = time.perf_counter()
    # (PostgreSQL checks the deferred foreign keys of every inserted row here)
    log.debug("%.3f s  COMMIT", time.perf_counter() - committing)
    result.write_seconds = round(time.perf_counter() - started, 3)


def run_follow_up(jurisdiction) -> dict:
    """What other apps derive from the inventory (their registered after-import hooks, powts.core.registry),
    after the import committed."""
    from powts.core import registry

    with acting(channel=Channel.JOB, actor_label="after inventory import"):
        return {e.label: e.target(jurisdiction=jurisdiction) for e in registry.entries("after_import")}


def _count(result: ImportResult, outcome: dict) -> None:
    result.created += outcome["created"]
    result.updated += outcome["updated"]
    result.unchanged += outcome["unchanged"]


__all__ = ["InventoryFileRefused", "ImportBusy", "ImportResult", "default_rejects_path", "import_inventory"]
