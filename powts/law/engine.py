"""Parameters of law: loading, validation, and choosing the version in force on a date.

Every number, date and rate lives in parameters/*.yaml with its dates and a citation. The loader
refuses a value without a citation, overlapping or gapped dates, an unknown unit, and names the
file and line. Unlike OpenFisca, a date that no version covers raises an error; it never turns into
a silent zero. A period may be "no program in force" (the 2021-2023 Wisconsin Fund gap).
"""
from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import yaml

PARAMETER_DIR = Path(__file__).parent / "parameters"
# source of a citation: quoted from the texts in ../shared/law, the README's reference facts,
# another public source, or our own choice where the texts are silent (then a note is required).
SOURCES = {"text", "reference", "secondary", "chosen"}
UNITS = {
    "USD", "rate", "date", "years", "days", "gpd", "count", "bool", "month_day",
    "category_map", "category_list", "text_list", "text_map", "gpd_bounds",
    "USD_by_component_and_flow",
}
MAX_DATE = dt.date(9999, 12, 31)


class ParameterError(Exception):
    """A parameter file is wrong; the message names file and line."""

    def __init__(self, path: Path | str, line: int | None, problem: str):
        self.path, self.line, self.problem = str(path), line, problem
        where = f"{Path(path).name}:{line}" if line else Path(path).name
        super().__init__(f"{where}: {problem}")


class LawDateError(Exception):
    """No law decides a case on this date: either not covered at all or no program in force."""


class NotCovered(LawDateError):
    pass


class NoProgramInForce(LawDateError):
    pass


# -- YAML with line numbers ---------------------------------------------------------------------

class _LineDict(dict):
    line: int = 0


class _LineLoader(yaml.SafeLoader):
    """SafeLoader whose mappings remember the (1-based) line they start on."""


def _construct_line_map(loader: _LineLoader, node: yaml.MappingNode) -> _LineDict:
    mapping = _LineDict(loader.construct_mapping(node, deep=True))
    mapping.line = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor("tag:yaml.org,2002:map", _construct_line_map)


def _line(obj: Any) -> int | None:
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


@dataclass
class Parameter:
    name: str
    unit: str
    values: list[Value]

    def at(self, on: dt.date) -> Value:
        for v in self.values:
            if v.covers(on):
                return v
        raise NotCovered(f"parameter {self.name!r} has no value on {on.isoformat()}")


@dataclass(frozen=True)
class Period:
    program: str
    version: str | None  # None = no program in force
    effective_from: dt.date
    effective_to: dt.date | None
    citation: Citation
    message: str = ""
    file: str = ""
    line: int = 0

    def covers(self, on: dt.date) -> bool:
        return self.effective_from <= on <= (self.effective_to or MAX_DATE)


@dataclass
class Snapshot:
    """All parameter values of one program version on one date (constant within a segment)."""

    program: str
    version: str
    values: dict[str, Value] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        return self.values[name].value

    def cite(self, name: str) -> str:
        return self.values[name].citation.section


# -- validation of one value --------------------------------------------------------------------

def _money(raw: Any, path, line, what) -> Decimal:
    if isinstance(raw, float):
        raise ParameterError(path, line, f"{what}: money must be written as a string or integer, not a float ({raw!r})")
    try:
        d = Decimal(str(raw))
    except InvalidOperation:
        raise ParameterError(path, line, f"{what}: {raw!r} is not an amount") from None
    if d != d.quantize(Decimal("0.01")) or d < 0:
        raise ParameterError(path, line, f"{what}: {raw!r} is not a non-negative amount in cents")
    return d


def _check_value(unit: str, raw: Any, path, line, name) -> Any:
    what = f"parameter {name!r}"
    if unit == "USD":
        return _money(raw, path, line, what)
    if unit == "rate":
        d = _money(raw, path, line, what) if not isinstance(raw, str) else Decimal(raw)
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
        return {str(k): [_money(x, path, line, f"{what} {k}") for x in v] for k, v in raw.items()}
    raise ParameterError(path, line, f"{what}: unknown unit {unit!r}")  # pragma: no cover


def _citation(raw: Any, path, line, what) -> Citation:
    if raw is None:
        raise ParameterError(path, line, f"{what} has no citation (section and quoted words are required)")
    if not isinstance(raw, dict):
        raise ParameterError(path, line, f"{what}: citation must be a mapping with section, quote, source")
    cl = _line(raw) or line
    for key in ("section", "quote", "source"):
        if not str(raw.get(key) or "").strip():
            raise ParameterError(path, cl, f"{what}: citation has no {key}")
    if raw["source"] not in SOURCES:
        raise ParameterError(path, cl, f"{what}: citation source {raw['source']!r} is not one of {sorted(SOURCES)}")
    if raw["source"] == "chosen" and not str(raw.get("note") or "").strip():
        raise ParameterError(path, cl, f"{what}: a chosen value needs a note saying why")
    return Citation(str(raw["section"]), str(raw["quote"]), str(raw["source"]), str(raw.get("note") or "").strip())


def _dates(raw: dict, path, line, what) -> tuple[dt.date, dt.date | None]:
    start, end = raw.get("effective_from"), raw.get("effective_to")
    if not isinstance(start, dt.date):
        raise ParameterError(path, line, f"{what}: effective_from {start!r} is missing or not a date")
    if end is not None and not isinstance(end, dt.date):
        raise ParameterError(path, line, f"{what}: effective_to {end!r} is not a date")
    if end is not None and end < start:
        raise ParameterError(path, line, f"{what}: effective_to {end} is before effective_from {start}")
    return start, end


def _check_contiguous(items, path, what) -> None:
    """Date ranges sorted by start must neither overlap nor leave a gap; only the last may be open."""
    for prev, nxt in zip(items, items[1:]):
        if prev.effective_to is None or nxt.effective_from <= prev.effective_to:
            raise ParameterError(path, nxt.line, f"{what}: dates overlap ({prev.effective_from}..{prev.effective_to or 'open'} and {nxt.effective_from}..)")
        if nxt.effective_from > prev.effective_to + dt.timedelta(days=1):
            raise ParameterError(path, nxt.line, f"{what}: gap between {prev.effective_to} and {nxt.effective_from}")


# -- loading ------------------------------------------------------------------------------------

def _read(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ParameterError(path, None, f"cannot read: {e.strerror}") from None
    try:
        return yaml.load(text, Loader=_LineLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise ParameterError(path, mark.line + 1 if mark else None, f"not valid YAML: {getattr(e, 'problem', e)}") from None


def _load_periods(path: Path, doc: Any) -> dict[str, list[Period]]:
    if not isinstance(doc, dict) or not isinstance(doc.get("programs"), dict):
        raise ParameterError(path, _line(doc), "expected a 'programs' mapping")
    out: dict[str, list[Period]] = {}
    for program, body in doc["programs"].items():
        periods = []
        for raw in (body or {}).get("periods") or []:
            line = _line(raw)
            what = f"program {program!r} period"
            start, end = _dates(raw, path, line, what)
            cit = _citation(raw.get("citation"), path, line, what)
            version = raw.get("version")
            if version is None and not str(raw.get("message") or "").strip():
                raise ParameterError(path, line, f"{what}: a period with no program in force needs a message")
            periods.append(Period(program, None if version is None else str(version), start, end, cit,
                                  str(raw.get("message") or "").strip(), str(path), line or 0))
        if not periods:
            raise ParameterError(path, _line(body), f"program {program!r} has no periods")
        periods.sort(key=lambda p: p.effective_from)
        _check_contiguous(periods, path, f"program {program!r}")
        out[program] = periods
    return out


def _load_parameters(path: Path, doc: Any) -> tuple[str, str, dict[str, Parameter]]:
    if not isinstance(doc, dict):
        raise ParameterError(path, None, "expected a mapping with program, version, parameters")
    for key in ("program", "version", "parameters"):
        if key not in doc:
            raise ParameterError(path, _line(doc), f"missing {key!r}")
    params: dict[str, Parameter] = {}
    for name, body in doc["parameters"].items():
        line = _line(body)
        if not isinstance(body, dict):
            raise ParameterError(path, line, f"parameter {name!r}: expected unit and values")
        unit = body.get("unit")
        if unit not in UNITS:
            raise ParameterError(path, line, f"parameter {name!r}: unknown unit {unit!r} (known: {', '.join(sorted(UNITS))})")
        raw_values = body.get("values")
        if not isinstance(raw_values, list) or not raw_values:
            raise ParameterError(path, line, f"parameter {name!r} has no values")
        values = []
        for raw in raw_values:
            vline = _line(raw) or line
            what = f"parameter {name!r}"
            if not isinstance(raw, dict) or "value" not in raw:
                raise ParameterError(path, vline, f"{what}: each entry needs a value")
            start, end = _dates(raw, path, vline, what)
            cit = _citation(raw.get("citation"), path, vline, what)
            values.append(Value(_check_value(unit, raw["value"], path, vline, name), start, end, cit, str(path), vline or 0))
        values.sort(key=lambda v: v.effective_from)
        _check_contiguous(values, path, f"parameter {name!r}")
        params[name] = Parameter(name, unit, values)
    return str(doc["program"]), str(doc["version"]), params


class ParameterSet:
    """Every program's periods and every version's parameters, validated together."""

    def __init__(self, directory: Path | str = PARAMETER_DIR):
        directory = Path(directory)
        files = sorted(directory.glob("*.yaml"))
        if not files:
            raise ParameterError(directory, None, "no parameter files")
        self.periods: dict[str, list[Period]] = {}
        # (program, version) -> {name: Parameter}; version "funding-tables" etc. are shared tables
        self.params: dict[tuple[str, str], dict[str, Parameter]] = {}
        self._files: dict[tuple[str, str], Path] = {}
        for path in files:
            doc = _read(path)
            if isinstance(doc, dict) and "programs" in doc:
                self.periods.update(_load_periods(path, doc))
            else:
                program, version, params = _load_parameters(path, doc)
                if (program, version) in self.params:
                    raise ParameterError(path, None, f"{program} {version} is defined twice")
                self.params[(program, version)] = params
                self._files[(program, version)] = path
        self._check_coverage()

    def _check_coverage(self) -> None:
        """Each parameter of a version covers every day of that version's periods."""
        for (program, version), params in self.params.items():
            if program not in self.periods:
                raise ParameterError(self._files[(program, version)], None, f"program {program!r} is not in programs.yaml")
            periods = [p for p in self.periods[program] if p.version is not None]
            versioned = [p for p in periods if p.version == version]
            if not versioned and version in {p.version for p in periods}:
                continue
            # shared tables (a version name not in programs.yaml) must cover every period in force
            for period in versioned or periods:
                for prm in params.values():
                    first, last = prm.values[0], prm.values[-1]
                    end = period.effective_to or MAX_DATE
                    if first.effective_from > period.effective_from or (last.effective_to or MAX_DATE) < end:
                        raise ParameterError(first.file, first.line, (
                            f"parameter {prm.name!r} ({first.effective_from}..{last.effective_to or 'open'}) does not cover "
                            f"{program} {period.version} ({period.effective_from}..{period.effective_to or 'open'})"))

    # -- lookups -------------------------------------------------------------------------------

    def period(self, program: str, on: dt.date) -> Period:
        """The period in force on a date, or an error: never a silent default."""
        for p in self.periods[program]:
            if p.covers(on):
                if p.version is None:
                    raise NoProgramInForce(p.message)
                return p
        first = self.periods[program][0]
        why = f": {first.citation.section}: \"{first.citation.quote}\"" if first.citation.source == "text" else ""
        raise NotCovered(f"no version of the {program} rules covers {on.isoformat()} (covered from {first.effective_from.isoformat()}{why})")

    def snapshot(self, program: str, on: dt.date) -> Snapshot:
        return self._snapshot(program, on)

    @functools.lru_cache(maxsize=4096)
    def _snapshot(self, program: str, on: dt.date) -> Snapshot:
        period = self.period(program, on)
        snap = Snapshot(program, period.version)
        for (prog, version), params in self.params.items():
            if prog != program or (version != period.version and version in {p.version for p in self.periods[prog]}):
                continue
            for name, prm in params.items():
                snap.values[name] = prm.at(on)
        return snap

    def breakpoints(self, program: str) -> list[dt.date]:
        """Every date on which something in the program's law changes (start of a new segment)."""
        dates = {p.effective_from for p in self.periods[program]}
        dates |= {p.effective_to + dt.timedelta(days=1) for p in self.periods[program] if p.effective_to}
        for (prog, _), params in self.params.items():
            if prog == program:
                for prm in params.values():
                    for v in prm.values:
                        dates.add(v.effective_from)
                        if v.effective_to:
                            dates.add(v.effective_to + dt.timedelta(days=1))
        return sorted(dates)

    def sweep(self, program: str, start: dt.date, end: dt.date) -> dict[str, int]:
        """Count days by version (or 'none' / 'uncovered'), for the temporal-coverage test."""
        counts: dict[str, int] = {}
        day = start
        while day <= end:
            try:
                key = self.period(program, day).version
            except NoProgramInForce:
                key = "none"
            except NotCovered:
                key = "uncovered"
            matches = [p for p in self.periods[program] if p.covers(day)]
            if len(matches) > 1:
                raise AssertionError(f"{day}: {len(matches)} periods overlap")
            counts[key] = counts.get(key, 0) + 1
            day += dt.timedelta(days=1)
        return counts


@functools.lru_cache(maxsize=1)
def default_parameters() -> ParameterSet:
    return ParameterSet(PARAMETER_DIR)
