from django.db import models


class SystemType(models.TextChoices):
    CONVENTIONAL = "conventional", "Conventional (gravity)"
    IN_GROUND_PRESSURE = "in_ground_pressure", "In-ground pressure"
    MOUND = "mound", "Mound"
    AT_GRADE = "at_grade", "At-grade"
    HOLDING_TANK = "holding_tank", "Holding tank"
    SAND_FILTER = "sand_filter", "Sand filter"
    AEROBIC_TREATMENT_UNIT = "aerobic_treatment_unit", "Aerobic treatment unit"
    DRIP = "drip", "Drip dispersal"
    EXPERIMENTAL = "experimental", "Experimental"
    PIT_PRIVY = "pit_privy", "Pit privy"
    VAULTED_PRIVY = "vaulted_privy", "Vaulted privy"
    COMPOSTING_TOILET = "composting_toilet", "Composting toilet"
    INCINERATING_TOILET = "incinerating_toilet", "Incinerating toilet"
    PORTABLE_RESTROOM = "portable_restroom", "Portable restroom"
    RV_TRANSFER_CONTAINER = "rv_transfer_container", "RV transfer container"


class SystemStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    FAILING = "failing", "Failing"
    ABANDONED = "abandoned", "Abandoned"
    REPLACED = "replaced", "Replaced"


# No longer in use: off the maintenance program, never sent a notice.
RETIRED_STATUSES = frozenset({SystemStatus.ABANDONED, SystemStatus.REPLACED})


class ComponentKind(models.TextChoices):
    SEPTIC_TANK = "septic_tank", "Septic tank"
    HOLDING_TANK = "holding_tank", "Holding tank"
    DOSING_CHAMBER = "dosing_chamber", "Dosing chamber"
    AEROBIC_TREATMENT_UNIT = "aerobic_treatment_unit", "Aerobic treatment unit"
    FILTER = "filter", "Filter"
    DISPERSAL_CELL = "dispersal_cell", "Dispersal cell"


class OwnerKind(models.TextChoices):
    PERSON = "person", "Person"
    BUSINESS = "business", "Business"


class LetterLanguage(models.TextChoices):
    """The language of an owner's letters. English is the legal text and goes with every
    translation; Wisconsin counties serve Spanish- and Hmong-speaking owners."""

    ENGLISH = "en", "English"
    SPANISH = "es", "Spanish (Español)"
    HMONG = "hmn", "Hmong (Hmoob)"


class DatePrecision(models.TextChoices):
    """How much of a date the record knows: a legacy file often says only "1987" for an installation."""

    DAY = "day", "Day"
    MONTH = "month", "Month"
    YEAR = "year", "Year"
