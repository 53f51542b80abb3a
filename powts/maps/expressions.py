"""SQL for the map's grid, shared by the selectors, the cell counts and the parcel's index (no other imports,
so powts.inventory.models may use it)."""
from __future__ import annotations

from django.db.models import Func, IntegerField, Value

# Parcels are indexed by the longitude strip they lie in (the zoom-15 cell width, about 450 m at 43 N),
# then latitude: a box at a close zoom is a few strips, each read as one latitude range of that index,
# rather than every parcel in the box's longitude range across the whole county (powts.maps.selectors).
STRIP = 360.0 / (4 * 2 ** 15)
MAX_STRIPS = 400  # a wider box (an API client's) reads the plain longitude range instead


class GridIndex(Func):
    """The grid cell number of a coordinate: floor((value + offset) / size), an integer on both databases.
    The constants are written into the SQL so that a query's expression is the index's, word for word."""

    output_field = IntegerField()

    def __init__(self, expression, offset: float, size: float):
        super().__init__(expression, Value(offset), Value(size))

    def as_sql(self, compiler, connection, **extra):
        sql, params = compiler.compile(self.source_expressions[0])
        offset, size = self.source_expressions[1].value, self.source_expressions[2].value
        if connection.vendor == "sqlite":  # the value plus the offset is never negative: truncation is floor
            return f"CAST(({sql} + {offset!r}) / {size!r} AS INTEGER)", params
        return f"CAST(FLOOR(({sql} + {offset!r}) / {size!r}) AS BIGINT)", params
