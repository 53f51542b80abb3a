"""Django settings, all from the environment.

DATABASE_URL    default: SQLite (WAL) at $POWTS_DATA_DIR/powts.sqlite3; postgres://... for production
POWTS_DATA_DIR  default: ~/.local/share/powts (the SQLite file, the secret key, uploads, task queue)
SECRET_KEY      default: generated once and kept in $POWTS_DATA_DIR/secret_key (local use only)
POWTS_DEBUG     "1" for development error pages
POWTS_ALLOWED_HOSTS  comma-separated, default "127.0.0.1,localhost"
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent
DATA_DIR = Path(os.environ.get("POWTS_DATA_DIR") or Path.home() / ".local" / "share" / "powts")
DATA_DIR.mkdir(parents=True, exist_ok=True)


def _secret_key() -> str:
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = DATA_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
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
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "django_tables2",
    "django_htmx",
    "powts.core",
    "powts.accounts",
    "powts.jurisdictions",
    "powts.audit",
    "powts.inventory",
    "powts.maintenance",
    "powts.permits",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "powts.audit.middleware.AuditContextMiddleware",
    "powts.core.middleware.RefuseNulMiddleware",  # issue 8: NUL in a query or form field is a 400, not a 500
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
            ],
        },
    }
]
WSGI_APPLICATION = "powts.wsgi.application"

_default_db = f"sqlite:///{DATA_DIR / 'powts.sqlite3'}"
DATABASES = {"default": dj_database_url.parse(os.environ.get("DATABASE_URL", _default_db), conn_max_age=60)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        # WAL lets readers run while an import writes; IMMEDIATE avoids "database is locked"
        # upgrades from read to write locks under concurrent requests.
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=10000;",
        "transaction_mode": "IMMEDIATE",
    }

AUTH_USER_MODEL = "accounts.User"
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
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
    for prefix, sub in (("uswds", "@uswds/uswds/dist"), ("htmx", "htmx.org/dist"), ("chartjs", "chart.js/dist"))
    if (ASSETS_DIR / sub).is_dir()
]
MEDIA_ROOT = DATA_DIR / "media"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
DATA_UPLOAD_MAX_MEMORY_SIZE = 50 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "powts.core.pagination.BoundedLimitOffsetPagination",  # max 1000 a page
    "DEFAULT_PARSER_CLASSES": [  # issue 8: a JSON body is an object, bounded in depth, without NUL
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
}
DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"

# Sections on the inventory's system page: (template, "module.function(system) -> context").
POWTS_SYSTEM_PANELS = [
    ("maintenance/_system_maintenance.html", "powts.maintenance.views.system_context"),
    ("permits/_system_permits.html", "powts.permits.panels.system_context"),
]

# Run after an inventory import stored something: f(jurisdiction=...) -> summary dict.
POWTS_AFTER_IMPORT = [
    ("maintenance schedules", "powts.maintenance.services.schedule_sync"),
]

# Mail: written to files in $POWTS_DATA_DIR/outbox unless an SMTP server is configured.
EMAIL_BACKEND = os.environ.get("POWTS_EMAIL_BACKEND", "django.core.mail.backends.filebased.EmailBackend")
EMAIL_FILE_PATH = DATA_DIR / "outbox"
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = os.environ.get("EMAIL_USE_TLS") == "1"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "powts@localhost")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("POWTS_LOG_LEVEL", "WARNING")},
}
