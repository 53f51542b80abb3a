"""One record's news reaching the records it concerns: `publish(name, **payload)` calls each subscriber.

A service that changes a record says what happened (`publish("permit.final_approved", permit=p, on=day)`);
the apps that own the other records subscribe in their AppConfig.ready (`subscribe(name, fn)`). The
publisher never imports them, and every reaction is written next to the data it changes.

Why not Django signals: a signal receiver is found by import side effects and a model signal fires on
every save (bulk imports included), so what reacts to what is hard to see. Here each event is named
once in EVENTS with the payload it carries; publishing an unknown name, or a payload without its
names, is a programming error raised at once; `subscribers(name)` lists who reacts, in order.

Subscribers run in the publisher's transaction, inside a savepoint: if one fails, the exception
reaches the publisher and nothing of the action or of any reaction is kept. Side effects outside the
database (mail) belong in `transaction.on_commit`, as everywhere else.
"""
from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

# name -> the payload keys every publisher gives (subscribers take them as keyword arguments).
EVENTS: dict[str, tuple[str, ...]] = {
    # A sanitary permit's final approval: the system is installed, inspected and approved.
    "permit.final_approved": ("permit", "on"),
    # A determination that a system is failing (Wis. Stat. s. 145.01(4m)).
    "failure.determined": ("determination",),
    # A correction order closed as corrected.
    "correction_order.corrected": ("order",),
    # A permit about to issue (permits.services.permit_issue): a subscriber refuses it by raising Refused
    # (the department's hold on a county's issuance, Wis. Stat. s. 145.20(3), powts.oversight).
    "permit.issuing": ("permit", "on"),
    # A public complaint received (Open311 or the county's form).
    "complaint.received": ("complaint",),
    # A final report of abandonment filed for a system.
    "abandonment.reported": ("report",),
    # The inventory's own news, for the apps built on it: a system installed under a permit (and the
    # systems it replaced), a system retired (replaced or abandoned). `source` is the record that caused
    # it (a permit, a report), `cause` the words every audit row names it by.
    "system.installed": ("system", "replaced", "source", "cause"),
    "system.retired": ("system", "source", "cause"),
    # A parcel named for new construction confirmed by county staff as it was entered (powts.inventory.pending).
    "parcel.confirmed": ("parcel", "cause"),
    # A pending parcel found to be one already on record: published before the pending one is removed, so
    # each app moves its records from `pending` to `into` in the same transaction.
    "parcel.merging": ("pending", "into", "cause"),
}

_subscribers: dict[str, list[Callable]] = {name: [] for name in EVENTS}


class UnknownEvent(LookupError):
    """An event name or payload not declared in EVENTS: a programming error, never a user's."""


def subscribe(name: str, fn: Callable) -> None:
    """Register `fn(**payload)` for `name`; registering the same function twice keeps one."""
    if name not in EVENTS:
        raise UnknownEvent(f"no event named {name!r}; known: {', '.join(sorted(EVENTS))}")
    if fn not in _subscribers[name]:
        _subscribers[name].append(fn)


def subscribers(name: str) -> list[Callable]:
    return list(_subscribers[name])


def publish(name: str, **payload) -> None:
    """Call every subscriber of `name` with the payload, in the caller's transaction."""
    if name not in EVENTS:
        raise UnknownEvent(f"no event named {name!r}; known: {', '.join(sorted(EVENTS))}")
    missing = [k for k in EVENTS[name] if k not in payload]
    if missing:
        raise UnknownEvent(f"event {name!r} published without {', '.join(missing)}")
    with transaction.atomic():
        for fn in _subscribers[name]:
            fn(**payload)
