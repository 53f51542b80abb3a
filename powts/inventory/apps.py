from django.apps import AppConfig


class InventoryConfig(AppConfig):
    name = "powts.inventory"
    label = "inventory"

    def ready(self):
        from powts.inventory import news

        news.register()
