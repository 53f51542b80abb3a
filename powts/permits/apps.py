from django.apps import AppConfig


class PermitsConfig(AppConfig):
    name = "powts.permits"
    label = "permits"
