"""What the inventory import accepts, in plain words: shown by `powts import inventory --help`, on the upload
page and (copied) in README.md. Built from the same lists the import reads with, so it cannot drift."""
from __future__ import annotations

import datetime as dt
import textwrap

from powts.inventory.choices import SystemStatus, SystemType
from powts.inventory.importing import values, vocabulary
from powts.inventory.importing.columns import OPTIONAL, REQUIRED

DATE_STYLES = ("1987-06-30", "6/30/1987", "06-30-1987", "1987/06/30", "19870630", "June 30, 1987", "30-Jun-1987",
               "an Excel date", "a month: 6/1987, 1987-06, June 1987", "a year: 1987")


def sections(today: dt.date | None = None) -> list[tuple[str, str]]:
    """(heading, text) pairs, in the order they are shown."""
    today = today or dt.date.today()
    aliases = sorted(k for k, v in vocabulary.TYPES.items() if k != v and k.replace(" ", "_") != v)
    statuses = ", ".join(SystemStatus.values)
    return [
        ("Required columns", f"{', '.join(REQUIRED)}. A row without one of them is rejected."),
        ("Optional columns", f"{', '.join(OPTIONAL)}. Any other column is kept with the system as it is."),
        ("Your file's own headers", "A file whose headers are its own (Permit #, PIN, Sys Type, Owner) is mapped to "
         "these columns: on the command line with --columns \"Permit #=system_id,PIN=parcel_id\" or --map FILE "
         "(a CSV or YAML of file header -> column); on the upload page with a choice for each header powts does not "
         "know, remembered for the county's next file."),
        ("System types", f"{', '.join(SystemType.values)}; also {', '.join(aliases)} (any case)."),
        ("Statuses", f"{statuses} (empty: active); also in use, inactive, failed."),
        ("Dates", f"{'; '.join(DATE_STYLES)}. A month or a year alone is stored as its last day (for "
         f"installed_on the precision is kept). A two-digit year (3/7/87) is read by a pivot on this year: "
         f"{values.two_digit_rule(today)}; it is reported as a warning."),
        ("Numbers", "tank_capacity_gallons, design_flow_gpd and bedrooms are whole numbers, with or without thousands "
         "commas and their unit (750 gal, 1,000 gallons, 450 gpd, 3 br); a number in another unit (2800 L) is not "
         "converted."),
        ("Empty cells", f"{', '.join(values.EMPTY_MARKERS)} (any case) mean no value."),
        ("A cell that is not a value of its column", "An optional cell (a date, a number, a status) that cannot be "
         "read is left empty and the system kept, with a warning naming its line, column and value; a stored "
         "system keeps its value for that column. With --strict the row is rejected instead. Every rejected row "
         "and every warning is in the rejects file (FILE.rejects.csv), with its line and reason."),
    ]


def as_text(today: dt.date | None = None) -> str:
    return "\n\n".join(f"{heading}:\n" + textwrap.fill(text, width=100, initial_indent="  ", subsequent_indent="  ",
                                                      break_on_hyphens=False)
                       for heading, text in sections(today))
