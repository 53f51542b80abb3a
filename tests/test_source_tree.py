"""No county name or county section number is written in Python
outside tests and profiles (and, at the end, no source file or template names a work item by number). County differences are data (powts/jurisdictions/profiles/<county>/*.yaml,
each value cited) read through powts.kernel; this test walks every .py under powts/ (code, strings,
docstrings and comments alike) and names file:line of each hit.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from powts.kernel import profiles

ROOT = Path(__file__).resolve().parent.parent
POWTS = ROOT / "powts"

# The 72 counties of Wisconsin (test data: the texts in /work/shared/law name only two of them).
COUNTIES = [
    "Adams", "Ashland", "Barron", "Bayfield", "Brown", "Buffalo", "Burnett", "Calumet", "Chippewa", "Clark",
    "Columbia", "Crawford", "Dane", "Dodge", "Door", "Douglas", "Dunn", "Eau Claire", "Florence", "Fond du Lac",
    "Forest", "Grant", "Green", "Green Lake", "Iowa", "Iron", "Jackson", "Jefferson", "Juneau", "Kenosha",
    "Kewaunee", "La Crosse", "Lafayette", "Langlade", "Lincoln", "Manitowoc", "Marathon", "Marinette", "Marquette",
    "Menominee", "Milwaukee", "Monroe", "Oconto", "Oneida", "Outagamie", "Ozaukee", "Pepin", "Pierce", "Polk",
    "Portage", "Price", "Racine", "Richland", "Rock", "Rusk", "St. Croix", "Sauk", "Sawyer", "Shawano",
    "Sheboygan", "Taylor", "Trempealeau", "Vernon", "Vilas", "Walworth", "Washburn", "Washington", "Waukesha",
    "Waupaca", "Waushara", "Winnebago", "Wood",
]
# Names that are also ordinary words, first names or other places ("grant", "green", "rock", "Iowa"...):
# a hit only as "<Name> County" or "County of <Name>". Every other name is a hit anywhere, in any case
# (a slug like "dane" in `if county == "dane"` is the very thing this test is for).
ORDINARY = {
    "Adams", "Ashland", "Barron", "Brown", "Buffalo", "Burnett", "Calumet", "Clark", "Columbia", "Crawford",
    "Dodge", "Door", "Douglas", "Dunn", "Florence", "Forest", "Grant", "Green", "Green Lake", "Iowa", "Iron",
    "Jackson", "Jefferson", "Juneau", "Lafayette", "Marathon", "Marquette", "Menominee", "Monroe", "Oneida",
    "Pepin", "Pierce", "Polk", "Portage", "Price", "Racine", "Richland", "Rock", "Rusk", "Sauk", "Sawyer",
    "Taylor", "Vernon", "Vilas", "Washington", "Wood",
}
# Headings of Lincoln County's ch. 22 draft, which is cited by heading and subsection ("Permit
# Expiration (2)"): a heading followed by a subsection number is an ordinance citation.
LINCOLN_HEADINGS = [
    "Statutory Authority", "Repeal and Effective Date", "Severability and Liability", "Incorporation of Provisions",
    "Abandonment of Private Sewage Systems", "Soil and Site Evaluation", "Sanitary Permits", "Application Requirements",
    "Permit Cards", "Permit Expiration", "Transfer of Ownership", "Change of Plumbers", "Permit Denial",
    "Construction Affecting Wastewater Flow", "Construction Not Affecting Wastewater Flow",
    "Privies and Portable Restrooms", "Permit Fees", "Inspections General", "Site Constructed Holding Tanks",
    "Inspections of Nonplumbing Sanitary Systems", "Maintenance and Management", "Septic Tank Maintenance Program",
    "Holding Tank Maintenance Agreement", "Zoning Administrator Duties", "Appeals of Administrative Decisions",
    "Violations and Penalties", "County Authority and Responsibility", "Maintenance Requirements",
]

# Files of powts/permits allowed to carry hits until the branch that cleaned them merged (empty since);
# a file that is clean already fails the test below, so the list cannot outlive its hits.
PERMITS_ALLOWED_UNTIL_MERGE: set[str] = set()


def _name(n: str) -> str:
    return re.escape(n).replace(r"\ ", r"\s+")


def patterns() -> list[tuple[str, re.Pattern]]:
    profiled = {p.replace("_", " ").title() for p in profiles.available() if p != profiles.STATE_MINIMUM}
    anywhere = [n for n in COUNTIES if n not in ORDINARY or n in profiled]
    county_word = [n for n in COUNTIES if n in ORDINARY and n not in profiled]
    words = "|".join(_name(n) for n in county_word)
    return [
        ("county name", re.compile(r"(?<![\w-])(" + "|".join(_name(n) for n in anywhere) + r")(?![\w])", re.I)),
        ("county name", re.compile(rf"\b(?:({words})\s+County|County\s+of\s+({words}))\b", re.I)),
        # Dane County Code ch. 46: "s. 46.14(3)", "46.06(5)(b)"; not 146.05 or 2.46.1
        ("county section number", re.compile(r"(?<![\d.])46\.\d{2}\b")),
        ("county section number", re.compile(r"\bch(?:apter|\.)\s*22\b", re.I)),
        ("county section number",
         re.compile(r"\b(" + "|".join(_name(h) for h in LINCOLN_HEADINGS) + r")\b[^()\n]{0,40}\(\d", re.I)),
    ]


def hits_in(text: str, label: str) -> list[str]:
    out = []
    pats = patterns()
    for lineno, line in enumerate(text.splitlines(), 1):
        for what, pat in pats:
            m = pat.search(line)
            if m:
                out.append(f"{label}:{lineno}: {what} {m.group(0)!r}: {line.strip()[:120]}")
    return out


def source_files() -> list[Path]:
    # tests/ folders may name counties (they test the profiles); migrations are history: a model's
    # text changed since is in a later migration, which this walk reads
    return sorted(p for p in POWTS.rglob("*.py")
                  if "tests" not in p.relative_to(POWTS).parts and "migrations" not in p.relative_to(POWTS).parts)


def test_no_county_name_or_section_number_in_python():
    found, clean_but_allowed = [], []
    for path in source_files():
        rel = path.relative_to(ROOT).as_posix()
        hits = hits_in(path.read_text(encoding="utf-8"), rel)
        if rel in PERMITS_ALLOWED_UNTIL_MERGE:
            if not hits:
                clean_but_allowed.append(rel)
            continue
        found += hits
    assert not found, "county names or section numbers written in Python (move them into the profile YAML):\n" + \
        "\n".join(found)
    assert not clean_but_allowed, f"clean now: remove from PERMITS_ALLOWED_UNTIL_MERGE: {clean_but_allowed}"


@pytest.mark.parametrize("line", [
    'if county == "dane":',
    "    cite = 'Dane County Code s. 46.14(3)(a)4.'",
    '"""See LINCOLN\'s ordinance."""',
    "x = 'Grant County Code'",
    "# as the County of Rock does",
    "msg = 's. 46.09(3)(e)'",
    "why = 'Ch. 22 (draft)'",
    "cite = 'Permit Expiration (2)'",
    "cite = 'Inspections General (5)'",
    'slug = "eau claire"',
])
def test_the_walk_finds(line):
    assert hits_in(line, "x.py"), line


@pytest.mark.parametrize("line", [
    'PROGRAM = "wisconsin-fund-grant"',
    "Grant output: id, eligible, amount",
    "color = 'green'; rock = 1; wood = 2",
    "amount = 146.05 + 2.46",
    "schedule = 'Permit expiration'",
])
def test_the_walk_lets_ordinary_words_be(line):
    assert not hits_in(line, "x.py"), line


def test_every_county_is_listed_once():
    assert len(COUNTIES) == 72 == len(set(COUNTIES))
    assert ORDINARY <= set(COUNTIES)


# -- work items by number -------------------------------------------------------------------------------------------
# "issue 13, item 4", "stop 31", "a later issue": a reader a year on has no list of those numbers. A test is named
# for the behaviour it checks and a comment says what the code does and why (with the law's citation where there
# is one). "item" alone is law text too ("item (2)", "Items 1. and 2.a.-c."), so it is a hit only where it reads
# as a work item: a number followed by ":", ",", ";", ")" or "of/for/and/in/on", as in "Item 5: ...".
WORK_ITEM_PATTERNS = [
    re.compile(r"(?<![\w-])(?:issue|stop)s?\s?#?\d+", re.I),
    re.compile(r"(?<![\w-])(?<!line )items?\s\d+(?:\s*(?:,|-|and)\s*\d+)*(?=\s*[:;,)]|\s+(?:of|for|and|in|on)\b)",
               re.I),
    re.compile(r"\b(?:a|the)\s+(?:later|earlier)\s+issues?\b", re.I),
    re.compile(r"What must be true\"?\s*\d", re.I),
]


def work_item_hits(text: str, label: str) -> list[str]:
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        for pat in WORK_ITEM_PATTERNS:
            m = pat.search(line)
            if m:
                out.append(f"{label}:{lineno}: {m.group(0)!r}: {line.strip()[:120]}")
    return out


def files_that_may_not_name_work_items() -> list[Path]:
    """Every .py under powts/ (migrations excepted: landed migrations are never edited) and tests/, and every
    template under powts/; not this file, whose examples below are the very lines the walk must find."""
    code = [p for p in POWTS.rglob("*.py") if "migrations" not in p.relative_to(POWTS).parts]
    return sorted({*code, *(ROOT / "tests").rglob("*.py"), *POWTS.rglob("*.html")} - {Path(__file__).resolve()})


def test_no_source_file_or_template_names_a_work_item_by_number():
    found = []
    for path in files_that_may_not_name_work_items():
        rel = path.relative_to(ROOT).as_posix()
        found += work_item_hits(path.read_text(encoding="utf-8"), rel)
    assert not found, ("work items named by number (say the behaviour, or what the code does and why, instead):\n"
                       + "\n".join(found))


@pytest.mark.parametrize("line", [
    "# issue 13, item 4",
    '"""Issue 8, item 2: who may file a maintenance report."""',
    '"""Item 5: two imports of one county at once."""',
    "x = 1  # the heartbeat (stop 18, left for later)",
    "# see issues 10 and 11",
    "# fixed for issue #12",
    "Reserved for redis://... (a later issue).",
    '"""Issue 8, "What must be true" 3: every bad input gets a 4xx."""',
    "    # item 8 for this file: 0600",
])
def test_the_work_item_walk_finds(line):
    assert work_item_hits(line, "x.py"), line


@pytest.mark.parametrize("line", [
    "Items 1. and 2.a.-c. are missing from the excerpt",
    "the cost items listed in item (2) of the schedule",
    "refuse(f'not after the issue date {permit.issued_on}')",
    "a permit issued 2026-01-05 by the county",
    "a non-stop 24-hour service",
    "invoice line item 3: pumping",
    "stopped 5 times; issues: none",
])
def test_the_work_item_walk_lets_law_text_and_ordinary_words_be(line):
    assert not work_item_hits(line, "x.py"), line
