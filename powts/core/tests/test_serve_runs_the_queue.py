"""The one-command start still does everything: `powts serve` runs the task queue's consumer beside
the web server, unless the queue has workers of its own (POWTS_QUEUE_URL, or --no-worker).
`powts serve --processes N` runs N processes on one port, and the embedded queue's
consumer in exactly one of them."""
import os

import pytest
from django.core.management import call_command

from powts.core.management.commands import serve


@pytest.fixture
def served(monkeypatch):
    calls = []
    monkeypatch.setattr(serve, "run_gunicorn", lambda app, **kw: calls.append(kw))
    monkeypatch.setattr("django.core.management.commands.migrate.Command.handle", lambda self, *a, **k: calls.append("migrate"))
    monkeypatch.setattr("django.contrib.staticfiles.management.commands.collectstatic.Command.handle",
                        lambda self, *a, **k: calls.append("collectstatic") or "")
    return calls


def test_serve_runs_the_consumer_on_the_embedded_queue(served, settings):
    settings.POWTS_QUEUE_URL = ""
    call_command("serve", "--port", "8123", "--processes", "3", "--threads", "4")
    assert served == ["migrate", "collectstatic",
                      {"bind": "127.0.0.1:8123", "processes": 3, "threads": 4, "consumer": True, "quiet": False}]


def test_no_setup_leaves_migrations_and_static_files_to_the_deployment(served):
    call_command("serve", "--port", "8125", "--processes", "2", "--no-setup")
    assert [kw["processes"] for kw in served] == [2]


@pytest.mark.parametrize("how", ["setting", "flag"])
def test_no_consumer_when_the_queue_has_its_own_workers(served, settings, how):
    settings.POWTS_QUEUE_URL = "redis://127.0.0.1:6379/0" if how == "setting" else ""
    call_command("serve", "--port", "8124", *(["--no-worker"] if how == "flag" else []))
    assert [kw["consumer"] for kw in served if isinstance(kw, dict)] == [False]


def test_the_default_on_sqlite_is_one_single_thread_process_per_core_two_to_eight(monkeypatch):
    monkeypatch.setattr(serve, "_on_postgresql", lambda: False)
    for cores, expected in [(1, 2), (2, 2), (3, 3), (8, 8), (9, 8), (None, 2)]:
        monkeypatch.setattr(os, "cpu_count", lambda c=cores: c)
        assert (serve.default_processes(), serve.default_threads()) == (expected, 1)


def test_the_default_on_postgresql_is_one_single_thread_process_per_core_two_to_sixteen(monkeypatch):
    monkeypatch.setattr(serve, "_on_postgresql", lambda: True)
    for cores, expected in [(1, 2), (2, 2), (3, 3), (16, 16), (17, 16), (None, 2)]:
        monkeypatch.setattr(os, "cpu_count", lambda c=cores: c)
        assert (serve.default_processes(), serve.default_threads()) == (expected, 1)


def test_only_the_first_worker_takes_the_consumer_and_a_replacement_takes_it_over(monkeypatch, settings, tmp_path):
    """One consumer per data directory: the lock file decides; when its worker exits, the next one takes it."""
    settings.DATA_DIR = tmp_path
    started = []

    class Consumer:
        def stop(self, graceful=False):
            started.remove(self)

    monkeypatch.setattr("powts.core.queue.start_consumer", lambda **kw: started.append(Consumer()) or started[-1])

    class Worker:
        pid = os.getpid()
        log = type("Log", (), {"info": staticmethod(lambda *a: None)})()

    first, second, third = Worker(), Worker(), Worker()
    serve._start_consumer_if_first(first)
    serve._start_consumer_if_first(second)
    assert len(started) == 1 and hasattr(first, "powts_consumer") and not hasattr(second, "powts_consumer")
    serve._worker_exit(None, first)
    assert started == []
    serve._start_consumer_if_first(third)
    assert len(started) == 1 and hasattr(third, "powts_consumer")
    serve._worker_exit(None, third)


def test_the_embedded_queue_is_huey_on_sqlite_in_the_data_directory(settings):
    assert settings.HUEY["huey_class"] == "huey.SqliteHuey"
    assert settings.HUEY["filename"] == str(settings.DATA_DIR / "queue.sqlite3")
