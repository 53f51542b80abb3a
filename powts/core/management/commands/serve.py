"""powts serve [--host H] [--port P]: the web application, with migrations applied first, and the
background-task consumer (notice batches) in the same process unless the queue has its own workers."""
from django.conf import settings
from django.contrib.staticfiles.management.commands import collectstatic  # noqa: F401 (ensures app loaded)
from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Serve powts (waitress, a production WSGI server) on HOST:PORT, with the task queue's consumer."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--threads", type=int, default=8)
        parser.add_argument("--no-worker", action="store_true",
                            help="do not run background jobs here (separate `powts worker` processes do)")

    def handle(self, *args, host, port, threads, no_worker=False, **options):
        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        from waitress import serve

        from powts.core.queue import start_consumer
        from powts.wsgi import application

        # With POWTS_QUEUE_URL (Redis) the workers run apart; on the embedded default they run here.
        consumer = None if (no_worker or settings.POWTS_QUEUE_URL) else start_consumer()
        self.stdout.write(f"powts is serving at http://{host}:{port}/  (Ctrl-C stops it)"
                          + ("" if consumer is None else "; background jobs run here too"))
        try:
            serve(application, host=host, port=port, threads=threads, ident="powts")
        finally:
            if consumer is not None:
                consumer.stop(graceful=True)
