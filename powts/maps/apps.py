from django.apps import AppConfig


class MapsConfig(AppConfig):
    name = "powts.maps"
    label = "maps"
    verbose_name = "Map"

    def ready(self):
        from powts.core import registry
        from powts.maps import background, services

        # after the schedules (order 10): it counts their standings
        registry.register("after_import", "map clusters", services.after_import, order=20)
        background.register()  # the daily recount as a background job (settings.POWTS_SWEEPS)
