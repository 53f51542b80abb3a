"""Documents read within limits, as an attacker would send them: a PDF whose page tree names one page 100,000 times,
a 12,000 x 12,000 PNG of a few KB (a decompression bomb), a PDF that is also an HTML page, and a file with the first
12 bytes of an iPhone picture and anything after. Limits: settings POWTS_PDF_MAX_PAGES (2,000), POWTS_PDF_MAX_OBJECTS,
POWTS_PDF_MAX_SECONDS and POWTS_IMAGE_MAX_PIXELS (50 megapixels), the same in every county."""
import io
import time

import pytest
from django.test import Client

from powts.attachments import choices as c
from powts.attachments import services
from powts.attachments.content import FileRefused, check
from powts.attachments.tests import samples


def run(content: bytes, *, name="file", kind="plan"):
    return check(io.BytesIO(content), name=name, kind=kind, max_bytes=10**9)


def page_bomb(kids: int = 100_000, count: int | None = None) -> bytes:
    """A PDF whose page tree's /Kids names its one page `kids` times, with /Count `count` (default: kids)."""
    from pypdf import PdfWriter
    from pypdf.generic import ArrayObject, NameObject, NumberObject

    writer = PdfWriter()
    writer.add_blank_page(width=612, height=792)
    pages = writer.root_object["/Pages"].get_object()
    page = pages["/Kids"][0]
    pages[NameObject("/Kids")] = ArrayObject([page] * kids)
    pages[NameObject("/Count")] = NumberObject(kids if count is None else count)
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def test_a_pdf_page_tree_naming_one_page_100000_times_is_refused_in_under_a_second():
    bomb = page_bomb()
    assert len(bomb) < 1_000_000
    started = time.perf_counter()
    with pytest.raises(FileRefused, match="more than 2,000 pages"):
        run(bomb, name="plan.pdf")
    assert time.perf_counter() - started < 1.0


def test_a_pdf_page_bomb_that_says_it_has_one_page_is_refused_too():
    with pytest.raises(FileRefused, match="more than 2,000 pages"):
        run(page_bomb(count=1), name="plan.pdf")


def test_a_page_list_of_100000_is_refused_by_the_walk_when_not_written_out_plainly(monkeypatch):
    """The walk of the page tree has its own limit (an array inside a compressed object stream is not seen by the
    pattern that reads the file's bytes): with the pattern blind, the walk still refuses."""
    from powts.attachments import content

    monkeypatch.setattr(content, "_KIDS", content.re.compile(rb"(?!)"))
    monkeypatch.setattr(content, "_COUNT", content.re.compile(rb"(?!)"))
    with pytest.raises(FileRefused, match="page list names more than 2,000 pages"):
        run(page_bomb(), name="plan.pdf")


def test_pdf_pages_both_sides_of_the_limit(settings):
    settings.POWTS_PDF_MAX_PAGES = 3
    assert run(samples.pdf(pages=3)).content_type == c.PDF
    with pytest.raises(FileRefused, match="more than 3 pages"):
        run(samples.pdf(pages=4))


def test_pdf_objects_both_sides_of_the_limit(settings):
    from pypdf import PdfReader

    pdf = samples.pdf(pages=2)
    reader = PdfReader(io.BytesIO(pdf))
    objects = sum(len(v) for v in reader.xref.values()) + len(reader.xref_objStm)
    settings.POWTS_PDF_MAX_OBJECTS = objects
    assert run(pdf).content_type == c.PDF
    settings.POWTS_PDF_MAX_OBJECTS = objects - 1
    with pytest.raises(FileRefused, match=f"it has {objects} objects, more than {objects - 1}"):
        run(pdf)


def test_a_pdf_that_takes_too_long_to_walk_is_refused(settings):
    settings.POWTS_PDF_MAX_SECONDS = -1  # already past: the walk stops at its first step
    with pytest.raises(FileRefused, match="longer than -1 seconds"):
        run(samples.pdf())


def _png(width: int, height: int) -> bytes:
    """A black-and-white PNG of width x height, all black: its rows of zero bytes compress to almost nothing."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    rows = b"\x00" * ((1 + (width + 7) // 8) * height)  # each row: filter 0, then one bit a pixel
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def test_a_12000_by_12000_png_of_a_few_kb_is_refused_as_a_decompression_bomb():
    bomb = _png(12_000, 12_000)
    assert len(bomb) < 100_000
    with pytest.raises(FileRefused, match="more than 50 megapixels"):
        run(bomb, name="site.png", kind="photo")


@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")  # Pillow warns between 1 and 2 times its limit
def test_picture_pixels_both_sides_of_the_limit(settings):
    from PIL import Image

    settings.POWTS_IMAGE_MAX_PIXELS = 100 * 100
    before, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, 100 * 100  # as the application sets it from the setting
    try:
        assert run(_png(100, 100), kind="photo").content_type == c.PNG
        with pytest.raises(FileRefused, match="100 x 101 pixels"):
            run(_png(100, 101), kind="photo")
    finally:
        Image.MAX_IMAGE_PIXELS = before


def test_pillows_own_limit_is_the_setting():
    from PIL import Image

    assert Image.MAX_IMAGE_PIXELS == 50_000_000


def test_a_fake_heic_with_the_right_first_12_bytes_is_refused():
    fake = samples.fake_heic()
    assert fake[4:12] == b"ftypheic"
    with pytest.raises(FileRefused, match="starts like a HEIC but cannot be read as one"):
        run(fake, name="IMG_0001.HEIC", kind="photo")


def test_a_minimal_heif_structure_is_accepted_and_each_missing_part_refused():
    good = samples.heic()
    assert run(good, name="IMG_0001.HEIC", kind="photo").content_type == c.HEIC
    for broken in (good.replace(b"pict", b"vide"),                  # not a picture's handler
                   good.replace(b"iloc", b"xloc"),                  # no item locations
                   good.replace(b"mdat", b"free"),                  # no media data
                   good + b"\x00\x00",                              # bytes after the last box
                   good[:-1],                                       # the last box cut short
                   good.replace(b"\x00\x00\x00\x00mif1heic", b"\x00\x00\x00\x00isomavc1", 1).replace(b"ftypheic", b"ftypisom")):
        with pytest.raises(FileRefused):
            run(broken, name="IMG_0001.HEIC", kind="photo")


def _polyglot() -> bytes:
    """A real PDF with an HTML page in a comment: a browser told it is HTML runs the script."""
    pdf = samples.pdf()
    return pdf[:9] + b"%<html><script>alert(document.cookie)</script></html>\n" + pdf[9:]


def test_a_pdf_html_polyglot_named_html_downloads_as_a_pdf_attachment(permit, people):
    att = services.attachment_add(record=permit, kind="plan", upload=samples.upload(_polyglot(), "plan.html", "text/html"),
                                  uploaded_by=people["plumber"])
    assert att.content_type == c.PDF and att.original_name == "plan.html"  # the name is still shown as text
    client = Client()
    client.force_login(people["staff"])
    r = client.get(f"/attachments/{att.pk}/")
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf" and r["X-Content-Type-Options"] == "nosniff"
    disposition = r["Content-Disposition"]
    assert disposition == f'attachment; filename="permit-{permit.number.lower()}-plan-{att.pk}.pdf"'
    assert ".html" not in disposition
