"""Pre-counted map clusters: how many systems fall in each grid cell, at each zoom, by standing.

A bounding box over a whole county at a low zoom covers up to a million systems; counting them per
cell on every pan would scan them all. `maps.services.cells_rebuild` counts them once (after an
import, a centroid load, or from the command line) and the map reads a few hundred rows. The same is
counted for each combination of type, status and municipality (MapFacetCell), so the list's filters on
those, alone or together, are answered from cells too, and again split by the list's standing buckets on the
day counted (MapStandingCell) for its standing filter; other filters (a search, years, a standing on another
day) are counted live (maps.selectors).
"""
from django.db import models


class MapCell(models.Model):
    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.CASCADE, db_index=False)
    level = models.PositiveSmallIntegerField(help_text="The map zoom these cells are counted for (powts.maps.grid).")
    facet = models.CharField(max_length=160, blank=True, default="",
                             help_text='"" for every system (the counts by type, status and municipality are MapFacetCell).')
    cx = models.IntegerField()
    cy = models.IntegerField()
    systems = models.PositiveIntegerField()
    lat_sum = models.FloatField()
    lon_sum = models.FloatField()
    current = models.PositiveIntegerField(default=0)
    due_soon = models.PositiveIntegerField(default=0)
    overdue = models.PositiveIntegerField(default=0)
    failing = models.PositiveIntegerField(default=0)
    needs_data = models.PositiveIntegerField(default=0)
    off_cycle = models.PositiveIntegerField(default=0)
    computed_on = models.DateField(help_text="The day the standings were counted as of.")

    class Meta:
        indexes = [models.Index(fields=["jurisdiction", "level", "facet", "cx", "cy"], name="maps_cell_lookup")]


class _FacetCounts(models.Model):
    """The columns of a cell counted by type, status and municipality (MapFacetCell, MapStandingCell)."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.CASCADE, db_index=False)
    level = models.PositiveSmallIntegerField(help_text="The map zoom these cells are counted for (powts.maps.grid).")
    system_type = models.CharField(max_length=30)
    status = models.CharField(max_length=10)
    municipality = models.CharField(max_length=100, blank=True)
    cx = models.IntegerField()
    cy = models.IntegerField()
    systems = models.PositiveIntegerField()
    lat_sum = models.FloatField()
    lon_sum = models.FloatField()
    current = models.PositiveIntegerField(default=0)
    due_soon = models.PositiveIntegerField(default=0)
    overdue = models.PositiveIntegerField(default=0)
    failing = models.PositiveIntegerField(default=0)
    needs_data = models.PositiveIntegerField(default=0)
    off_cycle = models.PositiveIntegerField(default=0)
    computed_on = models.DateField(help_text="The day the standings were counted as of.")

    class Meta:
        abstract = True


class MapFacetCell(_FacetCounts):
    """The cells of MapCell split by every combination of type, status and municipality found in them, up to
    grid.FACET_MAX_ZOOM: a map filtered by one or more of these (several values each) sums the rows that match,
    rather than reading every filtered system's schedule (about 60,000 in a zoom-12 box at a million systems)."""

    class Meta:
        indexes = [models.Index(fields=["jurisdiction", "level", "cx", "cy"], name="maps_facet_cell_lookup")]


class MapStandingCell(_FacetCounts):
    """MapFacetCell split again by the list's standing buckets (powts.maintenance.selectors.standing_q and
    FAILING_Q) on `computed_on`, up to grid.STANDING_MAX_ZOOM: a map filtered by a standing (with or without
    type, status, municipality) on the day they were counted sums these instead of reading the schedule of
    every system in the box (731 ms for a zoom-12 box at a million systems). Standings move with the date, so
    they answer only on `computed_on`; another day is counted live."""

    standings = models.PositiveSmallIntegerField(
        help_text="The list's buckets the systems are in, one bit each (powts.maps.selectors.LIST_STANDING_BITS).")

    class Meta:
        indexes = [models.Index(fields=["jurisdiction", "level", "cx", "cy"], name="maps_standing_cell_lookup")]


class UnplacedCount(models.Model):
    """Systems with no coordinates on their parcel (so not on the map), per county and facet, counted by
    `maps.services.cells_rebuild` with the cells: the map page shows the figure without reading the
    thousands of such systems a county has at every page view."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.CASCADE, db_index=False)
    facet = models.CharField(max_length=160, blank=True, default="", help_text='As MapCell.facet: "" for every system.')
    systems = models.PositiveIntegerField()
    computed_on = models.DateField(help_text="The day they were counted.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["jurisdiction", "facet"], name="maps_unplaced_unique")]
