from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "powts.core"
    label = "core"

    def ready(self):
        from django.db.models.signals import post_migrate

        from powts.core import sqlite_statistics

        # Once per migrate run (sent for each app; this one is the core's): measure the indexes it added.
        post_migrate.connect(sqlite_statistics.after_migrate, sender=self, dispatch_uid="core_sqlite_statistics")
