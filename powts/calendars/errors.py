"""Errors of the calendar package: each message is one line, in the user's words."""

from powts.core.refusals import Refused


class CalendarError(Refused):
    """Calendar data that does not load (missing citation, bad rule) or a bad request."""
