"""`powts setbacks check PLAN.geojson --jurisdiction SLUG [--json] [--svg OUT.svg]`, without Django.

Exit codes: 0 the plan complies; 1 it does not (each violation listed); 2 bad input (unreadable
file, invalid plan, unknown jurisdiction), one message per problem on stderr, never a traceback.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .check import check_plan
from .errors import PlanError, SetbackRulesError
from .plan import parse_plan
from .rules import rules_for
from .svg import render_svg


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise _UsageError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="powts setbacks", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    check = sub.add_parser("check", help="check a plot plan's setbacks against a county profile",
                           description="Check a plot plan's setbacks against a county profile.")
    check.add_argument("plan", help="GeoJSON FeatureCollection, coordinates in feet")
    check.add_argument("--jurisdiction", required=True, metavar="SLUG", help="the county (its profile slug)")
    check.add_argument("--json", action="store_true", help="print the result as JSON")
    check.add_argument("--svg", metavar="OUT.svg", help="also draw the plan with violations marked")
    return parser


def _fail(message: str) -> int:
    for line in message.splitlines():
        print(f"powts setbacks: {line}", file=sys.stderr)
    return 2


def main(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
    except _UsageError as exc:
        return _fail(str(exc))
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    path = Path(args.plan)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return _fail(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return _fail(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg})")
    try:
        rules = rules_for(args.jurisdiction)
        plan = parse_plan(data)
    except (PlanError, SetbackRulesError) as exc:
        return _fail(f"{path}: {exc}" if isinstance(exc, PlanError) and len(exc.problems) == 1 else str(exc))
    result = check_plan(plan, rules)
    if args.svg:
        try:
            Path(args.svg).write_text(render_svg(plan, result, title=f"{path.name} ({args.jurisdiction})"),
                                      encoding="utf-8")
        except OSError as exc:
            return _fail(f"cannot write {args.svg}: {exc.strerror or exc}")
    if args.json:
        print(json.dumps(result.as_json(), indent=2))
    elif result.complies:
        print(f"{path.name}: complies with the {args.jurisdiction} setbacks "
              f"({len(plan.features)} features, {result.pairs_checked} distances checked)")
    else:
        print(f"{path.name}: {len(result.violations)} setback violation(s) ({args.jurisdiction}):")
        for v in result.violations:
            print(f"  - {v.describe()}")
    return 0 if result.complies else 1
