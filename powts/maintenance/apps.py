from django.apps import AppConfig


class MaintenanceConfig(AppConfig):
    name = "powts.maintenance"
    label = "maintenance"
