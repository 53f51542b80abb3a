"""The API's JSON parser: a body must be an object, not too deep, without NUL characters.

A list, a string or a number as the body (or JSON nested a thousand deep) used to reach the views
and end in a 500; here it is a 400 that says what is wrong.
"""
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from powts.core.fields import has_nul

MAX_DEPTH = 32  # a GeoJSON plot plan nests 5 deep


def _too_deep(value, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


def _nul_field(data: dict) -> str | None:
    """The top-level field whose value (or name) holds a NUL character."""
    for key, value in data.items():
        if has_nul(key) or has_nul(value):
            return key.replace("\x00", "") or "body"
    return None


class ObjectJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError({"body": [f"the JSON body is nested too deeply (at most {MAX_DEPTH} levels)"]}) from None
        if not isinstance(data, dict):
            raise ParseError({"body": ["the JSON body must be an object ({...}) of named fields"]})
        if _too_deep(data, MAX_DEPTH):
            raise ParseError({"body": [f"the JSON body is nested too deeply (at most {MAX_DEPTH} levels)"]})
        field = _nul_field(data)
        if field:
            raise ParseError({field: [f"{field} contains a NUL character, which is not allowed in text"]})
        return data
