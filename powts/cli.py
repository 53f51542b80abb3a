"""The `powts` command.

Rule and calendar commands (`rules`, `workdays`, `setbacks`) run without Django, so they start fast
and work without a database. Everything else is a Django management command (`serve`, `demo`,
`import`, `export`, `maintenance`, and Django's own: `migrate`, `createsuperuser`, ...).

`powts --help` lists powts's commands by what an administrator does with them, then Django's others
(`--help --all` adds those that empty a database or are for developers). `powts --version` is the
release (the package metadata, from pyproject.toml). An unknown command is answered at once, with the
nearest name; it touches no database.

The database is migrated by `powts migrate`, by `powts serve` (unless --no-setup) and by the first run on
the embedded SQLite default (no database yet), and each says so. Any other command on a database that is
behind this release stops and says to run `powts migrate`: an upgrade is a step the county takes, after
its backup, never a side effect of a report.
"""
from __future__ import annotations

import difflib
import importlib
import os
import sys

# subcommand -> module with `main(argv: list[str]) -> int` and `_parser()`; none of them imports Django.
PURE_COMMANDS = {
    "rules": "powts.law.cli",
    "workdays": "powts.calendars.cli",
    "setbacks": "powts.setbacks.cli",
}

# What an administrator does, and the commands for it (powts's own first; Django's that belong to a task too).
GROUPS = [
    ("Set up", [
        ("serve", "serve the web application (applies pending migrations first)"),
        ("county", "set up one of Wisconsin's 72 counties on the state minimum profile, or list those set up"),
        ("demo", "load a demo county with one sign-in per role"),
        ("migrate", "apply the database migrations of a new release (after `powts backup`)"),
        ("createsuperuser", "make an administrator account with your own password"),
        ("collectstatic", "copy the pages' styles and scripts where the web server finds them"),
    ]),
    ("Import and export", [
        ("import", "import a county's inventory (CSV or XLSX), every row stored or rejected with its reason"),
        ("export", "export a county's inventory in the import's own columns"),
        ("backup", "back up the database and the data directory's records into one file"),
        ("restore", "restore a backup into an empty database and data directory"),
    ]),
    ("Maintenance", [
        ("maintenance", "the maintenance program: due list, notices, reports, annual summary"),
        ("inventory", "parcel centroids for the map, and the map's cluster counts"),
    ]),
    ("Permits", [
        ("permits", "daily permit sweeps (expiry, overdue correction orders) and demo permits"),
        ("setbacks", "check a plot plan's setbacks against a county profile"),
        ("workdays", "the county's working-day calendar: deadlines for notices and inspections"),
    ]),
    ("Programs", [
        ("grants", "Wisconsin Fund grants: applications, certification, submission, allocation"),
        ("wells", "well compensation claims and payment runs (Wis. Stat. s. 281.75)"),
        ("rules", "the grant and well-compensation rules on a file, without a database"),
    ]),
    ("Operate", [
        ("worker", "run background jobs from the queue in their own process"),
        ("changepassword", "set a user's password"),
        ("axes_reset", "lift every sign-in lockout"),
    ]),
]

# Listed only by `powts --help --all`: they empty a database or write code (for developers, never a county).
HIDDEN = {
    "flush", "sqlflush", "startproject", "startapp", "makemigrations", "squashmigrations", "optimizemigration",
    "test", "testserver", "runserver", "run_huey", "sqlsequencereset", "remove_stale_contenttypes", "inspectdb",
    "makemessages", "compilemessages",
}

# Commands that migrate themselves (and say so) or need no migrated database.
MIGRATES_ITSELF = {"migrate", "serve"}
NO_DATABASE = {
    "makemigrations", "sqlmigrate", "showmigrations", "squashmigrations", "optimizemigration", "check", "help",
    "collectstatic", "findstatic", "startapp", "startproject", "shell", "dbshell", "test", "testserver",
    "diffsettings", "compilemessages", "makemessages", "sendtestemail", "spectacular", "flush", "sqlflush",
    "restore",  # an empty database must stay empty until the backup is in it
}

RENAMED_OPTIONS = {"--county": "--jurisdiction"}  # old name -> the one name now; the old one still works

# Files the application writes (database, letters, uploads, outbox, exports) hold owners' names and
# addresses: readable by the service account only (0600 files, 0700 directories).
PRIVATE_UMASK = 0o077


def version() -> str:
    from powts import __version__

    return __version__


def _renamed(argv: list[str]) -> list[str]:
    """`--county X` and `--county=X` as `--jurisdiction`, with a one-line notice (deprecated, hidden from help)."""
    out = []
    for i, word in enumerate(argv):
        if word == "--":
            return out + argv[i:]
        name, eq, value = word.partition("=")
        if name in RENAMED_OPTIONS:
            new = RENAMED_OPTIONS[name]
            print(f"powts: {name} is now {new}; {name} still works for now but will be removed", file=sys.stderr)
            word = new + eq + value
        out.append(word)
    return out


def _is_help(argv: list[str]) -> bool:
    return not argv or (argv[0] in ("-h", "--help", "help") and all(a in ("-h", "--help", "--all") for a in argv[1:]))


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    os.umask(PRIVATE_UMASK)
    if argv and argv[0] in ("--version", "version"):
        print(f"powts {version()}")
        return 0
    argv = _renamed(argv)
    if argv and argv[0] in PURE_COMMANDS:
        module = importlib.import_module(PURE_COMMANDS[argv[0]])
        return int(module.main(argv[1:]) or 0)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "powts.settings")
    from django.core.exceptions import ImproperlyConfigured

    try:
        # The settings alone (no apps, no database): a malformed DATABASE_URL and the like stop here in one line,
        # and an unknown command is answered before anything is set up.
        known = set(django_commands()) | set(PURE_COMMANDS) | {"help"}
        command = argv[0] if argv else ""
        if command and not command.startswith("-") and command not in known:
            print(unknown_command_text(command, known), file=sys.stderr)
            return 1
        import django

        django.setup()
    except ImproperlyConfigured as exc:
        print(f"powts: {exc}", file=sys.stderr)
        return 2
    from django.core.management.base import BaseCommand

    BaseCommand.get_version = lambda self: version()  # `powts COMMAND --version`: powts's, not Django's
    if _is_help(argv):
        print(help_text(show_all="--all" in argv))
        return 0
    if not {"--help", "-h", "--version"} & set(argv) and command not in MIGRATES_ITSELF | NO_DATABASE and not command.startswith("-"):
        stop = prepare_database(command)
        if stop:
            print(stop, file=sys.stderr)
            return 1
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(["powts", *argv])
    except KeyboardInterrupt:
        return 130
    return 0


# -- the command list -------------------------------------------------------------------------------

def django_commands() -> dict[str, str]:
    """Management command name -> the app that provides it, as Django's get_commands() finds them, but from the
    settings' INSTALLED_APPS and the files alone: no django.setup(), no database (an unknown command is answered
    at once)."""
    import importlib.util

    from django.conf import settings
    from django.core import management

    found = {}
    for app in reversed(settings.INSTALLED_APPS):  # the first app to name a command wins, as in Django
        module = app
        spec = importlib.util.find_spec(module)
        if (spec is None or not spec.submodule_search_locations) and app.count(".") >= 2:  # "package.apps.SomeConfig"
            module = app.rsplit(".", 2)[0]
            spec = importlib.util.find_spec(module)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            found.update({name: module for name in management.find_commands(os.path.join(folder, "management"))})
    return {**{name: "django.core" for name in management.find_commands(management.__path__[0])}, **found}


def all_commands() -> set[str]:
    return set(django_commands()) | set(PURE_COMMANDS)


def powts_commands() -> list[str]:
    """powts's own commands (its apps' and the pure ones), sorted."""
    return sorted({name for name, app in django_commands().items() if app.startswith("powts")} | set(PURE_COMMANDS))


def unknown_command_text(command: str, known: set[str] | None = None) -> str:
    names = sorted((known or all_commands()) - HIDDEN - {"help"})
    close = difflib.get_close_matches(command, names, n=1, cutoff=0.6)
    if not close:  # a prefix ("maint") or a word of the name ("super" for createsuperuser)
        close = [n for n in names if n.startswith(command) or (len(command) >= 4 and command in n)][:1]
    hint = f" Did you mean `powts {close[0]}`?" if close else ""
    return f"powts: unknown command {command!r}.{hint} `powts --help` lists the commands."


def _first_line(text: str) -> str:
    text = " ".join((text or "").split())
    for end in (". ", ": "):
        if end in text:
            text = text.split(end, 1)[0]
    return text.rstrip(".")


def command_help(name: str) -> str:
    """The one-line description of a Django command (its `help`, first sentence)."""
    from django.core.management import load_command_class

    try:
        return _first_line(load_command_class(django_commands()[name], name).help)
    except Exception:  # a third-party command that does not import here: listed by name only
        return ""


def help_text(*, show_all: bool = False) -> str:
    known = django_commands()
    lines = [
        "usage: powts COMMAND [options]",
        "",
        f"powts {version()}: a Wisconsin county's POWTS (septic system) program. "
        "`powts COMMAND --help` shows a command's options.",
    ]
    listed = set()
    for title, commands in GROUPS:
        lines += ["", f"{title}:"]
        for name, text in commands:
            if name in known or name in PURE_COMMANDS:
                lines.append(f"  {name:<16} {text}")
                listed.add(name)
    others = sorted(n for n in known if n not in listed and (show_all or n not in HIDDEN))
    if others:
        lines += ["", "Other commands (Django's and its apps'):"]
        for name in others:
            mark = "  (empties a database or is for developers)" if name in HIDDEN else ""
            text = command_help(name)
            text = text if len(text) <= 72 else text[:69].rstrip() + "..."
            lines.append(f"  {name:<26} {text}{mark}".rstrip())
    if not show_all:
        lines += ["", "`powts --help --all` also lists the commands that empty a database or are for developers."]
    lines += ["", "Settings come from the environment: DATABASE_URL (unset: SQLite in POWTS_DATA_DIR), POWTS_DATA_DIR, "
                  "POWTS_QUEUE_URL, SECRET_KEY, POWTS_ALLOWED_HOSTS ..."]
    return "\n".join(lines)


def command_parsers():
    """(name, parser) for each of powts's commands, as `powts NAME --help` builds it (for the help tests)."""
    from django.core.management import load_command_class

    apps = django_commands()
    for name in powts_commands():
        if name in PURE_COMMANDS:
            yield name, importlib.import_module(PURE_COMMANDS[name])._parser()
        else:
            yield name, load_command_class(apps[name], name).create_parser("powts", name)


# -- the database -----------------------------------------------------------------------------------

def _pending(connection):
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    return executor.migration_plan(executor.loader.graph.leaf_nodes())


def apply_migrations(label: str) -> int:
    """`migrate`, saying first how many migrations it applies (when any) and showing its progress (a bar, or a line
    every few seconds); the count. The plan is migrate's own (its pre_migrate signal), so nothing is read twice."""
    from django.core.management import call_command
    from django.db.models.signals import pre_migrate

    from powts.core.progress import Progress, note

    planned = {"total": None}

    def plan_known(sender, plan=None, **kwargs):  # sent once per app, each time with the whole plan
        if planned["total"] is None:
            planned["total"] = len(plan or [])
            if planned["total"]:
                note(f"{label}: applying {planned['total']} database migration(s) ...")

    with Progress(label, unit="migrations") as bar:
        class Counting:  # migrate's "  Applying app.0001_x... OK" lines, counted instead of shown
            done = 0

            def write(self, text):
                if "Applying " in text:
                    self.done += text.count("Applying ")
                    bar.step(self.done, planned["total"], "migrations")

            def flush(self):
                pass

        pre_migrate.connect(plan_known, weak=False, dispatch_uid="powts-cli-plan")
        try:
            call_command("migrate", interactive=False, verbosity=1, stdout=Counting())
        finally:
            pre_migrate.disconnect(dispatch_uid="powts-cli-plan")
    if planned["total"]:
        note(f"{label}: database up to date ({planned['total']} migration(s) applied).")
    return planned["total"] or 0


def prepare_database(command: str) -> str | None:
    """First run on the embedded SQLite default (no tables yet): create the database, saying so. A database behind
    this release: the message to stop with (nothing is migrated by a command that was not asked to)."""
    from django.db import connection

    first_run = connection.vendor == "sqlite" and "django_migrations" not in connection.introspection.table_names()
    plan = _pending(connection)
    if not plan:
        return None
    if first_run:
        from powts.core.progress import note

        note(f"powts {command}: first run: creating the database {connection.settings_dict['NAME']}")
        apply_migrations(f"powts {command}")
        return None
    return (f"powts: the database is behind this release of powts ({version()}): {len(plan)} migration(s) to apply. "
            "Back it up (`powts backup --output FILE`), run `powts migrate`, then this command again.")


if __name__ == "__main__":
    sys.exit(main())
