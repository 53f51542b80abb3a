"""`powts workdays ...`: working-day arithmetic and inspection deadlines, without Django.

    powts workdays add --jurisdiction SLUG --from 2026-11-25 --days 1
    powts workdays deadline --jurisdiction SLUG --notice 2026-11-25T08:59 --rule inspection
    powts workdays check --jurisdiction SLUG --notice 2026-11-25T10:00 --system mound --requested 2026-11-26

Exit codes: 0 done; 1 the request is outside the notice rules (the message gives the earliest
allowed day, why and the citation); 2 bad input (one line on stderr, never a traceback).
"""
from __future__ import annotations

import argparse
import datetime as dt
import sys

from .errors import CalendarError
from .inspections import deadline, inspection_rules_for, review_request
from .loading import calendar_for


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, instead of argparse's usage dump
        raise _UsageError(message)


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date (YYYY-MM-DD)") from None


def _datetime(text: str) -> dt.datetime:
    try:
        return dt.datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a date and time (YYYY-MM-DDTHH:MM, America/Chicago unless an offset is given)"
        ) from None


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="powts workdays", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    add = sub.add_parser("add", help="the date N working days after a date",
                         description="The date N working days after a date, in the county's calendar.")
    add.add_argument("--jurisdiction", required=True, metavar="SLUG", help="the county (its profile slug)")
    add.add_argument("--from", dest="start", required=True, type=_date, metavar="YYYY-MM-DD", help="the first date")
    add.add_argument("--days", required=True, type=int, metavar="N", help="working days to add")
    for name, helptext in (("deadline", "a deadline for an inspection notice"),
                           ("check", "whether a notice allows the requested inspection day")):
        p = sub.add_parser(name, help=helptext, description=helptext[0].upper() + helptext[1:] + ".")
        p.add_argument("--jurisdiction", required=True, metavar="SLUG", help="the county (its profile slug)")
        p.add_argument("--notice", required=True, type=_datetime,
                       help="when the plumber gave notice (America/Chicago unless an offset is given)")
        p.add_argument("--system", default="standard", help="system type, e.g. standard, mound, sand_filter")
        p.add_argument("--requested", type=_date, help="day the system will be ready / installation day")
        if name == "deadline":
            p.add_argument("--rule", default="inspection", help="inspection, backfill, or a county's own")
            p.add_argument("--explain", action="store_true", help="print how the date was reached")
    return parser


def main(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
    except _UsageError as exc:
        print(f"powts workdays: {exc}", file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    try:
        if args.command == "add":
            print(calendar_for(args.jurisdiction).add_working_days(args.start, args.days).isoformat())
            return 0
        inspection_rules_for(args.jurisdiction)  # unknown jurisdiction -> CalendarError first
        decision = review_request(args.jurisdiction, args.notice, system=args.system,
                                  requested_day=args.requested)
        if args.command == "check":
            print(decision.explain())
            return 0 if decision.allowed else 1
        if not decision.allowed:
            for f in decision.refusals:
                print(f"powts workdays: {f.message} [{f.citation}]", file=sys.stderr)
            return 1
        result = deadline(args.jurisdiction, args.rule, args.notice, system=args.system,
                          requested_day=args.requested)
        for f in decision.fees:
            print(f"powts workdays: note: {f.message} [{f.citation}]", file=sys.stderr)
        print(result.day.isoformat())
        if args.explain:
            print(f"{result.explanation} [{result.citation}]")
        return 0
    except CalendarError as exc:
        print(f"powts workdays: {exc}", file=sys.stderr)
        return 2
