"""Dane County Code s. 46.12: "The department may make random inspections of all information reported on sanitary
permit applications and shall report errors found to the state agency in charge of licensing the person making the
error." The text leaves the share and how often to the county (its profile: 10%, at least one, each quarter). A
sample of the applications filed in a period is drawn with a seed that reproduces it, each drawn application's
inspection is recorded, and an error found flags the application against the licence of who made it, from where it
is referred. Lincoln's ordinance has no such provision (only Inspections General (6), periodic inspections of
systems), so it is refused there with the reason."""
import datetime as dt
import html

import pytest
from rest_framework.test import APIClient

from powts.audit.models import AuditEvent
from powts.core.refusals import Refused
from powts.oversight import random_inspections, sampling, services
from powts.oversight.errors import OversightRefused
from powts.oversight.models import ApplicationSample, ReportFlag, SampledApplication
from powts.oversight.profile import ApplicationInspections, oversight_profile
from powts.permits.tests.conftest import file_complete

D = dt.date
CITE = "Dane County Code s. 46.12"
Q1 = (D(2026, 1, 1), D(2026, 3, 31))


def _file(county, plumber, days):
    return [file_complete(county, plumber, filed_on=day, pay=False) for day in days]


def _count(model) -> int:
    return model.objects.count()


@pytest.mark.parametrize("population, drawn", [(1, 1), (9, 1), (10, 1), (11, 2), (20, 2), (21, 3), (100, 10), (101, 11)])
def test_dane_46_12_the_countys_share_rounded_up_and_at_least_one(population, drawn):
    """The county's choice (profile): 10% of the applications, rounded up, at least 1: 10 gives 1, 11 gives 2."""
    rule = oversight_profile("dane").application_inspections
    assert (rule.share_percent, rule.at_least, rule.citation) == (10, 1, CITE)
    assert rule.size(population) == drawn


def test_the_share_never_draws_more_than_were_filed():
    assert ApplicationInspections(citation=CITE, share_percent=50, at_least=3, every_months=3).size(2) == 2


def test_dane_46_12_a_sample_of_the_applications_filed_in_the_period_both_days_in(dane, master, staff, as_user):
    """Filed on the first and last day of the period: in; the day before and the day after: out. 11 in: 2 drawn."""
    outside = _file(dane, master, [D(2025, 12, 31), D(2026, 4, 1)])
    inside = _file(dane, master, [Q1[0], *[D(2026, 2, d) for d in range(1, 10)], Q1[1]])
    with as_user(staff):
        sample = random_inspections.draw(jurisdiction=dane, period_start=Q1[0], period_end=Q1[1], on=D(2026, 4, 2), seed=77)
    assert (sample.population, sample.sample_size, sample.share_percent, sample.citation) == (11, 2, 10, CITE)
    drawn = list(sample.items.values_list("permit_id", flat=True))
    assert set(drawn) <= {p.pk for p in inside} and not set(drawn) & {p.pk for p in outside}
    # Reproducible: the stored seed and the period's applications draw the same ones, in the same order.
    assert drawn == sampling.draw([p.pk for p in reversed(inside)], seed=sample.seed, size=2)
    assert sample.drawn_by == staff
    events = AuditEvent.objects.filter(content_type__model__in=("applicationsample", "sampledapplication"))
    assert events.count() == 3 and events.filter(action__contains="seed 77").exists()


def test_dane_46_12_an_empty_period_is_refused_with_the_reason_and_nothing_is_saved(dane, master):
    _file(dane, master, [D(2026, 4, 1)])
    before = AuditEvent.objects.count()
    with pytest.raises(OversightRefused) as exc:
        random_inspections.draw(jurisdiction=dane, period_start=Q1[0], period_end=Q1[1], on=D(2026, 4, 2))
    assert exc.value.field == "period_start" and "no sanitary permit application was filed" in exc.value.message
    assert exc.value.citation == CITE
    assert (_count(ApplicationSample), _count(SampledApplication), AuditEvent.objects.count()) == (0, 0, before)


def test_dane_46_12_days_already_sampled_are_not_drawn_again(dane, master):
    """A second draw over the same days could be repeated until it missed an application: refused, nothing saved."""
    _file(dane, master, [D(2026, 3, 31), D(2026, 4, 1)])
    random_inspections.draw(jurisdiction=dane, period_start=Q1[0], period_end=Q1[1], on=D(2026, 4, 2))
    with pytest.raises(OversightRefused) as exc:
        random_inspections.draw(jurisdiction=dane, period_start=D(2026, 3, 31), period_end=D(2026, 4, 30), on=D(2026, 5, 1))
    assert "already drawn" in exc.value.message and _count(ApplicationSample) == 1
    # The day after the sampled period: a new period.
    later = random_inspections.draw(jurisdiction=dane, period_start=D(2026, 4, 1), period_end=D(2026, 4, 30), on=D(2026, 5, 1))
    assert later.population == 1


def test_lincoln_has_no_random_inspection_of_applications(lincoln, master):
    _file(lincoln, master, [D(2026, 2, 1)])
    assert oversight_profile("lincoln").application_inspections is None
    with pytest.raises(OversightRefused) as exc:
        random_inspections.draw(jurisdiction=lincoln, period_start=Q1[0], period_end=Q1[1], on=D(2026, 4, 2))
    assert "ordinance has no provision for random inspections of permit applications" in exc.value.message
    assert _count(ApplicationSample) == 0


@pytest.fixture
def drawn(dane, master):
    _file(dane, master, [D(2026, 2, 2)])
    return random_inspections.draw(jurisdiction=dane, period_start=Q1[0], period_end=Q1[1], on=D(2026, 4, 2), seed=1).items.get()


def test_dane_46_12_an_error_found_flags_the_application_against_its_plumber_and_is_referred(drawn, master, staff, as_user):
    with as_user(staff):
        item = random_inspections.inspect(item=drawn, outcome="errors", inspected_on=D(2026, 4, 9),
                                          findings="bedrooms reported as 3; the house has 5",
                                          evidence=["assessor's record: 5 bedrooms"])
    flag = item.flag
    assert (flag.permit_id, flag.license_id, flag.reason) == (drawn.permit_id, master.pk, "bedrooms reported as 3; the house has 5")
    assert CITE in flag.evidence[0]["what"] and flag.evidence[1]["what"] == "assessor's record: 5 bedrooms"
    assert (item.outcome, item.inspected_on, item.inspected_by) == ("errors", D(2026, 4, 9), staff)
    referral = services.referral_make(license=master, flags=[flag], on=D(2026, 4, 10))
    assert referral.agency == "Wisconsin Department of Safety and Professional Services" and referral.citation.startswith(CITE)
    assert AuditEvent.objects.filter(content_type__model="sampledapplication", action__contains="flagged").exists()


def test_dane_46_12_as_reported_needs_no_findings_and_flags_nothing(drawn):
    item = random_inspections.inspect(item=drawn, outcome="correct", inspected_on=D(2026, 4, 2))
    assert item.outcome == "correct" and item.flag is None and not ReportFlag.objects.exists()


@pytest.mark.parametrize("kw, field", [
    ({"outcome": "errors", "findings": ""}, "findings"),
    ({"outcome": "errors", "findings": "wrong lot", "by": "soil_tester"}, "by"),  # the application names no soil tester
    ({"outcome": "maybe"}, "outcome"),
    ({"outcome": "correct", "inspected_on": D(2026, 4, 1)}, "inspected_on"),  # the day before the draw
])
def test_a_refused_inspection_changes_nothing(drawn, kw, field):
    before = AuditEvent.objects.count()
    with pytest.raises(Refused) as exc:
        random_inspections.inspect(item=drawn, **{"inspected_on": D(2026, 4, 2), **kw})
    assert exc.value.field == field
    drawn.refresh_from_db()
    assert (drawn.outcome, drawn.flag_id, ReportFlag.objects.count(), AuditEvent.objects.count()) == ("pending", None, 0, before)


def test_an_inspection_is_recorded_once(drawn):
    random_inspections.inspect(item=drawn, outcome="correct", inspected_on=D(2026, 4, 2))
    with pytest.raises(OversightRefused) as exc:
        random_inspections.inspect(item=drawn, outcome="errors", inspected_on=D(2026, 4, 3), findings="x")
    assert exc.value.field == "outcome" and not ReportFlag.objects.exists()


# -- the page and the API ---------------------------------------------------------------------------------------

def test_dane_staff_draw_and_inspect_on_the_page(dane, master, staff, client):
    _file(dane, master, [D(2026, 2, 2)])
    client.force_login(staff)
    page = client.get("/oversight/application-inspections/").content.decode()
    assert CITE in page and "10% of the applications filed (at least 1), every 3 months" in page
    r = client.post("/oversight/application-inspections/", {"period_start": "2026-01-01", "period_end": "2026-03-31"})
    sample = ApplicationSample.objects.get()
    assert r.status_code == 302 and r["Location"] == sample.get_absolute_url()
    item = sample.items.get()
    r = client.post(f"/oversight/application-inspections/items/{item.pk}/",
                    {"outcome": "errors", "findings": "lot size wrong", "by": "plumber", "evidence": "survey: 1.2 acres"})
    assert r.status_code == 302
    item.refresh_from_db()
    assert item.flag.license_id == master.pk
    page = client.get(sample.get_absolute_url()).content.decode()
    assert "Inspected: errors found" in page and f"flagged against licence {master.number}" in page


def test_an_empty_period_on_the_page_says_why_and_saves_nothing(dane, staff, client):
    client.force_login(staff)
    r = client.post("/oversight/application-inspections/", {"period_start": "2026-01-01", "period_end": "2026-03-31"},
                    follow=True)
    assert "there is nothing to inspect" in r.content.decode() and not ApplicationSample.objects.exists()


def test_lincoln_staff_see_that_their_ordinance_has_no_such_provision(lincoln, make_user, client):
    client.force_login(make_user("lena", "county_staff", jurisdiction=lincoln))
    page = html.unescape(client.get("/oversight/application-inspections/").content.decode())
    assert "Lincoln County's ordinance has no provision for random inspections of permit applications" in page
    assert "Draw the sample" not in page


def test_another_countys_staff_get_404(drawn, lincoln, make_user, client):
    other = make_user("lena", "county_staff", jurisdiction=lincoln)
    client.force_login(other)
    assert client.get(drawn.sample.get_absolute_url()).status_code == 404
    assert client.post(f"/oversight/application-inspections/items/{drawn.pk}/", {"outcome": "correct"}).status_code == 404
    api = APIClient()
    api.force_authenticate(other)
    assert api.get(f"/api/oversight/application-samples/{drawn.sample_id}/").status_code == 404
    assert api.post(f"/api/oversight/application-samples/items/{drawn.pk}/inspect/", {"outcome": "correct"},
                    format="json").status_code == 404
    drawn.refresh_from_db()
    assert drawn.outcome == "pending"


def test_the_api_draws_and_records_an_inspection(dane, master, staff):
    _file(dane, master, [D(2026, 2, 2)])
    api = APIClient()
    api.force_authenticate(staff)
    r = api.post("/api/oversight/application-samples/", {"period_start": "2026-04-01", "period_end": "2026-06-30"}, format="json")
    assert r.status_code == 400 and "nothing to inspect" in r.json()["errors"]["period_start"][0]
    assert r.json()["citation"] == CITE
    r = api.post("/api/oversight/application-samples/", {"period_start": "2026-01-01", "period_end": "2026-03-31", "seed": 5},
                 format="json")
    assert r.status_code == 201, r.content
    body = r.json()
    assert (body["seed"], body["population"], body["sample_size"]) == ("5", 1, 1)
    item = body["applications"][0]["id"]
    r = api.post(f"/api/oversight/application-samples/items/{item}/inspect/",
                 {"outcome": "errors", "findings": "flow wrong", "evidence": ["meter reading"]}, format="json")
    assert r.status_code == 201 and r.json()["applications"][0]["flag"] == ReportFlag.objects.get().pk
    assert [s["id"] for s in api.get("/api/oversight/application-samples/").json()] == [body["id"]]


def test_the_demo_draws_a_sample_where_the_ordinance_provides_for_it(dane, lincoln, master, make_user):
    from powts.oversight import demo

    make_user("sam", "county_staff", jurisdiction=dane)
    make_user("lena", "county_staff", jurisdiction=lincoln)
    _file(dane, master, [D(2026, 2, 2), D(2026, 2, 3)])
    _file(lincoln, master, [D(2026, 2, 2)])
    assert demo.load_application_inspections(dane, today=D(2026, 4, 2)) == 1
    assert demo.load_application_inspections(dane, today=D(2026, 4, 2)) == 0  # idempotent
    assert demo.load_application_inspections(lincoln, today=D(2026, 4, 2)) == 0
    sample = ApplicationSample.objects.get()
    assert sample.jurisdiction == dane and sample.items.filter(flag__isnull=False).count() == 1
