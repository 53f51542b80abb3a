"""The task queue's consumer inside a web process: `powts serve` starts it in one of its workers, so the
one-command start runs background jobs too. With POWTS_QUEUE_URL (Redis)
the workers are separate processes (`powts worker`) and serve starts none."""
from __future__ import annotations

from django.conf import settings
from django.utils.module_loading import autodiscover_modules


def start_consumer(**options):
    """Huey's consumer as worker threads of this process; returns it (call `.stop(graceful=True)` to end it).
    Its own signal handlers are left out: the web server owns Ctrl-C and stops the consumer after itself."""
    from huey.contrib.djhuey import HUEY

    autodiscover_modules("tasks")  # every app's tasks.py, as run_huey does
    recover_interrupted()
    config = dict(settings.HUEY.get("consumer", {})) if isinstance(settings.HUEY, dict) else {}
    config.update(options)
    consumer = HUEY.create_consumer(**config)
    consumer._set_signal_handlers = lambda: None
    consumer.start()
    return consumer


# Hooks run when a consumer starts (before it takes work): an app whose jobs can be interrupted by a
# killed worker registers one that queues them again and returns how many it queued.
_RECOVERY_HOOKS: list = []


def on_worker_start(hook):
    _RECOVERY_HOOKS.append(hook)
    return hook


def recover_interrupted() -> int:
    return sum(int(hook() or 0) for hook in _RECOVERY_HOOKS)
