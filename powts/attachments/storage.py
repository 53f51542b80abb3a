"""Where attachment bytes live: the "attachments" entry of settings.STORAGES (the data directory by
default, files 0600; S3-compatible storage with POWTS_STORAGE=s3). Stored names are random, never the
uploader's file name, so no upload can choose or guess a path."""
from __future__ import annotations

import uuid
from contextlib import contextmanager
from contextvars import ContextVar

from django.core.files.storage import storages
from django.utils import timezone

from powts.attachments import choices as c

_SAVED: ContextVar[list | None] = ContextVar("attachments_saved", default=None)


def storage():
    return storages["attachments"]


def new_name(content_type: str) -> str:
    now = timezone.now()
    return f"{now:%Y/%m}/{uuid.uuid4().hex}.{c.EXTENSIONS[content_type]}"


def save(name: str, fileobj) -> str:
    fileobj.seek(0)
    stored = storage().save(name, fileobj)
    saved = _SAVED.get()
    if saved is not None:
        saved.append(stored)
    return stored


def delete_quietly(name: str) -> None:
    try:
        storage().delete(name)
    except Exception:  # the row is gone either way; a stray file is harmless, a 500 is not
        pass


@contextmanager
def discarded_on_failure():
    """Around a transaction that saves files: if it fails, the files it saved are deleted too, so a
    refused request leaves neither rows nor bytes behind."""
    saved: list[str] = []
    token = _SAVED.set(saved)
    try:
        yield
    except BaseException:
        for name in saved:
            delete_quietly(name)
        raise
    finally:
        _SAVED.reset(token)
