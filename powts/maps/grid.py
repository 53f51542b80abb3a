"""The map's grid: at zoom z a cell is 360 / (4 * 2^z) degrees (about 64 pixels of a 256-pixel tile), so a
cell at zoom z-1 holds exactly the 2x2 cells below it. Cell numbers count from longitude -180 and
latitude -90, so they are never negative. No Django."""
from __future__ import annotations

import math
from dataclasses import dataclass

MAX_CLUSTER_ZOOM = 15  # from zoom 16 the map shows single systems (when they fit in POINT_CAP)
# Clusters for the list's facets (types, statuses, towns, alone or together) are counted ahead up to this zoom;
# closer, the box is small and they are counted live from the parcel index (at a million systems a zoom-14 box
# counted live took 311 ms, a zoom-15 box a quarter of that).
FACET_MAX_ZOOM = 14
# The same split by the list's standing buckets (a standing filter) is counted ahead up to this zoom; closer, live.
STANDING_MAX_ZOOM = 14
POINT_ZOOM = 14  # from this zoom, points are sent when the box holds at most POINT_CAP of them
POINT_CAP = 3000  # at most this many points in one answer; more are sent as clusters


def cell_size(zoom: int) -> float:
    return 360.0 / (4 * 2 ** zoom)


def cell_of(lon: float, lat: float, zoom: int) -> tuple[int, int]:
    size = cell_size(zoom)
    return int(math.floor((lon + 180) / size)), int(math.floor((lat + 90) / size))


@dataclass(frozen=True)
class BBox:
    west: float
    south: float
    east: float
    north: float

    def cells(self, zoom: int) -> tuple[int, int, int, int]:
        x0, y0 = cell_of(self.west, self.south, zoom)
        x1, y1 = cell_of(self.east, self.north, zoom)
        return x0, y0, x1, y1

    def zoom_for_width(self) -> int:
        """The zoom at which the box is about 1,000 pixels wide: for callers that send no zoom."""
        width = max(self.east - self.west, 1e-6)
        return max(0, min(MAX_CLUSTER_ZOOM + 3, int(math.log2(360.0 * 1000 / 256 / width))))
