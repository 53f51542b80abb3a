"""The backup file: tar.gz of manifest.json, the database dump and files/ (the data directory's records)."""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import shutil
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from powts.core.progress import report
from powts.core.refusals import Refused

FORMAT = "powts-backup"
VERSION = 1
# Not records: the database itself (dumped separately), this machine's secret key (a restore on a
# new machine makes its own), collected static assets (rebuilt from the code) and the what-if's shared copy
# of the grant caseload (rebuilt from the database, powts.grants.caseload).
SKIPPED = {"secret_key", "static", "caseloads"}
SKIPPED_SUFFIXES = (".sqlite3", ".sqlite3-wal", ".sqlite3-shm", ".sqlite3-journal")
# Rows that `migrate` itself writes: a database holding only these has no records to lose.
BOOKKEEPING_MODELS = {"contenttypes.contenttype", "auth.permission"}


class BackupError(Refused):
    """The backup or restore cannot be done; the message says why. Nothing was changed."""


@dataclass
class Summary:
    path: Path
    engine: str
    tables: int
    rows: int
    files: int
    created_at: str


def _engine(connection):
    from powts.core.backup import postgres, sqlite

    engines = {"sqlite": sqlite, "postgresql": postgres}
    if connection.vendor not in engines:
        raise BackupError(f"powts backs up SQLite and PostgreSQL databases, not {connection.vendor}")
    return engines[connection.vendor]


def _record_files(data_dir: Path, skip: set[Path]):
    """(path, name in the archive) of every regular file in the data directory that is a record."""
    for root, dirs, files in os.walk(data_dir):
        here = Path(root)
        if here == data_dir:  # and a restore's unpacking folder, .powts-restore-*
            dirs[:] = [d for d in dirs if d not in SKIPPED and not d.startswith(".powts-")]
        dirs.sort()
        for name in sorted(files):
            path = here / name
            if (here == data_dir and (name in SKIPPED or name.endswith(SKIPPED_SUFFIXES))) or path in skip \
                    or name.startswith(".powts-") or not path.is_file() or path.is_symlink():
                continue
            yield path, "files/" + path.relative_to(data_dir).as_posix()


def _version() -> str:
    from powts import __version__

    return __version__


def _sha256(path: Path) -> str:
    sha = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            sha.update(chunk)
    return sha.hexdigest()


class _Hashing:
    def __init__(self, handle):
        self.handle, self.sha = handle, hashlib.sha256()

    def read(self, size=-1):
        data = self.handle.read(size)
        self.sha.update(data)
        return data


def _add_bytes(tar: tarfile.TarFile, name: str, data: bytes, mtime: float) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = len(data), mtime, 0o600
    tar.addfile(info, _BytesReader(data))


class _BytesReader:
    def __init__(self, data: bytes):
        self.data, self.at = data, 0

    def read(self, size=-1):
        end = len(self.data) if size < 0 else self.at + size
        chunk, self.at = self.data[self.at:end], min(end, len(self.data))
        return chunk


def create_backup(*, output: Path, connection=None, data_dir: Path | None = None) -> Summary:
    """Writes the backup to `output` (0600, replaced atomically); the live database stays in use."""
    from django.conf import settings
    from django.db import connection as default_connection

    connection = connection or default_connection
    data_dir = Path(data_dir or settings.DATA_DIR).resolve()
    output = Path(output).resolve()
    engine = _engine(connection)
    if output.is_dir():
        raise BackupError(f"--output {output} is a folder; name the backup file, e.g. {output / 'powts-backup.tar.gz'}")
    if not output.parent.is_dir():
        raise BackupError(f"--output {output}: the folder {output.parent} does not exist")
    created = dt.datetime.now(dt.UTC).replace(microsecond=0)
    partial = output.with_name(f".powts-backup-{os.getpid()}-{output.name}")
    with tempfile.TemporaryDirectory(prefix="powts-backup-") as tmp:
        report(0, None, "copying the database")
        database_file, tables = engine.dump(connection, Path(tmp))
        records = list(_record_files(data_dir, {output, partial}))
        report(0, len(records), "files")
        files = {}
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(fd, "wb") as raw, tarfile.open(fileobj=raw, mode="w:gz") as tar:
                tar.add(Path(tmp) / database_file, arcname=database_file, filter=_private)
                for number, (path, name) in enumerate(records, 1):
                    info = tar.gettarinfo(str(path), arcname=name)
                    with open(path, "rb") as handle:
                        hashing = _Hashing(handle)
                        tar.addfile(_private(info), hashing)
                    files[name] = {"bytes": info.size, "sha256": hashing.sha.hexdigest()}
                    report(number, len(records), "files")
                manifest = {"format": FORMAT, "version": VERSION, "powts_version": _version(),
                            "created_at": created.isoformat(), "engine": connection.vendor, "database": database_file,
                            "tables": tables, "files": files}
                _add_bytes(tar, "manifest.json", json.dumps(manifest, indent=1, sort_keys=True).encode(), created.timestamp())
            os.chmod(partial, 0o600)
            os.replace(partial, output)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
    return Summary(output, connection.vendor, len(tables), sum(t["rows"] for t in tables.values()), len(files),
                   created.isoformat())


def _private(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    info.mode = 0o600 if info.isfile() else 0o700
    return info


def records_in(connection) -> list[str]:
    """The tables (of powts's models) that hold rows: what a restore would overwrite."""
    from django.apps import apps

    existing = set(connection.introspection.table_names())
    holding = []
    with connection.cursor() as cursor:
        for model in apps.get_models(include_auto_created=True):
            table = model._meta.db_table
            if model._meta.label_lower in BOOKKEEPING_MODELS or table not in existing or not model._meta.managed:
                continue
            cursor.execute(f"SELECT 1 FROM {connection.ops.quote_name(table)} LIMIT 1")
            if cursor.fetchone():
                holding.append(table)
    return holding


def _extract(tar: tarfile.TarFile, into: Path) -> None:
    """Every member into `into`, refusing absolute paths, "..", links and devices: tarfile's "data" filter,
    or the same checks by hand on a Python without it (before 3.11.4: Debian 12's python3 is 3.11.2)."""
    if hasattr(tarfile, "data_filter"):
        tar.extractall(into, filter="data")
        return
    for member in tar.getmembers():
        name = Path(member.name)
        if name.is_absolute() or ".." in name.parts or not (member.isfile() or member.isdir()):
            raise tarfile.TarError(f"{member.name}: not a plain file inside the backup")
    tar.extractall(into)


def _read_archive(path: Path, into: Path) -> dict:
    try:
        with tarfile.open(path, "r:gz") as tar:
            _extract(tar, into)
    except FileNotFoundError:
        raise BackupError(f"{path} does not exist") from None
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise BackupError(f"{path} is not a readable powts backup ({exc})") from None
    try:
        manifest = json.loads((into / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise BackupError(f"{path} is not a powts backup (it has no readable manifest.json)") from None
    if manifest.get("format") != FORMAT or manifest.get("version") != VERSION:
        raise BackupError(f"{path} is not a powts backup of version {VERSION}")
    for name, meta in manifest["files"].items():
        local = into / name
        if not local.is_file() or _sha256(local) != meta["sha256"]:
            raise BackupError(f"{path} is damaged: {name} does not match its manifest")
    return manifest


def restore_backup(*, path: Path, force: bool = False, connection=None, data_dir: Path | None = None) -> Summary:
    """Restores `path` into the configured database and data directory."""
    from django.conf import settings
    from django.db import connection as default_connection

    connection = connection or default_connection
    data_dir = Path(data_dir or settings.DATA_DIR).resolve()
    path = Path(path).resolve()
    engine = _engine(connection)
    data_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".powts-restore-", dir=data_dir) as tmp:
        report(0, None, "reading the backup")
        manifest = _read_archive(path, Path(tmp))
        if manifest["engine"] != connection.vendor:
            raise BackupError(f"{path.name} is a backup of a {manifest['engine']} database; powts is set to use "
                              f"{connection.vendor} (DATABASE_URL)")
        holding = records_in(connection)
        if holding and not force:
            raise BackupError(f"the database already holds records ({', '.join(holding[:5])}"
                              f"{' and more' if len(holding) > 5 else ''}); restore into an empty database, "
                              f"or add --force to replace them")
        report(0, None, "loading the database")
        engine.load(connection, Path(tmp) / manifest["database"], manifest["tables"])
        for number, name in enumerate(manifest["files"], 1):
            report(number, len(manifest["files"]), "files")
            target = data_dir / name.removeprefix("files/")
            for folder in reversed(target.relative_to(data_dir).parents[:-1]):
                (data_dir / folder).mkdir(mode=0o700, exist_ok=True)
            shutil.move(Path(tmp) / name, target)
            os.chmod(target, 0o600)
    tables = manifest["tables"]
    return Summary(path, manifest["engine"], len(tables), sum(t["rows"] for t in tables.values()),
                   len(manifest["files"]), manifest["created_at"])
