"""powts wells SUBCOMMAND  (well compensation claims, Wis. Stat. s. 281.75)

  import FILE [--json]                              claims (.csv or .jsonl): the fields of `powts rules evaluate
                                                    well-compensation` plus supply_id and completed_on (absent: not
                                                    yet complete); optional: county (slug), claimant_name,
                                                    claimant_address, location, affidavit_on, tax_returns_on;
                                                    stored and decided in one transaction
  pay --funds AMOUNT [--on DATE] --output FILE.csv  one payment run, in the order completed claims were received
"""
import datetime as dt
import json
import sys

from django.core.management.base import BaseCommand, CommandError

from powts.audit.choices import Channel
from powts.audit.context import acting
from powts.core.refusals import Refused, refused_text

PAY_FIELDS = ["id", "supply_id", "status", "paid", "award", "position", "completed_on", "received_on"]


def _dollars(cents) -> str:
    return "" if cents is None else f"{cents // 100}.{cents % 100:02d}"


class Command(BaseCommand):
    help = "Well compensation claims: import claims, run a payment (Wis. Stat. s. 281.75)."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="sub", required=True, metavar="{import,pay}")
        imp = sub.add_parser("import", help="store and decide claims from a .csv or .jsonl file",
                             description="Store and decide well compensation claims from a .csv or .jsonl file, in "
                                         "one transaction (s. 281.75).")
        imp.add_argument("file", metavar="FILE", help="the fields of `powts rules evaluate well-compensation` plus "
                                                      "supply_id and completed_on")
        imp.add_argument("--json", action="store_true", help="print the counts and rejected rows as JSON")
        pay = sub.add_parser("pay", help="one payment run over the complete claims (s. 281.75(5)(f))",
                             description="One payment run over the complete claims, in the order they were received "
                                         "(s. 281.75(5)(f)).")
        pay.add_argument("--funds", required=True, metavar="AMOUNT", help="dollars available, e.g. 25000 or 25000.00")
        pay.add_argument("--on", default=None, metavar="YYYY-MM-DD", help="the run's date (YYYY-MM-DD; default today)")
        pay.add_argument("--output", required=True, metavar="FILE.csv", help="CSV file, one row per claim (- for stdout)")

    def handle(self, *args, sub, **o):
        try:
            with acting(channel=Channel.CLI, actor_label=f"powts wells {sub}"):
                return getattr(self, "do_" + sub)(**o)
        except Refused as exc:
            raise CommandError(refused_text(exc)) from None

    def do_import(self, *, file, json: bool = False, **_):
        from powts.law.io import read_table
        from powts.wells.services import claims_import

        table = read_table(file)
        cols = {k: (v.to_list() if hasattr(v, "to_list") else list(v)) for k, v in table.columns.items()}
        rows = [{k: cols[k][i] for k in cols} for i in range(table.n)]
        r = claims_import(rows=rows, line_errors=table.line_errors, lines=table.lines)
        if json:
            _print_json({**r.counts(), "rejected_rows": r.rejected})
        else:
            c = r.counts()
            self.stdout.write(", ".join(f"{k} {v}" for k, v in c.items()))
            for row in r.rejected:
                self.stdout.write(f"  line {row['line']} ({row['id'] or 'no id'}): {row['reason']}")

    def do_pay(self, *, funds, on, output, **_):
        import csv

        from powts.law import fields as LF
        from powts.wells.services import payment_run

        cents = LF.parse_cents("funds", funds)
        day = dt.date.today() if on is None else LF.parse_date("on", on)
        try:
            handle = sys.stdout if output == "-" else open(output, "w", newline="", encoding="utf-8")  # noqa: SIM115
        except OSError as e:
            raise CommandError(f"{output}: cannot write ({e.strerror})") from None
        run = payment_run(funds=cents, on=day)
        with handle if handle is not sys.stdout else _nullcontext():
            w = csv.DictWriter(handle, PAY_FIELDS)
            w.writeheader()
            lines = sorted(run.lines.select_related("claim__supply"),
                           key=lambda x: (x.position is None, x.position or 0, x.claim.received_on, x.claim.pk))
            for line in lines:
                c = line.claim
                w.writerow({"id": c.claim_id, "supply_id": c.supply.supply_id, "status": line.status, "paid": _dollars(line.paid),
                            "award": _dollars(c.award), "position": line.position or "",
                            "completed_on": c.completed_on or "", "received_on": c.received_on})
        self.stderr.write(f"payment run {run.pk} on {day}: paid {_dollars(run.paid)} of {_dollars(cents)}")


def _print_json(data) -> None:
    print(json.dumps(data, default=str))


class _nullcontext:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False
