"""Django settings, all from the environment.

DATABASE_URL    default (unset, or set but empty): SQLite (WAL) at $POWTS_DATA_DIR/powts.sqlite3;
                postgres://USER:PASSWORD@HOST:PORT/NAME for production (sqlite:////path/to/file.sqlite3 for another
                SQLite file). Anything else stops powts with one line naming the variable and this form.
POWTS_DATA_DIR  default: ~/.local/share/powts (the SQLite file, the secret key, uploads, task queue)
SECRET_KEY      default: generated once and kept in $POWTS_DATA_DIR/secret_key (local use only)
POWTS_DEBUG     "1" for development error pages
POWTS_ALLOWED_HOSTS  comma-separated, default "127.0.0.1,localhost"
POWTS_HTTPS     "1" when served over HTTPS: Secure cookies, HSTS (see the deployment block below)
POWTS_PROXY_SSL_HEADER  "1" behind a proxy that sets X-Forwarded-Proto: https
POWTS_SSL_REDIRECT  "1" to redirect plain HTTP to HTTPS (with POWTS_HTTPS)
POWTS_SESSION_HOURS  sign-in lasts this long, default 8
POWTS_PUBLIC_POST_RATE  public complaints per address, default "10/hour"
POWTS_PROXY_COUNT  how many proxies in front add X-Forwarded-For (default 0: the socket's address counts)
POWTS_QUEUE_URL  the task queue; default (empty): Huey on SQLite in $POWTS_DATA_DIR/queue.sqlite3, consumed by
                 `powts serve` itself. redis://host:6379/0 for separate `powts worker` processes.
POWTS_BOUNCE_WEBHOOK_SECRET  the secret shared with a mail provider that posts bounce reports to
                /api/maintenance/bounces/ (HMAC-signed; powts.maintenance.bounce_webhook); unset: refused
POWTS_EMAIL_BACKEND  default: files in $POWTS_DATA_DIR/outbox; "django.core.mail.backends.smtp.EmailBackend" with EMAIL_HOST ...
POWTS_STORAGE   where attached documents and photos are kept: "local" (default, $POWTS_DATA_DIR/attachments)
                or "s3" (S3-compatible: POWTS_S3_BUCKET, POWTS_S3_ENDPOINT_URL, POWTS_S3_ACCESS_KEY_ID,
                POWTS_S3_SECRET_ACCESS_KEY, POWTS_S3_REGION)
"""
from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF

BASE_DIR = Path(__file__).resolve().parent
DATA_DIR = Path(os.environ.get("POWTS_DATA_DIR") or Path.home() / ".local" / "share" / "powts")
# A parallel test run (pytest-xdist names each worker process): each worker its own data directory (queue, cache,
# outbox, logs), so one worker's job consumer never takes another's jobs. Never set outside a test run; conftest.py
# hands the worker's directory on to the programs a test starts.
if os.environ.get("PYTEST_XDIST_WORKER"):
    DATA_DIR = DATA_DIR / os.environ["PYTEST_XDIST_WORKER"]
DATA_DIR.mkdir(parents=True, exist_ok=True)
try:
    DATA_DIR.chmod(0o700)  # owners' names and addresses: for the service account only
except OSError:  # a directory the service account does not own; its owner set its mode
    pass


def _secret_key() -> str:
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = DATA_DIR / "secret_key"
    if not path.exists():
        # created 0600, never readable by others even for a moment
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(50))
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = os.environ.get("POWTS_DEBUG") == "1"
ALLOWED_HOSTS = os.environ.get("POWTS_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "knox",
    "axes",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "django_tables2",
    "django_htmx",
    "csp",
    "huey.contrib.djhuey",
    "powts.core",
    "powts.jobs",
    "powts.accounts",
    "powts.jurisdictions",
    "powts.audit",
    "powts.inventory",
    "powts.maintenance",
    "powts.permits",
    "powts.wells",
    "powts.attachments",
    "powts.maps",
    "powts.grants",
    "powts.oversight",
]

MIDDLEWARE = [
    "powts.accounts.access_log.AccessLogMiddleware",  # outermost: times and logs every response
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "powts.audit.middleware.AuditContextMiddleware",
    "powts.jurisdictions.middleware.ProfileStampMiddleware",  # another process's change to a county's settings shows here
    "powts.attachments.middleware.UploadSizeMiddleware",  # an oversized upload is refused before its body is read
    "powts.core.middleware.RefuseUnstorableTextMiddleware",  # NUL, lone surrogates in a query, form, JSON: 400
    "powts.core.middleware.DatabaseUnavailableMiddleware",  # the database restarting is a 503 to retry, not a 500
    "axes.middleware.AxesMiddleware",  # turns a lockout into the lockout page (web) or JSON (API)
]

ROOT_URLCONF = "powts.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "powts.core.menus.menu",  # the menu in base.html: only what the person may open
            ],
        },
    }
]
WSGI_APPLICATION = "powts.wsgi.application"

_default_db = f"sqlite:///{DATA_DIR / 'powts.sqlite3'}"
DATABASE_URL_FORM = "postgres://USER:PASSWORD@HOST:PORT/NAME (or sqlite:////path/to/file.sqlite3)"


def _database(url: str) -> dict:
    """DATABASE_URL parsed; set but empty counts as unset (the embedded SQLite default). A value powts cannot use
    raises ImproperlyConfigured with one line naming the variable and the expected form (`powts` prints it)."""
    from django.core.exceptions import ImproperlyConfigured

    import re

    url = url.strip() or _default_db
    shown = re.sub(r"//([^/@:]*):[^/@]*@", r"//\1:***@", url)  # never the password in a message
    try:
        config = dj_database_url.parse(url, conn_max_age=60)
    except Exception:  # dj_database_url's UnknownSchemeError and ParseError, a port that is not a number
        raise ImproperlyConfigured(f"DATABASE_URL {shown!r} is not a database address; expected {DATABASE_URL_FORM}") from None
    if config.get("ENGINE") not in ("django.db.backends.sqlite3", "django.db.backends.postgresql"):
        raise ImproperlyConfigured(f"DATABASE_URL {shown!r}: powts runs on PostgreSQL or SQLite; expected {DATABASE_URL_FORM}")
    if not config.get("NAME"):
        raise ImproperlyConfigured(f"DATABASE_URL {shown!r} names no database; expected {DATABASE_URL_FORM}")
    return config


DATABASES = {"default": _database(os.environ.get("DATABASE_URL", ""))}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Django's SQLite, its write transactions queued on a lock file: no "database is locked" under load
    DATABASES["default"]["ENGINE"] = "powts.core.sqlite"
    # Kept open across requests (each thread its own), as on PostgreSQL: opening one per request re-ran the
    # PRAGMAs and re-read the schema, and its page cache started cold (a tenth of a report's CPU).
    DATABASES["default"]["CONN_MAX_AGE"] = 60
    DATABASES["default"]["OPTIONS"] = {
        # WAL lets readers run while an import writes; IMMEDIATE avoids "database is locked"
        # upgrades from read to write locks under concurrent requests.
        # mmap: a connection (one per request) reads the file's pages in place instead of copying each into its own
        # cold page cache with a read() call; the notices page as of 30 days on read 75,000 schedules that way.
        # The price: a disk read error on the mapped file stops the process (SIGBUS) instead of raising an error.
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=10000; "
                        "PRAGMA mmap_size=2147483648;",
        "transaction_mode": "IMMEDIATE",
    }
    # The tests' database in memory, one per test worker (pytest-xdist): pytest-django does not know this engine
    # for SQLite and would otherwise name each worker's database after the file ("powts.sqlite3_gw0").
    DATABASES["default"]["TEST"] = {"NAME": ":memory:"}

# PostgreSQL: the report path's fixed statements are parsed and planned once per connection (powts.core.server_prepared).
# 0 turns it off, for a pooler in transaction mode that does not carry prepared statements (PgBouncer before 1.21).
POWTS_PG_PREPARE = os.environ.get("POWTS_PG_PREPARE", "1") != "0"

AUTH_USER_MODEL = "accounts.User"
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "America/Chicago"  # shown to users; stored in UTC
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
# Front-end packages come from npm (package.json at the repository root), never copied in.
ASSETS_DIR = Path(os.environ.get("POWTS_ASSETS_DIR") or BASE_DIR.parent / "node_modules")
STATICFILES_DIRS = [BASE_DIR / "static"] + [
    (prefix, ASSETS_DIR / sub)
    for prefix, sub in (("uswds", "@uswds/uswds/dist"), ("htmx", "htmx.org/dist"), ("chartjs", "chart.js/dist"),
                        ("leaflet", "leaflet/dist"), ("markercluster", "leaflet.markercluster/dist"),
                        ("geoman", "@geoman-io/leaflet-geoman-free/dist"))
    if (ASSETS_DIR / sub).is_dir()
]
MEDIA_ROOT = DATA_DIR / "media"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
DATA_UPLOAD_MAX_MEMORY_SIZE = 50 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "powts.accounts.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "powts.core.pagination.BoundedLimitOffsetPagination",  # max 1000 a page
    "DEFAULT_PARSER_CLASSES": [  # a JSON body is an object, bounded in depth
        "powts.core.parsers.ObjectJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "powts.core.schema.AutoSchema",  # documents the 4xx every endpoint may answer
    "EXCEPTION_HANDLER": "powts.core.api.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "powts API",
    "DESCRIPTION": "A Wisconsin county's POWTS (septic) program: inventory, maintenance, permits.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI served from the installed sidecar package, not a CDN (county networks may block it).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # axe-core: no deep-link anchor inside each operation's toggle button (nested-interactive),
    # and examples as plain text (the highlighter's theme has tokens under 4.5:1 contrast).
    "SWAGGER_UI_SETTINGS": {"deepLinking": False, "syntaxHighlight": False},
}
DJANGO_TABLES2_TEMPLATE = "tables/uswds.html"  # USWDS look, aria-sort on the header cell, total, exports

# System-page panels, after-import hooks and demo loaders: each app registers its own in AppConfig.ready
# (powts.core.registry).

# The map (powts.maps). Tiles from any XYZ server ({s} subdomains allowed); with none reachable the
# points still show on a blank background. Its host joins the Content-Security-Policy's img-src below.
POWTS_MAP_TILES_URL = os.environ.get("POWTS_MAP_TILES_URL", "https://tile.openstreetmap.org/{z}/{x}/{y}.png")
POWTS_MAP_TILES_ATTRIBUTION = os.environ.get("POWTS_MAP_TILES_ATTRIBUTION", "© OpenStreetMap contributors")
POWTS_MAP_CENTER = [float(v) for v in os.environ.get("POWTS_MAP_CENTER", "44.6,-89.8").split(",")]  # Wisconsin
POWTS_MAP_ZOOM = int(os.environ.get("POWTS_MAP_ZOOM", "7"))


def _tile_origin(url: str) -> str | None:
    """'https://{s}.tile.example.org/{z}/{x}/{y}.png' -> 'https://*.tile.example.org' (a CSP source)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc.replace('{s}', '*')}"

# Mail: written to files in $POWTS_DATA_DIR/outbox unless an SMTP server is configured.
# A mail provider's bounce reports are accepted only when signed with this (powts.maintenance.bounce_webhook).
POWTS_BOUNCE_WEBHOOK_SECRET = os.environ.get("POWTS_BOUNCE_WEBHOOK_SECRET", "")
EMAIL_BACKEND = os.environ.get("POWTS_EMAIL_BACKEND", "django.core.mail.backends.filebased.EmailBackend")
EMAIL_FILE_PATH = DATA_DIR / "outbox"
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = os.environ.get("EMAIL_USE_TLS") == "1"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "powts@localhost")

# Background work (notice batches): Huey. The embedded default keeps its queue in a SQLite file in the
# data directory and `powts serve` runs the consumer in the same process, so one command still does
# everything. POWTS_QUEUE_URL=redis://... is a Redis queue with separate `powts worker` processes: only
# this block changes then. Tests switch the queue to immediate mode (conftest.py).
POWTS_QUEUE_URL = os.environ.get("POWTS_QUEUE_URL", "")
if POWTS_QUEUE_URL.startswith(("redis://", "rediss://", "unix://")):
    HUEY = {"huey_class": "huey.RedisHuey", "name": "powts", "url": POWTS_QUEUE_URL, "immediate": False,
            "consumer": {"workers": 2, "worker_type": "thread"}}
elif POWTS_QUEUE_URL:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(f"POWTS_QUEUE_URL {POWTS_QUEUE_URL!r}: expected redis://... or nothing (the SQLite queue)")
else:
    HUEY = {"huey_class": "huey.SqliteHuey", "name": "powts", "filename": str(DATA_DIR / "queue.sqlite3"), "immediate": False,
            "consumer": {"workers": 2, "worker_type": "thread"}}
# The daily sweeps: each runs once a day as a background job at or after its local time (a
# worker down at that minute runs it when it is back); `powts worker --no-periodic` leaves them to another.
# A running job silent this long had its worker killed: it is queued again (powts.jobs.services.requeue_stale).
POWTS_SWEEPS = {
    "permits_expire": "02:10",  # issued permits past their expiry date expire (powts permits expire)
    "permits_orders_overdue": "02:20",  # open correction orders past due (powts permits orders-overdue)
    "schedule_sync": "02:30",  # maintenance schedules in step with the inventory (powts maintenance sync)
    "notices_due": "06:00",  # each county's notices now due, counted for its staff (powts maintenance due)
    "map_cells": "02:40",  # the map's clusters counted again as of the day (powts inventory map-cells), after the schedules
    "database_statistics": "03:00",  # the query planner's statistics measured (ANALYZE), after the night's writes
}
POWTS_MEASURE_AFTER_IMPORT_ROWS = 10_000  # an import that creates or changes this many rows measures the database after it
POWTS_EXPORT_JOB_ROWS = 50_000  # a list export over this many rows is written by a background job
POWTS_JOB_STALE_SECONDS = int(os.environ.get("POWTS_JOB_STALE_SECONDS", "120"))
# Letters (one PDF per owner, a merged PDF per batch for the print shop) are kept in MEDIA_ROOT/letters
# (powts.maintenance.batches.letters_dir), with the other records a backup carries.

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("POWTS_LOG_LEVEL", "WARNING")},
}


# -- Deployment hardening ------------------------------------------------------------------------
# Off by default so `powts serve` on a laptop works over plain HTTP; a county server sets POWTS_HTTPS=1.
_HTTPS = os.environ.get("POWTS_HTTPS") == "1"
SESSION_COOKIE_SECURE = _HTTPS
CSRF_COOKIE_SECURE = _HTTPS
SECURE_HSTS_SECONDS = 365 * 24 * 3600 if _HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = _HTTPS
SECURE_SSL_REDIRECT = _HTTPS and os.environ.get("POWTS_SSL_REDIRECT") == "1"
if os.environ.get("POWTS_PROXY_SSL_HEADER") == "1":
    # only behind a proxy that always sets (and strips client-sent) X-Forwarded-Proto
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_AGE = int(float(os.environ.get("POWTS_SESSION_HOURS", "8")) * 3600)
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
# CSRF cookie stays readable by script: Swagger UI's "Try it out" sends it as X-CSRFToken (Django's docs:
# HttpOnly on it adds no protection).
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy on every response (django-csp): the pages' own scripts and styles only, no
# inline script or style. Data for scripts travels in json_script / data-* attributes. The API docs page
# alone allows Swagger UI's inline <style> (powts/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        # USWDS and Swagger UI draw some icons from data: URIs; map tiles come from their server
        "img-src": [SELF, "data:", *filter(None, [_tile_origin(POWTS_MAP_TILES_URL)])],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Files the application writes are the service account's alone (0600 files, 0700 directories);
# powts/cli.py and powts/wsgi.py also set the process umask to 077.
FILE_UPLOAD_PERMISSIONS = 0o600
FILE_UPLOAD_DIRECTORY_PERMISSIONS = 0o700

# Public posts (Open311 and the complaint form): limited per address. The counts live in a file cache in
# the data directory so every thread and every server process sees the same count (a per-process memory
# cache would give each process its own allowance), with no extra service and no table to create.
POWTS_PUBLIC_POST_RATE = os.environ.get("POWTS_PUBLIC_POST_RATE", "10/hour")
POWTS_PUBLIC_POST_MAX_BYTES = 64 * 1024
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(DATA_DIR / "cache"),
        "OPTIONS": {"MAX_ENTRIES": 10000},
    }
}

# -- Sign-in, tokens, access log, passwords ------------------------------------------------------
# POWTS_LOGIN_FAILURE_LIMIT     wrong passwords for one account from one address before a lockout (default 5)
# POWTS_LOGIN_ADDRESS_FAILURE_LIMIT  wrong passwords from one address, over all accounts, before it is
#                               locked out (default 30)
# POWTS_LOGIN_COOLOFF_MINUTES   how long a lockout lasts (default 15)
# POWTS_PROXY_COUNT             reverse proxies in front of powts; the client address is then read from
#                               X-Forwarded-For (default: none, REMOTE_ADDR)
# POWTS_TOKEN_TTL_HOURS         API token lifetime (default 10)
# POWTS_SESSION_HOURS           web sign-in lifetime (default 8)
# POWTS_ACCESS_LOG_DAYS         daily access logs kept (default 90)
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses a locked-out account or address before the password is checked
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("POWTS_LOGIN_FAILURE_LIMIT", "5"))
POWTS_LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("POWTS_LOGIN_ADDRESS_FAILURE_LIMIT", "30"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("POWTS_LOGIN_COOLOFF_MINUTES", "15")))
# Two counters, each with its limit: one account from one address (AXES_FAILURE_LIMIT), so guessing at a
# person's user name from elsewhere cannot lock them out; one address over all accounts (the higher limit),
# so one address trying many accounts is stopped. The handler applies the second limit (axes has one).
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_HANDLER = "powts.accounts.axes_handler.AccountAtAddressHandler"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "powts.accounts.lockout.lockout_response"
AXES_COOLOFF_MESSAGE = (f"Too many failed sign-ins. Try again in {AXES_COOLOFF_TIME.seconds // 60} minutes, "
                        "or ask your administrator to unlock the account.")
AXES_DISABLE_ACCESS_LOG = True  # successful sign-ins are in the access log below; axes keeps the failures
AXES_VERBOSE = False
POWTS_PROXY_COUNT = int(os.environ.get("POWTS_PROXY_COUNT") or 0)
# The public-post throttle counts the same client address (DRF would otherwise trust any X-Forwarded-For).
REST_FRAMEWORK["NUM_PROXIES"] = POWTS_PROXY_COUNT
AXES_CLIENT_IP_CALLABLE = "powts.accounts.lockout.client_ip"  # the same address the access log writes

REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=float(os.environ.get("POWTS_TOKEN_TTL_HOURS", "10"))),
    "AUTH_HEADER_PREFIX": "Token",  # the header clients already send: "Authorization: Token <key>"
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 12}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGGING["formatters"] = {"access": {"()": "powts.accounts.access_log.UTCFormatter", "format": "%(asctime)s %(message)s"}}
LOGGING["handlers"]["access"] = {
    "class": "powts.accounts.access_log.PrivateTimedRotatingFileHandler",
    "filename": str(DATA_DIR / "logs" / "access.log"),
    "when": "midnight",
    "utc": True,
    "backupCount": int(os.environ.get("POWTS_ACCESS_LOG_DAYS", "90")),
    "formatter": "access",
}
LOGGING["loggers"] = {"powts.access": {"handlers": ["access"], "level": "INFO", "propagate": False}}


# -- Documents and photos ------------------------------------------------------------------------------
# Kept outside STATIC and MEDIA (nothing serves them directly): powts.attachments.views streams a file to
# those who may see its record. Locally in the data directory (0600 files, 0700 directories); in an
# S3-compatible bucket with POWTS_STORAGE=s3 (django-storages), private, under the "attachments/" prefix.
from django.core.exceptions import ImproperlyConfigured  # noqa: E402

POWTS_STORAGE = os.environ.get("POWTS_STORAGE", "local")
if POWTS_STORAGE == "local":
    _ATTACHMENTS = {"BACKEND": "django.core.files.storage.FileSystemStorage",
                    "OPTIONS": {"location": str(DATA_DIR / "attachments"), "base_url": "/nowhere/",
                                "file_permissions_mode": 0o600, "directory_permissions_mode": 0o700}}
elif POWTS_STORAGE == "s3":
    if not os.environ.get("POWTS_S3_BUCKET"):
        raise ImproperlyConfigured("POWTS_STORAGE=s3 needs POWTS_S3_BUCKET (and the endpoint and keys)")
    _ATTACHMENTS = {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": {
        "bucket_name": os.environ["POWTS_S3_BUCKET"],
        "endpoint_url": os.environ.get("POWTS_S3_ENDPOINT_URL") or None,
        "access_key": os.environ.get("POWTS_S3_ACCESS_KEY_ID") or None,
        "secret_key": os.environ.get("POWTS_S3_SECRET_ACCESS_KEY") or None,
        "region_name": os.environ.get("POWTS_S3_REGION") or None,
        "location": "attachments", "default_acl": "private", "file_overwrite": False, "querystring_auth": True}}
else:
    raise ImproperlyConfigured(f"POWTS_STORAGE must be 'local' or 's3', not {POWTS_STORAGE!r}")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "attachments": _ATTACHMENTS,
}
_MB = 1024 * 1024
# The largest file of each kind (a phone's photo is a few MB; a scanned plan set can be tens).
POWTS_ATTACHMENT_MAX_BYTES = {
    "plan": 25 * _MB, "soil_report": 25 * _MB, "recorded_document": 25 * _MB, "receipt": 10 * _MB,
    "photo": 15 * _MB, "other": 25 * _MB, "income_evidence": 25 * _MB,
}
# Reading an uploaded document (powts.attachments.content), whatever the county: a PDF's pages, its objects and
# the seconds its page tree may take to walk; a picture's pixels (Pillow's Image.MAX_IMAGE_PIXELS is set from it).
POWTS_PDF_MAX_PAGES = int(os.environ.get("POWTS_PDF_MAX_PAGES", "2000"))
POWTS_PDF_MAX_OBJECTS = int(os.environ.get("POWTS_PDF_MAX_OBJECTS", "500000"))
POWTS_PDF_MAX_SECONDS = float(os.environ.get("POWTS_PDF_MAX_SECONDS", "3"))
POWTS_IMAGE_MAX_PIXELS = int(os.environ.get("POWTS_IMAGE_MAX_PIXELS", "50000000"))
# Anonymous uploads (photos with a public complaint): one small photo per post, on the public-post throttle.
POWTS_PUBLIC_UPLOAD_MAX_BYTES = 8 * _MB
POWTS_PUBLIC_UPLOAD_MAX_FILES = 1
# A whole upload request larger than this is refused from its Content-Length, before its body is read.
POWTS_UPLOAD_REQUEST_MAX_BYTES = 5 * 25 * _MB + _MB
DATA_UPLOAD_MAX_NUMBER_FILES = 10
