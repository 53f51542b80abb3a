"""powts worker [--workers N]: background jobs on the configured queue, in their own process.

On the embedded default (Huey on SQLite in the data directory) `powts serve` already runs a consumer;
a worker beside it shares the same queue file on the same machine. With POWTS_QUEUE_URL=redis://...
start any number of workers on any number of machines: each takes the next job from Redis. Ctrl-C
(SIGINT) or SIGTERM lets running jobs finish first (Huey's graceful stop)."""
import logging

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils.module_loading import autodiscover_modules
from huey.consumer_options import ConsumerConfig


class Command(BaseCommand):
    help = "Run background jobs (imports, notice batches, allocation runs, exports, daily sweeps) from the queue."

    def add_arguments(self, parser):
        parser.add_argument("--workers", type=int, default=None,
                            help="jobs run at the same time in this process (threads; default from settings)")
        parser.add_argument("--processes", action="store_true",
                            help="run the workers as processes instead of threads (CPU-heavy jobs)")
        parser.add_argument("--no-periodic", action="store_true",
                            help="leave the daily sweeps to another worker (run them on one machine only)")

    def handle(self, *args, workers=None, processes=False, no_periodic=False, **options):
        from huey.contrib.djhuey import HUEY

        if workers is not None and workers < 1:
            raise CommandError("--workers: give a whole number of at least 1")
        config = dict(settings.HUEY.get("consumer", {})) if isinstance(settings.HUEY, dict) else {}
        if workers is not None:
            config["workers"] = workers
        if processes:
            config["worker_type"] = "process"
        if no_periodic:
            config["periodic"] = False
        autodiscover_modules("tasks")
        from powts.core.queue import recover_interrupted

        recovered = recover_interrupted()
        config = ConsumerConfig(**config)
        config.validate()
        logger = logging.getLogger("huey")
        if not logger.handlers:
            config.setup_logger(logger)
            logger.propagate = False  # once on the console, not again through the root logger
        queue = settings.POWTS_QUEUE_URL and "Redis" or "the embedded SQLite queue"
        self.stdout.write(f"powts worker: {config.workers} worker(s) on {queue}"
                          + (f"; {recovered} interrupted job(s) queued again" if recovered else ""))
        HUEY.create_consumer(**config.values).run()
