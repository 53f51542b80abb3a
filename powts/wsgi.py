import os

from django.core.wsgi import get_wsgi_application

from powts.cli import PRIVATE_UMASK

os.umask(PRIVATE_UMASK)  # before anything writes a file: see powts/cli.py
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "powts.settings")
application = get_wsgi_application()

from powts.core.startup import settle  # noqa: E402 (after Django is set up)

settle()
