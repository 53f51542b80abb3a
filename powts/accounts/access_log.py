"""One line per request in $POWTS_DATA_DIR/logs/access.log: time, user, address, method, path, status, duration.

The query string is never written (it can carry secrets), nor any request body; a path segment that is
itself a secret (the calendar feed's) is masked.
"""
import json
import logging
import os
import time
from logging.handlers import TimedRotatingFileHandler

from powts.accounts.lockout import client_ip

logger = logging.getLogger("powts.access")
SECRET_URL_KWARGS = ("secret", "token")  # the calendar address; an import upload (a capability until confirmed)


class UTCFormatter(logging.Formatter):
    converter = time.gmtime

    def formatTime(self, record, datefmt=None):
        return time.strftime("%Y-%m-%dT%H:%M:%S", self.converter(record.created)) + f".{int(record.msecs):03d}Z"


class PrivateTimedRotatingFileHandler(TimedRotatingFileHandler):
    """The log names who did what: the directory is 0700 and every file (rotated ones too) 0600."""

    def __init__(self, filename, *args, **kwargs):
        os.makedirs(os.path.dirname(filename), mode=0o700, exist_ok=True)
        os.chmod(os.path.dirname(filename), 0o700)
        super().__init__(filename, *args, **kwargs)

    def _open(self):
        fd = os.open(self.baseFilename, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        os.fchmod(fd, 0o600)  # a file created earlier under a looser umask
        return os.fdopen(fd, self.mode, encoding=self.encoding, errors=self.errors)


def _path(request) -> str:
    path = request.path
    match = getattr(request, "resolver_match", None)
    for name in SECRET_URL_KWARGS:
        value = match.kwargs.get(name) if match else None
        if value:
            path = path.replace(str(value), "[secret]")
    return path[:500]


class AccessLogMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        start = time.perf_counter()
        response = self.get_response(request)
        ms = (time.perf_counter() - start) * 1000
        user = getattr(request, "user", None)
        # Anonymous is a bare -, so it cannot be confused with an account named "-".
        username = json.dumps(user.get_username()) if user is not None and user.is_authenticated else "-"
        # json.dumps quotes and escapes, so a newline in a path or name cannot forge a line.
        logger.info("user=%s ip=%s method=%s path=%s status=%d ms=%.1f", username, client_ip(request) or "-",
                    json.dumps(request.method[:10]), json.dumps(_path(request)), response.status_code, ms)
        return response
