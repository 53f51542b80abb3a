"""Refuse text that cannot be stored (NUL, an unpaired UTF-16 surrogate) before any view sees it: in the
query string, form fields and JSON bodies (keys and values, at any depth), on every web and API path.

PostgreSQL cannot store or compare text with NUL (0x00): a NUL in a search box or a form field used
to end in a 500 there (and in silently different behaviour on SQLite). A JSON escape such as "\\ud800"
(or a form sent with charset=unicode_escape) decodes to a surrogate without its pair, which has no UTF-8
form: saving it raised UnicodeEncodeError, a 500. One check here, not one per field or per parser, so a
new endpoint is covered without doing anything. Uploaded files are checked by their own readers.
"""
import io
import json
import re

from django.conf import settings
from django.http import JsonResponse, QueryDict
from django.shortcuts import render

from powts.core.fields import unstorable, unstorable_in, without_unstorable

FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")
# A JSON body without any of these (nearly every one) needs no second parse: NUL and surrogates reach
# JSON text only as \u escapes, or raw when a client declares an odd charset.
_MAYBE_UNSTORABLE = re.compile(r"\\u(?:0000|[dD][89a-fA-F])|[\x00\ud800-\udfff]")


def _form_field(querydict) -> tuple[str, str] | None:
    for key, values in querydict.lists():
        for text in (key, *values):
            why = unstorable(text)
            if why:
                return without_unstorable(key) or "field", why
    return None


def _json_field(request) -> tuple[str, str] | None:
    try:
        text = request.body.decode(request.encoding or settings.DEFAULT_CHARSET)
    except (UnicodeDecodeError, LookupError):
        return None  # the view's parser answers a body it cannot read
    if not _MAYBE_UNSTORABLE.search(text):
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None  # not JSON, or nested too deep: the view's parser says so
    return unstorable_in(data)


def _body_form(request):
    """The form fields of a PUT or PATCH (Django reads request.POST for POST only; DRF reads the others)."""
    if request.content_type == "multipart/form-data":
        return request.parse_file_upload(request.META, io.BytesIO(request.body))[0]
    return QueryDict(request.body, encoding=request.encoding)


def unstorable_field(request) -> tuple[str, str] | None:
    """(field, why) for the first text in the request that cannot be stored, or None."""
    found = _form_field(request.GET)
    if found is None and request.method not in ("GET", "HEAD", "OPTIONS"):
        if request.content_type == "application/json" or request.content_type.endswith("+json"):
            found = _json_field(request)
        elif request.content_type in FORMS:
            found = _form_field(request.POST if request.method == "POST" else _body_form(request))
    return found


class RefuseUnstorableTextMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        found = unstorable_field(request)
        if found is not None:
            field, why = found
            message = f"{field} {why}"
            if request.path.startswith("/api/open311/"):  # GeoReport v2 answers errors as a list
                return JsonResponse([{"code": 400, "description": f"{field}: {message}"}], status=400, safe=False)
            if request.path.startswith("/api/"):  # the API's error shape (powts.core.api)
                return JsonResponse({"errors": {field: [message]}}, status=400)
            return render(request, "core/bad_input.html", {"message": message}, status=400)
        return self.get_response(request)


class DatabaseUnavailableMiddleware:
    """A request that fails because the database stopped answering (a PostgreSQL restart, a failover, a
    lost connection) is a 503 with Retry-After, not a 500: the view's transaction was rolled back, so the
    client may send it again (the report API recognises a report it already stored, should the commit
    have gone through before the connection broke). Django closes the
    broken connection when the request ends and the next request opens a new one: a PostgreSQL restart costs
    a retry, not an error."""

    RETRY_AFTER = "5"

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        from django.db import InterfaceError, OperationalError
        from django.template.loader import render_to_string

        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        import logging

        logging.getLogger(__name__).warning("database unavailable during %s %s: %s", request.method, request.path, exception)
        if request.path.startswith("/api/"):
            response = JsonResponse({"errors": {"database": [
                "The database did not answer and the request was not completed. Send it again in a few seconds."]}}, status=503)
        else:
            from django.http import HttpResponse

            response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = self.RETRY_AFTER
        return response
