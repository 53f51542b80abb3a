"""Every passage quoted in the county profiles and the law parameters is in the law texts.

A citation whose quote is not in the text it cites is a reading nobody can check (once: the
state maintenance.yaml ATU and enforcement_order entries, state/profile.yaml, the test_citations entries).
Entries marked as from outside the texts (source: secondary, outside_texts: true) are not checked.
Quotes are compared with whitespace, case and typographic quotes normalised; " ... " marks an elision,
so each piece must appear, in order. The texts live at ../shared/law beside the checkout (CI has them);
a clone without them skips, saying so.
"""
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
TEXTS = ROOT.parent / "shared" / "law"
SOURCES = [ROOT / "powts" / "jurisdictions" / "profiles", ROOT / "powts" / "law" / "parameters"]
ELISION = re.compile(r"\s*(?:\.\.\.|…)\s*")


def _norm(text: str) -> str:
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    text = text.replace("\u2013", "-").replace("\u2014", "-")
    return re.sub(r"\s+", " ", text).strip().lower()


def _outside(entry: dict) -> bool:
    """An entry its file marks as from outside the texts (a secondary source, the administrative code)."""
    return entry.get("source") == "secondary" or bool(entry.get("outside_texts"))


def _quotes(node, where):
    """(where, quote) for every key named quote or ending in _quote, but those marked outside the texts."""
    if isinstance(node, dict):
        if _outside(node):
            return
        for key, value in node.items():
            if isinstance(key, str) and (key == "quote" or key.endswith("_quote")) and isinstance(value, str):
                yield f"{where}.{key}", value
            else:
                yield from _quotes(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _quotes(value, f"{where}[{i}]")


# The transcriptions carry page headers, line numbers glued to words ("9this") and bill markers
# ("sb70-ssa2,350,2") inside sentences: between two quoted words a few such tokens may stand.
NOISE = r"(?:page|\S*\d\S*|\(\w{1,4}\))"


def _pattern(piece: str) -> re.Pattern:
    words = [r"\d{0,2}" + re.escape(w) for w in piece.split()]
    return re.compile((r"\s+(?:" + NOISE + r"\s+){0,6}").join(words))


def _found(quote: str, corpus: str) -> bool:
    at = 0
    for piece in ELISION.split(_norm(quote)):
        piece = piece.strip(" .;,")
        if not piece:
            continue
        match = _pattern(piece).search(corpus, at)
        if match is None:
            return False
        at = match.end()
    return True


def _all_quotes():
    for base in SOURCES:
        for path in sorted(base.rglob("*.yaml")):
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
            for where, quote in _quotes(data, str(path.relative_to(ROOT))):
                if quote.strip():
                    yield where, quote


def test_every_quoted_passage_is_in_the_law_texts():
    """Each quote in profiles/*.yaml and law/parameters/*.yaml appears in ../shared/law (README's
    reference facts included, for the SPS rules outside the texts)."""
    if not TEXTS.is_dir():
        pytest.skip(f"the law texts are not beside this checkout ({TEXTS}); CI has them at ../shared/law")
    corpus = " ".join(_norm(p.read_text(encoding="utf-8")) for p in sorted(TEXTS.iterdir()) if p.suffix in (".txt", ".md"))
    missing = [f"{where}: {quote!r}" for where, quote in _all_quotes() if not _found(quote, corpus)]
    assert not missing, f"{len(missing)} quoted passage(s) not in the texts:\n" + "\n".join(missing)


def test_the_check_finds_a_misquote():
    """The checker itself: a real passage passes, an altered one (and a placeholder) does not."""
    corpus = _norm("Notices of the maintenance due shall be sent by the department to the system owner at least 30 days prior.")
    assert _found("Notices of the maintenance due ... at least 30 days prior", corpus)
    assert not _found("at least 31 days prior", corpus)
    assert not _found("the subsection named beside each test", corpus)
    noisy = _norm("reasons for the Page 12 13 denial shall be forwarded; under 9this subsection")
    assert _found("reasons for the denial shall be forwarded", noisy) and _found("under this subsection", noisy)
    assert not _found("reasons for the approval shall be forwarded", noisy)


STATE_TEXTS = ("wis-stat-145.20-145.245.txt", "2023-sb70-ssa2-sections-400-414.txt", "wis-stat-281.69-281.75.txt", "README.md")
# The two statute excerpts label each subsection at the start of its line ("145.20(5)(b)").
LABELLED = {"145.20": "wis-stat-145.20-145.245.txt", "145.245": "wis-stat-145.20-145.245.txt",
            "281.75": "wis-stat-281.69-281.75.txt"}
CITED = re.compile(r"Wis\. Stat\. s\. (145\.20|145\.245|281\.75)((?:\(\w+\))+)")


def _state_entries():
    """(where, entry) of every dict with a quote in the state minimum's profile files and the law parameters."""
    bases = [ROOT / "powts" / "jurisdictions" / "profiles" / "state", ROOT / "powts" / "law" / "parameters"]

    def walk(node, where):
        if isinstance(node, dict):
            if isinstance(node.get("quote"), str) and node["quote"].strip() and not _outside(node):
                yield where, node
            for key, value in node.items():
                yield from walk(value, f"{where}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                yield from walk(value, f"{where}[{i}]")

    for base in bases:
        for path in sorted(base.glob("*.yaml")):
            yield from walk(yaml.safe_load(path.read_text(encoding="utf-8")) or {}, str(path.relative_to(ROOT)))


def test_state_quotes_come_from_state_texts_and_cited_subsections_exist():
    """Profile state/maintenance.yaml's ATU entry quoted Dane s. 46.11(5)1. under an SPS citation, the
    enforcement_order step cited s. 145.20(2)(f) (not in the excerpt) for words of s. 145.246(1)(a)2., and
    state/profile.yaml cited s. 145.20(1)(a), which the texts lack. A state quote comes from the state texts, and a
    cited subsection of a labelled excerpt is in it, unless the citation says it is not."""
    if not TEXTS.is_dir():
        pytest.skip(f"the law texts are not beside this checkout ({TEXTS}); CI has them at ../shared/law")
    state = " ".join(_norm((TEXTS / name).read_text(encoding="utf-8")) for name in STATE_TEXTS)
    counties = {"Dane": _norm((TEXTS / "dane-county-ch46-private-sewage.txt").read_text(encoding="utf-8")),
                "Lincoln": _norm((TEXTS / "lincoln-county-ch22-draft-private-sewage.txt").read_text(encoding="utf-8"))}
    labels = {name: (TEXTS / name).read_text(encoding="utf-8") for name in set(LABELLED.values())}
    wrong = []
    for where, entry in _state_entries():
        section = entry.get("section") or entry.get("citation") or ""
        section = section if isinstance(section, str) else ""
        # A county's words may stand in a state default only under a citation naming that county.
        said = f"{section} {entry.get('note') or ''}"  # the note says what the citation people see does not
        borrowed = any(name in said and _found(entry["quote"], text) for name, text in counties.items())
        if not _found(entry["quote"], state) and not borrowed:
            wrong.append(f"{where}: quote not in the state texts, nor in a county text its citation names: {entry['quote']!r}")
        if re.search(r"(not in|missing from) (the )?excerpt", said, re.I):
            continue
        for act, sub in CITED.findall(section):
            if not re.search(rf"^{re.escape(act + sub)}", labels[LABELLED[act]], re.MULTILINE):
                wrong.append(f"{where}: cites s. {act}{sub}, which is not in the excerpt")
    assert not wrong, "\n".join(wrong)
