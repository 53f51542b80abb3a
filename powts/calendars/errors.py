"""Errors of the calendar package: each message is one line, in the user's words."""


class CalendarError(ValueError):
    """Calendar data that does not load (missing citation, bad rule) or a bad request."""
