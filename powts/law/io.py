"""Reading and writing batch files: JSON Lines (.jsonl) or CSV (.csv), chosen by the extension.

Input becomes columns (field -> polars String Series for a well-formed CSV file, else a list of raw
values) so the batch path can convert whole columns at once. A line that cannot be read (bad JSON, wrong number of CSV fields) is not dropped: it comes
back as that row's error with its line number, and the batch goes on. `-` as output is JSON Lines
on standard output.
"""
from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from powts.core.refusals import Refused

# A rules file may hold long explanation cells; the limit is raised only while such a file is read, because
# csv's limit is global and the county's own uploads keep the default (their readers refuse longer cells).
WIDE_FIELDS = 10**8


@contextmanager
def _wide_fields():
    before = csv.field_size_limit(WIDE_FIELDS)
    try:
        yield
    finally:
        csv.field_size_limit(before)


class InputError(Refused):
    """The file as a whole cannot be read (missing, unreadable, unknown extension)."""


@dataclass
class Table:
    columns: dict[str, list[Any]]
    n: int
    line_errors: dict[int, str] = field(default_factory=dict)  # row index -> problem with the line
    lines: list[int] | None = None  # 1-based line number of each row (None: row i is on line i + 2 for CSV)


def kind_of(path: str) -> str:
    suffix = Path(path).suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        return "jsonl"
    if suffix == ".csv":
        return "csv"
    raise InputError(f"{path}: unknown file type {suffix or '(none)'!r}; use .jsonl or .csv")


def read_table(path: str) -> Table:
    kind = kind_of(path)
    if kind == "csv":
        try:
            with open(path, "rb") as raw:
                data = raw.read()
        except OSError as e:
            raise InputError(f"{path}: cannot read ({e.strerror})") from None
        fast = _read_plain_csv(data)
        if fast is not None:
            return fast
    try:
        handle = open(path, newline="", encoding="utf-8-sig")  # noqa: SIM115 (closed by the with below)
    except OSError as e:
        raise InputError(f"{path}: cannot read ({e.strerror})") from None
    try:
        with handle:
            return _read_csv(handle, path) if kind == "csv" else _read_jsonl(handle)
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    except csv.Error as e:
        raise InputError(f"{path}: not valid CSV ({e})") from None


def _fields_per_line(data: bytes) -> np.ndarray | None:
    """Number of fields on each line (header first), counted with numpy; None if a quoted field
    holds a line break or the file has carriage returns (the csv module reads those)."""
    plain = data.replace(b'""', b"")  # empty quoted fields and escaped quotes: not delimiters
    body = np.frombuffer(plain, dtype=np.uint8)
    newlines = np.flatnonzero(body == 10)
    if b'"' not in plain:
        return np.diff(np.searchsorted(np.flatnonzero(body == 44), np.concatenate([[-1], newlines]))) + 1
    quotes = np.flatnonzero(body == 34)
    if (np.searchsorted(quotes, newlines) % 2).any():
        return None  # a line break inside quotes
    delims = np.flatnonzero(body == 44)
    delims = delims[np.searchsorted(quotes, delims) % 2 == 0]
    return np.diff(np.searchsorted(delims, np.concatenate([[-1], newlines]))) + 1


def _read_plain_csv(data: bytes) -> Table | None:
    """Columns read by polars (all as strings, in parallel) when every line has all its fields.

    polars refuses a line with too many fields and reads a missing field as blank. It is read with
    empty unquoted fields as null, so a line with too few fields (or a blank line) leaves a null in
    the last column; a line break inside quotes (or an unclosed quote) leaves fewer rows than lines.
    When the last column has no null and the rows match the lines, every line is whole and the
    quotes and delimiters need not be counted (the usual file: polars quotes an empty cell "").
    Otherwise the delimiters are counted (every line has width - 1 of them, so the total is known).
    A file that fails these goes to the csv module, which names the line."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if not data or b"\r" in data:
        return None
    if not data.endswith(b"\n"):
        data += b"\n"
    width = data[:data.index(b"\n")].count(b",") + 1
    try:
        frame = pl.read_csv(data, infer_schema=False, has_header=True, empty_string_is_null=True,
                            raise_if_empty=False)
    except (pl.exceptions.PolarsError, UnicodeDecodeError):
        return None
    if frame.width != width or frame.height != _count(data, ord("\n")) - 1:
        return None
    if width == 1 or frame[frame.columns[-1]].null_count():
        # a blank last cell: a short line or an empty field? count the delimiters to tell
        if not _whole_lines(data, width, frame.height):
            return None
    frame = frame.rename({c: c.strip() for c in frame.columns})
    # (null_count is known without a pass; filling a column without nulls would copy its strings)
    return Table({name: frame[name].fill_null("") if frame[name].null_count() else frame[name]
                  for name in frame.columns}, frame.height)


def _count(data: bytes, byte: int, block: int = 1 << 20) -> int:
    """data.count(bytes([byte])), a megabyte at a time with numpy: bytes.count compares a byte at a
    time (46 ms for a 131 MB file here, this 13 ms), and a comparison of the whole file at once
    would be a fresh array of its size."""
    a = np.frombuffer(data, dtype=np.uint8)
    return sum(int(np.count_nonzero(a[i:i + block] == byte)) for i in range(0, a.shape[0], block))


def _whole_lines(data: bytes, width: int, rows: int) -> bool:
    """Every line of a file of `rows` rows has `width` fields (none blank)."""
    lines = rows + 1
    quotes = data.count(b'"') if b'"' in data else 0  # (a search stops at the first quote; a count reads all)
    if quotes and quotes != 2 * data.count(b'""'):
        # quoted fields with words in them: count the delimiters outside quotes line by line
        fields = _fields_per_line(data)
        if fields is None or (fields != width).any():
            return False
    elif _count(data, ord(",")) != (width - 1) * lines:
        # (only empty quoted fields: every comma and line break is a delimiter)
        return False  # some line has too few fields, or a blank line (polars refuses a line with too many)
    return not (width == 1 and b"\n\n" in data)  # a blank line: the csv module names it


def _read_csv(handle, path: str) -> Table:
    with _wide_fields():
        reader = csv.reader(handle)
        header = next(reader, None)
        if header is None:
            raise InputError(f"{path}: empty file (expected a header row)")
        header = [h.strip() for h in header]
        width = len(header)
        rows = list(reader)
    errors: dict[int, str] = {}
    if any(len(r) != width for r in rows):
        fixed = []
        for i, r in enumerate(rows):
            if len(r) != width:
                if not any(x.strip() for x in r):
                    errors[i] = f"line {i + 2}: blank line"
                else:
                    errors[i] = f"line {i + 2}: has {len(r)} fields, the header has {width}"
                r = (r + [""] * width)[:width]
            fixed.append(r)
        rows = fixed
    cols = {name: list(col) for name, col in zip(header, zip(*rows))} if rows else {name: [] for name in header}
    return Table(cols, len(rows), errors)


def _read_jsonl(handle) -> Table:
    records: list[dict] = []
    errors: dict[int, str] = {}
    lines: list[int] = []
    for lineno, line in enumerate(handle, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            obj, errors[len(records)] = {}, f"line {lineno}: not valid JSON ({e.msg})"
        if not isinstance(obj, dict):
            obj, errors[len(records)] = {}, f"line {lineno}: expected a JSON object"
        records.append(obj)
        lines.append(lineno)
    keys: dict[str, None] = {}
    for r in records:
        keys.update(dict.fromkeys(r))
    cols = {k: [r.get(k) for r in records] for k in keys}
    return Table(cols, len(records), errors, lines)


def write_rows(path: str, fieldnames: Sequence[str], rows: Iterable[dict[str, Any]]) -> None:
    """Write JSON Lines (lists stay lists) or CSV (lists joined with '; ')."""
    if path == "-":
        _write_jsonl(sys.stdout, rows)
        sys.stdout.flush()
        return
    kind = kind_of(path)
    try:
        handle = open(path, "w", newline="", encoding="utf-8")  # noqa: SIM115 (closed by the with below)
    except OSError as e:
        raise InputError(f"{path}: cannot write ({e.strerror})") from None
    with handle:
        if kind == "jsonl":
            _write_jsonl(handle, rows)
        else:
            w = csv.writer(handle, lineterminator="\n")
            w.writerow(fieldnames)
            for row in rows:
                w.writerow([_csv_cell(row.get(k)) for k in fieldnames])


def _write_jsonl(handle, rows: Iterable[dict[str, Any]]) -> None:
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    buf = []
    for row in rows:
        buf.append(dumps(row))
        if len(buf) >= 10000:
            handle.write("\n".join(buf) + "\n")
            buf = []
    if buf:
        handle.write("\n".join(buf) + "\n")


def _csv_cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "; ".join(_reason_text(v) if isinstance(v, dict) else str(v) for v in value)
    return value


def _reason_text(reason: dict) -> str:
    cite = reason.get("citation")
    return f"{reason.get('text')} ({cite})" if cite else str(reason.get("text"))
