"""The one family of errors a service raises when it refuses a business action.

A refusal names the field it is about (None for the record as a whole), says why in plain words, and
may carry the citation of the rule that refuses it. The API maps it once (powts.core.api: a 400 naming
the field), the web maps it once (`add_to_form` below: a form error on that field). No Django imports
here, so the law kernel and the command line can raise it too.
"""
from __future__ import annotations


class Refused(ValueError):
    """A refused business action. Subclass it per concern; never raise a bare ValueError from a service.

    It subclasses ValueError so callers written against the old exceptions keep working while they move.
    """

    def __init__(self, message: str, *, field: str | None = None, citation: str = ""):
        super().__init__(message)
        self.message = message
        self.field = field
        self.citation = citation

    def as_dict(self) -> dict:
        """The API body: {"errors": {field: [message]}} plus the citation when there is one."""
        body = {"errors": {self.field or "non_field_errors": [self.message]}}
        if self.citation:
            body["citation"] = self.citation
        return body


def add_to_form(form, exc: Refused) -> None:
    """Show a refusal on a Django form: on its field when the form has it, else above the form."""
    field = exc.field if exc.field in getattr(form, "fields", {}) else None
    text = f"{exc.message} ({exc.citation})" if exc.citation else exc.message
    form.add_error(field, text)


def refused_text(exc: Refused) -> str:
    """A refusal as one line for a page's message: the field (unless the message already names it), the
    message and the citation."""
    text = f"{exc.message} ({exc.citation})" if exc.citation else exc.message
    if exc.field and exc.field not in ("status", "non_field_errors") and not exc.message.startswith(exc.field):
        text = f"{exc.field}: {text}"
    return text
