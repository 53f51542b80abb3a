"""The OpenAPI schema documents the errors every endpoint may answer, once for all views.

Each operation gets, unless a view states its own: 400 (a bad field, named in the body), 401 (no or
a bad token), 403 (not allowed), 404 (not found or not yours), 405, 406, 409 (changed or created by
another request at the same time), 415 and 429 (too many requests).
"""
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema

ERROR_BODY = {
    "oneOf": [
        {"type": "object", "description": "`detail` says what went wrong; `errors` names each bad field.",
         "properties": {"detail": {"type": "string"},
                        "errors": {"type": "object", "additionalProperties": True}}},
        {"type": "array", "description": "Open311 GeoReport v2 errors.",
         "items": {"type": "object", "properties": {"code": {"type": "integer"}, "description": {"type": "string"}}}},
    ],
}
ERRORS = {
    "400": "A bad value: the body names the field and the problem.",
    "401": "No token or session, or a bad one.",
    "403": "Signed in, but not allowed to do this.",
    "404": "Not found, or not visible to you.",
    "405": "Method not allowed.",
    "406": "The requested format is not available.",
    "409": "Changed or created by another request at the same time, or not possible in the record's present state.",
    "415": "Unsupported media type.",
    "429": "Too many requests; retry later.",
}


class AutoSchema(SpectacularAutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        for code, description in ERRORS.items():
            responses.setdefault(code, {"description": description,
                                        "content": {"application/json": {"schema": ERROR_BODY}}})
        return responses
