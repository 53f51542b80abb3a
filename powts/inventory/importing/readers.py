"""Reading county exports: CSV in UTF-8 or Windows-1252 (Latin-1), and XLSX, streamed row by row."""
from __future__ import annotations

import codecs
import csv
import re
import zipfile
from pathlib import Path
from typing import Iterator

from charset_normalizer import from_bytes
from charset_normalizer.md import mess_ratio

from powts.core.refusals import Refused
from powts.inventory.importing.columns import KNOWN, REQUIRED, normalise_header
from powts.inventory.importing.values import unquote_cells


class InventoryFileRefused(Refused):
    """The whole file cannot be imported; the message says why. Nothing is written."""


class Table:
    """The header and a stream of (line number, {normalised header: cell}) of one file."""

    def __init__(self, headers: list[str], rows: Iterator[tuple[int, list]], encoding: str, original_headers: list[str]):
        self.headers = headers
        self.original_headers = original_headers
        self.encoding = encoding
        self._rows = rows
        # Rows below the header, counted without reading them (a preview's count), where the format allows.
        self.count_rows = None

    def __iter__(self):
        headers = self.headers
        width = len(headers)
        for line, cells in self._rows:
            if not any(c not in (None, "") for c in cells):
                continue  # blank lines are not rows
            cells = unquote_cells(cells)
            if len(cells) < width:
                cells = list(cells) + [None] * (width - len(cells))
            yield line, dict(zip(headers, cells)), cells


def _encoding(path: Path, name: str) -> str:
    """UTF-8 when every byte decodes as UTF-8; Windows-1252 (county exports often are) when its text reads
    as Western text; otherwise the file is refused, never read as mojibake (Shift-JIS as Windows-1252)."""
    head = path.read_bytes()[:4] if path.stat().st_size else b""
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or b"\x00" in head:
        raise InventoryFileRefused(f"{name} is in UTF-16 or is not a text file; save it as CSV (UTF-8) and try again")
    decoder = codecs.getincrementaldecoder("utf-8")()
    with path.open("rb") as handle:
        try:
            while chunk := handle.read(1 << 20):
                if b"\x00" in chunk:
                    raise InventoryFileRefused(f"{name} contains NUL bytes: it is not a CSV text file")
                decoder.decode(chunk)
            decoder.decode(b"", final=True)
            return "utf-8-sig"
        except UnicodeDecodeError:
            pass
    sample = _non_ascii_lines(path)
    # charset-normalizer's measure of how garbled a text reads (its own cut-off is 0.2).
    if mess_ratio(sample.decode("cp1252", errors="replace"), 1.0) <= 0.2:
        return "cp1252"
    best = from_bytes(sample).best()
    guess = ""
    if best:
        guess = f" (it looks like {best.encoding}{'' if best.language == 'Unknown' else ', ' + best.language})"
    raise InventoryFileRefused(f"{name} is neither UTF-8 nor Windows-1252 text{guess}; save it as CSV UTF-8 and try again")


def _non_ascii_lines(path: Path, limit: int = 256 * 1024) -> bytes:
    """Up to `limit` bytes of the lines that hold non-ASCII bytes: what tells one encoding from another."""
    found, size = [], 0
    with path.open("rb") as handle:
        for line in handle:
            if _NON_ASCII.search(line):
                found.append(line[:limit])
                size += len(found[-1])
                if size >= limit:
                    break
    return b"".join(found)


_NON_ASCII = re.compile(rb"[\x80-\xff]")
# Excel holds at most 32,767 characters in a cell; as XML (entities, 4-byte characters) that is under 256 KB.
# A longer run of text in a sheet is not a county export, and reading it would take its size in memory.
XLSX_TEXT_BYTES = 256 * 1024


def _check_xlsx_cells(path: Path, name: str) -> None:
    """Refuse a workbook with a cell longer than any Excel writes, streaming it before openpyxl loads anything."""
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError):
        return  # openpyxl says what is wrong with it
    with archive:
        for member in archive.infolist():
            part = member.filename
            if not (part == "xl/sharedStrings.xml" or part.startswith("xl/worksheets/")):
                continue
            run = 0  # bytes since the last "<" or ">": the text of one cell
            with archive.open(member) as stream:
                while chunk := stream.read(XLSX_TEXT_BYTES):
                    first = min((i for i in (chunk.find(b"<"), chunk.find(b">")) if i >= 0), default=-1)
                    run += len(chunk) if first < 0 else first
                    if run > XLSX_TEXT_BYTES:
                        raise InventoryFileRefused(f"{name} has a cell longer than Excel's limit of 32,767 characters; "
                                          "it is not an inventory export")
                    if first >= 0:
                        run = len(chunk) - max(chunk.rfind(b"<"), chunk.rfind(b">")) - 1


def _check_headers(name: str, raw_headers: list, columns: dict | None = None, require: bool = True) -> list[str]:
    """The file's headers as powts' fields: each by its own name, or by `columns` (the file's header -> field,
    matched whatever the case and spacing). Refuses a file without the required columns, a mapping to a field
    powts does not have or from a header the file does not have, and a field given twice."""
    mapping = {normalise_header(k): normalise_header(v) for k, v in (columns or {}).items() if normalise_header(k)}
    unknown = sorted({v for v in mapping.values() if v and v not in KNOWN})
    if unknown:
        raise InventoryFileRefused(f"the column mapping names {', '.join(unknown)}, which powts does not have "
                                   f"(its columns: {', '.join(KNOWN)})")
    headers = [mapping.get(normalise_header(h)) or normalise_header(h) for h in raw_headers]
    absent = [k for k in (columns or {}) if normalise_header(k) and normalise_header(k) not in
              {normalise_header(h) for h in raw_headers}]
    if absent and require:
        raise InventoryFileRefused(
            f"the column mapping names {', '.join(repr(a) for a in absent)}, which {name} does not have "
            f"(found: {', '.join(h for h in raw_headers if h) or 'no header'})")
    missing = [c for c in REQUIRED if c not in headers]
    if missing and require:
        raise InventoryFileRefused(
            f"{name} is missing required column{'s' if len(missing) > 1 else ''} "
            f"{', '.join(missing)} (found: {', '.join(h for h in raw_headers if h) or 'no header'}); name them in "
            "the file's header row or map the file's own headers to them (--map or --columns, or on the upload page)"
        )
    seen = {}
    for raw, h in zip(raw_headers, headers):
        if h and h in seen and require:
            if normalise_header(raw) == normalise_header(seen[h]):
                raise InventoryFileRefused(f"{name} has the column {h!r} twice")
            raise InventoryFileRefused(f"{name}: both {seen[h]!r} and {raw!r} would be the column {h!r}")
        seen.setdefault(h, raw)
    return headers


def _open_csv(path: Path, name: str, columns=None, require=True) -> Table:
    encoding = _encoding(path, name)
    # cp1252 leaves five bytes undefined; fall back to Latin-1 for those rather than refuse the file.
    errors = "strict" if encoding.startswith("utf") else "replace"
    handle = open(path, newline="", encoding=encoding, errors=errors)
    sample = handle.read(64 * 1024)
    handle.seek(0)
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t|") if sample else csv.excel
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(handle, dialect)
    try:
        raw_headers = unquote_cells(next(reader))
    except StopIteration:
        raise InventoryFileRefused(f"{name} is empty") from None
    except csv.Error as exc:
        raise InventoryFileRefused(f"{name} is not a readable CSV file ({exc})") from None
    headers = _check_headers(name, raw_headers, columns, require)

    def rows():
        try:
            for cells in reader:
                yield reader.line_num, cells
        except csv.Error as exc:
            if "field limit" in str(exc):
                raise InventoryFileRefused(f"{name} line {reader.line_num}: a cell is longer than {csv.field_size_limit():,} "
                                  "characters; no inventory column holds that much") from None
            raise InventoryFileRefused(f"{name} line {reader.line_num}: not readable CSV ({exc})") from None
        finally:
            handle.close()

    return Table(headers, rows(), encoding.replace("-sig", "").replace("cp1252", "latin-1 (cp1252)"), raw_headers)


def _open_xlsx(path: Path, name: str, columns=None, require=True) -> Table:
    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    _check_xlsx_cells(path, name)
    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except (InvalidFileException, KeyError, OSError, ValueError) as exc:
        why = str(exc).replace(str(path), name)  # the user's file, never the upload's stored path
        raise InventoryFileRefused(f"{name} is not a readable XLSX workbook ({why})") from None
    except Exception as exc:  # zipfile.BadZipFile and friends from a damaged file
        raise InventoryFileRefused(f"{name} is not a readable XLSX workbook ({exc.__class__.__name__})") from None
    sheet = book.worksheets[0]
    iterator = sheet.iter_rows(values_only=True)
    try:
        raw_headers = unquote_cells([("" if h is None else str(h)) for h in next(iterator)])
    except StopIteration:
        raise InventoryFileRefused(f"{name}: the first sheet is empty") from None
    headers = _check_headers(name, raw_headers, columns, require)

    def rows():
        for line, cells in enumerate(iterator, start=2):
            yield line, list(cells)
        book.close()

    table = Table(headers, rows(), "xlsx", raw_headers)
    table.count_rows = lambda: _xlsx_rows_with_values(path, sheet._worksheet_path) - 1
    return table


_ROW_OR_VALUE = re.compile(rb"<row[ >]|<v>|<is>")


def _xlsx_rows_with_values(path: Path, part: str) -> int:
    """Rows of the sheet that hold a value, read from its XML: openpyxl would take seconds a 100,000 rows."""
    count, has_value = 0, False
    with zipfile.ZipFile(path) as archive, archive.open(part) as stream:
        tail = b""
        while chunk := stream.read(1 << 20):
            data = tail + chunk
            cut = data.rfind(b"<")
            cut = cut if cut > len(data) - 6 else len(data)  # a tag split across reads waits for the next one
            for match in _ROW_OR_VALUE.finditer(data, 0, cut):
                if match.group().startswith(b"<row"):
                    count += has_value
                    has_value = False
                else:
                    has_value = True
            tail = data[cut:]
    return count + has_value


def open_table(path: Path, name: str | None = None, *, columns: dict | None = None, require: bool = True) -> Table:
    """`name` is the file as its user knows it (an upload's own name), used in every message instead of `path`.
    `columns` maps the file's own headers to powts' fields ("Permit #" -> system_id). With require=False a
    file without the required columns is opened all the same (to ask for a mapping)."""
    path = Path(path)
    name = name or str(path)
    if not path.exists():
        raise InventoryFileRefused(f"{name} does not exist")
    if not path.is_file():
        raise InventoryFileRefused(f"{name} is not a file")
    name = Path(name).name
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm"):
        return _open_xlsx(path, name, columns, require)
    if suffix in (".csv", ".txt", ".tsv"):
        return _open_csv(path, name, columns, require)
    if suffix == ".xls":
        raise InventoryFileRefused(f"{name} is an old Excel .xls file; save it as .xlsx or CSV and try again")
    raise InventoryFileRefused(f"{name}: powts reads .csv and .xlsx files, not {suffix or 'files without an extension'}")


__all__ = ["InventoryFileRefused", "Table", "open_table"]
