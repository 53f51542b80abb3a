"""Refuse an upload larger than any file may be from its declared length, before its body is read.

Django reads a multipart body when request.POST or request.FILES is first touched (here, by the NUL
check just after this middleware): a 2 GB post would be streamed to disk before any view could say no.
Each file's own limit (per kind) is checked by powts.attachments.content while it is hashed.
"""
from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render

from powts.attachments.content import megabytes


class UploadSizeMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in ("POST", "PUT", "PATCH") and request.content_type == "multipart/form-data":
            limit = settings.POWTS_UPLOAD_REQUEST_MAX_BYTES
            if not request.user.is_authenticated:  # the public form: a report and one small photo
                limit = settings.POWTS_PUBLIC_POST_MAX_BYTES + (
                    settings.POWTS_PUBLIC_UPLOAD_MAX_BYTES * settings.POWTS_PUBLIC_UPLOAD_MAX_FILES)
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = limit + 1
            if length > limit:
                message = (f"The upload is {megabytes(length)}; one upload may carry at most {megabytes(limit)}. "
                           "Send fewer or smaller files at a time")
                if request.path.startswith("/api/"):
                    return JsonResponse({"errors": {"file": [message + "."]}}, status=413)
                return render(request, "core/bad_input.html", {"message": message}, status=413)
        return self.get_response(request)
