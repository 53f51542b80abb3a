"""Small real files made on the spot (no binary fixtures in the repository)."""
import io


def pdf(pages: int = 1) -> bytes:
    from pypdf import PdfWriter

    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(width=612, height=792)
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def image(fmt: str = "JPEG", size=(32, 24)) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", size, (120, 90, 40)).save(buf, fmt)
    return buf.getvalue()


def _box(kind: bytes, body: bytes) -> bytes:
    import struct

    return struct.pack(">I", 8 + len(body)) + kind + body


def heic(picture: bytes = b"\x00" * 64) -> bytes:
    """A minimal HEIF structure, as an iPhone writes one: an ftyp box (brand heic, compatible mif1), a meta box with
    hdlr 'pict', the primary item (pitm), the item list (iinf, one hvc1 item) and its location (iloc), then mdat."""
    import struct

    full = b"\x00\x00\x00\x00"  # version 0, flags 0
    ftyp = _box(b"ftyp", b"heic" + b"\x00\x00\x00\x00" + b"mif1heic")
    hdlr = _box(b"hdlr", full + b"\x00" * 4 + b"pict" + b"\x00" * 12 + b"\x00")
    pitm = _box(b"pitm", full + struct.pack(">H", 1))
    infe = _box(b"infe", b"\x02\x00\x00\x00" + struct.pack(">HH", 1, 0) + b"hvc1" + b"\x00")
    iinf = _box(b"iinf", full + struct.pack(">H", 1) + infe)
    meta_len = 8 + 4 + len(hdlr) + len(pitm) + len(iinf) + 30
    iloc = _box(b"iloc", full + b"\x44\x00" + struct.pack(">HHHHII", 1, 1, 0, 1, len(ftyp) + meta_len + 8, len(picture)))
    meta = _box(b"meta", full + hdlr + pitm + iinf + iloc)
    assert len(meta) == meta_len
    return ftyp + meta + _box(b"mdat", picture)


def fake_heic() -> bytes:
    """The first 12 bytes of an iPhone picture (an ftyp box saying heic), then anything at all."""
    return b"\x00\x00\x00\x18ftypheic" + b"<html><script>alert(1)</script></html>" * 20


def exe() -> bytes:
    """A Windows executable's header (MZ, DOS stub, PE offset) with padding."""
    return (b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00\xb8" + bytes(43) + b"\x80\x00\x00\x00"
            + b"\x0e\x1f\xba\x0e\x00\xb4\x09\xcd\x21\xb8\x01\x4c\xcd\x21This program cannot be run in DOS mode.\r\r\n$"
            + bytes(300))


def upload(content: bytes, name: str, content_type: str = "application/octet-stream"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content, content_type=content_type)
