from django.apps import AppConfig


class WellsConfig(AppConfig):
    name = "powts.wells"
    label = "wells"
    verbose_name = "Well compensation claims (Wis. Stat. s. 281.75)"

    def ready(self):
        from powts.core import registry
        from powts.wells import demo

        registry.register("demo_loader", "well compensation claims", demo.load, order=30)
