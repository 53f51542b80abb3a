"""powts grants ...: the Wisconsin Fund program from the command line (subcommands below)."""
from django.core.management.base import BaseCommand

from powts.grants import program_commands


class Command(BaseCommand):
    help = "Wisconsin Fund grants: certify, submit, allocate."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        program_commands.add_parsers(sub)

    def handle(self, *args, action, **options):
        if action in program_commands.ACTIONS:
            return program_commands.handle(self, action, options)
