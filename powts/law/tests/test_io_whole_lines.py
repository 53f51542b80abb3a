"""Reading a CSV file with polars: a file whose lines are all whole is read without counting its quotes
and delimiters (three passes over the bytes, 0.25 s of CPU at 1,000,000 rows), and a file with a short,
blank or broken line still gives the same rows and line errors as the csv module (bad input)."""
import io as stdio

import polars as pl
import pytest

from powts.law import io


def _rows(table):
    return table.n, {k: v.to_list() if isinstance(v, pl.Series) else list(v) for k, v in table.columns.items()}, \
        table.line_errors


def _csv_module(data: bytes):
    return _rows(io._read_csv(stdio.StringIO(data.decode("utf-8"), newline=""), "f.csv"))


class _Bytes(bytes):
    """The file's bytes, noting each pass that counts something over all of them."""
    passes: list = []

    def count(self, sub, *args):
        self.passes.append(sub)
        return super().count(sub, *args)


def test_whole_lines_are_read_without_counting_quotes_and_delimiters(tmp_path, monkeypatch):
    path = tmp_path / "g.csv"
    path.write_bytes(b'id,income,unit\n1,"",Dane\n2,38000.50,Dane\n3,"",Lincoln\n')
    real_open = open

    class _File:
        def __init__(self, *a, **k):
            self.f = real_open(*a, **k)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def read(self):
            return _Bytes(self.f.read())
    monkeypatch.setattr(io, "open", _File, raising=False)
    _Bytes.passes = []
    real_count = io._count

    def count(data, byte, *a):  # io's own count of one byte (numpy, a block at a time) is a pass too
        _Bytes.passes.append(bytes([byte]))
        return real_count(data, byte, *a)
    monkeypatch.setattr(io, "_count", count)
    table = io.read_table(str(path))
    assert isinstance(table.columns["id"], pl.Series)  # read by polars
    assert _rows(table) == (3, {"id": ["1", "2", "3"], "income": ["", "38000.50", ""],
                                "unit": ["Dane", "Dane", "Lincoln"]}, {})
    assert _Bytes.passes == [b"\n"]  # the rows against the lines; no count of quotes or commas (old: 4 passes)


@pytest.mark.parametrize("data", [
    b"a,b,c\n1,2,3\n4,5\n6,7,8\n",       # a short line: its last cell is not a blank field
    b"a,b,c\n1,2,3\n4\n6,7,8\n",
    b"a,b,c\n1,2,3\n\n6,7,8\n",          # a blank line
    b"a,b,c\n1,2,\n4,5,6\n",             # an empty last field: whole, though its cell is blank
    b'a,b,c\n1,2,""\n4,5\n',
    b'a,b,c\n1,"x\ny",3\n',              # a line break inside quotes
    b'a,b,c\n1,2,"ab\n4,5,6\n',          # an unclosed quote in the last field swallows the next line
    b'a,b,c\n1,a"b,3\n4,5,6\n',
    b'a,b,c\n1,"a""b",3\n',
    b"a\n1\n\n2\n",
])
def test_a_broken_line_reads_as_the_csv_module_reads_it(tmp_path, data):
    path = tmp_path / "f.csv"
    path.write_bytes(data)
    assert _rows(io.read_table(str(path))) == _csv_module(data)
