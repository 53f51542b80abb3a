"""What a web process does once, after Django is set up and before it answers requests."""
from __future__ import annotations

import gc


def settle() -> None:
    """Load every view (the URLconf imports them), then move what is loaded into the collector's permanent
    generation (gc.freeze). Why: a request allocates thousands of objects (model rows, template nodes), and
    every few requests the collector's oldest generation is scanned in full; with the code and settings of
    the whole project in it (about 200,000 objects) one scan took 30-300 ms, inside whichever request
    triggered it (the dashboard's p95). Frozen objects are never scanned again. Before a fork (gunicorn's
    workers) it also keeps the shared pages shared: no collection writes to the parent's objects."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # imports every app's views now, not in the first request
    gc.collect()
    gc.freeze()
