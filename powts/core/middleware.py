"""Refuse NUL characters in query strings and form fields before any view sees them.

PostgreSQL cannot store or compare text with NUL (0x00): a NUL in a search box or a form field used
to end in a 500 there (and in silently different behaviour on SQLite). The API's JSON bodies are
checked by powts.core.parsers; uploaded files by their own readers.
"""
from django.http import JsonResponse
from django.shortcuts import render


def _nul_field(querydict) -> str | None:
    for key, values in querydict.lists():
        if "\x00" in key or any("\x00" in v for v in values):
            return key.replace("\x00", "") or "field"
    return None


class RefuseNulMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        field = _nul_field(request.GET)
        if field is None and request.method == "POST" and request.content_type in (
                "application/x-www-form-urlencoded", "multipart/form-data"):
            field = _nul_field(request.POST)
        if field is not None:
            message = f"{field} contains a NUL character, which is not allowed in text"
            if request.path.startswith("/api/open311/"):  # GeoReport v2 answers errors as a list
                return JsonResponse([{"code": 400, "description": f"{field}: {message}"}], status=400, safe=False)
            if request.path.startswith("/api/"):
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
