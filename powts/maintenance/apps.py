from django.apps import AppConfig


class MaintenanceConfig(AppConfig):
    name = "powts.maintenance"
    label = "maintenance"

    def ready(self):
        from powts.core import registry
        from powts.maintenance import demo, news, services, views

        news.register()
        from django.db.models.signals import post_migrate, pre_migrate

        from powts.maintenance import standing_counts

        # the dashboard's counts' triggers, off while SQLite migrations rebuild tables (standing_counts)
        pre_migrate.connect(standing_counts.before_migrate, sender=self, dispatch_uid="maint_standing_before")
        post_migrate.connect(standing_counts.after_migrate, sender=self, dispatch_uid="maint_standing_after")
        from powts.maintenance import background

        background.register()  # its daily sweeps as background jobs
        registry.register("system_panel", "maintenance", views.system_context,
                          template="maintenance/_system_maintenance.html", order=10)
        registry.register("after_import", "maintenance schedules", services.schedule_sync, order=10)
        registry.register("demo_loader", "maintenance (schedules, reports, notices)", demo.load, order=10)
