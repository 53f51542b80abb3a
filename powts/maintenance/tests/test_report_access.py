"""Who may file a maintenance report, under which license, on which system, and what
filing lets them read. Findings: "Contractors file reports on any system in any county, and
then read it", "A license that no account holds can be used by any contractor", "County staff write
into another county through the web pages"."""
import dataclasses
import io

import pytest
from django.test import Client
from rest_framework.test import APIClient

from powts.accounts.services import license_create
from powts.audit.models import AuditEvent
from powts.inventory.models import System
from powts.inventory.services import assignment_create
from powts.maintenance import services
from powts.maintenance.models import Report, Schedule


def _body(**kw):
    body = {"jurisdiction": "dane", "system_id": "DA-1", "kind": "pumping", "work_date": "2026-01-05", "license_number": "SSO-1",
            "gallons_pumped": 1000, "disposal_site": "Nine Springs"}
    body.update(kw)
    return body


def _api(user):
    c = APIClient()
    c.force_authenticate(user)
    return c


def test_filing_gives_no_read_access_to_the_system(dane, make_system, pumper_license):
    """Filing "gives them no read access beyond the report itself unless the county assigned the system"."""
    system = make_system()
    pumper = pumper_license.user
    r = _api(pumper).post("/api/maintenance/reports/", _body(), format="json")
    assert r.status_code == 201, r.content
    assert not System.objects.restrict(pumper).exists()
    c = Client()
    c.force_login(pumper)
    assert c.get(f"/inventory/systems/{system.pk}/").status_code == 404
    assert _api(pumper).get(f"/api/systems/{system.pk}/history/").status_code == 404
    assert _api(pumper).get(f"/api/maintenance/systems/{system.pk}/").status_code == 404
    assert "Olive Owner" not in c.get("/inventory/").content.decode()
    # The report itself stays theirs to read.
    assert [x["id"] for x in _api(pumper).get("/api/maintenance/reports/").json()["results"]] == [r.json()["id"]]


def test_an_assignment_by_the_county_gives_read_access(dane, make_system, pumper_license, staff):
    """"... unless the county assigned the system to them"; the assignment is audited."""
    system = make_system()
    pumper = pumper_license.user
    assignment_create(system=system, user=pumper)
    assert list(System.objects.restrict(pumper)) == [system]
    assert AuditEvent.objects.filter(action__startswith="system assigned to").count() == 1
    c = Client()
    c.force_login(pumper)
    assert c.get(f"/inventory/systems/{system.pk}/").status_code == 200


def test_profile_may_let_filers_read_what_they_reported_on(dane, make_system, pumper_license, monkeypatch):
    """The county's profile says whether filing lets the filer read the system (default no)."""
    from powts.inventory import querysets

    system = make_system()
    pumper = pumper_license.user
    _api(pumper).post("/api/maintenance/reports/", _body(), format="json")
    assert not System.objects.restrict(pumper).exists()
    monkeypatch.setattr(querysets, "counties_where_filers_read", lambda: [dane.pk])
    assert list(System.objects.restrict(pumper)) == [system]


def test_state_default_lets_any_licensed_contractor_report_and_not_read():
    """The state's default, "yes for reports, no for reading the system's owner and history"; each value cited."""
    from powts.maintenance.profile import maintenance_profile

    for slug in ("state", "dane", "lincoln"):
        p = maintenance_profile(slug)
        assert p.any_contractor_reports is True and p.filer_reads_system is False
        assert p.citations["contractors"].startswith("SPS 383.55")


@pytest.fixture
def assigned_only(monkeypatch):
    """A county whose profile accepts reports only from assigned contractors (reports.contractors.any_system: false)."""
    real = services.profile_for

    def profile_for(jurisdiction):
        return dataclasses.replace(real(jurisdiction), any_contractor_reports=False)

    monkeypatch.setattr(services, "profile_for", profile_for)


def test_assigned_only_county_refuses_unassigned_contractor(dane, make_system, pumper_license, assigned_only):
    """A contractor reports "for a system in a county where that license is accepted" per the county's profile;
    both sides."""
    system = make_system()
    pumper = pumper_license.user
    r = _api(pumper).post("/api/maintenance/reports/", _body(), format="json")
    assert r.status_code == 400 and "system_id" in r.json()["errors"]
    assert "assigned" in str(r.json()["errors"]["system_id"])
    assert Report.objects.count() == 0 and not Schedule.objects.filter(pk=system.pk, basis_kind="pumping").exists()
    # A system not in the inventory cannot be assigned: refused too.
    r = _api(pumper).post("/api/maintenance/reports/", _body(system_id="NOT-IN-INVENTORY"), format="json")
    assert r.status_code == 400 and "system_id" in r.json()["errors"]
    assignment_create(system=system, user=pumper)
    r = _api(pumper).post("/api/maintenance/reports/", _body(), format="json")
    assert r.status_code == 201, r.content


def test_contractor_may_not_use_a_license_no_account_holds(dane, make_system, make_user):
    """Finding: "A license that no account holds can be used by any contractor"."""
    make_system()
    license_create(kind="septage_operator", number="SSO-ORPHAN", holder_name="Nobody Signed In")
    pumper = make_user("perry2", "pumper")
    license_create(kind="septage_operator", number="SSO-2", holder_name="Perry Two", user=pumper)
    r = _api(pumper).post("/api/maintenance/reports/", _body(license_number="SSO-ORPHAN"), format="json")
    assert r.status_code == 400 and "license_number" in r.json()["errors"]
    assert Report.objects.count() == 0
    # Their own license works (the other side).
    assert _api(pumper).post("/api/maintenance/reports/", _body(license_number="SSO-2"), format="json").status_code == 201


def test_contractor_may_not_use_someone_elses_license(dane, make_system, make_user, pumper_license):
    """A contractor reports "only under a license THEY hold (License.user == request.user)"."""
    make_system()
    other = make_user("peggy", "plumber")
    r = _api(other).post("/api/maintenance/reports/", _body(), format="json")
    assert r.status_code == 400 and "license_number" in r.json()["errors"] and Report.objects.count() == 0
    c = Client()
    c.force_login(other)
    c.post("/maintenance/report/", {"system_id": "DA-1", "kind": "pumping", "work_date": "2026-01-05", "license_number": "SSO-1",
                                    "gallons_pumped": "900"})
    data = b"system_id,kind,work_date,license_number\nDA-1,pumping,2026-01-05,SSO-1\n"
    r = _api(other).post("/api/maintenance/reports/upload/", {"file": io.BytesIO(data), "jurisdiction": "dane"}, format="multipart")
    assert r.json()["stored"] == 0 and r.json()["rejected"][0]["line"] == 2
    assert Report.objects.count() == 0


def test_staff_file_on_paper_under_any_license(dane, make_system, staff, pumper_license):
    """"Staff filing on paper on behalf of a contractor may name any license"."""
    make_system()
    license_create(kind="septage_operator", number="SSO-PAPER", holder_name="Paper Filer")
    for number in ("SSO-1", "SSO-PAPER"):
        r = _api(staff).post("/api/maintenance/reports/", _body(license_number=number), format="json")
        assert r.status_code == 201, r.content


@pytest.mark.parametrize("path", ["/maintenance/report/", "/maintenance/upload/"])
def test_staff_may_not_file_into_another_county_on_the_web(dane, lincoln, make_system, staff, pumper_license, path):
    """Finding: "County staff write into another county through the web pages (/maintenance/report/,
    /maintenance/upload/ with jurisdiction=lincoln)"."""
    make_system(jurisdiction=lincoln, system_id="LI-1")
    c = Client()
    c.force_login(staff)
    if path.endswith("report/"):
        data = {"jurisdiction": "lincoln", "system_id": "LI-1", "kind": "pumping", "work_date": "2026-01-05",
                "license_number": "SSO-1", "gallons_pumped": "900"}
    else:
        data = {"jurisdiction": "lincoln", "file": io.BytesIO(b"system_id,kind,work_date,license_number\nLI-1,pumping,2026-01-05,SSO-1\n")}
    before = AuditEvent.objects.count()
    assert c.post(path, data).status_code == 403
    assert Report.objects.count() == 0 and AuditEvent.objects.count() == before
    # Their own county, on the same page, works.
    make_system(system_id="DA-1")
    if path.endswith("report/"):
        data.update(jurisdiction="dane", system_id="DA-1")
    else:
        data = {"jurisdiction": "dane", "file": io.BytesIO(b"system_id,kind,work_date,license_number\nDA-1,pumping,2026-01-05,SSO-1\n")}
    assert c.post(path, data).status_code in (200, 302)
    assert Report.objects.filter(jurisdiction=dane).count() == 1


def test_staff_may_not_file_into_another_county_through_the_service(dane, lincoln, make_system, staff, pumper_license):
    """"Staff write only in their county on every channel" (the service refuses too)."""
    from django.core.exceptions import PermissionDenied

    make_system(jurisdiction=lincoln, system_id="LI-1")
    with pytest.raises(PermissionDenied):
        services.report_submit(jurisdiction=lincoln, data=_body(system_id="LI-1"), filed_by=staff)
    assert Report.objects.count() == 0


def test_county_admin_is_county_staff_for_reports(dane, lincoln, make_system, make_user, pumper_license):
    """A county administrator counts as county staff everywhere staff is checked, in their county only."""
    make_system()
    admin = make_user("ada", "county_admin", dane)
    assert _api(admin).post("/api/maintenance/reports/", _body(), format="json").status_code == 201
    assert _api(admin).post("/api/maintenance/reports/", _body(jurisdiction="lincoln"), format="json").status_code == 403
    assert _api(admin).get("/api/maintenance/due/").status_code == 200
