"""What a file is, from its bytes: never from its name or the browser's claimed type.

Two steps: the signature (puremagic, pure Python: the first bytes against a database of formats) says
what the file claims to be; then the structure is checked with a reader for that format (pypdf opens a
PDF and finds its pages, Pillow decodes an image's header and checks it), so a file that merely starts
with "%PDF" or an image header and holds something else is refused too. An executable renamed .pdf fails
the first step and the message names the file and what its content is.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

import puremagic

from powts.attachments import choices as c
from powts.core.refusals import Refused

HEAD_BYTES = 8192
CHUNK = 1024 * 1024
# ISO base media file brands of HEIF/HEIC pictures (what iPhones write).
HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1"}
# puremagic's type for our types (it calls HEIC "image/heif").
_FROM_MAGIC = {"application/pdf": c.PDF, "image/jpeg": c.JPEG, "image/png": c.PNG, "image/heif": c.HEIC,
               "image/heic": c.HEIC, "image/webp": c.WEBP}
# Programs and scripts, said in plain words (the likeliest dangerous file behind a wrong name).
_PROGRAMS = ((b"MZ", "a Windows program (executable)"), (b"\x7fELF", "a Linux program (executable)"),
             (b"\xcf\xfa\xed\xfe", "a macOS program (executable)"), (b"\xca\xfe\xba\xbe", "a macOS or Java program"),
             (b"#!", "a script (a program)"), (b"PK\x03\x04", "a ZIP archive"))
_PIL_FORMATS = {c.JPEG: "JPEG", c.PNG: "PNG", c.WEBP: "WEBP"}


class FileRefused(Refused):
    """An uploaded file refused for what it is or how big it is; the message names the file."""

    def __init__(self, message: str):
        super().__init__(message, field="file")


@dataclass(frozen=True)
class Checked:
    content_type: str
    size: int
    sha256: str


def words(types) -> str:
    names = [c.TYPE_WORDS[t] for t in types]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def megabytes(n: int) -> str:
    return f"{n / (1024 * 1024):.0f} MB" if n >= 1024 * 1024 else f"{n / 1024:.0f} KB"


def _signature(head: bytes) -> tuple[str | None, str]:
    """(our type or None, what the content looks like in words)."""
    if len(head) >= 12 and head[4:8] == b"ftyp" and head[8:12] in HEIF_BRANDS:
        return c.HEIC, "HEIC picture"
    try:
        matches = puremagic.magic_string(head)
    except puremagic.PureError:
        matches = []
    for m in matches:
        if m.mime_type in _FROM_MAGIC:
            return _FROM_MAGIC[m.mime_type], m.name
    for signature, plain in _PROGRAMS:
        if head.startswith(signature):
            return None, plain
    if matches:  # puremagic's longest match may be an obscure format; one with a MIME type reads better
        return None, next((m.name for m in matches if m.mime_type), matches[0].name)
    if head and all(b in b"\t\n\r" or 32 <= b < 127 for b in head[:512]):
        return None, "plain text"
    return None, "not a recognised document or picture"


def _structure_ok(fileobj, content_type: str) -> bool:
    fileobj.seek(0)
    try:
        if content_type == c.PDF:
            from pypdf import PdfReader

            return len(PdfReader(fileobj, strict=False).pages) >= 1
        if content_type in _PIL_FORMATS:
            from PIL import Image

            with Image.open(fileobj) as img:  # reads the header only
                if img.format != _PIL_FORMATS[content_type]:
                    return False
                img.verify()  # walks the data without decoding it into memory
            return True
        return True  # HEIC: the ftyp box above is the check (decoding needs libheif)
    except Exception:  # any reader error means: not a readable file of that type
        return False
    finally:
        fileobj.seek(0)


def check(fileobj, *, name: str, kind: str, max_bytes: int) -> Checked:
    """The file's detected type, size and sha256, or FileRefused naming `name`. Reads in chunks, stopping
    as soon as the size passes `max_bytes` (Django has streamed a large upload to a temporary file)."""
    fileobj.seek(0)
    digest, size, head = hashlib.sha256(), 0, b""
    while chunk := fileobj.read(CHUNK):
        if len(head) < HEAD_BYTES:
            head += chunk[:HEAD_BYTES - len(head)]
        size += len(chunk)
        if size > max_bytes:
            raise FileRefused(f"{name} is larger than {megabytes(max_bytes)}, the most a "
                              f"{c.Kind(kind).label.lower()} may be.")
        digest.update(chunk)
    if size == 0:
        raise FileRefused(f"{name} is empty.")
    allowed = c.ALLOWED[c.Kind(kind)]
    detected, looks_like = _signature(head)
    if detected not in allowed:
        what = c.TYPE_WORDS[detected] if detected else looks_like
        raise FileRefused(f"{name} is not accepted as a {c.Kind(kind).label.lower()}: its content is {what}, "
                          f"not a {words(allowed)} (the file's name does not decide its type).")
    if not _structure_ok(fileobj, detected):
        raise FileRefused(f"{name} starts like a {c.TYPE_WORDS[detected]} but cannot be read as one; "
                          "it may be damaged or not what its name says.")
    return Checked(content_type=detected, size=size, sha256=digest.hexdigest())
