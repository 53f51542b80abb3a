from django.apps import AppConfig


class InventoryConfig(AppConfig):
    name = "powts.inventory"
    label = "inventory"

    def ready(self):
        from powts.inventory import background, news

        news.register()
        from django.db.models.signals import post_migrate, pre_migrate

        from powts.inventory import system_town

        # the triggers copying each parcel's town onto its systems, off while SQLite migrations rebuild tables
        pre_migrate.connect(system_town.before_migrate, sender=self, dispatch_uid="inventory_town_before")
        post_migrate.connect(system_town.after_migrate, sender=self, dispatch_uid="inventory_town_after")
        background.register()  # the web import runs as a background job
