"""Setback checks of a plot plan (GeoJSON in feet) against a county profile. No Django imports.

    from powts.setbacks import check_plan, parse_plan, render_svg, rules_for
    plan = parse_plan(geojson_dict)                 # PlanError lists every problem
    result = check_plan(plan, rules_for(slug))    # result.complies, result.violations
    svg_text = render_svg(plan, result)
"""
from .check import CheckResult, Violation, check_plan
from .errors import PlanError, SetbackRulesError
from .plan import KINDS, Plan, PlanFeature, parse_plan
from .rules import SetbackRule, combine, parse_rules, rules_for
from .svg import render_svg

__all__ = ["KINDS", "CheckResult", "Plan", "PlanError", "PlanFeature", "SetbackRule",
           "SetbackRulesError", "Violation", "check_plan", "combine", "parse_plan", "parse_rules",
           "render_svg", "rules_for"]
