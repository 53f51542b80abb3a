"""The `powts` command.

Rule and calendar commands (`rules`, `workdays`, `setbacks`) run without Django, so they start fast
and work without a database. Everything else is a Django management command (`serve`, `demo`,
`import`, `export`, `maintenance`, and Django's own: `migrate`, `createsuperuser`, ...). On the
embedded SQLite default, pending migrations are applied first, so a newcomer never has to.
"""
from __future__ import annotations

import importlib
import os
import sys

# subcommand -> module with `main(argv: list[str]) -> int`; none of them imports Django.
PURE_COMMANDS = {
    "rules": "powts.law.cli",
    "workdays": "powts.calendars.cli",
    "setbacks": "powts.setbacks.cli",
}

# Commands that must not trigger the automatic migration (they manage it, or need no database).
NO_AUTO_MIGRATE = {
    "migrate", "makemigrations", "sqlmigrate", "showmigrations", "squashmigrations",
    "check", "help", "version", "--help", "-h", "--version", "collectstatic", "startapp",
    "shell", "dbshell", "test", "diffsettings",
    "restore",  # an empty database must stay empty until the backup is in it
}


def _auto_migrate() -> None:
    """Apply pending migrations on the embedded default (never on a server database)."""
    from django.core.management import call_command
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    if connection.vendor != "sqlite":
        return
    executor = MigrationExecutor(connection)
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        print("powts: applying database migrations ...", file=sys.stderr)
        call_command("migrate", interactive=False, verbosity=0)


# Files the application writes (database, letters, uploads, outbox, exports) hold owners' names and
# addresses: readable by the service account only (0600 files, 0700 directories).
PRIVATE_UMASK = 0o077


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    os.umask(PRIVATE_UMASK)
    if argv and argv[0] in PURE_COMMANDS:
        module = importlib.import_module(PURE_COMMANDS[argv[0]])
        return int(module.main(argv[1:]) or 0)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "powts.settings")
    import django
    from django.core.management import execute_from_command_line

    django.setup()
    # `powts serve --help` only prints its options: no database work (the deploy test runs it).
    if argv and argv[0] not in NO_AUTO_MIGRATE and not {"--help", "-h"} & set(argv):
        _auto_migrate()
    try:
        execute_from_command_line(["powts", *argv])
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
