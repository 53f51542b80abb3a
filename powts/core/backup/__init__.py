"""`powts backup` and `powts restore`: the database and the data directory's records in one file.

The archive (tar.gz, written 0600) holds the database (a SQLite online-backup copy, or a `pg_dump`
custom-format dump), the record files of the data directory (uploads, letters, sent mail) and a
manifest with every table's row count and a checksum of its contents. A restore checks the archive,
refuses to overwrite a database that holds records unless forced, and checks the result against
the manifest.
"""
from powts.core.backup.archive import BackupError, create_backup, restore_backup

__all__ = ["BackupError", "create_backup", "restore_backup"]
