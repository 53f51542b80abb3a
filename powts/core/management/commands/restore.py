"""powts restore FILE [--force]: a backup back into the configured database and data directory."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from powts.core.backup import BackupError, restore_backup
from powts.core.progress import Progress


class Command(BaseCommand):
    help = ("Restore a file written by `powts backup` into the configured database (DATABASE_URL, or the SQLite file in "
            "POWTS_DATA_DIR) and data directory, then check every table against the backup's manifest. Refuses a "
            "database that already holds records unless --force.")

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="The backup file")
        parser.add_argument("--force", action="store_true", help="Replace the records the database holds now.")

    def handle(self, *args, file, force, **options):
        try:
            with Progress("powts restore"):
                done = restore_backup(path=file, force=force)
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"Restored {done.tables} tables ({done.rows:,} rows, every table checked against the backup) "
                          f"and {done.files:,} files from the backup of {done.created_at}.")
        self.stdout.write("Next: `powts migrate` if this version of powts is newer than the backup's.")
