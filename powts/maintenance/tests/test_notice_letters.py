"""The letters: the county's return address and contact from its profile; the owner's
address in the #10 window; the due date once and "above" only where it is above; citations, never
internal notes ("reminder timing not in texts", "46.11(5)1.."); a Spanish and a Hmong letter with the
English legal notice behind it; owners without a usable mailing address held back, never a blank block."""
import datetime as dt
import re

import pytest
from pypdf import PdfReader

from powts.kernel.cited import for_the_public
from powts.maintenance import addresses
from powts.maintenance.letter_text import CODES, texts
from powts.maintenance.letters import ADDRESS_X, WINDOW, Letter, one_letter_pdf
from powts.maintenance.models import Notice
from powts.maintenance.notices import notices_send, preview, sender_for
from powts.maintenance.profile import maintenance_profile
from powts.maintenance.services import schedule_sync

D = dt.date
KINDS = ["first_notice", "reminder", "delinquent", "violation", "enforcement_order"]
INTERNAL = re.compile(r"not in (the )?(texts?|excerpt|draft)|excerpt|chosen|placeholder|\.\.(?!\.)|interpretation|\bsetting\b", re.I)


def pages_of(data: bytes, tmp_path, name="letter.pdf"):
    path = tmp_path / name
    path.write_bytes(data)
    return PdfReader(path).pages


def positioned(page) -> list[tuple[float, float, str]]:
    """(x, y, text) of every piece of text drawn on the page, in page coordinates."""
    out = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            # ReportLab draws with the text matrix alone (no cm): the position is tm's translation
            out.append((tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5], text.strip()))

    page.extract_text(visitor_text=visit)
    return out


def a_letter(kind="first_notice", language="en", **kw):
    base = dict(kind=kind, to_name="Olive Owner", to_address="12 Lake Rd\nVerona, WI 53593", system_ref="DA-1",
                site_address="12 Lake Rd", system_type="Mound", due_on=D(2026, 7, 1), mailed_on=D(2026, 6, 1),
                citation="Dane County Code s. 46.11(5)1.", language=language)
    base.update(kw)
    return Letter(**base)


@pytest.fixture
def sender(dane):
    return sender_for(dane)


def test_return_address_phone_email_and_hours_come_from_the_county_profile(dane, sender, tmp_path):
    contact = dane.profile["contact"]
    text = " ".join(pages_of(one_letter_pdf(a_letter(), sender), tmp_path)[0].extract_text().split())
    for value in [contact["office"], *contact["address"], contact["phone"], contact["email"], contact["hours"]]:
        assert value in text, value


def test_missing_contact_refuses_the_batch_before_anything_is_recorded(dane, make_system, tmp_path, monkeypatch):
    from powts.core.refusals import Refused

    make_system(installed_on=D(2023, 7, 1))
    profile = dict(dane.profile)
    profile["contact"] = {"address": ["1 Main St", "Madison, WI 53703"], "phone": "", "email": "x@example.org", "hours": ""}
    monkeypatch.setattr(type(dane), "profile", property(lambda self: profile))
    with pytest.raises(Refused) as refused:
        notices_send(jurisdiction=dane, as_of=D(2026, 6, 1), output_dir=tmp_path)
    assert "phone number" in refused.value.message and "office hours" in refused.value.message
    assert not Notice.objects.exists()


@pytest.mark.parametrize("kind", KINDS)
def test_owner_address_sits_in_the_10_window_and_nothing_else_does(sender, tmp_path, kind):
    page = pages_of(one_letter_pdf(a_letter(kind), sender), tmp_path)[0]
    x0, y0, x1, y1 = WINDOW
    clear = 72 / 8
    inside = [(x, y, t) for x, y, t in positioned(page) if x0 <= x <= x1 and y0 <= y <= y1]
    assert [t for _, _, t in sorted(inside, key=lambda p: -p[1])] == ["Olive Owner", "12 Lake Rd", "Verona, WI 53593"]
    for x, y, _ in inside:
        assert x >= x0 + clear and y0 + clear <= y <= y1 - clear
        assert x == ADDRESS_X


def test_address_too_long_for_the_window_is_cut_not_spilled(sender, tmp_path):
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from powts.maintenance.letters import ADDRESS_WIDTH

    long = "12345 North County Highway Trunk Road Apartment Building C Unit 4000"
    page = pages_of(one_letter_pdf(a_letter(to_address=f"{long}\nVerona, WI 53593"), sender), tmp_path)[0]
    line = next(t for _, _, t in positioned(page) if t.startswith("12345"))
    assert line.endswith("...") and stringWidth(line, "Helvetica", 10) <= ADDRESS_WIDTH


@pytest.mark.parametrize("language", CODES)
@pytest.mark.parametrize("kind", KINDS)
def test_due_date_printed_once_and_referred_to_as_above(sender, tmp_path, kind, language):
    """The finding: "the due date below" when it was above. Every page prints the due date once, and the
    words that refer to it come after (below) it on the page."""
    for page in pages_of(one_letter_pdf(a_letter(kind, language), sender), tmp_path):
        text = page.extract_text()
        due = texts(language if "Due date" not in text else "en")
        label = due["due_label"]
        assert text.count(f"{label}:") == 1
        assert "below" not in text.lower()
        pieces = positioned(page)
        due_y = next(y for _, y, t in pieces if t.startswith(f"{label}:"))
        body = " ".join(t for _, y, t in pieces if y < due_y)
        assert due["body"][kind].split()[0] in body


@pytest.mark.parametrize("slug", ["dane", "lincoln", "state"])
@pytest.mark.parametrize("kind", KINDS)
def test_letters_cite_the_law_never_internal_notes(slug, kind, tmp_path, dane, lincoln):
    """The finding: "reminder timing not in texts" and "46.11(5)1.." printed to the homeowner."""
    from powts.jurisdictions.services import jurisdiction_ensure

    unit = {"dane": dane, "lincoln": lincoln}.get(slug)
    profile = maintenance_profile(slug)
    step = {s.kind: s.citation for s in profile.steps}
    cite = step.get(kind, profile.citations["lead_time"])
    sender = sender_for(unit or dane)
    if unit is None:
        sender = sender.__class__(**{**sender.__dict__, "lead_citation": for_the_public(profile.citations["lead_time"]),
                                     "report_citation": for_the_public(profile.citations["late"]),
                                     "who_may_do_it": profile.who_may_do_it})
    assert jurisdiction_ensure  # (the state profile has no county: its citations on Dane's letterhead)
    for page in pages_of(one_letter_pdf(a_letter(kind, citation=cite), sender), tmp_path):
        text = " ".join(page.extract_text().split())
        assert not INTERNAL.search(text), INTERNAL.search(text).group(0)
        assert for_the_public(cite) in text


@pytest.mark.parametrize("raw,shown", [
    ("SPS 383.255 (reminder timing not in texts)", "SPS 383.255"),
    ("Dane County Code s. 46.11(5)1. (compliance due by the due date; reminder timing not in texts)", "Dane County Code s. 46.11(5)1."),
    ("Wis. Stat. s. 145.246(1)(a)2. (a written enforcement order under s. 145.20(2)(f), which is not in the excerpt)",
     "Wis. Stat. s. 145.246(1)(a)2."),
    ("Dane County Code s. 46.11(5)1.", "Dane County Code s. 46.11(5)1."),
    ("Dane County Code s. 46.11(5)1..", "Dane County Code s. 46.11(5)1."),
])
def test_citation_for_the_public_keeps_the_section_drops_the_remark(raw, shown):
    assert for_the_public(raw) == shown


def test_authority_sentence_ends_once(sender, tmp_path):
    text = pages_of(one_letter_pdf(a_letter(), sender), tmp_path)[0].extract_text()
    assert "46.11(5)1.." not in text and "This notice is sent under Dane County Code s. 46.11(5)1." in text


@pytest.mark.parametrize("language", ["es", "hmn"])
def test_spanish_and_hmong_letters_come_with_the_english_legal_notice(sender, tmp_path, language):
    t = texts(language)
    pages = pages_of(one_letter_pdf(a_letter("reminder", language), sender), tmp_path)
    assert len(pages) == 2
    first, second = (" ".join(p.extract_text().split()) for p in pages)
    assert t["titles"]["reminder"] in first and t["legal_text"] in first and "Olive Owner" in first
    assert texts("en")["titles"]["reminder"] in second and "Due date: July 1, 2026" in second
    assert t["legal_text"] not in second


def test_english_letter_is_one_page_without_a_translation_note(sender, tmp_path):
    pages = pages_of(one_letter_pdf(a_letter(), sender), tmp_path)
    assert len(pages) == 1
    for code in CODES:
        if texts(code)["legal_text"]:
            assert texts(code)["legal_text"] not in pages[0].extract_text()


def test_every_translation_has_every_text_and_placeholder_of_the_english():
    def shape(value, path=""):
        if isinstance(value, dict):
            return {k: shape(v, f"{path}.{k}") for k, v in value.items()}
        if isinstance(value, list):
            return len(value)
        return tuple(sorted(re.findall(r"{(\w+)}", str(value))))

    english = texts("en")
    for code in CODES:
        other = texts(code)
        assert set(other) == set(english), code
        for key in english:
            if key in ("who", "legal_text"):  # the English names the county's own list; only translations carry the note
                continue
            assert shape(other[key]) == shape(english[key]), (code, key)
        if code != "en":
            assert other["legal_text"], code


@pytest.mark.parametrize("text,problem", [
    ("", "no mailing address on file"),
    ("12 Lake Rd", "the mailing address has no city, state and ZIP code line"),
    ("12 Lake Rd\nVerona, WI", "the mailing address has no ZIP code on its last line"),
    ("12 Lake Rd\nVerona, WI 53593", ""),
    ("12 Lake Rd, Verona, WI 53593-1234", ""),
    ("PO Box 7\nVerona, WI 53593", ""),
])
def test_a_usable_mailing_address_has_a_delivery_line_and_city_state_zip(text, problem):
    assert addresses.problem(text) == problem


@pytest.mark.django_db(transaction=True)
def test_owner_without_a_usable_address_is_held_back_and_listed_apart(dane, make_system, tmp_path):
    """The finding: a blank address block when the owner has none. Such owners get no letter (nothing recorded,
    so they come up again once fixed) and are listed apart; the others go out."""
    make_system(system_id="DA-1", installed_on=D(2023, 7, 1))
    make_system(system_id="DA-2", installed_on=D(2023, 7, 1), owner="Nora Noaddress", address="")
    make_system(system_id="DA-3", installed_on=D(2023, 7, 1), owner="Zed Nozip", address="4 Elm St\nVerona, WI")
    schedule_sync(jurisdiction=dane)
    found = preview(jurisdiction=dane, as_of=D(2026, 6, 1))
    assert [p.system_ref for p in found.letters] == ["DA-1"]
    assert {(p.system_ref, p.address_problem) for p in found.held} == {
        ("DA-2", "no mailing address on file"), ("DA-3", "the mailing address has no ZIP code on its last line")}
    result = notices_send(jurisdiction=dane, as_of=D(2026, 6, 1), output_dir=tmp_path)
    assert result.total == 1 and len(result.held) == 2
    assert list(Notice.objects.values_list("system__system_id", flat=True)) == ["DA-1"]
    # fixed: the owner is in the next batch
    from powts.inventory.models import Owner

    Owner.objects.filter(name="Zed Nozip").update(mailing_address="4 Elm St\nVerona, WI 53593")
    assert [p.system_ref for p in preview(jurisdiction=dane, as_of=D(2026, 6, 2)).letters] == ["DA-3"]


@pytest.mark.django_db(transaction=True)
def test_owner_language_picks_the_letter_and_is_kept_on_the_notice(dane, make_system, tmp_path):
    system = make_system(installed_on=D(2023, 7, 1))
    owner = system.parcel.owner
    owner.language = "es"
    owner.save()
    result = notices_send(jurisdiction=dane, as_of=D(2026, 6, 1), output_dir=tmp_path)
    notice = Notice.objects.get()
    assert notice.language == "es"
    merged = PdfReader(result.merged_file).pages
    assert len(merged) == 2 and texts("es")["titles"]["first_notice"] in merged[0].extract_text()
    assert "Due date: July 1, 2026" in merged[1].extract_text()


@pytest.mark.parametrize("language", CODES)
@pytest.mark.parametrize("kind", KINDS)
def test_the_letters_own_text_ends_above_the_shared_part_in_every_language(sender, kind, language):
    """The longest title and body (Hmong, an enforcement order) with the translation note still end above "What to do"."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from powts.maintenance.letters import SHARED_TOP, _draw_variable

    long = a_letter(kind, language, site_address="12345 North County Highway Trunk Road, Town of Somewhere Far")
    end = _draw_variable(Canvas(io.BytesIO()), long, language)
    assert end > SHARED_TOP + 14
