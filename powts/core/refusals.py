"""The one family of errors a service raises when it refuses a business action (the class itself is
powts.kernel.refusals.Refused, so the Django-free kernel can raise it; it is imported here for everyone else).

A refusal names the field it is about (None for the record as a whole), says why in plain words, and
may carry the citation of the rule that refuses it; one that finds several bad fields at once names
each (`Refused.several`). The API maps it once (powts.core.api: a 400 naming the fields), the web maps
it once (`add_to_form` below: a form error on each field; `refused_text` for a page's message). No
Django imports at module level, so the law kernel and the command line can raise it too.
"""
from __future__ import annotations

from powts.kernel.refusals import NON_FIELD, Refused  # noqa: F401  (the one class, defined without Django)


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
