"""The facet fixture (24 systems over a few zoom-13 cells) for test_facet_cells and test_standing_cells."""
import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from powts.inventory.models import Parcel
from powts.inventory.services import system_create
from powts.maintenance.models import Schedule
from powts.maintenance.services import schedule_sync

TODAY = timezone.localdate()
TYPES = ("conventional", "mound", "holding_tank")
TOWNS = ("Town of Dunn", "Town of Vienna")


@pytest.fixture
def county(dane):
    """24 systems over a few zoom-13 cells: each type in each town, active or failing or abandoned, with the
    due date today (overdue), tomorrow (due soon: its notice date today), the notice date tomorrow (current)."""
    dates = [(TODAY, TODAY - dt.timedelta(days=30)), (TODAY + dt.timedelta(days=1), TODAY),
             (TODAY + dt.timedelta(days=31), TODAY + dt.timedelta(days=1))]
    n = 0
    for t, kind in enumerate(TYPES):
        for m, town in enumerate(TOWNS):
            for k in range(4):
                n += 1
                status = ("active", "active", "failing", "abandoned")[k]
                s = system_create(jurisdiction=dane, system_id=f"S{n:02d}", parcel_number=f"08-{n:02d}", system_type=kind,
                                  owner_name=f"Owner {n}", site_address=f"{n} Lake Rd", municipality=town,
                                  installed_on=TODAY - dt.timedelta(days=400), status=status)
                # a spread of 0.01 degree steps: several zoom-13 cells (0.011 degrees), one zoom-5 cell
                Parcel.objects.filter(pk=s.parcel_id).update(latitude=Decimal(f"43.{m}{k}05"), longitude=Decimal(f"-89.4{t}{k}5"))
    schedule_sync(jurisdiction=dane)
    for i, schedule in enumerate(Schedule.objects.order_by("system_id")):
        due, notice = dates[i % 3]
        Schedule.objects.filter(pk=schedule.pk).update(due_on=due, notice_on=notice)
    return dane


@pytest.fixture
def api(client, staff):
    client.force_login(staff)
    return client
