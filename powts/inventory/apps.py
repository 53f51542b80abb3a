from django.apps import AppConfig


class InventoryConfig(AppConfig):
    name = "powts.inventory"
    label = "inventory"
