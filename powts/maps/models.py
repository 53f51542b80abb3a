"""Pre-counted map clusters: how many systems fall in each grid cell, at each zoom, by standing.

A bounding box over a whole county at a low zoom covers up to a million systems; counting them per
cell on every pan would scan them all. `maps.services.cells_rebuild` counts them once (after an
import, a centroid load, or from the command line) and the map reads a few hundred rows. The same is
counted for each type, status and municipality (a "facet"), so the list's filter with one such value is
answered from cells too; other filters (a search, years, several values) are counted live (maps.selectors).
"""
from django.db import models


class MapCell(models.Model):
    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.CASCADE, db_index=False)
    level = models.PositiveSmallIntegerField(help_text="The map zoom these cells are counted for (powts.maps.grid).")
    facet = models.CharField(max_length=160, blank=True, default="",
                             help_text='"" for every system; "system_type=mound", "status=failing", "municipality=Town of Dunn" '
                                       "for those alone (a list filter with one value is answered from these).")
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
