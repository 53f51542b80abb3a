"""Demo oversight records for a demo county (`powts demo`): a program audit with its sample verified, a flagged
report referred to its licensing agency, a flagged permit application (where the county's ordinance provides for
it), a category of systems the department approves first, and a special charge on the tax roll. Through the services, as the
department and the county's staff; idempotent (a county with an audit is left alone)."""
from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from powts.accounts.choices import Role
from powts.accounts.models import User
from powts.audit.choices import Channel
from powts.audit.context import acting
from powts.oversight import choices as c
from powts.oversight import services
from powts.oversight.models import ApprovalCategory, ProgramAudit


def _department_user():
    """The department's reviewer who signs in to the demo (one for every county: DSPS is the state's)."""
    from powts.accounts.services import user_create
    from powts.core.management.commands.demo import DEMO_PASSWORD

    found = User.objects.filter(role=Role.DSPS).order_by("id").first()
    return found or user_create(username="dsps-demo", password=DEMO_PASSWORD, role=Role.DSPS, first_name="Dana",
                                last_name="Department")


def _acting_user(jurisdiction, role):
    if role == Role.DSPS:
        return _department_user()
    return User.objects.filter(role__in=(Role.COUNTY_STAFF, Role.COUNTY_ADMIN), jurisdiction=jurisdiction).order_by("id").first()


@transaction.atomic
def load(jurisdiction, *, today: dt.date | None = None) -> int:
    from powts.maintenance.models import Report
    from powts.permits.models import CorrectionOrder, Permit

    if ProgramAudit.objects.filter(jurisdiction=jurisdiction).exists():
        return 0
    today = today or timezone.localdate()
    made = 0
    issued = Permit.objects.filter(jurisdiction=jurisdiction, issued_on__isnull=False).order_by("issued_on")
    dept = _acting_user(jurisdiction, Role.DSPS)
    staff = _acting_user(jurisdiction, Role.COUNTY_STAFF)
    if issued.exists():
        with acting(actor=dept, channel=Channel.CLI, actor_label="powts demo"):
            audit = services.audit_draw_sample(jurisdiction=jurisdiction, period_start=issued.first().issued_on,
                                               period_end=today, on=today, seed=20260101)
            for i, sample in enumerate(audit.samples.all()):
                deficient = i == 0
                services.sample_verify(sample=sample, outcome=c.SampleOutcome.DEFICIENT if deficient else c.SampleOutcome.SATISFACTORY,
                                       verified_on=today, findings="Inspection port not at grade as the plan shows" if deficient else "")
            services.audit_request_response(audit=audit, on=today, request_text="Explain how final inspections check the inspection ports.")
            made += 1
    report = Report.objects.filter(jurisdiction=jurisdiction, kind="pumping").order_by("id").first()
    if report is not None and staff is not None:
        with acting(actor=staff, channel=Channel.CLI, actor_label="powts demo"):
            flag = services.report_flag(report=report, reason="Owner says the tank was not pumped on that day", on=today,
                                        evidence=["Owner's written statement received at the counter"])
            services.referral_make(license=report.license, flags=[flag], on=today, note="Demo referral")
            made += 1
    from powts.oversight.profile import oversight_profile

    application = Permit.objects.filter(jurisdiction=jurisdiction).order_by("id").first()
    if application is not None and staff is not None and oversight_profile(jurisdiction.profile_slug).application_errors_citation:
        with acting(actor=staff, channel=Channel.CLI, actor_label="powts demo"):
            services.application_flag(permit=application, license=application.plumber, on=today,
                                      reason="Lot dimensions on the application differ from the certified survey",
                                      evidence=["Certified survey map on file: 150 x 210 ft"])
            made += 1
    with acting(actor=dept, channel=Channel.CLI, actor_label="powts demo"):
        if not ApprovalCategory.objects.exists():  # statewide: the first demo county brings it
            # A design flow above any demo permit's, so the demo's issuance is not held by it.
            services.category_specify(name="Systems over 12,000 gallons a day", system_types=[], above_gpd=12000, on=today)
            made += 1
    order = CorrectionOrder.objects.filter(jurisdiction=jurisdiction, correct_by__lt=today).exclude(status="corrected") \
        .select_related("system__parcel").first()
    if order is not None and staff is not None:
        with acting(actor=staff, channel=Channel.CLI, actor_label="powts demo"):
            services.assessment_record(jurisdiction=jurisdiction, parcel_number=order.system.parcel.parcel_number,
                                       order=order, cost="385.00", work_done_on=today, work="Septic tank pumped by the county's contractor",
                                       authority_kind="county", authority_name=jurisdiction.name, on=today)
            made += 1
    return made


@transaction.atomic
def load_application_inspections(jurisdiction, *, today: dt.date | None = None) -> int:
    """Where the county's ordinance provides for it: a random inspection of the demo's applications, one found as
    reported and one with an error flagged against its plumber. Idempotent (a county with a sample is left alone)."""
    from powts.oversight import random_inspections
    from powts.oversight.models import ApplicationSample
    from powts.permits.models import Permit

    if random_inspections.rule_of(jurisdiction) is None or ApplicationSample.objects.filter(jurisdiction=jurisdiction).exists():
        return 0
    first = Permit.objects.filter(jurisdiction=jurisdiction).order_by("filed_on").first()
    staff = _acting_user(jurisdiction, Role.COUNTY_STAFF)
    if first is None or staff is None:
        return 0
    today = today or timezone.localdate()
    with acting(actor=staff, channel=Channel.CLI, actor_label="powts demo"):
        sample = random_inspections.draw(jurisdiction=jurisdiction, period_start=first.filed_on, period_end=today,
                                         on=today, seed=20260112)
        items = list(sample.items.all()[:2])
        if items:
            random_inspections.inspect(item=items[0], outcome=c.ApplicationCheck.ERRORS, inspected_on=today,
                                       findings="Well on the neighbouring lot not shown on the plot plan",
                                       evidence=["Site visit: well 40 ft east of the lot line"])
        if len(items) > 1:
            random_inspections.inspect(item=items[1], outcome=c.ApplicationCheck.CORRECT, inspected_on=today)
    return 1
