"""Cited, dated values read from YAML: validation shared by every parameter and profile file.

No Django. Each value has effective dates, a unit and a citation (section, quoted words, source
kind). A file is refused, naming file and line, for a missing citation, dates that overlap or
leave a gap, or an unknown unit. See README.md for the YAML shape.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from itertools import pairwise
from pathlib import Path
from typing import Any

import yaml

from .dates import MAX_DATE
from .errors import DataFileError as ParameterError
from .money import parse_amount

# source of a citation: quoted from the texts in ../shared/law, the README's reference facts,
# another public source, or our own choice where the texts are silent (then a note is required).
SOURCES = {"text", "reference", "secondary", "chosen"}
UNITS = {
    "USD", "rate", "date", "years", "days", "gpd", "count", "bool", "month_day",
    "category_map", "category_list", "text_list", "text_map", "gpd_bounds",
    "USD_by_component_and_flow",
}


# -- YAML with line numbers ---------------------------------------------------------------------

class LineDict(dict):
    line: int = 0


class LineLoader(yaml.SafeLoader):
    """SafeLoader whose mappings remember the (1-based) line they start on."""


def _construct_line_map(loader: LineLoader, node: yaml.MappingNode) -> LineDict:
    mapping = LineDict(loader.construct_mapping(node, deep=True))
    mapping.line = node.start_mark.line + 1
    return mapping


LineLoader.add_constructor("tag:yaml.org,2002:map", _construct_line_map)


def line_of(obj: Any) -> int | None:
    return getattr(obj, "line", None)


# -- data ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Citation:
    section: str
    quote: str
    source: str
    note: str = ""

    def short(self) -> str:
        return self.section


@dataclass(frozen=True)
class Value:
    value: Any
    effective_from: dt.date
    effective_to: dt.date | None
    citation: Citation
    file: str
    line: int

    def covers(self, on: dt.date) -> bool:
        return self.effective_from <= on <= (self.effective_to or MAX_DATE)


# -- validation of one value --------------------------------------------------------------------

def check_money(raw: Any, path, line, what) -> Decimal:
    if isinstance(raw, float):
        raise ParameterError(path, line, f"{what}: money must be written as a string or integer, not a float ({raw!r})")
    d = parse_amount(raw)
    if d is None:
        raise ParameterError(path, line, f"{what}: {raw!r} is not a non-negative amount in cents")
    return d


def check_value(unit: str, raw: Any, path, line, name) -> Any:
    what = f"parameter {name!r}"
    if unit == "USD":
        return check_money(raw, path, line, what)
    if unit == "rate":
        d = check_money(raw, path, line, what) if not isinstance(raw, str) else Decimal(raw)
        if not (0 <= d <= 1):
            raise ParameterError(path, line, f"{what}: rate {raw!r} is not between 0 and 1")
        return d
    if unit == "date":
        if not isinstance(raw, dt.date):
            raise ParameterError(path, line, f"{what}: {raw!r} is not a date (YYYY-MM-DD)")
        return raw
    if unit in ("years", "days", "gpd", "count"):
        if not isinstance(raw, int) or isinstance(raw, bool) or raw < 0:
            raise ParameterError(path, line, f"{what}: {raw!r} is not a whole number of {unit}")
        return raw
    if unit == "bool":
        if not isinstance(raw, bool):
            raise ParameterError(path, line, f"{what}: {raw!r} is not true or false")
        return raw
    if unit == "month_day":
        try:
            m, d = (int(x) for x in str(raw).split("-"))
            dt.date(2000, m, d)
        except ValueError:
            raise ParameterError(path, line, f"{what}: {raw!r} is not a month-day (MM-DD)") from None
        return (m, d)
    if unit == "category_map":
        if not isinstance(raw, dict) or not all(c in (1, 2, 3) for c in raw.values()):
            raise ParameterError(path, line, f"{what}: expected letter: category 1-3")
        return dict(raw)
    if unit == "category_list" or unit == "gpd_bounds":
        if not isinstance(raw, list) or not all(isinstance(x, int) for x in raw):
            raise ParameterError(path, line, f"{what}: expected a list of whole numbers")
        if unit == "gpd_bounds" and raw != sorted(raw):
            raise ParameterError(path, line, f"{what}: flow bounds must increase")
        return list(raw)
    if unit == "text_list":
        if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
            raise ParameterError(path, line, f"{what}: expected a list of words")
        return list(raw)
    if unit == "text_map":
        if not isinstance(raw, dict):
            raise ParameterError(path, line, f"{what}: expected a mapping")
        return {str(k): str(v) for k, v in raw.items()}
    if unit == "USD_by_component_and_flow":
        if not isinstance(raw, dict):
            raise ParameterError(path, line, f"{what}: expected component: [amounts by flow band]")
        return {str(k): [check_money(x, path, line, f"{what} {k}") for x in v] for k, v in raw.items()}
    raise ParameterError(path, line, f"{what}: unknown unit {unit!r}")  # pragma: no cover


def check_citation(raw: Any, path, line, what) -> Citation:
    if raw is None:
        raise ParameterError(path, line, f"{what} has no citation (section and quoted words are required)")
    if not isinstance(raw, dict):
        raise ParameterError(path, line, f"{what}: citation must be a mapping with section, quote, source")
    cl = line_of(raw) or line
    for key in ("section", "quote", "source"):
        if not str(raw.get(key) or "").strip():
            raise ParameterError(path, cl, f"{what}: citation has no {key}")
    if raw["source"] not in SOURCES:
        raise ParameterError(path, cl, f"{what}: citation source {raw['source']!r} is not one of {sorted(SOURCES)}")
    if raw["source"] == "chosen" and not str(raw.get("note") or "").strip():
        raise ParameterError(path, cl, f"{what}: a chosen value needs a note saying why")
    return Citation(str(raw["section"]), str(raw["quote"]), str(raw["source"]), str(raw.get("note") or "").strip())


def check_dates(raw: dict, path, line, what) -> tuple[dt.date, dt.date | None]:
    start, end = raw.get("effective_from"), raw.get("effective_to")
    if not isinstance(start, dt.date):
        raise ParameterError(path, line, f"{what}: effective_from {start!r} is missing or not a date")
    if end is not None and not isinstance(end, dt.date):
        raise ParameterError(path, line, f"{what}: effective_to {end!r} is not a date")
    if end is not None and end < start:
        raise ParameterError(path, line, f"{what}: effective_to {end} is before effective_from {start}")
    return start, end


def check_contiguous(items, path, what) -> None:
    """Date ranges sorted by start must neither overlap nor leave a gap; only the last may be open."""
    for prev, nxt in pairwise(items):
        if prev.effective_to is None or nxt.effective_from <= prev.effective_to:
            raise ParameterError(path, nxt.line, f"{what}: dates overlap ({prev.effective_from}..{prev.effective_to or 'open'} and {nxt.effective_from}..)")
        if nxt.effective_from > prev.effective_to + dt.timedelta(days=1):
            raise ParameterError(path, nxt.line, f"{what}: gap between {prev.effective_to} and {nxt.effective_from}")


# -- loading ------------------------------------------------------------------------------------

def read_yaml(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ParameterError(path, None, f"cannot read: {e.strerror}") from None
    try:
        return yaml.load(text, Loader=LineLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise ParameterError(path, mark.line + 1 if mark else None, f"not valid YAML: {getattr(e, 'problem', e)}") from None




# -- citations for the public -------------------------------------------------------------------

def for_the_public(citation: str) -> str:
    """The citation as a letter or page shows it: the sections alone, without the remarks a profile
    keeps beside them for staff and auditors ("SPS 383.255 (reminder timing not in texts)" ->
    "SPS 383.255"). A remark is a parenthesis that follows a space; "SPS 383.54(4)(a)1." keeps its own."""
    out, depth, i = [], 0, 0
    text = str(citation or "")
    while i < len(text):
        ch = text[i]
        if depth == 0 and ch == "(" and i > 0 and text[i - 1] == " ":
            depth = 1
        elif depth:
            depth += {"(": 1, ")": -1}.get(ch, 0)
        else:
            out.append(ch)
        i += 1
    plain = " ".join("".join(out).split())
    plain = plain.replace(" ,", ",").replace(" ;", ";").strip(" ,;")
    while plain.endswith(".."):
        plain = plain[:-1]
    return plain
