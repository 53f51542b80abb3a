"""powts demo [--jurisdiction SLUG] --systems N: a realistic demo county, with sign-ins for each role."""
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from powts.accounts.choices import LicenseKind, Role
from powts.accounts.models import User
from powts.accounts.services import license_create, user_create
from powts.audit.choices import Channel
from powts.audit.context import acting
from powts.core import registry
from powts.core.progress import Progress, report
from powts.core.demo_people import demo_name
from powts.inventory import demo_data
from powts.inventory.importing.service import import_inventory
from powts.inventory.models import Owner, System
from powts.inventory.services import assignment_create
from powts.jurisdictions.services import ProfileError, jurisdiction_ensure

DEMO_PASSWORD = "powts-demo-county"  # 12+ characters (AUTH_PASSWORD_VALIDATORS)
PEOPLE = [
    # username, role, first, last, license kind, license number
    ("staff", Role.COUNTY_STAFF, "Sam", "Sanitarian", None, None),
    ("auditor", Role.STATE_AUDITOR, "Alex", "Auditor", None, None),
    ("plumber", Role.PLUMBER, "Pat", "Plumber", LicenseKind.MASTER_PLUMBER, "MP-222333"),
    ("pumper", Role.PUMPER, "Perry", "Pumper", LicenseKind.SEPTAGE_OPERATOR, "SSO-44556"),
    ("soiltester", Role.SOIL_TESTER, "Sol", "Tester", LicenseKind.SOIL_TESTER, "CST-1234"),
    ("owner", Role.OWNER, "Olive", "Owner", None, None),
    ("dsps", Role.DSPS, "Dale", "Department", None, None),
    ("dnr", Role.DNR, "Dana", "Resources", None, None),
]


class Command(BaseCommand):
    help = "Load a demo county: its inventory and one sign-in per role (password: powts-demo-county)."

    def add_arguments(self, parser):
        parser.add_argument("--jurisdiction", default=None, metavar="SLUG",
                            help="the county (profile slug; default: the demo's default county)")
        parser.add_argument("--systems", type=int, default=5000, metavar="N", help="systems in the demo inventory (default 5000)")
        parser.add_argument("--seed", type=int, default=1, metavar="N",
                            help="the random seed of the demo's made-up records (the same seed makes the same county)")

    def handle(self, *args, jurisdiction, systems, seed, **options):
        with Progress("powts demo"):
            self._demo(jurisdiction, systems, seed)

    def _demo(self, jurisdiction, systems, seed):
        jurisdiction = jurisdiction or demo_data.default_jurisdiction()
        if systems < 1:
            raise CommandError("--systems must be at least 1")
        try:
            unit = jurisdiction_ensure(slug=jurisdiction)
        except ProfileError as exc:
            raise CommandError(str(exc)) from None
        existing = System.objects.filter(jurisdiction=unit).count()
        if existing:
            # Re-importing the demo file would undo what the demo's reports and staff changed since.
            self.stdout.write(f"{unit.name} already has {existing:,} systems; its inventory is left as it is.")
        else:
            with tempfile.TemporaryDirectory() as tmp:
                path = demo_data.write_csv(Path(tmp) / f"{jurisdiction}-demo.csv", jurisdiction, systems, seed, messy=True)
                result = import_inventory(path=path, jurisdiction=unit, channel=Channel.CLI,
                                          source_name=f"demo county (seed {seed})", write_rejects=False,
                                          progress=lambda rows: report(rows, systems, "inventory rows"))
            self.stdout.write(f"{unit.name}: {result.created:,} systems created.")
        with acting(channel=Channel.CLI, actor_label="powts demo"), transaction.atomic():
            self._people(unit, jurisdiction)
        # The apps built on the inventory add their own demo records (each skips what it already made).
        loaders = list(registry.entries("demo_loader"))
        for number, entry in enumerate(loaders):
            report(number, len(loaders), "demo records")
            outcome = entry.target(unit)
            self.stdout.write(f"{entry.label}: {outcome}")
        names = ", ".join(demo_name(p[0], jurisdiction) for p in PEOPLE)
        self.stdout.write(f"Sign in at http://127.0.0.1:8000 as {names} (password {DEMO_PASSWORD})")
        self.stdout.write("For the admin site, make an administrator with your own password: powts createsuperuser")

    def _people(self, unit, slug):
        for username, role, first, last, kind, number in PEOPLE:
            name = demo_name(username, slug)
            if User.objects.filter(username=name).exists():
                continue
            user = user_create(username=name, password=DEMO_PASSWORD, role=role, first_name=first, last_name=last,
                               jurisdiction=unit if role == Role.COUNTY_STAFF else None)
            if kind:
                license_create(kind=kind, number=demo_name(number, slug), holder_name=f"{first} {last}", user=user)
            first_systems = System.objects.filter(jurisdiction=unit).order_by("id")
            if role == Role.OWNER:
                owner = Owner.objects.filter(jurisdiction=unit, parcels__systems__in=first_systems[:1]).first()
                if owner:
                    Owner.objects.filter(pk=owner.pk).update(user=user)
            elif role in (Role.PLUMBER, Role.PUMPER, Role.SOIL_TESTER):
                for system in first_systems[:3]:
                    assignment_create(system=system, user=user, note="demo")
        # No administrator: one with a published password would be a way in on any machine that ran the demo.
        # `powts createsuperuser` makes one with a password of your own.
