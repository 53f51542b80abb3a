from django.apps import AppConfig


class JobsConfig(AppConfig):
    name = "powts.jobs"
    label = "jobs"
    verbose_name = "Background jobs"

    def ready(self):
        from powts.core.queue import on_worker_start
        from powts.jobs import exports, kinds, services

        kinds.register(exports.KIND, exports.run_export)
        # A worker starting takes back what a killed worker left running, and what could not be queued.
        on_worker_start(services.requeue_stale)
