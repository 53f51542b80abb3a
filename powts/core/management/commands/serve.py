"""powts serve [--host H] [--port P]: the web application, with migrations applied first."""
from django.contrib.staticfiles.management.commands import collectstatic  # noqa: F401 (ensures app loaded)
from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Serve powts (waitress, a production WSGI server) on HOST:PORT."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--threads", type=int, default=8)

    def handle(self, *args, host, port, threads, **options):
        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        from waitress import serve

        from powts.wsgi import application

        self.stdout.write(f"powts is serving at http://{host}:{port}/  (Ctrl-C stops it)")
        serve(application, host=host, port=port, threads=threads, ident="powts")
