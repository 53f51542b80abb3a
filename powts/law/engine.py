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
from pathlib import Path
from typing import Any

from powts.core.refusals import Refused
from powts.kernel.cited import (  # noqa: F401
    SOURCES,
    UNITS,
    Citation,
    Value,
    check_citation,
    check_contiguous,
    check_dates,
    check_value,
    line_of,
    read_yaml,
)
from powts.kernel.dates import MAX_DATE
from powts.kernel.errors import DataFileError as ParameterError

PARAMETER_DIR = Path(__file__).parent / "parameters"


class LawDateError(Refused):
    """No law decides a case on this date: either not covered at all or no program in force."""


class NotCovered(LawDateError):
    pass


class NoProgramInForce(LawDateError):
    pass


# -- data --------------------------------------------------------------------------------------

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


def _load_periods(path: Path, doc: Any) -> dict[str, list[Period]]:
    if not isinstance(doc, dict) or not isinstance(doc.get("programs"), dict):
        raise ParameterError(path, line_of(doc), "expected a 'programs' mapping")
    out: dict[str, list[Period]] = {}
    for program, body in doc["programs"].items():
        periods = []
        for raw in (body or {}).get("periods") or []:
            line = line_of(raw)
            what = f"program {program!r} period"
            start, end = check_dates(raw, path, line, what)
            cit = check_citation(raw.get("citation"), path, line, what)
            version = raw.get("version")
            if version is None and not str(raw.get("message") or "").strip():
                raise ParameterError(path, line, f"{what}: a period with no program in force needs a message")
            periods.append(Period(program, None if version is None else str(version), start, end, cit,
                                  str(raw.get("message") or "").strip(), str(path), line or 0))
        if not periods:
            raise ParameterError(path, line_of(body), f"program {program!r} has no periods")
        periods.sort(key=lambda p: p.effective_from)
        check_contiguous(periods, path, f"program {program!r}")
        out[program] = periods
    return out


def _load_parameters(path: Path, doc: Any) -> tuple[str, str, dict[str, Parameter]]:
    if not isinstance(doc, dict):
        raise ParameterError(path, None, "expected a mapping with program, version, parameters")
    for key in ("program", "version", "parameters"):
        if key not in doc:
            raise ParameterError(path, line_of(doc), f"missing {key!r}")
    params: dict[str, Parameter] = {}
    for name, body in doc["parameters"].items():
        line = line_of(body)
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
            vline = line_of(raw) or line
            what = f"parameter {name!r}"
            if not isinstance(raw, dict) or "value" not in raw:
                raise ParameterError(path, vline, f"{what}: each entry needs a value")
            start, end = check_dates(raw, path, vline, what)
            cit = check_citation(raw.get("citation"), path, vline, what)
            values.append(Value(check_value(unit, raw["value"], path, vline, name), start, end, cit, str(path), vline or 0))
        values.sort(key=lambda v: v.effective_from)
        check_contiguous(values, path, f"parameter {name!r}")
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
            doc = read_yaml(path)
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
