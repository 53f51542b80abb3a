"""Every passage quoted in the county profiles and the law parameters is in the text its citation names.

A citation whose quote is not in the text it cites is a reading nobody can check (once: the
state maintenance.yaml ATU and enforcement_order entries, state/profile.yaml, the test_citations entries,
a holding-tank quote of Dane's under an SPS citation). Each quote is looked for in the texts its citation
names ("s. 145.246" or "Act 19": the 2023 bill; another "s. 145.": the s. 145.20-145.245 excerpt; "s. 281.":
the s. 281.69-281.75 excerpt; "SPS" and the other reference facts: the README; "Dane", "Lincoln": the county
texts). An entry marked as from outside the texts (source: secondary, outside_texts: true, not_in_texts: true)
says where it comes from in its citation, in plain words ("(text not reproduced here)"), and no citation says
"not in texts" or "excerpt": people read citations. Quotes are compared with whitespace, case and typographic
quotes normalised; " ... " marks an elision, so each piece must appear, in order. The texts live at ../shared/law
beside the checkout (CI has them); a clone without them skips, saying so.
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
    return entry.get("source") == "secondary" or bool(entry.get("outside_texts")) or bool(entry.get("not_in_texts"))


# What a citation names -> the file of ../shared/law holding that text; a citation naming several texts is
# searched in each of them.
TEXT_FILES = (
    (re.compile(r"s\. 145\.246|Act 19"), "2023-sb70-ssa2-sections-400-414.txt"),
    (re.compile(r"s\. 145\.(?!246|01\b|135\b)"), "wis-stat-145.20-145.245.txt"),
    (re.compile(r"s\. 281\."), "wis-stat-281.69-281.75.txt"),
    (re.compile(r"\bSPS\b|s\. 145\.01\b|s\. 995\.20|s\. 230\.35"), "README.md"),  # the README's reference facts
    (re.compile(r"\bDane\b"), "dane-county-ch46-private-sewage.txt"),
    (re.compile(r"\bLincoln\b"), "lincoln-county-ch22-draft-private-sewage.txt"),
)
# Plain words a citation uses for a passage whose text is not among ours, or for a value a county sets where
# the text is silent; a source outside the law is named as a secondary source.
NOT_REPRODUCED = "text not reproduced here"
SAYS_WHERE = (NOT_REPRODUCED, "county setting", "county policy", "secondary source")
# Internal words that a citation, which people read, never says.
INTERNAL = re.compile(r"not in (the )?texts|outside the texts|excerpt|outside_texts|not_in_texts", re.I)


def cited_files(citation: str) -> list[str]:
    """The files of ../shared/law holding the texts `citation` names, each once."""
    return [name for pattern, name in TEXT_FILES if pattern.search(citation)]


def _citation_of(entry: dict) -> str:
    value = entry.get("citation") if isinstance(entry.get("citation"), str) else entry.get("section")
    return value if isinstance(value, str) else ""


def _cited_quotes(node, where, outside=False):
    """(where, quote, citation, marked outside) for every key named quote or ending in _quote; the citation is the
    mapping's `citation` (or a law parameter's `section`), or `<name>_citation` for `<name>_quote`."""
    if isinstance(node, dict):
        outside = outside or _outside(node)
        base = _citation_of(node)
        for key, value in node.items():
            if isinstance(key, str) and (key == "quote" or key.endswith("_quote")) and isinstance(value, str):
                own = node.get(key[: -len("quote")] + "citation") if key != "quote" else None
                yield f"{where}.{key}", value, own if isinstance(own, str) else base, outside
            else:
                yield from _cited_quotes(value, f"{where}.{key}", outside)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _cited_quotes(value, f"{where}[{i}]", outside)


def _citations(node, where):
    """(where, citation) for every citation people see: keys citation, section (a law parameter's) or *_citation."""
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(key, str) and key in ("citation", "section") or str(key).endswith("_citation"):
                if isinstance(value, str):
                    yield f"{where}.{key}", value
                    continue
            yield from _citations(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _citations(value, f"{where}[{i}]")


def _outside_entries(node, where):
    """(where, entry) for every mapping marked as from outside the texts that carries a citation."""
    if isinstance(node, dict):
        if _outside(node) and _citation_of(node):
            yield where, node
        for key, value in node.items():
            yield from _outside_entries(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _outside_entries(value, f"{where}[{i}]")


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


def _files():
    for base in SOURCES:
        for path in sorted(base.rglob("*.yaml")):
            yield str(path.relative_to(ROOT)), yaml.safe_load(path.read_text(encoding="utf-8")) or {}


def _need_texts():
    if not TEXTS.is_dir():
        pytest.skip(f"the law texts are not beside this checkout ({TEXTS}); CI has them at ../shared/law")


def test_every_quoted_passage_is_in_the_text_its_citation_names():
    """Each quote in profiles/*.yaml and law/parameters/*.yaml appears in a text its citation names (the README's
    reference facts for the SPS rules and the other statutes outside the texts), not merely somewhere: a Dane
    passage under an SPS citation fails, as does s. 145.246(11) quoted under a s. 145.245 citation alone."""
    _need_texts()
    texts = {p.name: _norm(p.read_text(encoding="utf-8")) for p in TEXTS.iterdir() if p.suffix in (".txt", ".md")}
    wrong = []
    for name, data in _files():
        for where, quote, citation, outside in _cited_quotes(data, name):
            if not quote.strip():
                continue
            files = cited_files(citation)
            if any(_found(quote, texts[f]) for f in files):
                continue
            elsewhere = [f for f in sorted(texts) if f not in files and _found(quote, texts[f])]
            if elsewhere:
                wrong.append(f"{where}: {quote!r} is in {', '.join(elsewhere)}, which {citation!r} does not name")
            elif not outside:
                wrong.append(f"{where}: {quote!r} is not in {', '.join(files) or 'any text'} (cited {citation!r})")
            # else: words of a text not reproduced here (the administrative code's table, a secondary source):
            # nothing to compare with; its citation says so (test_an_entry_from_outside_the_texts_says_so...)
    assert not wrong, f"{len(wrong)} quoted passage(s) not in the text cited:\n" + "\n".join(wrong)


def test_an_entry_from_outside_the_texts_says_so_in_its_citation():
    """An entry marked as from outside the texts tells the person reading its citation, in plain words, where it
    comes from: a text not reproduced here (e.g. "Wis. Admin. Code SPS 383.54(4) (text not reproduced here)"), a
    county setting or policy where the text is silent, or a secondary source."""
    wrong = [f"{where}: {entry.get('citation') or entry.get('section')!r}"
             for name, data in _files() for where, entry in _outside_entries(data, name)
             if not any(words in _citation_of(entry) for words in SAYS_WHERE)]
    assert not wrong, f"{len(wrong)} citation(s) from outside the texts do not say so:\n" + "\n".join(wrong)


def test_no_citation_says_internal_words():
    """Citations are what people read: "not in texts", "outside the texts" and "excerpt" belong in notes."""
    wrong = [f"{where}: {citation!r}" for name, data in _files() for where, citation in _citations(data, name)
             if INTERNAL.search(citation)]
    assert not wrong, f"{len(wrong)} citation(s) with internal words:\n" + "\n".join(wrong)


def test_citations_are_mapped_to_the_texts_they_name():
    """The map the quote check uses: each prefix to its file."""
    assert cited_files("Wis. Stat. s. 145.245(7)(c)") == ["wis-stat-145.20-145.245.txt"]
    assert cited_files("Wis. Stat. s. 145.246(11)(c)") == ["2023-sb70-ssa2-sections-400-414.txt"]
    assert cited_files("Wis. Stat. s. 281.75(7)(c)") == ["wis-stat-281.69-281.75.txt"]
    assert cited_files("Wis. Admin. Code SPS 383.54(4) (text not reproduced here)") == ["README.md"]
    assert cited_files("Dane County Code s. 46.06(5)(b)2.") == ["dane-county-ch46-private-sewage.txt"]
    assert cited_files("Lincoln County Ch. 22 (draft), Privies and Portable Restrooms (5)") == [
        "lincoln-county-ch22-draft-private-sewage.txt"]
    assert cited_files("Wis. Stat. s. 145.20(4); Dane County Code s. 46.06(5)(b)1.") == [
        "wis-stat-145.20-145.245.txt", "dane-county-ch46-private-sewage.txt"]
    assert cited_files("Dane County policy") == ["dane-county-ch46-private-sewage.txt"]


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
        if re.search(r"(not in|missing from) (the )?excerpt|text not reproduced here", said, re.I):
            continue
        for act, sub in CITED.findall(section):
            if not re.search(rf"^{re.escape(act + sub)}", labels[LABELLED[act]], re.MULTILINE):
                wrong.append(f"{where}: cites s. {act}{sub}, which is not in the excerpt")
    assert not wrong, "\n".join(wrong)
