"""Amendments: "amend an application after filing (flows, building use, plans) with the change recorded".

Each change is kept with its old and new value, who and when (PermitChange of kind amendment). Whether the
review restarts is the county's text: Dane County Code s. 46.08(6)(d) (the division reviews and assists; a held
application returns to review when resubmitted) and Lincoln Ch. 22 (draft), Application Requirements (5)
("delay permit issuance until corrected or completed applications are received": a corrected application
received is back under review)."""
import datetime as dt

import pytest

from powts.core.refusals import Refused
from powts.permits import services
from powts.permits.models import Permit, PermitChange
from powts.permits.tests.conftest import BAD_PLAN, file_complete

D = dt.date


def _amendments(permit):
    return PermitChange.objects.filter(permit=permit, kind="amendment")


def test_amendment_records_old_and_new_who_and_when(dane, master, plumber_user):
    from powts.audit.context import acting

    permit = file_complete(dane, master)
    with acting(actor=plumber_user):
        change = services.permit_amend(permit=permit, data={"design_flow_gpd": 600, "building_use": "duplex",
                                                            "bedrooms": 3}, on=D(2026, 3, 5), reason="second unit")
    lines = {x["field"]: x for x in change.changed_fields}
    assert set(lines) == {"design_flow_gpd", "building_use"}  # bedrooms unchanged: not recorded
    assert lines["design_flow_gpd"]["old"] == "450" and lines["design_flow_gpd"]["new"] == "600"
    assert lines["building_use"] == {"field": "building_use", "label": "building use", "old": "single-family dwelling",
                                     "new": "duplex"}
    assert change.by == plumber_user and change.at is not None and change.received_on == D(2026, 3, 5)
    assert change.citation == "Dane County Code s. 46.08(6)(d)" and change.status == "recorded"
    permit.refresh_from_db()
    assert permit.design_flow_gpd == 600 and permit.building_use == "duplex"
    assert permit.events.filter(step="amended", summary__contains="design flow (gallons a day): 450 → 600").exists()


@pytest.mark.parametrize("county,back_to_review", [("dane", False), ("lincoln", True)], indirect=["county"])
def test_a_held_application_returns_to_review_only_where_the_text_says(county, back_to_review, master):
    permit = file_complete(county, master)
    services.permit_hold(permit=permit, on=D(2026, 3, 3), reasons=["flow too low"])
    services.permit_amend(permit=permit, data={"estimated_daily_flow_gpd": 350}, on=D(2026, 3, 4))
    assert Permit.objects.get(pk=permit.pk).status == ("applied" if back_to_review else "held")


def test_an_applied_application_stays_under_review(lincoln, master):
    permit = file_complete(lincoln, master)
    services.permit_amend(permit=permit, data={"estimated_daily_flow_gpd": 350}, on=D(2026, 3, 4))
    assert Permit.objects.get(pk=permit.pk).status == "applied"


def test_no_amendment_after_the_decision(dane, master):
    permit = file_complete(dane, master)
    services.permit_approve(permit=permit, on=D(2026, 3, 3))
    with pytest.raises(Refused, match="before the county decides"):
        services.permit_amend(permit=permit, data={"design_flow_gpd": 600}, on=D(2026, 3, 4))
    assert Permit.objects.get(pk=permit.pk).design_flow_gpd == 450 and not _amendments(permit).exists()


def test_amendment_refusals_name_the_field_and_save_nothing(dane, master):
    permit = file_complete(dane, master)
    for data, field in (({"design_flow_gpd": 450}, "data"), ({"parcel": 1}, "parcel"),
                        ({"system_type": "spaceship"}, "system_type")):
        with pytest.raises(Refused) as refused:
            services.permit_amend(permit=permit, data=data, on=D(2026, 3, 4))
        assert field in refused.value.errors
    with pytest.raises(Refused) as refused:
        services.permit_amend(permit=permit, data={"design_flow_gpd": 500}, on=D(2026, 3, 1))  # before filing
    assert "on" in refused.value.errors
    assert not _amendments(permit).exists() and Permit.objects.get(pk=permit.pk).design_flow_gpd == 450


def test_replacing_the_plot_plan_of_a_filed_application_is_an_amendment(dane, master):
    permit = file_complete(dane, master)
    services.permit_set_plot_plan(permit=permit, plot_plan=BAD_PLAN, on=D(2026, 3, 4))
    change = _amendments(permit).get()
    assert change.changed_fields[0]["old"] == "3 features"
    assert change.changed_fields[0]["new"].startswith("2 features, ") and "setback violation" in change.changed_fields[0]["new"]


def test_web_form_and_api_amend_only_what_they_name(client, dane, master, plumber_user):
    permit = file_complete(dane, master, has_pumps=True)
    client.force_login(plumber_user)
    page = client.post(f"/permits/{permit.pk}/amend/", {"design_flow_gpd": "500", "building_use": "single-family dwelling",
                                                        "has_pumps": ["0", "1"], "reason": "bigger house"}, follow=True)
    assert "Done: amend" in page.content.decode()
    permit.refresh_from_db()
    assert permit.design_flow_gpd == 500 and permit.has_pumps is True
    shown = client.get(f"/permits/{permit.pk}/").content.decode()
    assert "Amendments of the application" in shown and "bigger house" in shown
    api = client.post(f"/api/permits/{permit.pk}/actions/amend/", {"bedrooms": 4}, content_type="application/json")
    assert api.status_code == 200
    permit.refresh_from_db()
    assert permit.bedrooms == 4 and permit.has_pumps is True and permit.design_flow_gpd == 500  # flags not named: kept
    bad = client.post(f"/api/permits/{permit.pk}/actions/amend/", {"bedrooms": "many"}, content_type="application/json")
    assert bad.status_code == 400 and "bedrooms" in bad.json()["errors"]
    assert _amendments(permit).count() == 2


def test_others_may_not_amend(client, dane, master, make_user):
    permit = file_complete(dane, master)
    stranger = make_user("other-plumber", "plumber")
    client.force_login(stranger)
    assert client.post(f"/permits/{permit.pk}/amend/", {"design_flow_gpd": "500"}).status_code == 404
    assert Permit.objects.get(pk=permit.pk).design_flow_gpd == 450
