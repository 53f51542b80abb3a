"""`powts grants ...`: the Wisconsin Fund commands other tools call. One subparser per step:

  powts grants import FILE --jurisdiction SLUG [--json] [--as USERNAME]
      owners' applications (the fields of `powts rules evaluate wisconsin-fund-grant`, plus optional
      system_id, owner_name, site_address, municipality, parcel_number, fiscal_year), stored and decided.
      --json prints {"rows", "stored", "eligible", "ineligible", "rejected"}; rejected rows come with
      their line and reason. Exit 0 when the file was read (rejected rows included, as `powts rules
      evaluate` does), 1 when the file or the county cannot be used.

To add a step, write `add_<name>(subparsers)` and `handle_<name>(command, options)` and list it in
SUBCOMMANDS; `handle` dispatches by name.

  powts grants certify|submit|allocate ...: see powts.grants.program_commands.
"""
import json

from django.core.management.base import BaseCommand, CommandError

from powts.core.refusals import Refused


def _jurisdiction(slug: str):
    from powts.jurisdictions.models import Jurisdiction

    unit = Jurisdiction.objects.filter(slug=slug).first()
    if unit is None:
        raise CommandError(f"--jurisdiction {slug!r}: no such county or governmental unit")
    return unit


def acting_user(username: str | None):
    """The signed-in person a command acts as (--as), or None (the command's own name is recorded)."""
    if not username:
        return None
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise CommandError(f"--as {username!r}: no such active user")
    return user


# -- import ---------------------------------------------------------------------------------------

def add_import(sub):
    p = sub.add_parser("import", help="store and decide a file of owners' grant applications",
                       description="Store and decide a file of owners' Wisconsin Fund applications (s. 145.245); "
                                   "every rejected row reported with its line and reason.")
    p.add_argument("file", metavar="FILE", help="a .csv or .jsonl file: the fields of `powts rules evaluate "
                                                "wisconsin-fund-grant`, optionally system_id, owner_name, site_address, "
                                                "municipality, parcel_number, fiscal_year")
    p.add_argument("--jurisdiction", required=True, metavar="SLUG", help="the county (slug) the applications were made to")
    p.add_argument("--json", action="store_true", help='print {"rows", "stored", "eligible", "ineligible", "rejected"}')
    p.add_argument("--as", dest="as_user", metavar="USERNAME", help="username the import is recorded as done by")


def handle_import(command, options) -> None:
    from powts.grants.importing import import_applications
    from powts.grants.policies import can_import

    unit = _jurisdiction(options["jurisdiction"])
    user = acting_user(options.get("as_user"))
    if user is not None and not can_import(user, unit):
        raise CommandError(f"--as {user.username!r}: only {unit.name}'s staff import its grant applications")
    try:
        result = import_applications(options["file"], jurisdiction=unit, by=user)
    except Refused as exc:
        raise CommandError(exc.message) from None
    if options["json"]:
        command.stdout.write(json.dumps(result.as_dict()))
    else:
        command.stdout.write(f"{result.rows} row(s): {result.stored} stored ({result.eligible} eligible, "
                             f"{result.ineligible} not eligible), {len(result.rejected)} rejected "
                             f"in {result.seconds:.1f} s")
        for r in result.rejected[:50]:
            command.stderr.write(f"line {r['line']}: {r['reason']}")
        if len(result.rejected) > 50:
            command.stderr.write(f"... and {len(result.rejected) - 50} more rejected row(s) (use --json for all)")


def _program(action):
    """The county's and the department's steps (powts.grants.program_commands)."""
    from powts.grants import program_commands

    return (lambda sub: getattr(program_commands, f"add_{action}")(sub),
            lambda command, options: program_commands.handle(command, action, options))


SUBCOMMANDS = {
    "import": (add_import, handle_import),
    "certify": _program("certify"),
    "submit": _program("submit"),
    "allocate": _program("allocate"),
}


class Command(BaseCommand):
    help = "Wisconsin Fund grants: import and decide owners' applications (and the county's and department's steps)."

    def add_arguments(self, parser):
        from django.core.management.base import CommandParser

        sub = parser.add_subparsers(dest="subcommand", required=True, parser_class=CommandParser,
                                    metavar="{" + ",".join(SUBCOMMANDS) + "}")
        for add, _ in SUBCOMMANDS.values():
            add(sub)

    def handle(self, *args, subcommand, **options):
        SUBCOMMANDS[subcommand][1](self, options)
