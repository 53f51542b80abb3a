from django.apps import AppConfig
from django.core.exceptions import ImproperlyConfigured


class JurisdictionsConfig(AppConfig):
    name = "powts.jurisdictions"
    label = "jurisdictions"

    def ready(self):
        # Refuse to start on a bad parameter or profile file rather than run on it: the law's values and the
        # counties' differences come from these files.
        from .data_check import problems

        found = problems()
        if found:
            raise ImproperlyConfigured("bad parameter or profile file(s):\n" + "\n".join(found))
        # Then the counties' own settings and the counties added without a folder, from the database (read on
        # first use, never during start-up), laid over the files.
        from powts.jurisdictions.overlay import DatabaseOverlay
        from powts.kernel.profiles import set_overlay

        set_overlay(DatabaseOverlay())
