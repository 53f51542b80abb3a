"""The checked rows an import will write, kept between its check phase and its write transaction.

A county's file stays in memory (no cost); past `keep` rows the rest go to an anonymous temporary file
(0600, gone when closed) as plain tuples, so a state-wide file's memory stays flat. The tuples are the rows'
staging-table values (staging.staged_values): pickling the row objects themselves costs more than the checks,
and a county's first file stages them as they are, without making rows of them again (0.5 s a 100,000 rows).
"""
from __future__ import annotations

import datetime as dt
import pickle
import tempfile
from decimal import Decimal

import orjson

from powts.inventory.importing.rows import InventoryRow
from powts.inventory.importing.staging import staged_values

_from_iso = dt.date.fromisoformat


def _unpack(v: tuple) -> InventoryRow:
    """A row back from its staged values (staging.staged_values), for a chunk that is compared again."""
    return InventoryRow(
        system_id=v[0], parcel_id=v[1], system_type=v[2], status=v[3], owner_name=v[4], owner_mailing_address=v[5],
        language=v[7], site_address=v[8], municipality=v[9], legal_description=v[10], sewered=v[11],
        latitude=None if v[12] is None else Decimal(v[12]), longitude=None if v[13] is None else Decimal(v[13]),
        site_zip=v[14], installed_on=v[15] and _from_iso(v[15]), installed_on_precision=v[16],
        last_serviced_on=v[17] and _from_iso(v[17]), tank_capacity_gallons=v[18], design_flow_gpd=v[20],
        bedrooms=v[21], permit_number=v[22], extra=orjson.loads(v[23]), skipped=frozenset(v[25].split(",")) if v[25] else frozenset())


class Chunk:
    """One chunk of checked rows, as row objects (to compare) or as staged values (to stage), whichever it was
    kept as: the other is made on demand."""

    __slots__ = ("_rows", "_values")

    def __init__(self, rows: list[InventoryRow] | None = None, values: list[tuple] | None = None):
        self._rows, self._values = rows, values

    def __len__(self) -> int:
        return len(self._rows if self._rows is not None else self._values)

    def rows(self) -> list[InventoryRow]:
        if self._rows is None:
            self._rows = [_unpack(v) for v in self._values]
        return self._rows

    def values(self) -> list[tuple]:
        if self._values is None:
            self._values = [staged_values(r) for r in self._rows]
        return self._values

    def parcel_ids(self):
        return (r.parcel_id for r in self._rows) if self._rows is not None else (v[1] for v in self._values)


class RowSpool:
    def __init__(self, keep: int = 50_000):
        self.keep = keep
        self.kept = 0
        self.rows = 0
        self._memory: list[list[InventoryRow]] = []
        self._file = None
        self._on_disk = 0

    def add(self, chunk: list[InventoryRow]) -> None:
        self.rows += len(chunk)
        if self.kept + len(chunk) <= self.keep:
            self._memory.append(chunk)
            self.kept += len(chunk)
            return
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="powts-import-")  # noqa: SIM115 -- closed by close()
        pickle.dump([staged_values(r) for r in chunk], self._file, protocol=pickle.HIGHEST_PROTOCOL)
        self._on_disk += 1

    def __bool__(self) -> bool:
        return self.rows > 0

    def __iter__(self):
        for rows in self._memory:
            yield Chunk(rows=rows)
        if self._file is not None:
            self._file.seek(0)
            for _ in range(self._on_disk):
                yield Chunk(values=pickle.load(self._file))

    def close(self) -> None:
        self._memory = []
        if self._file is not None:
            self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


__all__ = ["Chunk", "RowSpool"]
