"""powts county add SLUG --name "NAME County" | powts county list

  powts county add SLUG --name "NAME County"   set up one of Wisconsin's 72 counties (on the state minimum
                                               profile unless powts ships one for it)
  powts county list                            the counties set up, each with its profile
"""
from django.core.management.base import BaseCommand, CommandError

from powts.audit.choices import Channel
from powts.audit.context import acting


class Command(BaseCommand):
    help = "Set up a county (one of Wisconsin's 72) or list those set up."

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["add", "list"], help="add: set up one county; list: the counties set up")
        parser.add_argument("slug", nargs="?", help="The county's slug: its name in lower case, words joined by hyphens")
        parser.add_argument("--name", help="The county's name, written as \"NAME County\"")

    def handle(self, *args, action, slug=None, name=None, **options):
        from powts.jurisdictions.models import Jurisdiction
        from powts.jurisdictions.services import CountyRefused, county_add

        if action == "list":
            for unit in Jurisdiction.objects.order_by("name"):
                self.stdout.write(f"{unit.slug}\t{unit.name}\t{_on(unit)}")
            return
        if not slug or not name:
            raise CommandError("powts county add SLUG --name \"NAME County\": both the slug and the name are needed")
        with acting(channel=Channel.CLI, actor_label="powts county add"):
            try:
                unit = county_add(slug=slug, name=name)
            except CountyRefused as exc:
                raise CommandError(exc.message) from None
        self.stdout.write(
            f"{unit.name} set up (slug {unit.slug}) on {_on(unit)}.\n"
            "Next:\n"
            f"  1. Give it a county administrator: at /admin/, a user with the role \"County administrator\" and the\n"
            f"     county {unit.name}; that administrator then adds the county's staff at /accounts/users/.\n"
            "  2. The administrator sets the county's contact and return address, office closures, notice lead time,\n"
            "     notice steps, fees and contractor rules at /counties/settings/, each change cited.\n"
            f"  3. Load its inventory: powts import inventory FILE --jurisdiction {unit.slug}")


def _on(unit) -> str:
    from powts.jurisdictions.profiles import PROFILES_DIR

    if (PROFILES_DIR / unit.profile_slug / "profile.yaml").is_file():
        return "the state minimum profile" if unit.profile_slug == "state" else f"the shipped {unit.profile_slug} profile"
    return "the state minimum profile (Wis. Stat. ch. 145, SPS 383)"
