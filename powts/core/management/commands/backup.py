"""powts backup --output FILE: the database and the data directory's records in one file (0600)."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from powts.core.backup import BackupError, create_backup
from powts.core.progress import Progress


class Command(BaseCommand):
    help = ("Back up the database (SQLite online backup, or pg_dump) and the data directory's records (uploads, "
            "letters, sent mail) into one .tar.gz file with a manifest of every table's row count and checksum. "
            "Safe while powts is running.")

    def add_arguments(self, parser):
        parser.add_argument("--output", required=True, type=Path, help="The backup file to write, e.g. powts-2026-11-30.tar.gz")

    def handle(self, *args, output, **options):
        try:
            with Progress("powts backup"):
                done = create_backup(output=output)
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"Backed up {done.tables} tables ({done.rows:,} rows) and {done.files:,} files of the "
                          f"{done.engine} installation to {done.path} at {done.created_at}.")
