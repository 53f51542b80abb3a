"""Working-day calendars and inspection deadlines per jurisdiction. No Django imports.

    from powts.calendars import calendar_for, deadline, review_request
    cal = calendar_for(slug)
    cal.add_working_days(date(2026, 11, 25), 1)          # 2026-11-27 (Thanksgiving skipped)
    deadline(slug, "inspection", datetime(2026, 11, 24, 8, 59)).day
"""
from .errors import CalendarError
from .inspections import (Deadline, InspectionDecision, Stage, deadline, inspection_rules_for,
                          required_stages, review_request)
from .loading import calendar_for, calendar_from_data
from .workdays import Closure, WorkdayCalendar

__all__ = ["CalendarError", "Closure", "Deadline", "InspectionDecision", "WorkdayCalendar",
           "Stage", "calendar_for", "calendar_from_data", "deadline", "inspection_rules_for",
           "required_stages", "review_request"]
