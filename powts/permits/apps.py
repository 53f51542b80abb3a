from django.apps import AppConfig


class PermitsConfig(AppConfig):
    name = "powts.permits"
    label = "permits"

    def ready(self):
        from powts.permits import news

        news.register()
