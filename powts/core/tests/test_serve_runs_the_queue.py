"""Issue 10: the one-command start still does everything: `powts serve` runs the task queue's consumer beside
the web server (and stops it after), unless the queue has workers of its own (POWTS_QUEUE_URL, or --no-worker)."""
import pytest
from django.core.management import call_command


@pytest.fixture
def served(monkeypatch, settings, tmp_path):
    events = []

    class Consumer:
        def stop(self, graceful=False):
            events.append(("stop", graceful))

    monkeypatch.setattr("powts.core.queue.start_consumer", lambda **kw: events.append(("start",)) or Consumer())
    monkeypatch.setattr("waitress.serve", lambda app, **kw: events.append(("serve", kw["port"])))
    monkeypatch.setattr("django.core.management.commands.migrate.Command.handle", lambda self, *a, **k: None)
    monkeypatch.setattr("django.contrib.staticfiles.management.commands.collectstatic.Command.handle", lambda self, *a, **k: "")
    return events


def test_serve_starts_the_consumer_then_the_web_server_and_stops_the_consumer_after(served, settings):
    settings.POWTS_QUEUE_URL = ""
    call_command("serve", "--port", "8123")
    assert served == [("start",), ("serve", 8123), ("stop", True)]


@pytest.mark.parametrize("how", ["setting", "flag"])
def test_no_consumer_when_the_queue_has_its_own_workers(served, settings, how):
    settings.POWTS_QUEUE_URL = "redis://127.0.0.1:6379/0" if how == "setting" else ""
    call_command("serve", "--port", "8124", *(["--no-worker"] if how == "flag" else []))
    assert served == [("serve", 8124)]


def test_the_embedded_queue_is_huey_on_sqlite_in_the_data_directory(settings):
    assert settings.HUEY["huey_class"] == "huey.SqliteHuey"
    assert settings.HUEY["filename"] == str(settings.DATA_DIR / "queue.sqlite3")
