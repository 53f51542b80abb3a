"""What a file is, from its bytes: never from its name or the browser's claimed type.

Two steps: the signature (puremagic, pure Python: the first bytes against a database of formats) says
what the file claims to be; then the structure is checked with a reader for that format (pypdf opens a
PDF and finds its pages, Pillow decodes an image's header and checks it), so a file that merely starts
with "%PDF" or an image header and holds something else is refused too. An executable renamed .pdf fails
the first step and the message names the file and what its content is.
"""
from __future__ import annotations

import hashlib
import re
import struct
import time
from dataclasses import dataclass

import puremagic
from django.conf import settings

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
    # puremagic knows HEIC by its major brand only ("heic", "mif1"): an iPhone file says heic; one whose major brand is
    # another HEIF brand is still named as HEIC here, and its whole structure is read by heif_structure_ok.
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


class _TooMuch(Exception):
    """A document over one of the reading limits: the message says which, in plain words."""


# A page-tree array written out in the file: "/Kids [1 0 R 1 0 R ...]".
_KIDS = re.compile(rb"/Kids\s*\[([^\]]*)\]")
_REF = re.compile(rb"\d+\s+\d+\s+R")
_COUNT = re.compile(rb"/Count\s+(\d{1,20})")


def _pdf_limits(data: bytes, fileobj) -> None:
    """Open a PDF within POWTS_PDF_MAX_PAGES, POWTS_PDF_MAX_OBJECTS and POWTS_PDF_MAX_SECONDS, or raise _TooMuch.

    A page tree whose /Kids names one page 100,000 times (600 KB on disk) held a process for seconds in pypdf's
    reading of its pages. So, before pypdf: the page counts and page arrays written in the file are read with a
    pattern (milliseconds for 25 MB); then pypdf reads the cross-reference table (the object count) and the page tree
    is walked here, one node at a time, against the page limit and the clock, never through pypdf's own list of pages.
    """
    max_pages, max_objects = settings.POWTS_PDF_MAX_PAGES, settings.POWTS_PDF_MAX_OBJECTS
    deadline = time.monotonic() + settings.POWTS_PDF_MAX_SECONDS
    too_many = f"more than {max_pages:,} pages, the most a document may have"
    for m in _COUNT.finditer(data):
        if int(m.group(1)) > max_pages:
            raise _TooMuch(f"it says it has {int(m.group(1)):,} pages, {too_many}")
    for m in _KIDS.finditer(data):
        if len(_REF.findall(m.group(1))) > max_pages:
            raise _TooMuch(f"its page list names {too_many}")
    from pypdf import PdfReader
    from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject

    reader = PdfReader(fileobj, strict=False)
    objects = sum(len(v) for v in reader.xref.values()) + len(reader.xref_objStm)
    if objects > max_objects:
        raise _TooMuch(f"it has {objects:,} objects, more than {max_objects:,}")
    pages, seen = 0, set()
    stack = [reader.trailer["/Root"].get_object()["/Pages"]]
    while stack:
        if time.monotonic() > deadline:
            raise _TooMuch(f"it takes longer than {settings.POWTS_PDF_MAX_SECONDS} seconds to read")
        node = stack.pop()
        if isinstance(node, IndirectObject):
            key = (node.idnum, node.generation)
            if key in seen:  # a page or a branch named twice (or a loop): each counts once, and is read once
                continue
            seen.add(key)
            if len(seen) > max_objects:
                raise _TooMuch(f"its page tree has more than {max_objects:,} parts")
        node = node.get_object()
        if not isinstance(node, DictionaryObject):
            continue
        kids = node.get("/Kids")
        if kids is None:
            if node.get("/Type") == "/Page":
                pages += 1
                if pages > max_pages:
                    raise _TooMuch(f"it has {too_many}")
            continue
        kids = kids.get_object()
        if not isinstance(kids, ArrayObject):
            continue
        if len(kids) > max_pages:
            raise _TooMuch(f"its page list names {too_many}")
        stack.extend(reversed(kids))
    if pages < 1:
        raise ValueError("no pages")


def _image_limits(fileobj, content_type: str) -> bool:
    """Open a picture within POWTS_IMAGE_MAX_PIXELS (Pillow's own limit, Image.MAX_IMAGE_PIXELS, is set from it when the
    application starts): a 12,000 x 12,000 PNG is 7 KB on disk and 430 MB decoded. Raises _TooMuch beyond it."""
    from PIL import Image

    limit = settings.POWTS_IMAGE_MAX_PIXELS
    too_big = f"more than {limit / 1_000_000:,.0f} megapixels, the most a picture may have"
    try:
        with Image.open(fileobj) as img:  # reads the header only
            width, height = img.size
            if width * height > limit:
                raise _TooMuch(f"it is {width:,} x {height:,} pixels, {too_big}")
            if img.format != _PIL_FORMATS[content_type]:
                return False
            img.verify()  # walks the data without decoding it into memory
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):  # Pillow's own check, at open (a warning
        raise _TooMuch(f"it is {too_big}") from None                        # raised as an error where warnings are)
    return True


def _structure_ok(fileobj, content_type: str) -> bool:
    """Whether the file reads as its type; _TooMuch when it is over a reading limit."""
    fileobj.seek(0)
    try:
        if content_type == c.PDF:
            _pdf_limits(fileobj.read(), fileobj)
            return True
        if content_type in _PIL_FORMATS:
            return _image_limits(fileobj, content_type)
        if content_type == c.HEIC:
            return heif_structure_ok(fileobj)
        return False
    except _TooMuch:
        raise
    except Exception:  # any reader error means: not a readable file of that type
        return False
    finally:
        fileobj.seek(0)


# ---------------------------------------------------------------- HEIF/HEIC (ISO base media file format)

HEIF_MAX_BOXES = 10_000


def _boxes(data: bytes, start: int, end: int):
    """The ISO-BMFF boxes (size, type) in data[start:end]: (type, content start, box end), or ValueError when a box
    runs past its parent, is shorter than its header, or has a type that is not four printable characters."""
    at, count = start, 0
    while at < end:
        count += 1
        if count > HEIF_MAX_BOXES or end - at < 8:
            raise ValueError("box header")
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        header = 8
        if size == 1:  # a 64-bit size follows the type
            if end - at < 16:
                raise ValueError("box header")
            size, header = struct.unpack(">Q", data[at + 8:at + 16])[0], 16
        elif size == 0:  # the box runs to the end of its parent
            size = end - at
        if size < header or at + size > end or not all(32 <= b < 127 for b in kind):
            raise ValueError("box size or type")
        yield kind, at + header, at + size
        at += size


def heif_structure_ok(fileobj) -> bool:
    """An HEIF/HEIC picture by its structure, not its first 12 bytes (pillow-heif is not installed, so it is not
    decoded): the file is a run of well-formed boxes from first byte to last; the first is `ftyp`, whose major or
    compatible brands name HEIF; a `meta` box holds a `hdlr` box whose handler is `pict` (a picture), a `pitm` (its
    primary item), an `iinf` and an `iloc` (where the items are); and an `mdat` box holds the data."""
    fileobj.seek(0)
    data = fileobj.read()
    try:
        return _heif_boxes_ok(data)
    except (ValueError, struct.error):
        return False


def _heif_boxes_ok(data: bytes) -> bool:
    top = list(_boxes(data, 0, len(data)))
    if not top or top[0][0] != b"ftyp":
        return False
    _, s, e = top[0]
    if e - s < 8 or (e - s - 8) % 4:
        return False
    brands = {data[s:s + 4]} | {data[i:i + 4] for i in range(s + 8, e, 4)}
    if not brands & HEIF_BRANDS:
        return False
    kinds = [k for k, _, _ in top]
    if kinds.count(b"meta") != 1 or b"mdat" not in kinds:
        return False
    _, s, e = top[kinds.index(b"meta")]
    inner = {k: (a, b) for k, a, b in _boxes(data, s + 4, e)}  # meta is a full box: version and flags first
    if not {b"hdlr", b"pitm", b"iinf", b"iloc"} <= inner.keys():
        return False
    a, b = inner[b"hdlr"]
    return b - a >= 12 and data[a + 8:a + 12] == b"pict"  # version+flags, pre_defined, then handler_type


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
    try:
        readable = _structure_ok(fileobj, detected)
    except _TooMuch as exc:
        raise FileRefused(f"{name} is not accepted: {exc}.") from None
    if not readable:
        raise FileRefused(f"{name} starts like a {c.TYPE_WORDS[detected]} but cannot be read as one; "
                          "it may be damaged or not what its name says.")
    return Checked(content_type=detected, size=size, sha256=digest.hexdigest())
