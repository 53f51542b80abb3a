"""Importing a county's inventory file: every row ends created, updated, unchanged or rejected.

The whole file is one transaction: a crash or an error leaves nothing half-written, and running
the same command again does the whole job. A dry run does all the work and rolls it back, so what
it reports is exactly what a real run would do.
"""
from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from django.db import transaction
from django.utils import timezone

from powts.audit.choices import Channel
from powts.audit.context import acting
from powts.core import spreadsheet
from powts.inventory.importing.readers import FileRefused, open_table
from powts.inventory.importing.rows import RowRejected, clean_row
from powts.inventory.importing.writer import ChunkWriter

CHUNK = 2000


class _DryRun(Exception):
    pass


@dataclass
class ImportResult:
    rows: int = 0
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    rejected: int = 0
    rejects_path: str | None = None
    dry_run: bool = False
    batch: str = ""
    encoding: str = ""
    rejects_preview: list[dict] = field(default_factory=list)
    follow_up: dict = field(default_factory=dict)

    def counts(self) -> dict:
        return {k: getattr(self, k) for k in ("rows", "created", "updated", "unchanged", "rejected")}

    def as_dict(self) -> dict:
        return asdict(self)


class _Rejects:
    """Writes rejected rows as they come (memory stays flat) and keeps the first few for display."""

    def __init__(self, path: Path | None, headers: list[str], preview: int = 200):
        self.path, self.headers, self.preview_size = path, headers, preview
        self.preview: list[dict] = []
        self._handle = self._writer = None

    def add(self, line: int, cells: list, reason: str) -> None:
        if len(self.preview) < self.preview_size:
            self.preview.append({"line": line, "reason": reason, "cells": ["" if c is None else str(c) for c in cells]})
        if self.path is None:
            return
        if self._writer is None:
            self._handle = open(self.path, "w", newline="", encoding="utf-8")
            self._writer = spreadsheet.writer(self._handle)  # formula-safe; the import reads it back as it was
            self._writer.writerow([*self.headers, "line", "reason"])
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
) -> ImportResult:
    """Import `path` into `jurisdiction`'s inventory. Raises FileRefused for a file it cannot read."""
    path = Path(path)
    table = open_table(path)  # refuses unreadable files and missing columns before any write
    today = today or timezone.localdate()
    name = source_name or path.name
    result = ImportResult(dry_run=dry_run, batch=f"import-{uuid.uuid4().hex[:12]}", encoding=table.encoding)
    rejects = _Rejects((rejects_path or default_rejects_path(path)) if write_rejects else None, table.original_headers)
    seen: dict[str, int] = {}
    provided = set(table.headers)

    try:
        with acting(channel=Channel.IMPORT if channel == Channel.CLI else channel, actor=actor,
                    actor_label=getattr(actor, "username", "") or f"powts import ({channel})", batch=result.batch):
            with transaction.atomic():
                writer = ChunkWriter(jurisdiction=jurisdiction, action=f"imported from {name}", provided=provided)
                chunk = []
                for line, raw, cells in table:
                    result.rows += 1
                    try:
                        row = clean_row(raw, today=today)
                        first = seen.get(row.system_id)
                        if first is not None:
                            raise RowRejected(f"system_id {row.system_id!r} appears twice in this file (first on line {first})")
                        seen[row.system_id] = line
                        chunk.append(row)
                    except RowRejected as exc:
                        result.rejected += 1
                        rejects.add(line, cells, str(exc))
                    if len(chunk) >= CHUNK:
                        _count(result, writer.write(chunk))
                        chunk = []
                        if progress:
                            progress(result.rows)
                if chunk:
                    _count(result, writer.write(chunk))
                writer.finish()
                if progress:
                    progress(result.rows)
                if dry_run:
                    raise _DryRun
    except _DryRun:
        pass
    finally:
        rejects.close()
    if follow_up and not dry_run and (result.created or result.updated):
        result.follow_up = run_follow_up(jurisdiction)
    result.rejects_preview = rejects.preview
    result.rejects_path = str(rejects.path) if rejects.path and result.rejected else None
    assert result.rows == result.created + result.updated + result.unchanged + result.rejected
    return result


def run_follow_up(jurisdiction) -> dict:
    """What other apps derive from the inventory (settings.POWTS_AFTER_IMPORT), after the import committed."""
    from django.conf import settings
    from django.utils.module_loading import import_string

    with acting(channel=Channel.JOB, actor_label="after inventory import"):
        return {label: import_string(path)(jurisdiction=jurisdiction) for label, path in settings.POWTS_AFTER_IMPORT}


def _count(result: ImportResult, outcome: dict) -> None:
    result.created += outcome["created"]
    result.updated += outcome["updated"]
    result.unchanged += outcome["unchanged"]


__all__ = ["import_inventory", "ImportResult", "FileRefused", "default_rejects_path"]
