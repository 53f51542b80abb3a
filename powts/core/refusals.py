"""The one family of errors a service raises when it refuses a business action.

A refusal names the field it is about (None for the record as a whole), says why in plain words, and
may carry the citation of the rule that refuses it; one that finds several bad fields at once names
each (`Refused.several`). The API maps it once (powts.core.api: a 400 naming the fields), the web maps
it once (`add_to_form` below: a form error on each field; `refused_text` for a page's message). No
Django imports at module level, so the law kernel and the command line can raise it too.
"""
from __future__ import annotations

NON_FIELD = "non_field_errors"


class Refused(ValueError):
    """A refused business action. Subclass it per concern; never raise a bare ValueError from a service.

    It subclasses ValueError so callers written against the old exceptions keep working while they move.
    """

    def __init__(self, message: str, *, field: str | None = None, citation: str = "",
                 errors: dict[str, list[str]] | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.citation = citation
        self.errors = errors or {field or NON_FIELD: [message]}  # every bad field and its messages

    @classmethod
    def several(cls, errors: dict, *, citation: str = ""):
        """A refusal naming several fields at once: {field: message or [messages]} ("__all__": the record)."""
        normal = {NON_FIELD if k in ("__all__", None) else k: [str(m) for m in (v if isinstance(v, (list, tuple)) else [v])]
                  for k, v in errors.items()}
        first = next(iter(normal))
        message = "; ".join(m for ms in normal.values() for m in ms)
        return cls(message, field=None if first == NON_FIELD else first, citation=citation, errors=normal)

    def as_dict(self) -> dict:
        """The API body: {"errors": {field: [message]}} plus the citation when there is one."""
        body = {"errors": self.errors}
        if self.citation:
            body["citation"] = self.citation
        return body


def add_to_form(form, exc: Refused) -> None:
    """Show a refusal on a Django form: on each field the form has, else above the form."""
    for field, messages in exc.errors.items():
        for message in messages:
            text = f"{message} ({exc.citation})" if exc.citation else message
            form.add_error(field if field in getattr(form, "fields", {}) else None, text)


def refused_text(exc: Refused) -> str:
    """A refusal as one line for a page's message: each field (unless its message already names it), the
    message and the citation."""
    parts = []
    for field, messages in exc.errors.items():
        for message in messages:
            named = field in (NON_FIELD, "status") or message.startswith(field)
            parts.append(message if named else f"{field}: {message}")
    text = "; ".join(parts)
    return f"{text} ({exc.citation})" if exc.citation else text


def refuse_invalid(instance, refusal=Refused, **full_clean_kwargs):
    """`instance.full_clean(...)`, a model's own refusal (Django's ValidationError) raised as `refusal` naming
    each field, so no ValidationError crosses a service boundary. Returns the instance."""
    from django.core.exceptions import ValidationError

    try:
        instance.full_clean(**full_clean_kwargs)
    except ValidationError as exc:
        raise refusal.several(exc.message_dict if hasattr(exc, "error_dict") else {NON_FIELD: exc.messages}) from None
    return instance
