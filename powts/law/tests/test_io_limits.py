"""Reading a rules file must not change how the county's own uploads are read: csv's field limit is global,
and the inventory and report readers refuse a cell over the default 131,072 characters (bad input)."""
import csv

from powts.law.io import read_table


def test_reading_a_rules_file_leaves_the_csv_field_limit_as_it_was(tmp_path):
    before = csv.field_size_limit()
    path = tmp_path / "wide.csv"
    path.write_text('id,notes\n1,"' + "x" * 200_000 + '"\n2,"a, b"\n', encoding="utf-8")
    table = read_table(str(path))
    assert table.n == 2 and len(table.columns["notes"][0]) == 200_000  # a long explanation cell is read
    assert csv.field_size_limit() == before == 131072
