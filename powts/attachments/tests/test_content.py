"""Documents and photos: "Type and size checked by content, not by name"; bad input: "a file that is not what
it says (an executable named .pdf), an oversized upload: a clear message naming the file"."""
import io

import pytest

from powts.attachments import choices as c
from powts.attachments.content import FileRefused, check
from powts.attachments.tests import samples

BIG = 10**9


def run(content: bytes, *, name="file", kind="other", max_bytes=BIG):
    return check(io.BytesIO(content), name=name, kind=kind, max_bytes=max_bytes)


@pytest.mark.parametrize("content,kind,expected", [
    (samples.pdf(), "plan", c.PDF),
    (samples.image("JPEG"), "photo", c.JPEG),
    (samples.image("PNG"), "plan", c.PNG),
    (samples.image("WEBP"), "photo", c.WEBP),
    (samples.heic(), "photo", c.HEIC),
])
def test_accepted_types_are_detected_from_the_bytes(content, kind, expected):
    # the name says otherwise; the content decides
    assert run(content, name="whatever.txt", kind=kind).content_type == expected


def test_an_executable_named_pdf_is_refused_naming_the_file_and_what_it_is():
    with pytest.raises(FileRefused) as err:
        run(samples.exe(), name="site-plan.pdf", kind="plan")
    assert err.value.field == "file"
    assert "site-plan.pdf" in err.value.message and "a Windows program (executable)" in err.value.message
    assert "PDF, JPEG or PNG" in err.value.message


def test_a_file_that_only_starts_like_a_pdf_is_refused_by_the_structure_check():
    with pytest.raises(FileRefused, match=r"fake\.pdf starts like a PDF but cannot be read"):
        run(b"%PDF-1.7\n" + b"MZ not really a pdf" * 50, name="fake.pdf", kind="plan")


def test_a_truncated_jpeg_is_refused():
    with pytest.raises(FileRefused, match="cannot be read"):
        run(samples.image("JPEG")[:40], name="cut.jpg", kind="photo")


def test_each_kind_takes_its_own_types():
    """A PDF is a paper, not a photo; a HEIC photo is not a plan."""
    with pytest.raises(FileRefused, match="not accepted as a photo"):
        run(samples.pdf(), name="a.pdf", kind="photo")
    with pytest.raises(FileRefused, match="its content is HEIC"):
        run(samples.heic(), name="a.heic", kind="plan")


def test_plain_text_and_empty_files_are_refused():
    with pytest.raises(FileRefused, match="its content is plain text"):
        run(b"just some words\n", name="notes.pdf", kind="plan")
    with pytest.raises(FileRefused, match="empty.pdf is empty"):
        run(b"", name="empty.pdf", kind="plan")


def test_size_limit_both_sides():
    content = samples.pdf()
    assert run(content, kind="plan", max_bytes=len(content)).size == len(content)  # exactly the limit: accepted
    with pytest.raises(FileRefused) as err:
        run(content, name="plans.pdf", kind="plan", max_bytes=len(content) - 1)
    assert "plans.pdf is larger than" in err.value.message and "the most a plan may be" in err.value.message


def test_sha256_and_size_are_of_the_whole_file():
    import hashlib

    content = samples.pdf(pages=3)
    checked = run(content, kind="plan")
    assert checked.sha256 == hashlib.sha256(content).hexdigest() and checked.size == len(content)
