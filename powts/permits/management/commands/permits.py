"""powts permits expire|orders-overdue|demo: the daily sweeps and the demo permits.

  powts permits expire [--today YYYY-MM-DD] [--jurisdiction SLUG]   issued permits past expiry expire
  powts permits orders-overdue [--today YYYY-MM-DD]                 open correction orders past due
  powts permits demo --jurisdiction SLUG                             demo permits (after `powts demo`)
"""
import datetime as dt

from django.core.management.base import BaseCommand, CommandError

from powts.audit.choices import Channel
from powts.audit.context import acting


def _day(text):
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--today {text!r} is not a date (YYYY-MM-DD)") from None


class Command(BaseCommand):
    help = "Permit sweeps (expiry, overdue correction orders) and demo permits."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True, metavar="{expire,orders-overdue,demo}")
        expire = sub.add_parser("expire", help="issued permits past their expiry date expire (the daily sweep)",
                                description="Issued permits past their expiry date on the day of the sweep expire.")
        expire.add_argument("--today", metavar="YYYY-MM-DD", help="the day of the sweep (default: today)")
        expire.add_argument("--jurisdiction", metavar="SLUG", help="one county only (default: every county)")
        overdue = sub.add_parser("orders-overdue", help="open correction orders past their due date become overdue",
                                 description="Open correction orders past their due date on the day of the sweep become overdue.")
        overdue.add_argument("--today", metavar="YYYY-MM-DD", help="the day of the sweep (default: today)")
        demo = sub.add_parser("demo", help="demo permits for a county (after `powts demo`)",
                              description="Demo permits for a county that has the demo inventory.")
        demo.add_argument("--jurisdiction", metavar="SLUG", required=True, help="the county (profile slug)")

    def handle(self, *args, action, today=None, jurisdiction=None, **options):
        from django.utils import timezone

        from powts.jurisdictions.models import Jurisdiction
        from powts.permits import demo, services
        from powts.permits.services import enforcement

        day = _day(today) if today else timezone.localdate()
        unit = None
        if jurisdiction:
            unit = Jurisdiction.objects.filter(slug=jurisdiction).first()
            if unit is None:
                raise CommandError(f"unknown jurisdiction {jurisdiction!r}")
        with acting(channel=Channel.JOB if action != "demo" else Channel.CLI, actor_label=f"powts permits {action}"):
            if action == "expire":
                expired = services.permits_expire(today=day, jurisdiction=unit)
                self.stdout.write(f"{len(expired)} permit(s) expired" + (": " + ", ".join(p.number for p in expired) if expired else ""))
            elif action == "orders-overdue":
                self.stdout.write(f"{enforcement.correction_orders_mark_overdue(today=day)} order(s) now overdue")
            else:
                if unit is None:
                    raise CommandError("--jurisdiction is required")
                self.stdout.write(f"{demo.load(unit)} demo permit(s) created for {unit.name}")
