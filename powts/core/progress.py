"""Progress of a long command, on stderr: a bar with the count and the time left on a terminal (tqdm), and
otherwise (a service's log, a cron mail, a pipe) one line every POWTS_PROGRESS_SECONDS (5) seconds:

    powts backup: tables 12 of 140 (9%), about 40 s left

stdout stays the command's own output (`--json` stays pure JSON). A command opens `with Progress(...)`;
the services it calls, however deep, say how far they are with `report(done, total, "what")`, which does
nothing when no command is listening (the web, a job, a test). Nothing is printed for work that ends before
the first line is due.
"""
from __future__ import annotations

import contextvars
import os
import sys
import time

_current: contextvars.ContextVar[Progress | None] = contextvars.ContextVar("powts_progress", default=None)


def report(done: int, total: int | None = None, what: str = "") -> None:
    """How far the work is: `done` of `total` (None: not known) of the stage `what`; a no-op unless a command
    shows progress."""
    progress = _current.get()
    if progress is not None:
        progress.step(done, total, what)


def _seconds() -> float:
    try:
        return max(0.0, float(os.environ.get("POWTS_PROGRESS_SECONDS") or 5))  # 0: every step (tests)
    except ValueError:
        return 5.0


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 90:
        return f"{seconds} s"
    if seconds < 5400:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"


class Progress:
    """`with Progress("powts demo", unit="rows") as p: work(progress=p.step)`."""

    def __init__(self, label: str, *, unit: str = "", stream=None, every: float | None = None, tty: bool | None = None):
        self.label, self.unit = label, unit
        self.stream = stream if stream is not None else sys.stderr
        self.every = every if every is not None else _seconds()
        try:
            self.tty = self.stream.isatty() if tty is None else tty
        except (AttributeError, ValueError):
            self.tty = False
        self.what, self.done, self.total = "", 0, None
        self.started = self.stage_started = time.monotonic()
        self.last_line = self.started
        self.bar = None
        self._token = None

    def __enter__(self):
        self._token = _current.set(self)
        return self

    def __exit__(self, *exc):
        self.close()
        if self._token is not None:
            _current.reset(self._token)
            self._token = None
        return False

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def step(self, done: int, total: int | None = None, what: str = "") -> None:
        """`done` of `total` (None: not known) of the stage `what` (a new `what` starts a new count)."""
        if what != self.what:
            self.close()
            self.what, self.stage_started = what, time.monotonic()
        self.done, self.total = done, total
        if self.tty:
            self._bar(done, total)
            return
        now = time.monotonic()
        if now - self.last_line >= self.every:
            self.last_line = now
            print(self.line(now), file=self.stream, flush=True)

    def _bar(self, done, total) -> None:
        if self.bar is None:
            from tqdm import tqdm

            desc = f"{self.label}: {self.what}" if self.what and self.what != self.unit else self.label
            self.bar = tqdm(total=total, desc=desc, unit=f" {self.unit}" if self.unit else "it", file=self.stream,
                            dynamic_ncols=True, leave=False)
        if total is not None and self.bar.total != total:
            self.bar.total = total
        self.bar.update(done - self.bar.n)

    def line(self, now: float | None = None) -> str:
        now = time.monotonic() if now is None else now
        what = f" {self.what}" if self.what and self.what != self.unit else ""
        unit = f" {self.unit}" if self.unit else ""
        if self.total:
            share = min(self.done / self.total, 1.0)
            text = f"{self.label}:{what} {self.done:,} of {self.total:,}{unit} ({share:.0%})"
            spent = now - self.stage_started
            if share >= 0.02 and self.done < self.total and spent >= 1:  # too early, the guess would be wild
                left = spent * (self.total - self.done) / self.done
                text += f", about {_duration(left)} left" if left >= 1 else ", almost done"
            return text
        return f"{self.label}:{what} {self.done:,}{unit} so far ({_duration(now - self.started)})"


def note(text: str) -> None:
    """One line on stderr (what a command is about to do), never on stdout."""
    print(text, file=sys.stderr, flush=True)
