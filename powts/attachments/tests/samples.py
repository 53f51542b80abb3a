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


def heic() -> bytes:
    """The start of an iPhone picture: an ISO-BMFF ftyp box with the heic brand, then a meta box."""
    return b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00\x00\x00\x10meta" + bytes(200)


def exe() -> bytes:
    """A Windows executable's header (MZ, DOS stub, PE offset) with padding."""
    return (b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00\xb8" + bytes(43) + b"\x80\x00\x00\x00"
            + b"\x0e\x1f\xba\x0e\x00\xb4\x09\xcd\x21\xb8\x01\x4c\xcd\x21This program cannot be run in DOS mode.\r\r\n$"
            + bytes(300))


def upload(content: bytes, name: str, content_type: str = "application/octet-stream"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content, content_type=content_type)
