"""API pages: at most MAX_LIMIT rows a page, and an offset a database can take."""
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination

from powts.core import fields

MAX_LIMIT = 1000
MAX_OFFSET = 100_000_000  # beyond any county's rows; far below SQLite's 64-bit limit


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = MAX_LIMIT

    def get_limit(self, request):
        raw = request.query_params.get(self.limit_query_param)
        try:
            limit = fields.integer("limit", raw, minimum=1)
        except fields.FieldError as exc:
            raise ValidationError({"limit": [exc.message]}) from None
        return self.default_limit if limit is None else min(limit, self.max_limit)

    def get_offset(self, request):
        raw = request.query_params.get(self.offset_query_param)
        try:
            return fields.integer("offset", raw, minimum=0, maximum=MAX_OFFSET) or 0
        except fields.FieldError as exc:
            raise ValidationError({"offset": [exc.message]}) from None
