"""API error bodies: always JSON naming the field and the problem (and the rule's citation when a service refused), never an HTML traceback.

The safety net below maps what slips past a view's own checks: a refused field value (FieldError)
is a 400 naming it, two requests creating the same record at once (IntegrityError) a 409, a value
the database refuses (DataError: too long, out of range) a 400. Each rolls the request back.
"""
import logging

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from powts.core.refusals import Refused

log = logging.getLogger(__name__)


def exception_handler(exc, context):
    if isinstance(exc, Refused):  # FieldError included: one mapping for every refused business action
        set_rollback()
        return Response(exc.as_dict(), status=status.HTTP_400_BAD_REQUEST)
    elif isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        exc = exceptions.ValidationError(detail=detail)
    elif isinstance(exc, RecursionError):  # JSON nested thousands deep, on a view with DRF's own parser
        exc = exceptions.ParseError({"body": ["the JSON body is nested too deeply"]})
    elif isinstance(exc, IntegrityError):
        log.info("integrity error answered 409: %s", exc)
        set_rollback()
        return Response({"detail": "The record was changed or created by another request at the same time; "
                                   "read it again and retry."}, status=status.HTTP_409_CONFLICT)
    elif isinstance(exc, DataError):
        log.info("data error answered 400: %s", exc)
        set_rollback()
        return Response({"detail": "A value is too long or out of range for the database."},
                        status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" not in response.data:
        response.data = {"errors": response.data}
    return response
