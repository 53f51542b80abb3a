"""Reading county exports: CSV in UTF-8 or Latin-1, and XLSX, streamed row by row."""
from __future__ import annotations

import codecs
import csv
from pathlib import Path
from typing import Iterator

from powts.inventory.importing.columns import REQUIRED, normalise_header


class FileRefused(ValueError):
    """The whole file cannot be imported; the message says why. Nothing is written."""


class Table:
    """The header and a stream of (line number, {normalised header: cell}) of one file."""

    def __init__(self, headers: list[str], rows: Iterator[tuple[int, list]], encoding: str, original_headers: list[str]):
        self.headers = headers
        self.original_headers = original_headers
        self.encoding = encoding
        self._rows = rows

    def __iter__(self):
        headers = self.headers
        width = len(headers)
        for line, cells in self._rows:
            if not any(c not in (None, "") for c in cells):
                continue  # blank lines are not rows
            if len(cells) < width:
                cells = list(cells) + [None] * (width - len(cells))
            yield line, dict(zip(headers, cells)), cells


def _encoding(path: Path, name: str) -> str:
    """UTF-8 when every byte decodes as UTF-8, Latin-1 otherwise (county exports are often cp1252)."""
    head = path.read_bytes()[:4] if path.stat().st_size else b""
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or b"\x00" in head:
        raise FileRefused(f"{name} is in UTF-16 or is not a text file; save it as CSV (UTF-8) and try again")
    decoder = codecs.getincrementaldecoder("utf-8")()
    with path.open("rb") as handle:
        try:
            while chunk := handle.read(1 << 20):
                if b"\x00" in chunk:
                    raise FileRefused(f"{name} contains NUL bytes: it is not a CSV text file")
                decoder.decode(chunk)
            decoder.decode(b"", final=True)
            return "utf-8-sig"
        except UnicodeDecodeError:
            return "cp1252"


def _check_headers(name: str, raw_headers: list) -> list[str]:
    headers = [normalise_header(h) for h in raw_headers]
    missing = [c for c in REQUIRED if c not in headers]
    if missing:
        raise FileRefused(
            f"{name} is missing required column{'s' if len(missing) > 1 else ''} "
            f"{', '.join(missing)} (found: {', '.join(h for h in raw_headers if h) or 'no header'})"
        )
    seen = set()
    for h in headers:
        if h and h in seen:
            raise FileRefused(f"{name} has the column {h!r} twice")
        seen.add(h)
    return headers


def _open_csv(path: Path, name: str) -> Table:
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
        raw_headers = next(reader)
    except StopIteration:
        raise FileRefused(f"{name} is empty") from None
    except csv.Error as exc:
        raise FileRefused(f"{name} is not a readable CSV file ({exc})") from None
    headers = _check_headers(name, raw_headers)

    def rows():
        try:
            for cells in reader:
                yield reader.line_num, cells
        except csv.Error as exc:
            raise FileRefused(f"{name} line {reader.line_num}: not readable CSV ({exc})") from None
        finally:
            handle.close()

    return Table(headers, rows(), encoding.replace("-sig", "").replace("cp1252", "latin-1 (cp1252)"), raw_headers)


def _open_xlsx(path: Path, name: str) -> Table:
    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except (InvalidFileException, KeyError, OSError, ValueError) as exc:
        raise FileRefused(f"{name} is not a readable XLSX workbook ({exc})") from None
    except Exception as exc:  # zipfile.BadZipFile and friends from a damaged file
        raise FileRefused(f"{name} is not a readable XLSX workbook ({exc.__class__.__name__})") from None
    sheet = book.worksheets[0]
    iterator = sheet.iter_rows(values_only=True)
    try:
        raw_headers = [("" if h is None else str(h)) for h in next(iterator)]
    except StopIteration:
        raise FileRefused(f"{name}: the first sheet is empty") from None
    headers = _check_headers(name, raw_headers)

    def rows():
        for line, cells in enumerate(iterator, start=2):
            yield line, list(cells)
        book.close()

    return Table(headers, rows(), "xlsx", raw_headers)


def open_table(path: Path, name: str | None = None) -> Table:
    """`name` is the file as its user knows it (an upload's own name), used in every message instead of `path`."""
    path = Path(path)
    name = name or str(path)
    if not path.exists():
        raise FileRefused(f"{name} does not exist")
    if not path.is_file():
        raise FileRefused(f"{name} is not a file")
    name = Path(name).name
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm"):
        return _open_xlsx(path, name)
    if suffix in (".csv", ".txt", ".tsv"):
        return _open_csv(path, name)
    if suffix == ".xls":
        raise FileRefused(f"{name} is an old Excel .xls file; save it as .xlsx or CSV and try again")
    raise FileRefused(f"{name}: powts reads .csv and .xlsx files, not {suffix or 'files without an extension'}")


__all__ = ["FileRefused", "Table", "open_table"]
