from django.apps import AppConfig


class MaintenanceConfig(AppConfig):
    name = "powts.maintenance"
    label = "maintenance"

    def ready(self):
        from powts.maintenance import news

        news.register()
