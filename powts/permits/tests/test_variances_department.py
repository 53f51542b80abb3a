"""Variances decided by the department (Wis. Stat. s. 145.24): the owner (or the county
for the owner) petitions the department (1); DSPS grants or denies with its reason and citation (3); DSPS
rescinds when the system fails OR contaminates waters of the state (3); failure still rescinds by itself."""
from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from knox.models import AuthToken
from powts.audit.models import AuditEvent
from powts.inventory.services import system_create
from powts.permits import choices as c
from powts.permits.errors import PermitRefused
from powts.permits.models import Variance
from powts.permits.services import enforcement as enf

D = dt.date


def client_for(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=user)[1]}")
    return client


@pytest.fixture
def world(dane, make_user):
    owner_user = make_user("olive", "owner")
    system = system_create(jurisdiction=dane, system_id="V-1", parcel_number="VP-1", system_type="conventional", owner_name="Olive")
    owner = system.parcel.owner
    owner.user = owner_user
    owner.save(update_fields=["user"])
    return {"system": system, "owner": owner_user, "staff": make_user("vstaff", "county_staff", dane),
            "dsps": make_user("vdsps", "dsps")}


def test_145_24_1_owner_petitions_the_department(world):
    """(1): "the owner ... may petition the department": the owner's petition is recorded as the owner's."""
    r = client_for(world["owner"]).post("/api/variances/", {"system_id": "V-1", "standard": "siting", "on": "2026-05-01"}, format="json")
    assert r.status_code == 201 and r.json()["petitioner"] == "owner"
    v = Variance.objects.get()
    assert v.petitioned_by == world["owner"] and AuditEvent.objects.filter(action__contains="petitioned to the department by the owner").exists()


def test_145_24_1_county_petitions_for_the_owner_but_does_not_decide(world):
    """(1), (3): county staff may send the petition for the owner; deciding it is the department's (403)."""
    st = client_for(world["staff"])
    v = st.post("/api/variances/", {"system_id": "V-1", "standard": "design", "on": "2026-05-01"}, format="json").json()
    assert v["petitioner"] == "county"
    assert st.post(f"/api/variances/{v['id']}/decide/", {"grant": True}, format="json").status_code == 403
    assert Variance.objects.get().status == c.VarianceStatus.PETITIONED


def test_145_24_3_department_denies_with_reason_and_citation(world):
    """(3): a denial says why; without a reason it is refused and nothing changes."""
    v = enf.variance_petition(system=world["system"], standard="siting", on=D(2026, 5, 1))
    ds = client_for(world["dsps"])
    r = ds.post(f"/api/variances/{v.pk}/decide/", {"grant": False, "on": "2026-05-10"}, format="json")
    assert r.status_code == 400 and "reason" in r.json()["errors"] and r.json()["citation"] == "Wis. Stat. s. 145.24(3)"
    assert Variance.objects.get().status == c.VarianceStatus.PETITIONED
    r = ds.post(f"/api/variances/{v.pk}/decide/", {"grant": False, "reason": "soil too shallow", "on": "2026-05-10"}, format="json").json()
    assert (r["status"], r["decision_reason"], r["citation"]) == ("denied", "soil too shallow", "Wis. Stat. s. 145.24(3)")
    assert Variance.objects.get().decided_by == world["dsps"]


def test_145_24_3_no_grant_when_failing_or_threat_to_waters(world):
    """(3): "not a failing ... system, and continued use ... will not pose a threat of contamination of
    waters of the state": a threat refuses the grant; without it the grant is issued."""
    v = enf.variance_petition(system=world["system"], standard="siting", on=D(2026, 5, 1))
    with pytest.raises(PermitRefused):
        enf.variance_decide(variance=v, grant=True, on=D(2026, 5, 2), threat_to_waters=True, by=world["dsps"])
    assert enf.variance_decide(variance=v, grant=True, on=D(2026, 5, 2), by=world["dsps"]).status == c.VarianceStatus.GRANTED


@pytest.mark.parametrize("ground", ["contaminates", "failing"])
def test_145_24_3_department_rescinds_on_either_ground(world, ground):
    """(3): "shall rescind the variance if the ... system becomes a failing ... system or contaminates waters
    of the state": both grounds are accepted and recorded; the county may not rescind."""
    v = enf.variance_petition(system=world["system"], standard="siting", on=D(2026, 5, 1))
    enf.variance_decide(variance=v, grant=True, on=D(2026, 5, 2))
    assert client_for(world["staff"]).post(f"/api/variances/{v.pk}/rescind/", {"ground": ground}, format="json").status_code == 403
    r = client_for(world["dsps"]).post(f"/api/variances/{v.pk}/rescind/", {"ground": ground, "reason": "tested", "on": "2026-07-01"},
                                       format="json").json()
    assert (r["status"], r["rescission_ground"], r["rescinded_on"]) == ("rescinded", ground, "2026-07-01")


def test_rescind_refused_for_unknown_ground_before_grant_or_not_granted(world):
    """(3) names two grounds only; a rescission dated before the grant, or of a petition not granted, is refused."""
    v = enf.variance_petition(system=world["system"], standard="siting", on=D(2026, 5, 1))
    with pytest.raises(PermitRefused, match="granted"):
        enf.variance_rescind(variance=v, on=D(2026, 6, 1), reason="x", ground="contaminates")
    enf.variance_decide(variance=v, grant=True, on=D(2026, 5, 2))
    with pytest.raises(PermitRefused, match="ground"):
        enf.variance_rescind(variance=v, on=D(2026, 6, 1), reason="x", ground="ugly")
    with pytest.raises(PermitRefused, match="before"):
        enf.variance_rescind(variance=v, on=D(2026, 5, 1), reason="x", ground="failing")
    assert enf.variance_rescind(variance=v, on=D(2026, 5, 2), reason="x", ground="failing").status == c.VarianceStatus.RESCINDED


def test_failure_still_rescinds_by_itself(world, dane):
    """(3): a failure determination rescinds a granted variance with the ground 'failing'."""
    from powts.accounts.services import license_create

    lic = license_create(kind="powts_inspector", number="PI-9", holder_name="Ina Inspector")
    v = enf.variance_petition(system=world["system"], standard="siting", on=D(2026, 5, 1))
    enf.variance_decide(variance=v, grant=True, on=D(2026, 5, 2))
    enf.failure_determine(system=world["system"], conditions=["a"], on=D(2026, 9, 1), basis="inspection", inspector_license=lic)
    v.refresh_from_db()
    assert (v.status, v.rescission_ground, v.rescinded_on) == (c.VarianceStatus.RESCINDED, "failing", D(2026, 9, 1))


@pytest.mark.parametrize("found_on, rescinded", [(D(2026, 5, 1), False), (D(2026, 5, 2), True)])
def test_a_failure_dated_before_the_grant_does_not_rescind_it(world, found_on, rescinded):
    """(3) "becomes a failing ... system": a failure entered late, dated the day before the grant, leaves the
    variance granted (the grant came after it); one dated the day of the grant rescinds it."""
    from powts.accounts.services import license_create

    lic = license_create(kind="powts_inspector", number="PI-8", holder_name="Ina Inspector")
    v = enf.variance_petition(system=world["system"], standard="siting", on=D(2026, 4, 1))
    enf.variance_decide(variance=v, grant=True, on=D(2026, 5, 2))
    enf.failure_determine(system=world["system"], conditions=["a"], on=found_on, basis="inspection", inspector_license=lic)
    v.refresh_from_db()
    assert (v.status == c.VarianceStatus.RESCINDED) is rescinded


def test_demo_has_variances_for_dsps(dane, make_user):
    """DSPS can do its part on the demo data: petitions to decide and a granted variance to rescind."""
    from powts.permits import demo

    for i in range(3):
        system_create(jurisdiction=dane, system_id=f"DV-{i}", parcel_number=f"DVP-{i}", system_type="conventional", owner_name=f"O {i}")
    assert demo.load_variances(dane) == "3 variances" and demo.load_variances(dane) == "already loaded"
    assert sorted(Variance.objects.values_list("status", flat=True)) == ["granted", "petitioned", "petitioned"]


@pytest.mark.parametrize("what,data", [("decide", {"variance": "x"}), ("rescind", {"variance": "1.5"}),
                                       ("decide", {"variance": "1", "on": "2026-13-45"})])
def test_department_forms_with_bad_numbers_are_messages(world, client, what, data):
    """Bad input on the department's forms: a message on the page (or 404 for no such variance), never a 500."""
    client.force_login(world["dsps"])
    r = client.post(f"/permits/variances/{what}/", data, follow=True)
    assert r.status_code in (200, 404)


def test_county_can_no_longer_decide_on_the_site_page(world, client):
    """s. 145.24(3): the county's old decide form is refused (403) and changes nothing."""
    v = enf.variance_petition(system=world["system"], standard="siting", on=D(2026, 5, 1))
    client.force_login(world["staff"])
    r = client.post("/permits/site/variance-decide/", {"variance": v.pk, "grant": "1", "on": "2026-05-02"})
    assert r.status_code == 403 and Variance.objects.get().status == c.VarianceStatus.PETITIONED
