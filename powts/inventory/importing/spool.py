"""The checked rows an import will write, kept between its check phase and its write transaction.

A county's file stays in memory (no cost); past `keep` rows the rest go to an anonymous temporary file
(0600, gone when closed) as plain tuples, so a state-wide file's memory stays flat. Plain tuples, dates as
ordinals and decimals as text, because pickling the row objects themselves costs more than the checks.
"""
from __future__ import annotations

import datetime as dt
import pickle
import tempfile
from decimal import Decimal

from powts.inventory.importing.rows import InventoryRow

_from_ordinal = dt.date.fromordinal


def _pack(r: InventoryRow) -> tuple:
    return (r.system_id, r.parcel_id, str(r.system_type), r.owner_name, r.site_address, r.municipality,
            r.owner_mailing_address, r.installed_on and r.installed_on.toordinal(),
            r.last_serviced_on and r.last_serviced_on.toordinal(), None if r.status is None else str(r.status),
            r.tank_capacity_gallons, r.design_flow_gpd, r.bedrooms, None if r.latitude is None else str(r.latitude),
            None if r.longitude is None else str(r.longitude), r.permit_number, r.extra,
            r.installed_on_precision, r.legal_description, r.sewered, r.language, r.site_zip)


def _unpack(t: tuple) -> InventoryRow:
    return InventoryRow(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7] and _from_ordinal(t[7]),
                        t[8] and _from_ordinal(t[8]), t[9], t[10], t[11], t[12],
                        None if t[13] is None else Decimal(t[13]), None if t[14] is None else Decimal(t[14]),
                        t[15], t[16], t[17], t[18], t[19], t[20], t[21])


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
        pickle.dump([_pack(r) for r in chunk], self._file, protocol=pickle.HIGHEST_PROTOCOL)
        self._on_disk += 1

    def __bool__(self) -> bool:
        return self.rows > 0

    def __iter__(self):
        yield from self._memory
        if self._file is not None:
            self._file.seek(0)
            for _ in range(self._on_disk):
                yield [_unpack(t) for t in pickle.load(self._file)]

    def close(self) -> None:
        self._memory = []
        if self._file is not None:
            self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


__all__ = ["RowSpool"]
