"""The API's JSON parser: a body must be an object, not too deep.

A list, a string or a number as the body (or JSON nested a thousand deep) used to reach the views
and end in a 500; here it is a 400 that says what is wrong. Text that cannot be stored (NUL, a lone
surrogate) is refused earlier, for every body and form, by powts.core.middleware.
"""
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

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
        return data
