from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "powts.core"
    label = "core"
