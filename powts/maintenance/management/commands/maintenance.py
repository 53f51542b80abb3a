"""powts maintenance SUBCOMMAND

  due            --jurisdiction SLUG --as-of DATE [--format text|csv|json]   the due list (read-only)
  notices send   --jurisdiction SLUG --as-of DATE [--output DIR] [--no-email]  record and render notices
                 [--dry-run]                                                  the same preview as the notices page; sends nothing
  bounces read DIR                                                           late e-mail bounces (delivery reports) onto their notices
  sync           --jurisdiction SLUG                                         schedules in step with the inventory
  reports upload FILE --jurisdiction SLUG [--json]                          a contractor's CSV of reports
  annual-report  --jurisdiction SLUG --year YYYY --output FILE(.csv|.pdf)   the SPS 383.255 summary
  demo           --jurisdiction SLUG [--as-of DATE]                         maintenance data for the demo county
"""
import datetime as dt
import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from powts.audit.choices import Channel
from powts.audit.context import acting
from powts.core import spreadsheet
from powts.jurisdictions.models import Jurisdiction
from powts.jurisdictions.profiles import ProfileError


def _date(text: str, name: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"{name} {text!r} is not a date (YYYY-MM-DD)") from None


def _unit(slug: str) -> Jurisdiction:
    from powts.jurisdictions.services import jurisdiction_ensure

    try:
        return jurisdiction_ensure(slug=slug)
    except ProfileError as exc:
        raise CommandError(str(exc)) from None


class Command(BaseCommand):
    help = "The maintenance program: due list, notices, report uploads, annual summary (Wis. Stat. s. 145.20(5))."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="sub", required=True, metavar="{due,notices,bounces,sync,reports,annual-report,demo}")
        county = {"metavar": "SLUG", "help": "the county (its profile slug)"}
        as_of = {"metavar": "YYYY-MM-DD", "help": "the day the list or batch is made for"}
        due = sub.add_parser("due", help="the systems whose notice is due on a date; changes nothing",
                             description="List the systems whose maintenance notice is due on a date; changes nothing.")
        due.add_argument("--jurisdiction", required=True, **county)
        due.add_argument("--as-of", required=True, **as_of)
        due.add_argument("--format", choices=["text", "csv", "json"], default="text",
                         help="text (counts and the first 50), csv or json (every system); default text")
        notices = sub.add_parser("notices", help="notices send: record, print and e-mail the notices due",
                                 description="Maintenance notices.")
        notices_sub = notices.add_subparsers(dest="action", required=True, metavar="{send}")
        send = notices_sub.add_parser("send", help="record the notices due, write their letters and e-mail them",
                                      description="Record the notices due on a date, write their letters (one file per "
                                                  "owner and one merged for the print shop) and e-mail them.")
        send.add_argument("--jurisdiction", required=True, **county)
        send.add_argument("--as-of", required=True, **as_of)
        send.add_argument("--output", type=Path, default=None, metavar="DIR",
                          help="folder for the letters (default: the data directory's letters/)")
        send.add_argument("--no-email", action="store_true", help="letters only: e-mail no owner")
        send.add_argument("--dry-run", action="store_true", help="print the batch the notices page previews; record and send nothing")
        bounces = sub.add_parser("bounces", help="bounces read DIR: delivery reports of notices' e-mails that bounced late",
                                 description="E-mail bounces of notices.")
        bounces_sub = bounces.add_subparsers(dest="action", required=True, metavar="{read}")
        read = bounces_sub.add_parser("read", help="mark notices whose e-mail bounced late from their delivery reports",
                                      description="Read a folder of delivery reports and mark the notices whose e-mail "
                                                  "bounced (their letters go on paper with the batch).")
        read.add_argument("folder", type=Path, metavar="DIR",
                          help="a folder of delivery reports, one message a file (read ones move to done/)")
        sync = sub.add_parser("sync", help="bring maintenance schedules in step with the inventory",
                              description="Bring every system's maintenance schedule in step with the inventory "
                                          "(after an import run with --skip-follow-up).")
        sync.add_argument("--jurisdiction", required=True, **county)
        reports = sub.add_parser("reports", help="reports upload FILE: a contractor's CSV of maintenance reports",
                                 description="Contractors' maintenance reports.")
        reports_sub = reports.add_subparsers(dest="action", required=True, metavar="{upload}")
        upload = reports_sub.add_parser("upload", help="file a contractor's CSV of maintenance reports",
                                        description="File a contractor's CSV of maintenance reports; every row stored "
                                                    "or rejected with its line and reason.")
        upload.add_argument("file", type=Path, metavar="FILE", help="the CSV file")
        upload.add_argument("--jurisdiction", required=True, **county)
        upload.add_argument("--json", action="store_true", help="print one JSON object with the counts and rejected rows")
        annual = sub.add_parser("annual-report", help="the annual summary for the state (SPS 383.255)",
                                description="The county's annual summary for the department (SPS 383.255).")
        annual.add_argument("--jurisdiction", required=True, **county)
        annual.add_argument("--year", required=True, metavar="YYYY", help="the calendar year reported on")
        annual.add_argument("--output", required=True, type=Path, metavar="FILE",
                            help="the file to write: .csv or .pdf")
        demo = sub.add_parser("demo", help="reports, contracts and notices for the demo county",
                              description="Maintenance reports, contracts and notices for the demo county.")
        demo.add_argument("--jurisdiction", default=None, metavar="SLUG",
                          help="the county (profile slug; default: the demo's default county)")
        demo.add_argument("--as-of", default=None, metavar="YYYY-MM-DD", help="the demo's today (default: today)")

    def handle(self, *args, sub, **o):
        try:
            with acting(channel=Channel.CLI, actor_label=f"powts maintenance {sub}"):
                return getattr(self, "do_" + sub.replace("-", "_"))(**o)
        except BrokenPipeError:  # `powts maintenance due ... | head`: the reader left; not an error
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())

    def do_due(self, jurisdiction, as_of, format, **o):
        from powts.maintenance.selectors import due_list

        as_of = _date(as_of, "--as-of")
        try:
            unit = Jurisdiction.objects.get(slug=jurisdiction)
        except Jurisdiction.DoesNotExist:
            _unit(jurisdiction)  # unknown profile -> its message; known but empty -> empty list
            unit = Jurisdiction.objects.get(slug=jurisdiction)
        rows = due_list(jurisdiction=unit, as_of=as_of)
        out = self.stdout
        if format == "json":
            out.write(json.dumps([{"system_id": ref, "due_on": due, "kind": kind} for ref, due, kind in rows]))
        elif format == "csv":
            w = spreadsheet.writer(out, lineterminator="\n")
            w.writerow(["system_id", "due_on", "kind"])
            w.writerows((ref, due or "", kind) for ref, due, kind in rows)
        else:
            counts = {}
            for r in rows:
                counts[r[2]] = counts.get(r[2], 0) + 1
            out.write(f"{unit.name}, as of {as_of}: " + ", ".join(f"{n:,} {k}" for k, n in sorted(counts.items())) if rows
                      else f"{unit.name}, as of {as_of}: nothing due")
            for ref, due, kind in rows[:50]:
                out.write(f"  {ref:<16} {due or '':<10}  {kind}")
            if len(rows) > 50:
                out.write(f"  ... {len(rows) - 50:,} more (use --format csv or json for all)")

    def do_notices(self, action, jurisdiction, as_of, output, no_email, dry_run=False, **o):
        from powts.core.refusals import Refused
        from powts.maintenance.batches import letters_dir
        from powts.maintenance.notices import notices_send

        as_of = _date(as_of, "--as-of")
        unit = _unit(jurisdiction)
        if dry_run:
            return self.print_preview(unit, as_of)
        output = output or letters_dir()
        if output.exists() and not output.is_dir():
            raise CommandError(f"--output {output} is a file, not a folder")
        try:
            output.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CommandError(f"--output {output}: {exc.strerror}") from None
        try:
            result = notices_send(jurisdiction=unit, as_of=as_of, output_dir=output, email=not no_email)
        except Refused as exc:
            raise CommandError(exc.message) from None
        if result.paused:
            self.stdout.write(f"{unit.name}: mailings are paused on {as_of} (winter pause); nothing sent.")
            return
        if result.held:
            self.stdout.write(f"{unit.name}: {len(result.held):,} owners held back (no usable mailing address); "
                              "--dry-run lists them.")
        if not result.total:
            self.stdout.write(f"{unit.name}: no notices due on {as_of} that were not already sent.")
            return
        parts = ", ".join(f"{n:,} {k}" for k, n in sorted(result.counts.items()))
        self.stdout.write(f"{unit.name}: {result.total:,} notices recorded ({parts}) in batch {result.batch}.")
        self.stdout.write(f"Letters: {result.owner_files:,} owner files in {output / result.batch}; merged for the print shop: {result.merged_file}")
        self.stdout.write(f"E-mail: {result.emailed:,} sent, {result.email_failed:,} failed, {result.no_address:,} owners without an address.")

    def print_preview(self, unit, as_of, shown: int = 50):
        """What the notices page shows for `as_of` (powts.maintenance.notices.preview), as text."""
        from powts.maintenance.notices import preview

        found = preview(jurisdiction=unit, as_of=as_of)
        out = self.stdout
        if found.paused:
            out.write(f"{unit.name}, as of {as_of}: mailings are paused (winter pause); no letters go out.")
            return
        out.write(f"{unit.name}, batch as of {as_of} (dry run: nothing recorded or sent)")
        for kind, label, n in found.counted:
            out.write(f"  {label:<32} {n:>9,}")
        out.write(f"  {'Total to mail':<32} {found.total:>9,}")
        out.write(f"  {'Held back: no usable address':<32} {len(found.held):>9,}")
        if found.letters:
            out.write("Letters:")
            for p in found.letters[:shown]:
                out.write(f"  {p.system_ref:<16} {p.due_on}  {p.get_kind_display():<32} {p.to_name} ({p.language_label})")
            if found.total > shown:
                out.write(f"  ... {found.total - shown:,} more")
        if found.held:
            out.write("Held back (fix the mailing address):")
            for p in found.held[:shown]:
                out.write(f"  {p.system_ref:<16} {p.to_name}: {p.address_problem}")
            if len(found.held) > shown:
                out.write(f"  ... {len(found.held) - shown:,} more")

    def do_bounces(self, action, folder, **o):
        from powts.maintenance.bounces import read_folder

        if not folder.is_dir():
            raise CommandError(f"{folder}: not a folder")
        out = read_folder(folder)
        self.stdout.write(f"{out['files']} files read: {out['bounced']} notices marked bounced "
                          "(their letters went on paper with the batch).")
        for line in out["unmatched"]:
            self.stdout.write(f"  no notice e-mailed to {line.split(': ', 1)[1]} ({line.split(': ', 1)[0]})")
        for line in out["refused"]:
            self.stderr.write(f"  left in place: {line}")
        if out["refused"]:
            raise CommandError(f"{len(out['refused'])} files were not delivery reports; nothing was recorded from them")

    def do_sync(self, jurisdiction, **o):
        from powts.maintenance.services import schedule_sync

        from powts.core.progress import Progress

        unit = _unit(jurisdiction)
        with Progress("powts maintenance sync", unit="schedules"):
            done = schedule_sync(jurisdiction=unit)
        self.stdout.write(f"{unit.name}: {done['created']:,} schedules created, {done['updated']:,} recomputed.")

    def do_reports(self, action, file, jurisdiction, json: bool, **o):
        import json as _json

        from powts.maintenance.csv_upload import ReportFileRefused, upload_reports

        unit = _unit(jurisdiction)
        try:
            data = file.read_bytes()
        except OSError as exc:
            raise CommandError(f"{file}: {exc.strerror}") from None
        try:
            result = upload_reports(jurisdiction=unit, data=data, channel=Channel.CLI)
        except ReportFileRefused as exc:
            raise CommandError(f"{file}: {exc}") from None
        if json:
            self.stdout.write(_json.dumps(result.as_dict()))
        else:
            self.stdout.write(f"{result.rows:,} rows: {result.stored:,} stored ({result.late:,} late), "
                              f"{result.duplicates:,} already filed, {len(result.rejected):,} rejected.")
            for line, reason in result.rejected:
                self.stdout.write(f"  line {line}: {reason}")

    def do_annual_report(self, jurisdiction, year, output, **o):
        from powts.maintenance.annual import annual_summary, write_csv, write_pdf

        if not year.isdigit() or not 1900 <= int(year) <= 2200:
            raise CommandError(f"--year {year!r} is not a year (YYYY)")
        unit = _unit(jurisdiction)
        if output.suffix.lower() not in (".csv", ".pdf"):
            raise CommandError(f"--output {output}: name a .csv or .pdf file")
        if not output.parent.exists():
            raise CommandError(f"--output {output}: folder {output.parent} does not exist")
        rows = annual_summary(jurisdiction=unit, year=int(year))
        (write_pdf if output.suffix.lower() == ".pdf" else write_csv)(output, unit, int(year), rows)
        self.stdout.write(f"{unit.name} annual summary {year}: {output}")

    def do_demo(self, jurisdiction, as_of, **o):
        from powts.inventory.demo_data import default_jurisdiction
        from powts.maintenance.demo import load

        unit = _unit(jurisdiction or default_jurisdiction())
        summary = load(unit, as_of=_date(as_of, "--as-of") if as_of else None)
        self.stdout.write(f"{unit.name}: " + ", ".join(f"{v:,} {k}" for k, v in summary.items()))
