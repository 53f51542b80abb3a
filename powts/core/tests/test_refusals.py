"""One family of refusals, mapped once for the API and once for the web."""
from django import forms
from rest_framework.test import APIRequestFactory
from rest_framework.views import APIView

from powts.core.fields import FieldError
from powts.core.refusals import Refused, add_to_form


class _Refusing(APIView):
    authentication_classes = ()
    permission_classes = ()

    def post(self, request):
        raise Refused("the fee may be waived only for the return inspection", field="waive_fee",
                      citation="Lincoln County, Inspections General (5)")


def test_api_answers_a_refusal_with_400_naming_the_field_and_citation():
    response = _Refusing.as_view()(APIRequestFactory().post("/x", {}, format="json"))
    assert response.status_code == 400
    assert response.data == {"errors": {"waive_fee": ["the fee may be waived only for the return inspection"]},
                             "citation": "Lincoln County, Inspections General (5)"}


def test_a_field_error_is_a_refusal_and_keeps_its_field():
    exc = FieldError("gallons_pumped", "gallons_pumped must be a number")
    assert isinstance(exc, Refused) and exc.field == "gallons_pumped" and exc.citation == ""


class _Form(forms.Form):
    waive_fee = forms.BooleanField(required=False)


def test_web_shows_a_refusal_on_its_field_or_above_the_form():
    form = _Form(data={})
    assert form.is_valid()
    add_to_form(form, Refused("no", field="waive_fee", citation="s. 1"))
    add_to_form(form, Refused("not here", field="unknown_field"))
    assert form.errors["waive_fee"] == ["no (s. 1)"]
    assert form.non_field_errors() == ["not here"]
