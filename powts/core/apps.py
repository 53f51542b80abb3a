from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "powts.core"
    label = "core"

    def ready(self):
        from django.db.models.signals import post_migrate

        from powts.core import background, sqlite_statistics

        # After a migrate run, measure the indexes it added. Django sends post_migrate for each app with models (not
        # this one, which has none); after the first, the handler finds nothing left to measure: one query.
        post_migrate.connect(sqlite_statistics.after_migrate, dispatch_uid="core_sqlite_statistics")
        background.register()  # the nightly measure of the statistics (settings.POWTS_SWEEPS)
