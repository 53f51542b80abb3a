"""CPU cost of one report through the API, end to end (what bounds the report API's 200 a second), and of
/healthz beside it.

    .venv/bin/python bench/profile_report.py [--reports 600] [--systems 2000] [--top 0]

Not a test. Its own SQLite database in $POWTS_BENCH_DIR (default /tmp/powts-profile-report, or
DATABASE_URL). Requests go through Django's full WSGI handler and middleware in this process (no
socket), so the figure is the server's CPU per request, which is what decides requests a second on a
shared machine (about cores / CPU per request). Printed: CPU ms per report and per /healthz (median of
5 rounds, process time), then, under cProfile, the cumulative µs per report of each component.
"""
from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

# (label, file part, function name) whose cumulative time is shown per report
COMPONENTS = [
    ("whole request (WSGI handler)", "django/test/client.py", "request"),
    ("middleware before/after the view (all)", "django/core/handlers/base.py", "get_response"),
    ("access log middleware", "powts/accounts/access_log.py", "__call__"),
    ("CSP middleware (process_response)", "csp/middleware.py", "process_response"),
    ("session middleware (process_response)", "sessions/middleware.py", "process_response"),
    ("CSRF middleware (process_view)", "django/middleware/csrf.py", "process_view"),
    ("axes middleware", "axes/middleware.py", "__call__"),
    ("DRF dispatch (view)", "rest_framework/views.py", "dispatch"),
    ("DRF initial (auth, permissions, throttles)", "rest_framework/views.py", "initial"),
    ("token check (knox)", "knox/auth.py", "authenticate"),
    ("knox digest (hash)", "knox/crypto.py", "hash_token"),
    ("JSON body parse", "powts/core/parsers.py", "parse"),
    ("view create()", "powts/maintenance/api/views.py", "create"),
    ("filing county (policies)", "powts/maintenance/api/views.py", "_jurisdiction"),
    ("report_submit (service)", "powts/maintenance/services.py", "report_submit"),
    ("validate_report", "powts/maintenance/services.py", "validate_report"),
    ("refuse_invalid (model full_clean)", "powts/core/refusals.py", "refuse_invalid"),
    ("Report.save", "django/db/models/base.py", "save"),
    ("audit_create", "powts/audit/services.py", "audit_create"),
    ("audit_update", "powts/audit/services.py", "audit_update"),
    ("_tell_the_inventory", "powts/maintenance/services.py", "_tell_the_inventory"),
    ("schedule_refresh", "powts/maintenance/services.py", "schedule_refresh"),
    ("news publish", "powts/core/news.py", "publish"),
    ("response body + render", "rest_framework/response.py", "rendered_content"),
    ("SQL execute (all)", "django/db/backends/utils.py", "_execute"),
    ("SQL compile (all)", "django/db/models/sql/compiler.py", "as_sql"),
]


def setup(systems: int):
    import bench_maintenance as bm

    bm.setup_django(Path(os.environ.get("POWTS_BENCH_DIR", "/tmp/powts-profile-report")))
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["*"]
    from knox.models import AuthToken

    from powts.accounts.models import License, User
    from powts.accounts.services import license_create, user_create
    from powts.inventory.models import System
    from powts.jurisdictions.services import jurisdiction_ensure
    from powts.maintenance.models import Report
    from powts.maintenance.services import schedule_refresh

    unit = jurisdiction_ensure(slug="dane")
    bm.build_inventory(unit, systems)
    user = User.objects.filter(username="bench-pumper").first() or user_create(username="bench-pumper", password="bench-password-123",
                                                                                role="pumper")
    for i in range(50):
        if not License.objects.filter(number=f"BENCH-SSO-{i}").exists():
            license_create(kind="septage_operator", number=f"BENCH-SSO-{i}", holder_name="Bench Pumper", user=user)
    refs = list(System.objects.filter(jurisdiction=unit, installed_on__lt="2025-01-01").order_by("pk")
                .values_list("system_id", flat=True)[:1000])
    for system in System.objects.filter(jurisdiction=unit, system_id__in=refs, maintenance_schedule__isnull=True).select_related("parcel", "jurisdiction"):
        schedule_refresh(system=system)
    Report.objects.filter(license__number__startswith="BENCH-SSO-").delete()
    return AuthToken.objects.create(user=user)[1], refs


def bodies(refs, start: int, n: int):
    for i in range(start, start + n):
        day = 1 + (i // len(refs)) % 280
        yield json.dumps({"jurisdiction": "dane", "system_id": refs[i % len(refs)], "kind": "pumping",
                          "work_date": f"2025-{1 + day // 28:02d}-{1 + day % 28:02d}",
                          "license_number": f"BENCH-SSO-{i % 50}", "gallons_pumped": 1000, "disposal_site": "Bench WWTP"})


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reports", type=int, default=600, help="reports per round (5 rounds, then one under cProfile)")
    ap.add_argument("--systems", type=int, default=2000)
    ap.add_argument("--top", type=int, default=0, help="also print cProfile's top N functions by own time")
    args = ap.parse_args(argv)
    token, refs = setup(args.systems)
    from django.db import connection
    from django.test import Client

    from powts.maintenance.models import Report

    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    sent = [0]

    def reports(n):
        payloads = list(bodies(refs, sent[0], n))
        sent[0] += n
        t0 = time.process_time()
        for body in payloads:
            r = client.post("/api/maintenance/reports/", body, content_type="application/json")
            assert r.status_code == 201, r.content
        return (time.process_time() - t0) / n

    def healthz(n):
        t0 = time.process_time()
        for _ in range(n):
            assert client.get("/healthz").status_code == 200
        return (time.process_time() - t0) / n

    reports(50), healthz(50)  # warm: imports, caches, connection
    per_report = statistics.median(reports(args.reports) for _ in range(5))
    per_health = statistics.median(healthz(args.reports) for _ in range(5))
    print(f"database: {connection.vendor}; load average {'%.1f %.1f %.1f' % os.getloadavg()}")
    print(f"CPU per report  {per_report * 1000:6.2f} ms  (median of 5 rounds of {args.reports}; process time, this process)")
    print(f"CPU per /healthz {per_health * 1000:6.2f} ms")
    print(f"=> at most {2 / per_report:.0f} reports/s on 2 cores with nothing else running")
    prof = cProfile.Profile(time.process_time)  # CPU time: other work on a shared machine does not count
    payloads = list(bodies(refs, sent[0], args.reports))
    prof.enable()
    for body in payloads:
        client.post("/api/maintenance/reports/", body, content_type="application/json")
    prof.disable()
    stats = pstats.Stats(prof)
    print(f"under cProfile, cumulative µs per report ({args.reports} reports; CPU time; cProfile itself adds to each call):")
    for label, part, name in COMPONENTS:
        total = sum(v[3] for k, v in stats.stats.items() if k[2] == name and part in k[0])
        calls = sum(v[1] for k, v in stats.stats.items() if k[2] == name and part in k[0])
        print(f"  {label:45s} {total / args.reports * 1e6:8.0f} µs  ({calls / args.reports:.1f} calls)")
    if args.top:
        stats.sort_stats("tottime").print_stats(args.top)
    print(f"reports stored: {Report.objects.filter(license__number__startswith='BENCH-SSO-').count()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
