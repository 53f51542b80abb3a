from django.apps import AppConfig


class GrantsConfig(AppConfig):
    name = "powts.grants"
    label = "grants"
    verbose_name = "Wisconsin Fund grants"

    def ready(self):
        from powts.core import registry
        from powts.grants import background, demo

        background.register()  # allocation runs as background jobs

        registry.register("demo_loader", "grants (a fiscal year of applications)", demo.load, order=30)
        from powts.grants import program_demo

        registry.register("demo_loader", "grants program (certification, participation, allocation)", program_demo.load,
                          order=31)
