from django.apps import AppConfig


class PermitsConfig(AppConfig):
    name = "powts.permits"
    label = "permits"

    def ready(self):
        from powts.core import registry
        from powts.permits import demo, news, panels

        news.register()
        from powts.permits import background

        background.register()  # its daily sweeps as background jobs
        registry.register("system_panel", "permits", panels.system_context, template="permits/_system_permits.html",
                          order=20)
        registry.register("system_panel", "complaints", panels.system_complaints,
                          template="permits/_system_complaints.html", order=25)
        registry.register("dashboard_panel", "complaints", panels.dashboard_complaints,
                          template="permits/_dashboard_complaints.html", order=20)
        registry.register("dashboard_panel", "new-parcels", panels.dashboard_new_parcels,
                          template="permits/_dashboard_new_parcels.html", order=21)
        registry.register("demo_loader", "permits", demo.load, order=20)
        registry.register("demo_loader", "variances (for DSPS)", demo.load_variances, order=25)
