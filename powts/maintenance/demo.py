"""Maintenance data for the demo county: `load(jurisdiction)` (also `powts maintenance demo`).

Brings schedules in step with the inventory, files reports from the demo pumper and plumber (some
late, some with failure signs, a few for systems not in the inventory), servicing contracts for
half the holding tanks, and one batch of notices as of today. Same seed, same data.
"""
from __future__ import annotations

import datetime as dt
import random

from django.utils import timezone

from powts.accounts.choices import LicenseKind
from powts.accounts.models import License
from powts.audit.choices import Channel
from powts.audit.context import acting
from powts.core.demo_people import demo_name
from powts.inventory.models import System
from powts.maintenance import services
from powts.maintenance.models import Report, ServicingContract


def _license(kind, number, name):
    lic = License.objects.filter(number=number).first()
    return lic or services_license(kind, number, name)


def services_license(kind, number, name):
    from powts.accounts.services import license_create

    return license_create(kind=kind, number=number, holder_name=name, business_name=f"{name} Septic Service")


def load(jurisdiction, *, as_of: dt.date | None = None, seed: int = 1, reports: int = 300) -> dict:
    rng = random.Random(seed)
    today = as_of or timezone.localdate()
    summary = {}
    with acting(channel=Channel.CLI, actor_label="powts maintenance demo"):
        summary.update(services.schedule_sync(jurisdiction=jurisdiction))
        pumper = _license(LicenseKind.SEPTAGE_OPERATOR, demo_name("SSO-44556", jurisdiction.slug), "Perry Pumper")
        plumber = _license(LicenseKind.MASTER_PLUMBER, demo_name("MP-222333", jurisdiction.slug), "Pat Plumber")
        ids = list(System.objects.filter(jurisdiction=jurisdiction, installed_on__lt=today - dt.timedelta(days=400))
                   .values_list("system_id", "system_type").order_by("pk")[:20000])
        rng.shuffle(ids)
        stored = 0
        for ref, stype in ids[:reports]:
            work = today - dt.timedelta(days=rng.randint(1, 360))
            kind = "pumping" if stype == "holding_tank" or rng.random() < 0.6 else "inspection"
            frac = f"{rng.choice([0.1, 0.2, 0.25, 0.3, 0.35, 0.5]):.2f}"
            data = {"system_id": ref, "kind": kind, "work_date": work.isoformat(),
                    "license_number": (pumper if kind == "pumping" else plumber).number,
                    "sludge_scum_fraction": frac, "gallons_pumped": 1000 if kind == "pumping" else "",
                    "disposal_site": "Nine Springs WWTP" if kind == "pumping" else "",
                    "effluent_ponding": "yes" if rng.random() < 0.03 else "no", "failure_observed": "yes" if rng.random() < 0.02 else "no"}
            filed = timezone.now() - dt.timedelta(days=max(0, (today - work).days - rng.choice([3, 10, 25, 45])))
            try:
                if services.report_submit(jurisdiction=jurisdiction, data=data, channel=Channel.CLI, now=min(filed, timezone.now())).created:
                    stored += 1
            except Exception:
                continue
        for i in range(3):
            services.report_submit(jurisdiction=jurisdiction, channel=Channel.CLI, data={
                "system_id": f"UNLISTED-{i + 1}", "kind": "pumping", "work_date": (today - dt.timedelta(days=5 + i)).isoformat(),
                "license_number": pumper.number, "gallons_pumped": 1250, "location": f"{100 + i} Unmapped Rd",
                "disposal_site": "Nine Springs WWTP"})
        summary["reports"] = Report.objects.filter(jurisdiction=jurisdiction).count()
        tanks = list(System.objects.filter(jurisdiction=jurisdiction, system_type="holding_tank").order_by("pk")[:200])
        for system in tanks[::2]:
            if not ServicingContract.objects.filter(system=system).exists():
                services.contract_file(system=system, provider_name="Perry Pumper Septic Service", license_number=pumper.number,
                                       provider_address="PO Box 12, Verona, WI 53593", starts_on=today - dt.timedelta(days=400),
                                       ends_on=today + dt.timedelta(days=330))
        summary["contracts"] = ServicingContract.objects.filter(system__jurisdiction=jurisdiction).count()
        from powts.inventory.models import Owner
        from powts.maintenance.notices import notices_send

        # Some owners read their letters in Spanish or Hmong (with the English legal notice behind).
        owner_ids = list(Owner.objects.filter(jurisdiction=jurisdiction).order_by("pk").values_list("pk", flat=True)[:20000])
        Owner.objects.filter(pk__in=owner_ids[7::23]).update(language="es")
        Owner.objects.filter(pk__in=owner_ids[11::41]).update(language="hmn")
        from powts.maintenance.batches import letters_dir

        out = letters_dir()
        result = notices_send(jurisdiction=jurisdiction, as_of=today, output_dir=out, email=False, sync=False)
        summary["notices"] = result.total
    return summary
