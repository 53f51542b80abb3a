"""The import's robustness: the import checks before it writes, one import of a
county at a time, its follow-up is part of its guarantee, the web preview is bounded, and files that are
not what they claim (Shift-JIS, a cell of hundreds of megabytes, a field past the CSV limit) are refused
with a message naming the user's file."""
import datetime as dt
import io
import threading
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection

from powts.audit.models import AuditEvent
from powts.inventory import services
from powts.inventory.importing import service
from powts.inventory.importing.lock import ImportBusy, county_import_lock
from powts.inventory.importing.readers import InventoryFileRefused
from powts.inventory.importing.service import import_inventory
from powts.inventory.models import ImportFollowUpPending, System
from powts.maintenance.models import Schedule

HEADER = ["system_id", "parcel_id", "system_type", "owner_name", "installed_on"]
TODAY = dt.date(2026, 11, 29)


def run(path, jurisdiction, **kw):
    return import_inventory(path=path, jurisdiction=jurisdiction, today=TODAY, **kw)


def rows(n, start=0):
    return [HEADER] + [[f"D-{i}", f"P-{i}", "mound", f"Owner {i}", "2001-05-01"] for i in range(start, start + n)]


# -- two imports of one county ------------------------------------------------------------------

@pytest.fixture
def held_elsewhere(dane):
    """The county's import lock held by another thread (its own database connection), as another worker would."""
    taken, release = threading.Event(), threading.Event()

    def hold():
        try:
            with county_import_lock(dane):
                taken.set()
                release.wait(30)
        finally:
            connection.close()

    thread = threading.Thread(target=hold)
    thread.start()
    assert taken.wait(10)
    yield
    release.set()
    thread.join()


def test_a_second_import_of_the_county_is_refused_with_a_message_and_writes_nothing(dane, write_csv, held_elsewhere):
    """Two imports of one county at once: the second is refused with a message, not a traceback."""
    with pytest.raises(ImportBusy, match=r"Another import of Dane County's inventory is running"):
        run(write_csv(rows(3)), dane)
    assert System.objects.count() == 0 and AuditEvent.objects.filter(content_type__model="system").count() == 0


def test_while_one_county_imports_another_county_and_a_dry_run_go_ahead(dane, lincoln, write_csv, held_elsewhere):
    """The lock is per county, and a dry run (the web preview) writes nothing so takes no lock."""
    assert run(write_csv(rows(2)), dane, dry_run=True).created == 2
    assert run(write_csv(rows(2)), lincoln).created == 2


def test_the_cli_says_another_import_is_running_and_exits_non_zero(cli, dane, write_csv, held_elsewhere):
    code, _, err = cli("import", "inventory", str(write_csv(rows(2))), "--jurisdiction", "dane")
    assert code == 1 and "Another import of Dane County's inventory is running" in err and "Traceback" not in err


def test_the_web_confirm_says_another_import_is_running(client, staff, dane, held_elsewhere, tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path
    client.force_login(staff)
    content = "\n".join(",".join(r) for r in rows(2)).encode()
    token = client.post("/inventory/import/", {"file": SimpleUploadedFile("county.csv", content)}).context["token"]
    page = client.post(f"/inventory/import/{token}/confirm/", follow=True)
    assert page.status_code == 200 and "Another import of Dane County" in page.content.decode()
    assert System.objects.count() == 0


def test_the_lock_is_released_after_an_import_and_after_a_failed_one(dane, write_csv, monkeypatch):
    monkeypatch.setattr(service, "clean_row", lambda raw, today: (_ for _ in ()).throw(OSError("disk gone")))
    with pytest.raises(OSError):
        run(write_csv(rows(2)), dane)
    monkeypatch.undo()
    assert run(write_csv(rows(2)), dane).created == 2
    assert run(write_csv(rows(2)), dane).unchanged == 2


# -- checking before the write transaction -------------------------------------------------------

def test_rows_are_checked_before_the_write_transaction_opens(dane, write_csv, monkeypatch):
    """The import parses and checks outside the write transaction (the write lock is held for the
    writes only)."""
    in_transaction = []
    real = service.clean_row
    base = len(connection.atomic_blocks)  # pytest-django's own transaction around the test

    def spy(raw, today):
        in_transaction.append(len(connection.atomic_blocks) > base)
        return real(raw, today=today)

    monkeypatch.setattr(service, "clean_row", spy)
    assert run(write_csv(rows(5)), dane).created == 5
    assert in_transaction == [False] * 5


def test_a_system_created_by_someone_else_between_check_and_write_is_not_created_twice(dane, write_csv, monkeypatch):
    """What the check phase read is compared again inside the transaction: a concurrent create is
    counted (updated here: it differs from the file), never inserted twice or lost."""
    real = service._write

    def someone_adds_d1_meanwhile(*args, **kw):
        services.system_create(jurisdiction=dane, system_id="D-1", parcel_number="P-1", system_type="mound",
                               owner_name="Owner 1", installed_on=dt.date(1999, 1, 1))
        return real(*args, **kw)

    monkeypatch.setattr(service, "_write", someone_adds_d1_meanwhile)
    result = run(write_csv(rows(3)), dane)
    assert result.counts() == {"rows": 3, "created": 2, "updated": 1, "unchanged": 0, "rejected": 0}
    assert System.objects.filter(system_id="D-1").count() == 1
    assert System.objects.get(system_id="D-1").installed_on == dt.date(2001, 5, 1)
    event = AuditEvent.objects.get(content_type__model="system", verb="update")
    # the before is what was stored, not a stale read
    assert event.changes == {"installed_on": ["1999-01-01", "2001-05-01"], "version": [1, 2]}


def test_an_edit_between_check_and_write_that_matches_the_file_makes_the_row_unchanged(dane, write_csv, monkeypatch):
    run(write_csv(rows(2)), dane)
    changed = rows(2)
    changed[1][4] = "2002-02-02"
    real = service._write

    def someone_edits_meanwhile(*args, **kw):
        system = System.objects.get(system_id="D-0")
        system.installed_on = dt.date(2002, 2, 2)
        system.save()
        return real(*args, **kw)

    monkeypatch.setattr(service, "_write", someone_edits_meanwhile)
    result = run(write_csv(changed, name="feb.csv"), dane)
    assert result.counts() == {"rows": 2, "created": 0, "updated": 0, "unchanged": 2, "rejected": 0}
    assert not AuditEvent.objects.filter(content_type__model="system", verb="update").exists()


def test_a_file_too_large_to_keep_in_memory_is_spooled_to_disk_and_imports_the_same(dane, write_csv, monkeypatch):
    """The rows kept between the check and the write survive the trip through the temporary file."""
    import functools

    from powts.inventory.importing.spool import RowSpool

    monkeypatch.setattr(service, "CHUNK", 2)
    monkeypatch.setattr(service, "RowSpool", functools.partial(RowSpool, keep=2))
    data = rows(5) + [["D-9", "P-9", "holding tank", "Zoë “Q” Muñoz", "1999-12-31"]]
    data[0] = data[0] + ["latitude", "longitude", "legacy"]
    for row in data[1:]:
        row += ["43.0731", "-89.4012", "x=1"]
    result = run(write_csv(data), dane)
    assert result.created == 6
    system = System.objects.select_related("parcel__owner").get(system_id="D-9")
    parcel = system.parcel
    stored = (system.system_type, system.installed_on, str(parcel.latitude), parcel.owner.name, system.extra)
    assert stored == ("holding_tank", dt.date(1999, 12, 31), "43.073100", "Zoë “Q” Muñoz", {"legacy": "x=1"})
    assert run(write_csv(data), dane).unchanged == 6


# -- the follow-up is part of the import ---------------------------------------------------------

def test_an_import_stopped_before_its_follow_up_is_completed_by_the_next_run(dane, write_csv, monkeypatch):
    """Killing the import after it commits but before the schedule update leaves systems without
    schedules; a rerun (every row unchanged) must repair them."""
    path = write_csv(rows(3))

    def killed(jurisdiction):
        raise KeyboardInterrupt  # what a kill between the commit and the follow-up leaves

    monkeypatch.setattr(service, "run_follow_up", killed)
    with pytest.raises(KeyboardInterrupt):
        run(path, dane)
    assert System.objects.count() == 3 and Schedule.objects.count() == 0
    assert ImportFollowUpPending.objects.filter(jurisdiction=dane).exists()
    monkeypatch.undo()
    again = run(path, dane)
    assert again.unchanged == 3 and set(again.follow_up) == {"maintenance schedules", "map clusters"}
    assert Schedule.objects.count() == 3
    assert not ImportFollowUpPending.objects.exists()
    assert run(path, dane).follow_up == {}  # done once, not again


def test_skipping_the_follow_up_leaves_it_pending_for_the_next_import(dane, write_csv):
    path = write_csv(rows(2))
    assert run(path, dane, follow_up=False).follow_up == {}
    assert Schedule.objects.count() == 0
    assert set(run(path, dane).follow_up) == {"maintenance schedules", "map clusters"} and Schedule.objects.count() == 2


# -- the web preview is bounded ------------------------------------------------------------------

@pytest.mark.parametrize("in_file, checked", [(4, 4), (5, 5), (6, 5)])
def test_a_preview_checks_the_first_rows_and_counts_them_all(dane, write_csv, in_file, checked):
    """The preview is a real dry run of the first rows plus a count of all rows (both sides of the limit)."""
    data = rows(in_file)
    data[2][2] = "Spaceship"  # a reject among the rows checked
    result = run(write_csv(data), dane, dry_run=True, limit=5)
    assert (result.rows, result.rows_in_file, result.rejected, result.created) == (checked, in_file, 1, checked - 1)
    assert System.objects.count() == 0


def test_an_xlsx_preview_counts_the_rows_that_hold_values_as_the_import_reads_them(dane, tmp_path):
    """The count of an XLSX comes from its XML (openpyxl takes seconds a 100,000 rows); rows with
    only formatting, or gaps, are not rows, as the import itself skips them."""
    import openpyxl
    from openpyxl.styles import PatternFill

    book = openpyxl.Workbook()
    sheet = book.active
    for row in rows(12):
        sheet.append(row)
    sheet.cell(row=20, column=2).fill = PatternFill("solid", fgColor="FFFF00")  # a formatted cell, no value
    sheet.cell(row=25, column=1, value="D-99")  # after a gap
    sheet.cell(row=25, column=2, value="P-99")
    sheet.cell(row=25, column=3, value="mound")
    sheet.cell(row=25, column=4, value="Zed")
    path = tmp_path / "county.xlsx"
    book.save(path)
    preview = run(path, dane, dry_run=True, limit=5)
    whole = run(path, dane, dry_run=True)
    assert (preview.rows, preview.rows_in_file, whole.rows) == (5, 13, 13)


def test_the_limit_is_for_previews_only(dane, write_csv):
    with pytest.raises(ValueError):
        run(write_csv(rows(2)), dane, limit=1)


def test_the_web_preview_says_it_checked_part_of_the_file_and_the_import_takes_it_all(client, staff, dane, tmp_path,
                                                                                     settings, monkeypatch):
    from powts.inventory import views

    settings.MEDIA_ROOT = tmp_path
    monkeypatch.setattr(views, "PREVIEW_ROWS", 3)
    client.force_login(staff)
    content = "\n".join(",".join(r) for r in rows(7)).encode()
    preview = client.post("/inventory/import/", {"file": SimpleUploadedFile("county.csv", content)})
    page = preview.content.decode()
    assert "The file has 7 rows" in page and "covers the first 3" in page and "Import all 7 rows" in page
    done = client.post(f"/inventory/import/{preview.context['token']}/confirm/", follow=True)
    assert "7 created" in done.content.decode() and System.objects.count() == 7


def test_a_small_file_preview_does_not_talk_about_a_part(client, staff, dane, tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path
    client.force_login(staff)
    content = "\n".join(",".join(r) for r in rows(2)).encode()
    page = client.post("/inventory/import/", {"file": SimpleUploadedFile("county.csv", content)}).content.decode()
    assert "covers the first" not in page and "Import 2 changed systems" in page


# -- files that are not what they claim ----------------------------------------------------------

def test_a_shift_jis_file_is_refused_not_read_as_windows_1252(dane, write_csv):
    """Finding: Shift-JIS read silently as Windows-1252."""
    path = write_csv([HEADER[:4], ["D-1", "P-1", "mound", "山田太郎"], ["D-2", "P-2", "mound", "東京都港区の浄化槽"]],
                     encoding="shift_jis")
    with pytest.raises(InventoryFileRefused, match=r"inventory\.csv is neither UTF-8 nor Windows-1252 text"):
        run(path, dane)
    assert System.objects.count() == 0


def test_a_windows_1252_file_with_accents_and_curly_quotes_imports(dane, write_csv):
    path = write_csv([HEADER[:4], ["D-1", "P-1", "mound", "Grüße “Köln” — Muñoz"], ["D-2", "P-2", "mound", "ÅNGSTRÖM"]],
                     encoding="cp1252")
    result = run(path, dane)
    assert result.created == 2 and result.encoding == "latin-1 (cp1252)"
    assert System.objects.get(system_id="D-1").parcel.owner.name == "Grüße “Köln” — Muñoz"


def _xlsx_with_cell(tmp_path, text_bytes: int):
    """A workbook whose one cell holds `text_bytes` bytes of text (written into the sheet XML, as a hostile
    file would)."""
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["system_id", "parcel_id", "system_type", "owner_name", "notes"])
    sheet.append(["D-1", "P-1", "mound", "Ann", "MARKER"])
    buffer = io.BytesIO()
    book.save(buffer)
    path = tmp_path / "county.xlsx"
    with zipfile.ZipFile(buffer) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b"MARKER", b"x" * text_bytes)
            target.writestr(item, data)
    return path


def test_an_xlsx_cell_longer_than_excel_allows_is_refused_before_it_is_loaded(dane, tmp_path):
    """Finding: a 310 KB XLSX with one 300 MB cell takes 490 MB (here 20 MB: the check streams, so size is
    no matter)."""
    path = _xlsx_with_cell(tmp_path, 20 * 1024 * 1024)
    assert path.stat().st_size < 200_000
    with pytest.raises(InventoryFileRefused, match=r"county\.xlsx has a cell longer than Excel's limit of 32,767 characters"):
        run(path, dane)


@pytest.mark.parametrize("size, refused", [(32_767, False), (256 * 1024, False), (256 * 1024 + 1, True)])
def test_xlsx_cell_limit_both_sides(dane, tmp_path, size, refused):
    path = _xlsx_with_cell(tmp_path, size)
    if refused:
        with pytest.raises(InventoryFileRefused, match="longer than Excel's limit"):
            run(path, dane, dry_run=True)
    else:
        assert run(path, dane, dry_run=True).rows == 1


@pytest.mark.parametrize("size, refused", [(131_072, False), (131_073, True)])
def test_a_csv_cell_past_the_field_limit_is_refused_with_a_message(dane, write_csv, size, refused):
    """Finding: a 128 KB CSV field."""
    path = write_csv([HEADER[:4] + ["notes"], ["D-1", "P-1", "mound", "Ann", "x" * size]])
    if refused:
        with pytest.raises(InventoryFileRefused, match=r"inventory\.csv line 2: a cell is longer than 131,072 characters"):
            run(path, dane)
        assert System.objects.count() == 0
    else:
        # the file is read; a note that long is then that row's reject (longer than the column holds)
        result = run(path, dane, dry_run=True)
        assert (result.rows, result.rejected) == (1, 1) and "notes" in str(result.rejects_preview)


def test_a_refused_upload_is_named_as_the_user_named_it_never_by_its_stored_path(client, staff, tmp_path, settings):
    """Finding: an error names the user's file, never a temporary file path."""
    settings.MEDIA_ROOT = tmp_path
    client.force_login(staff)
    response = client.post("/inventory/import/", {"file": SimpleUploadedFile("march.csv", b"a,b\n1,2\n")})
    page = response.content.decode()
    assert response.status_code == 400 and "march.csv is missing required columns" in page
    stored = [p.stem for p in (tmp_path / "imports").iterdir()] if (tmp_path / "imports").exists() else []
    assert not any(stem in page for stem in stored) and str(tmp_path) not in page
