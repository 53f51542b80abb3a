from django.apps import AppConfig


class MapsConfig(AppConfig):
    name = "powts.maps"
    label = "maps"
    verbose_name = "Map"
