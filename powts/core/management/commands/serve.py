"""powts serve [--host H] [--port P] [--processes N] [--threads T] [--no-worker] [--no-setup]: the web application in
N processes on one port, with migrations applied first, and the embedded queue's consumer in exactly one
of them (so 200 reports a second fit on two cores).

Why gunicorn (27, pinned): a master process that binds the port once, forks N workers that share it,
restarts a worker that dies and reloads on HUP; its `gthread` worker keeps HTTP/1.1 connections alive
(API clients send many reports on one connection) and leaves an idle one to a poller, not a thread. Ours
(powts.core.gunicorn_worker) takes a new connection only while it has a thread free. N
waitress processes on SO_REUSEPORT would have no supervisor and the kernel's hash can give one process
most of the connections.

The consumer of the embedded (SQLite) queue runs in whichever worker first takes an exclusive lock on a
file in the data directory: one consumer per data directory even when several `powts serve` share it,
and if that worker dies the one gunicorn starts in its place takes the lock over. Not in the master:
it forks workers at any time, and forking a process whose threads hold locks can deadlock the child."""
from __future__ import annotations

import fcntl
import os

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

CONSUMER_LOCK = "queue-consumer.lock"


def _on_postgresql() -> bool:
    from django.db import connection  # its vendor is known without connecting (PostGIS's too)

    return connection.vendor == "postgresql"


def default_processes() -> int:
    """One per core, of one thread each (default_threads), and at least two (a worker restarting never leaves
    the port unanswered); at most sixteen on PostgreSQL and eight on SQLite, which writes one at a time.

    Why not more: a process that answers requests back to back keeps its code and data in the core's caches,
    and one woken every few milliseconds does not (/healthz costs 0.32-0.36 ms of CPU in a loop, 1.23 ms
    with 5 ms pauses between requests). 200 reports a second for 60 s through the API on two cores
    (bench/bench_maintenance.py, 100,000 systems, 40 s quiet before each run):
    - PostgreSQL on the same machine: 2 x 1 met the p99 target in all five runs (40-96 ms) with the least
      CPU (web 5.4-5.7 ms, PostgreSQL 1.5-1.6 ms a report); 3 x 1 in one of two (83, 437 ms), 4 x 1 in none
      of four (223 ms to 8.6 s), 2 x 2 in one of two (95 ms, 1.4 s); web 5.9-6.8 ms a report for those.
    - SQLite: all met; 2 x 1 p99 18 and 30 ms (web 5.4-6.0 ms), 4 x 1 25 and 73 ms (5.9-6.3 ms).
    A web machine whose database is on another machine waits longer for each query: give it more
    (--processes) so its cores stay busy meanwhile."""
    cores = os.cpu_count() or 1
    return max(2, min(cores, 16 if _on_postgresql() else 8))


def default_threads() -> int:
    """One: a request waiting for the database (or, on SQLite, for its turn to write) then leaves its core to
    another process, where a second thread of the same process would wait for Python's lock when the answer
    came. 200 reports a second for 60 s on two cores: 2 x 8 sustained 155-191 a second with p99 in seconds on
    both databases (earlier stops); 2 x 2 on PostgreSQL met the target in one run of two (above)."""
    return 1


def _take_consumer_lock():
    """An open file holding the consumer lock, or None if another process holds it."""
    handle = open(settings.DATA_DIR / CONSUMER_LOCK, "a")  # noqa: SIM115 (held for the process's life)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        return None
    return handle


def _post_fork(server, worker):
    from django.db import connections

    # A connection opened by the master (migrate) must not be shared by every child.
    for conn in connections.all(initialized_only=True):
        conn.close()


def _start_consumer_if_first(worker):
    lock = _take_consumer_lock()
    if lock is None:
        return
    from powts.core.queue import start_consumer

    worker.powts_consumer = (lock, start_consumer())
    worker.log.info("background jobs run in worker %s", os.getpid())


def _worker_exit(server, worker):
    held = getattr(worker, "powts_consumer", None)
    if held and worker.pid == os.getpid():  # the master also calls this for a worker it found gone
        lock, consumer = held
        consumer.stop(graceful=True)
        lock.close()


def run_gunicorn(application, *, bind: str, processes: int, threads: int, consumer: bool, quiet: bool = False):
    from gunicorn.app.base import BaseApplication

    def post_worker_init(worker):
        if consumer:
            _start_consumer_if_first(worker)

    class PowtsServer(BaseApplication):
        def load_config(self):
            for key, value in {
                "bind": [bind], "workers": processes, "threads": threads, "worker_class": "powts.core.gunicorn_worker.FreeThreadWorker",
                "keepalive": 30,  # seconds an idle client connection stays open
                "timeout": 120, "graceful_timeout": 30, "proc_name": "powts",
                "loglevel": "warning" if quiet else "info", "errorlog": "-", "accesslog": None,
                # its control socket is one path per user: several `powts serve` would fight over it
                "control_socket_disable": True,
                "post_fork": _post_fork, "post_worker_init": post_worker_init, "worker_exit": _worker_exit,
            }.items():
                self.cfg.set(key, value)

        def load(self):
            return application

    PowtsServer().run()


class Command(BaseCommand):
    help = ("Serve powts on HOST:PORT with gunicorn: PROCESSES worker processes of THREADS threads each share "
            "the port. On the embedded queue (no POWTS_QUEUE_URL) one of them also runs the background jobs, "
            "unless --no-worker.")

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
        parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
        parser.add_argument("--processes", type=int, default=default_processes(),
                            help=f"worker processes sharing the port (default here {default_processes()}: "
                                 "one per core, 2 to 16 on PostgreSQL and 2 to 8 on SQLite)")
        parser.add_argument("--threads", type=int, default=default_threads(),
                            help=f"threads per process (default here {default_threads()})")
        parser.add_argument("--no-worker", action="store_true",
                            help="do not run background jobs here (separate `powts worker` processes do)")
        parser.add_argument("--no-setup", action="store_true",
                            help="do not apply migrations or collect static files first (a deployment runs `powts migrate` "
                                 "and `powts collectstatic --noinput` once, before it starts its serve processes)")
        parser.add_argument("--quiet", action="store_true", help="log warnings only (not each worker's start)")

    def handle(self, *args, host, port, processes, threads, no_worker=False, no_setup=False, quiet=False, **options):
        if processes < 1 or threads < 1:
            raise CommandError("--processes and --threads must be at least 1")
        if not no_setup:
            from powts.cli import apply_migrations

            apply_migrations("powts serve")  # says so, with progress, when there are any
            call_command("collectstatic", interactive=False, verbosity=0)
        from powts.wsgi import application

        # With POWTS_QUEUE_URL (Redis) the workers run apart; on the embedded default one process runs them.
        consumer = not (no_worker or settings.POWTS_QUEUE_URL)
        self.stdout.write(f"powts is serving at http://{host}:{port}/ in {processes} processes x {threads} threads "
                          "(Ctrl-C stops it)" + ("; background jobs run here too" if consumer else ""))
        self.stdout.flush()
        run_gunicorn(application, bind=f"{host}:{port}", processes=processes, threads=threads,
                     consumer=consumer, quiet=quiet)
