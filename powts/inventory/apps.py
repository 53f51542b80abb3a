from django.apps import AppConfig


class InventoryConfig(AppConfig):
    name = "powts.inventory"
    label = "inventory"

    def ready(self):
        from powts.inventory import background, news

        news.register()
        background.register()  # the web import runs as a background job (issue 13)
