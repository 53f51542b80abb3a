"""One table of permit actions (powts.permits.actions): the service, its inputs and who may
run it, used by both the permit page and the API (before: the table was written twice, in api.py and
views.py, with different inputs and policies); the web pages do not import the API."""
import ast
import datetime as dt
from pathlib import Path

import pytest

from powts.permits import actions
from powts.permits.api import serializers
from powts.permits.models import Permit
from powts.permits.tests.conftest import file_complete
from powts.permits.tests.test_api import client_for

D = dt.date


def test_the_api_documents_the_inputs_of_the_table():
    on_endpoint = {a.name for a in actions.ACTIONS.values() if a.on_actions_endpoint}
    assert {"hold", "approve", "deny", "issue", "final-approve", "suspend", "revoke", "verify-recording"} <= on_endpoint
    documented = set(serializers.ActionSerializer().fields)
    assert {i.name for a in on_endpoint for i in actions.ACTIONS[a].inputs} <= documented
    payment = {i.name for i in actions.ACTIONS["payment"].inputs} - {"invoice"}
    assert payment | {"received_on"} == set(serializers.PaymentSerializer().fields)


def test_the_web_views_do_not_import_the_api():
    tree = ast.parse((Path(actions.__file__).parent / "views.py").read_text())
    modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    modules |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert not any(m and m.startswith("powts.permits.api") for m in modules)


def test_one_policy_for_the_page_and_the_api(client, dane, staff, master, plumber_user):
    """The permit's plumber may resubmit a held application but not approve it, on the page as in the API."""
    permit = file_complete(dane, master, pay=False)
    api = client_for(plumber_user)
    client.force_login(plumber_user)
    assert client.post(f"/permits/{permit.pk}/approve/", {"on": "2026-03-03"}).status_code == 403
    assert api.post(f"/api/permits/{permit.pk}/actions/approve/", {"on": "2026-03-03"}, format="json").status_code == 403
    for resubmit in (lambda: client.post(f"/permits/{permit.pk}/resubmit/", {"on": "2026-03-04"}),
                     lambda: api.post(f"/api/permits/{permit.pk}/actions/resubmit/", {"on": "2026-03-04"}, format="json")):
        r = client_for(staff).post(f"/api/permits/{permit.pk}/actions/hold/", {"reasons": ["sign"], "on": "2026-03-03"},
                                   format="json")
        assert r.status_code == 200 and Permit.objects.get(pk=permit.pk).status == "held"
        assert resubmit().status_code in (200, 302)
        assert Permit.objects.get(pk=permit.pk).status == "applied"


def test_a_bad_input_is_refused_naming_the_field_on_both(client, dane, staff, master):
    permit = file_complete(dane, master, pay=False)
    r = client_for(staff).post(f"/api/permits/{permit.pk}/actions/hold/", {"on": "2026-13-01"}, format="json")
    assert r.status_code == 400 and "on" in r.json()["errors"]
    client.force_login(staff)
    page = client.post(f"/permits/{permit.pk}/hold/", {"on": "2026-13-01"}, follow=True).content.decode()
    assert "is not a date" in page and Permit.objects.get(pk=permit.pk).status == "applied"
    r = client_for(staff).post(f"/api/permits/{permit.pk}/actions/payment/", {"amount": "1"}, format="json")
    assert r.status_code == 404  # payments have their own endpoint (/api/invoices/<id>/payments/)


def test_an_empty_plot_plan_box_on_the_application_form_is_no_plot_plan():
    """The application form's plot-plan box left empty (or holding a line break) files the application
    without a plot plan; text that is not JSON is still that field's error."""
    from powts.core.fields import FieldError
    from powts.permits.actions import parse_application

    assert "plot_plan" not in parse_application({"parcel_number": "0810-123-4567-0", "plot_plan": "\r\n"})
    with pytest.raises(FieldError) as exc:
        parse_application({"parcel_number": "0810-123-4567-0", "plot_plan": "{not json"})
    assert exc.value.field == "plot_plan"
