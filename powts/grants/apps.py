from django.apps import AppConfig


class GrantsConfig(AppConfig):
    name = "powts.grants"
    label = "grants"
    verbose_name = "Wisconsin Fund grants"

    def ready(self):
        pass
