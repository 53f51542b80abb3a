"""Wis. Stat. s. 145.20(3)(a)1.: "The department may specify categories of private on-site wastewater treatment
systems for which approval by the department is required prior to issuance of sanitary permits by the governmental
unit"; (3)(a)2.: a unit the department exempts from a category issues without it. Both counties alike."""
import datetime as dt

import pytest

from powts.audit.models import AuditEvent
from powts.oversight import services
from powts.oversight.errors import OversightRefused
from powts.oversight.models import ApprovalCategory, DepartmentApproval
from powts.permits import choices as c
from powts.permits import services as permits
from powts.permits.models import Permit
from powts.permits.tests.conftest import file_complete

D = dt.date
CITE = "Wis. Stat. s. 145.20(3)(a)1."


def _approved(county, master, **kw):
    permit = file_complete(county, master, **kw)
    permits.permit_approve(permit=permit, on=D(2026, 4, 1))
    return Permit.objects.get(pk=permit.pk)


@pytest.fixture
def big_flow(db):
    return services.category_specify(name="Large systems", system_types=[], above_gpd=5000, on=D(2026, 1, 1))


@pytest.mark.parametrize("county", ["dane", "lincoln"], indirect=True)
@pytest.mark.parametrize("flow, held", [(5000, False), (5001, True)])
def test_145_20_3_a_1_a_permit_in_the_category_waits_for_the_departments_approval(county, master, big_flow, flow, held):
    """Above 5,000 gallons a day (the category's own threshold): issuance is refused until the approval is recorded;
    at 5,000 the permit is not in the category and issues."""
    permit = _approved(county, master, design_flow_gpd=flow, estimated_daily_flow_gpd=flow - 100)
    if not held:
        permits.permit_issue(permit=permit, on=D(2026, 4, 2))
        assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.ISSUED
        return
    with pytest.raises(OversightRefused) as exc:
        permits.permit_issue(permit=permit, on=D(2026, 4, 2))
    assert exc.value.citation == CITE and "Large systems" in exc.value.message
    assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.APPROVED
    approval = services.department_approve(permit=permit, category=big_flow, on=D(2026, 4, 2), reference="DSPS-77")
    assert AuditEvent.objects.filter(content_type__model="departmentapproval", object_id=str(approval.pk)).exists()
    permits.permit_issue(permit=Permit.objects.get(pk=permit.pk), on=D(2026, 4, 2))
    assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.ISSUED


def test_145_20_3_a_2_an_exempt_county_issues_without_the_approval(dane, master, big_flow):
    services.exemption_grant(jurisdiction=dane, category="Large systems", grounds="satisfactory audits", on=D(2026, 2, 1))
    permit = _approved(dane, master, design_flow_gpd=9000, estimated_daily_flow_gpd=6000)
    permits.permit_issue(permit=permit, on=D(2026, 4, 2))
    assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.ISSUED


def test_a_category_by_system_type(dane, master):
    mounds = services.category_specify(name="Mounds", system_types=["mound"], above_gpd=None, on=D(2026, 1, 1))
    assert mounds.covers(file_complete(dane, master, system_type="mound"))
    assert not mounds.covers(file_complete(dane, master, system_type="standard"))


@pytest.mark.parametrize("kw, field", [({"system_types": [], "above_gpd": None}, "system_types"),
                                       ({"system_types": ["castle"], "above_gpd": None}, "system_types"),
                                       ({"system_types": [], "above_gpd": "lots"}, "above_gpd")])
def test_a_category_that_covers_nothing_or_names_an_unknown_type_is_refused(db, kw, field):
    with pytest.raises(Exception) as exc:
        services.category_specify(name="Bad", on=D(2026, 1, 1), **kw)
    assert getattr(exc.value, "field", None) == field and not ApprovalCategory.objects.exists()


def test_an_approval_outside_the_category_or_after_issue_is_refused(dane, master, big_flow):
    small = _approved(dane, master)
    with pytest.raises(OversightRefused) as exc:
        services.department_approve(permit=small, category=big_flow, on=D(2026, 4, 2))
    assert exc.value.field == "category" and not DepartmentApproval.objects.exists()


def test_the_department_specifies_and_approves_on_the_page_and_staff_read_it(dane, master, big_flow, make_user, staff, client):
    dsps = make_user("dora", "dsps")
    permit = _approved(dane, master, design_flow_gpd=9000, estimated_daily_flow_gpd=6000)
    client.force_login(dsps)
    r = client.post("/oversight/categories/", {"name": "Sand filters", "system_types": ["sand_filter"], "above_gpd": ""})
    assert r.status_code == 302 and ApprovalCategory.objects.filter(name="Sand filters", system_types=["sand_filter"]).exists()
    r = client.post("/oversight/categories/approve/", {"permit": permit.number, "category": str(big_flow.pk), "reference": "A-1"})
    assert r.status_code == 302 and DepartmentApproval.objects.filter(permit=permit).exists()
    client.force_login(staff)
    page = client.get("/oversight/categories/").content.decode()
    assert "Large systems" in page and permit.number in page and "Specify a category" not in page
    assert client.post("/oversight/categories/", {"name": "Mine", "above_gpd": "1"}).status_code == 403


def test_the_api_lists_and_specifies_categories(dane, make_user, staff):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(make_user("dora", "dsps"))
    r = api.post("/api/oversight/categories/", {"name": "Experimental", "system_types": ["experimental"]}, format="json")
    assert r.status_code == 201 and r.json()["citation"] == CITE
    r = api.post("/api/oversight/categories/", {"name": "Nothing"}, format="json")
    assert r.status_code == 400 and "system_types" in r.json()["errors"]
    api.force_authenticate(staff)
    assert [c_["name"] for c_ in api.get("/api/oversight/categories/").json()] == ["Experimental"]
