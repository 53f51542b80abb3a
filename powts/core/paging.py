"""?page= on the web lists: a whole number from 1 to MAX_PAGE; anything else shows page 1 with the reason."""
from django.contrib import messages

from powts.core import fields

MAX_PAGE = 1_000_000  # 50 million rows at 50 a page; a larger page number would overflow the database's OFFSET


def page_number(request) -> int:
    try:
        return fields.integer("page", request.GET.get("page"), minimum=1, maximum=MAX_PAGE, thousands=False) or 1
    except fields.FieldError as exc:
        messages.error(request, f"{exc.message}; showing page 1.")
        return 1
