"""Who is acting and through what, carried alongside the work (web request, API call, import, job).

Services read it when they write audit events, so a service never needs the request passed in.
"""
from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass, replace

from powts.audit.choices import Channel


@dataclass(frozen=True)
class AuditContext:
    channel: str = Channel.SYSTEM
    actor: object | None = None  # a User, or None
    actor_label: str = ""
    batch: str = ""
    # The web request, read when the change is written: DRF authenticates tokens inside the view,
    # after middleware ran, and sets request.user then.
    request: object | None = None

    def resolved_actor(self):
        if self.actor is not None:
            return self.actor
        user = getattr(self.request, "user", None)
        return user if user is not None and user.is_authenticated else None


_current: contextvars.ContextVar[AuditContext] = contextvars.ContextVar("powts_audit", default=AuditContext())


def current() -> AuditContext:
    return _current.get()


@contextlib.contextmanager
def acting(**fields):
    """`with acting(channel=Channel.IMPORT, actor_label="powts import", batch=...):`"""
    token = _current.set(replace(_current.get(), **fields))
    try:
        yield _current.get()
    finally:
        _current.reset(token)
