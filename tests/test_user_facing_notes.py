"""No line a person sees (pages, letters, API and CLI messages, the
words of a decision) carries an internal note such as "not in texts", "outside the excerpt" or a path
into the repository. Those notes belong in the parameter and profile files' `note` keys and in
powts/law/README.md. This test collects what reaches people: every template, every string literal of
the code (docstrings and comments aside), every profile and law-parameter string but its notes, and
the words powts.law writes for every fixture application and claim.
"""
from __future__ import annotations

import ast
import csv
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
POWTS = ROOT / "powts"
PROFILES = POWTS / "jurisdictions" / "profiles"
PARAMETERS = POWTS / "law" / "parameters"
FIXTURES = POWTS / "law" / "tests" / "fixtures"

INTERNAL = re.compile(
    r"\b(?:not|no\b[\w ]{0,30}?) in (?:the |\w+'s )?(?:texts?|excerpt|draft)\b"  # "not in Lincoln's text"
    r"|\boutside the (?:texts?|excerpt)\b|\bexcerpt\b"
    r"|\.\./(?:shared|law)\b|\bREADME\b"
    r"|\bpowts/[a-z_]+/"  # a repository path (static URLs are stripped before the check)
    r"|\bTODO\b|\bFIXME\b",
    re.I)

# Owned by other engineers, fixed in their branches; deleted when those merge.
ALLOWED_UNTIL_MERGE = {
    # maintenance letters print each notice step's citation ("reminder timing not in texts"); the notices
    # engineer rewrites the letters and those steps
    "maintenance.yaml notices.steps",
}


def _internal(text: str) -> str | None:
    m = INTERNAL.search(text)
    return m.group(0) if m else None


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _source(path: Path) -> bool:
    parts = path.relative_to(POWTS).parts
    return "tests" not in parts and "migrations" not in parts


# -- templates ---------------------------------------------------------------------------------

TEMPLATE_SKIP = re.compile(r"\{#.*?#\}|\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}|\{%\s*static\s+[^%]*%\}", re.S)


def template_hits() -> list[str]:
    out = []
    for path in sorted(POWTS.rglob("templates/**/*")):
        if not path.is_file() or not _source(path):
            continue
        text = TEMPLATE_SKIP.sub(lambda m: "\n" * m.group(0).count("\n"), path.read_text(encoding="utf-8"))
        for lineno, line in enumerate(text.splitlines(), 1):
            if hit := _internal(line):
                out.append(f"{_rel(path)}:{lineno}: {hit!r}: {line.strip()[:100]}")
    return out


# -- string literals of the code -----------------------------------------------------------------

def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def literal_hits(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if hit := _internal(node.value):
                out.append(f"{_rel(path)}:{node.lineno}: {hit!r}: {node.value.strip()[:100]!r}")
    return out


# -- data files: every string but the notes --------------------------------------------------------

def _is_note(key: str) -> bool:
    return key == "note" or key.endswith("_note")


def data_hits(path: Path, label: str) -> list[str]:
    out = []

    def walk(node, where):
        if isinstance(node, dict):
            for key, value in node.items():
                key = str(key).rstrip("+-")  # "steps+" is the key "steps" combined with the state's
                if not _is_note(key):
                    walk(value, f"{where}.{key}" if where else key)
        elif isinstance(node, list):
            for value in node:
                walk(value, where)
        elif isinstance(node, str) and (hit := _internal(node)):
            out.append(f"{label} {where}: {hit!r}: {node[:100]!r}")

    walk(yaml.safe_load(path.read_text(encoding="utf-8")), "")
    return out


def _allowed(hit: str) -> bool:
    return any(hit.startswith(a) for a in ALLOWED_UNTIL_MERGE)


def test_templates_carry_no_internal_notes():
    assert not (hits := template_hits()), "\n".join(hits)


def test_strings_of_the_code_carry_no_internal_notes():
    hits = [h for p in sorted(POWTS.rglob("*.py")) if _source(p) for h in literal_hits(p)]
    hits = [h for h in hits if not _allowed(h)]
    assert not hits, "\n".join(hits)


def test_profile_strings_carry_no_internal_notes():
    """Citations, quotes and labels reach pages, letters and messages; `note` / `*_note` keys do not."""
    hits = []
    for path in sorted(PROFILES.glob("*/*.yaml")):
        hits += [h for h in data_hits(path, f"{path.parent.name}/{path.name}")
                 if not _allowed(h.replace(f"{path.parent.name}/", "", 1))]
    assert not hits, "\n".join(hits)


def test_law_parameter_strings_carry_no_internal_notes():
    """Sections, quotes, test citations and period messages reach explanations and API answers."""
    hits = [h for path in sorted(PARAMETERS.glob("*.yaml")) for h in data_hits(path, path.name)]
    assert not hits, "\n".join(hits)


def _rows(name: str) -> list[dict]:
    with open(FIXTURES / name, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_the_words_of_every_decision_carry_no_internal_notes():
    """Every fixture application and claim (good and bad rows), through the one-case path the web and
    API use: explanation, reasons and errors."""
    from powts.law import grants, wells

    said = []
    for row in _rows("grants_in.csv"):
        d = grants.decide_row(row)
        said += [d.explanation, d.error or "", *(t.line() for t in d.tests)]
    for d in wells.decide_rows(_rows("wells_in.csv")):
        said += [d.explanation, d.error or "", *(t.line() for t in d.tests)]
    assert len(said) > 300
    hits = [f"{hit!r}: {text[:160]!r}" for text in said if (hit := _internal(text))]
    assert not hits, "\n".join(hits[:20])


@pytest.mark.parametrize("text", [
    "SPS 383.255 (reminder timing not in texts)", "Dane County Code s. 46.27 (penalties; not in excerpt)",
    "Wis. Stat. s. 995.20 (outside the texts)", "see ../shared/law/README.md", "powts/law/parameters/x.yaml",
    "TODO: wording", "not in Lincoln's text",
])
def test_an_internal_note_is_found(text):
    assert _internal(text)


@pytest.mark.parametrize("text", [
    "Wis. Stat. s. 145.246(6)(d)", "Lincoln County Ch. 22 (draft), Permit Expiration (2)", "/static/powts/powts.css",
    "the text of the notice", "todos", "within the texts of the permit",
])
def test_plain_words_pass(text):
    assert not _internal(text)
