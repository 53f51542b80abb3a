"""What each kind of job runs, registered by the app that owns the work (in its AppConfig.ready), so the
jobs app never imports the apps built on it.

A runner is `runner(job, progress) -> dict`: it reads what it needs from `job.params`, calls
`progress(done, total, step)` now and then, and returns the result to show (counts, a download). It
raises `Refused` to fail the job with a plain message. It must be safe to run again after a crash:
its writes are one transaction, or keyed so that a second run finds them done."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    name: str
    runner: Callable
    result_template: str = "jobs/_result_counts.html"


_kinds: dict[str, Kind] = {}


def register(name: str, runner: Callable, *, result_template: str = "jobs/_result_counts.html") -> Kind:
    kind = Kind(name=name, runner=runner, result_template=result_template)
    _kinds[name] = kind
    return kind


def get(name: str) -> Kind:
    return _kinds[name]
