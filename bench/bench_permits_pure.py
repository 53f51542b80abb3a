"""Benchmark (not a test) of the pure permit rules: setback checks and working-day arithmetic.

    .venv/bin/python bench/bench_permits_pure.py

Each figure is printed beside a baseline measured in the same run, since ratios hold on a noisy
machine and absolute times do not. Targets: a 50-feature setback check under
20 ms; 10 years of working-day arithmetic under 10 ms.
"""
from __future__ import annotations

import datetime as dt
import statistics
import time

import numpy as np
import shapely

from powts.calendars import calendar_for
from powts.calendars.loading import _resolved, calendar_from_data
from powts.setbacks import check_plan, parse_plan, rules_for


def best_ms(fn, repeat: int = 30) -> tuple[float, float]:
    """(median, best) wall time of fn() in milliseconds."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), min(times)


def square(x, y, size):
    return {"type": "Polygon", "coordinates": [[[x, y], [x + size, y], [x + size, y + size], [x, y + size], [x, y]]]}


def plan_50() -> dict:
    """A 50-feature plan: a lot, 8 buildings, 6 wells, water lines, 10 dispersal areas, ..."""
    rng = np.random.default_rng(7)
    feats = [("lot_line", {"type": "Polygon", "coordinates": [[[0, 0], [600, 0], [600, 400], [0, 400], [0, 0]]]}),
             ("high_water_mark", {"type": "LineString", "coordinates": [[-50, -30], [650, -20]]}),
             ("slope_edge_15pct", {"type": "LineString", "coordinates": [[0, 40], [600, 55]]}),
             ("water_main", {"type": "LineString", "coordinates": [[-50, 420], [650, 420]]})]
    kinds = (["dwelling"] * 4 + ["building"] * 4 + ["well"] * 6 + ["water_service"] * 4 + ["pool"] * 2
             + ["cistern"] * 2 + ["treatment_tank"] * 6 + ["holding_tank"] * 2 + ["dispersal_area"] * 8
             + ["replacement_area"] * 4 + ["privy"] * 2 + ["portable_restroom"] * 2)
    for kind in kinds:
        x, y = rng.uniform(10, 560), rng.uniform(60, 360)
        if kind in ("well", "cistern"):
            geom = {"type": "Point", "coordinates": [x, y]}
        elif kind == "water_service":
            geom = {"type": "LineString", "coordinates": [[x, y], [x + 30, y + 25]]}
        else:
            geom = square(x, y, {"dispersal_area": 40, "replacement_area": 40}.get(kind, 12))
        feats.append((kind, geom))
    assert len(feats) == 50
    return {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"kind": k, "name": f"{k} {i}"}, "geometry": g}
        for i, (k, g) in enumerate(feats)]}


def bench_setbacks() -> None:
    data = plan_50()
    rules = rules_for("dane")
    plan = parse_plan(data)

    def ours_full():
        check_plan(parse_plan(data), rules)

    def ours_check():
        check_plan(plan, rules)

    # Baseline: the obvious loop, shapely's scalar distance for every governed pair.
    def baseline_loop():
        found = 0
        for (s, o), rule in rules.items():
            for a in plan.features:
                if a.kind != s:
                    continue
                for b in plan.features:
                    if b.kind == o and a.measured.distance(b.measured) < rule.min_ft:
                        found += 1
        return found

    ours = check_plan(plan, rules)
    assert len(ours.violations) == baseline_loop(), "ours and the baseline must agree"
    rows = [("setbacks: parse + check, 50 features (ours)", best_ms(ours_full)),
            ("setbacks: check only, 50 features (ours, vectorised)", best_ms(ours_check)),
            ("setbacks: baseline, shapely pairwise distance loop", best_ms(baseline_loop))]
    print(f"plan: 50 features, {ours.pairs_checked} governed distances, {len(ours.violations)} violations")
    for label, (med, best) in rows:
        print(f"  {label:<58} median {med:7.3f} ms   best {best:7.3f} ms")
    target = rows[0][1][0]
    print(f"  target < 20 ms: {'met' if target < 20 else 'MISSED'} ({target:.3f} ms median)")


def bench_workdays() -> None:
    days = np.arange(np.datetime64("2026-01-01"), np.datetime64("2036-01-01"))  # 10 years, 3652 days
    py_days = [d.item() for d in days]
    data = _resolved("dane")
    cal = calendar_for("dane")
    holidays = [dt.date.fromordinal(o) for o in cal.holiday_ordinals(2025, 2037)]
    busdaycal = np.busdaycalendar(holidays=holidays)

    def ours_scalar():
        # every day of 10 years: the next working day and the 10th working day after it
        for d in py_days:
            cal.add_working_days(d, 1)
            cal.add_working_days(d, 10)

    def ours_cold():
        fresh = calendar_from_data(data, "dane")  # builds the holiday index from the rules
        for d in py_days:
            fresh.add_working_days(d, 1)
            fresh.add_working_days(d, 10)

    def ours_vector():
        cal.add_working_days_array(days, 1)
        cal.add_working_days_array(days, 10)

    def numpy_peer():
        np.busday_offset(days, 1, roll="backward", busdaycal=busdaycal)
        np.busday_offset(days, 10, roll="backward", busdaycal=busdaycal)

    assert (cal.add_working_days_array(days, 10)
            == np.busday_offset(days, 10, roll="backward", busdaycal=busdaycal)).all()
    rows = [("workdays: scalar API, warm (ours)", best_ms(ours_scalar, 15)),
            ("workdays: scalar API, cold: index built in the run (ours)", best_ms(ours_cold, 15)),
            ("workdays: vectorised array (ours)", best_ms(ours_vector)),
            ("workdays: baseline, numpy.busday_offset same holidays", best_ms(numpy_peer))]
    print(f"10 years = {len(days)} days x 2 offsets (+1 and +10 working days) = {2 * len(days)} operations")
    for label, (med, best) in rows:
        print(f"  {label:<58} median {med:7.3f} ms   best {best:7.3f} ms")
    target = rows[0][1][0]
    print(f"  target < 10 ms (scalar API, warm): {'met' if target < 10 else 'MISSED'} ({target:.3f} ms median)")


if __name__ == "__main__":
    print(f"shapely {shapely.__version__}, numpy {np.__version__}")
    bench_setbacks()
    bench_workdays()
