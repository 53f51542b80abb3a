"""The one table of permit actions: for each, the service it runs, its inputs and who may run it.

The permit page (views.permit_post, views.permit_new) and the API (api/views.py) both look an action up
here, ask the same policy (powts.permits.policies), parse the same inputs with the same bounded parser
(powts.core.fields) and call the same service. A refused value is a FieldError naming the field and a
refused move the service's Refused; each is mapped once (powts.core.api for the API, the page's message
for the web). The API's documentation serializers are built from these inputs (api/serializers.py).
"""
from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.utils import timezone

from powts.core import fields
from powts.core.fields import FieldError
from powts.maintenance.choices import AbandonmentMethod
from powts.permits import choices as c
from powts.permits import policies, services

MAX_PLAN_CHARS = 5_000_000  # a plot plan posted as text; the request body limit is the real bound
MAX_DATETIME_CHARS = 40


@dataclass(frozen=True)
class Input:
    """One value an action takes. `kind` says how it is read; `also` names other keys it may come under
    (the API's `received_on` where the page posts `on`); `record` is the permit's related set an id names."""

    name: str
    kind: str = "text"  # text, lines, date, datetime, flag, decimal, json, record, choice, list
    required: bool = False
    help: str = ""
    also: tuple[str, ...] = ()
    max_length: int = 4000
    choices: tuple[str, ...] = ()
    default: str = ""  # "today" for a date, "now" for a datetime
    record: str = ""


@dataclass(frozen=True)
class Action:
    name: str
    label: str
    policy: Callable  # (user, permit) -> bool, from powts.permits.policies
    denied: str  # the 403 message; {county} is the permit's county
    inputs: tuple[Input, ...]
    run: Callable  # (permit, values, user) -> what the service returns
    on_actions_endpoint: bool = False  # the API serves it at /api/permits/<pk>/actions/<name>/
    only_given: bool = False  # only the inputs the request names are read (an amendment changes what it names)


ON = Input("on", "date", default="today", help="the day of the action; default today")
REASONS = Input("reasons", "lines", help="one reason a line (or a list)")
STAFF_ONLY = "Only {county} staff may do this."
APPLICATION_DENIED = "Applications are filed by a licensed master plumber or master plumber-restricted, or by county staff."
PLUMBER_OR_STAFF = "Only the permit's plumber or county staff may do this."


# -- reading an input -------------------------------------------------------------------------

def _raw(data, item: Input):
    for key in (item.name, *item.also):
        if item.kind == "list" and hasattr(data, "getlist"):
            values = data.getlist(key)
            if values:
                return values
        elif key in data:
            return data.get(key)
    return None


def _lines(item: Input, raw) -> list[str]:
    if raw is None or raw == "":
        return []
    items = raw.splitlines() if isinstance(raw, str) else raw
    if not isinstance(items, (list, tuple)):
        raise FieldError(item.name, f"{item.name} must be text, one item a line, or a list of texts")
    out = [fields.text(item.name, x, max_length=item.max_length) for x in items]
    return [x for x in out if x]


def _flag(item: Input, raw) -> bool:
    if raw is None or isinstance(raw, bool):
        return bool(raw)
    text = fields.text(item.name, raw, max_length=10).lower()
    if text in ("", "0", "false", "off", "no"):
        return False
    if text in ("1", "true", "on", "yes"):
        return True
    raise FieldError(item.name, f"{item.name} must be true or false")


def _datetime(item: Input, raw) -> dt.datetime:
    if raw is None or raw == "":
        return timezone.now()
    text = fields.text(item.name, raw, max_length=MAX_DATETIME_CHARS)
    try:
        return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise FieldError(item.name, f"{item.name} {text[:30]!r} is not a date and time (YYYY-MM-DDTHH:MM)") from None


def _json(item: Input, raw):
    if isinstance(raw, str) and not raw.strip():  # a form's empty text area is no value, as an absent one
        raw = None
    if isinstance(raw, str):
        if len(raw) > MAX_PLAN_CHARS:
            raise FieldError(item.name, f"{item.name} is too long")
        try:
            raw = json.loads(raw)
        except ValueError as exc:
            raise FieldError(item.name, f"{item.name}: not valid JSON ({exc})") from None
        # the request's text was storable, but its JSON escapes (a "\\ud800") may decode to what is not
        found = fields.unstorable_in(raw, item.name)
        if found:
            raise FieldError(found[0], f"{found[0]} {found[1]}")
    if item.required and raw in (None, ""):
        raise FieldError(item.name, f"{item.name} is required")
    return raw


def _record(item: Input, raw, permit):
    if not item.required and raw in (None, ""):
        return None
    pk = fields.integer(item.name, raw, required=True, minimum=1, maximum=2**62, thousands=False)
    found = getattr(permit, item.record).filter(pk=pk).first()
    if found is None:
        raise FieldError(item.name, f"{item.name} {pk} is not one of permit {permit.number}'s")
    return found


def _value(item: Input, raw, permit):
    kind = item.kind
    if kind == "date":
        value = fields.date(item.name, raw, required=item.required)
        return value if value is not None or item.default != "today" else timezone.localdate()
    if kind == "datetime":
        return _datetime(item, raw)
    if kind == "lines":
        return _lines(item, raw)
    if kind == "list":
        return _lines(item, [] if raw is None else raw if isinstance(raw, (list, tuple)) else [raw])
    if kind == "flag":
        return _flag(item, raw)
    if kind == "decimal":
        return fields.decimal(item.name, raw, required=item.required, maximum=10**8, thousands=True)
    if kind == "integer":
        return fields.integer(item.name, raw, required=item.required, minimum=0, maximum=INTEGER_BOUNDS.get(item.name, 10**9))
    if kind == "json":
        return _json(item, raw)
    if kind == "record":
        return _record(item, raw, permit)
    value = fields.text(item.name, raw, max_length=item.max_length, required=item.required)
    if kind == "choice" and value and value not in item.choices:
        raise FieldError(item.name, f"{item.name} {value[:40]!r} is not one of {', '.join(item.choices)}")
    return value


def parse(action: Action, data, permit=None) -> dict:
    """The action's inputs from a form post or a JSON object, each bounded and named when refused."""
    if not hasattr(data, "get"):
        raise FieldError("body", "the request body must be form fields or a JSON object")
    if action.only_given:
        return {item.name: _value(item, raw, permit) for item in action.inputs
                if (raw := _raw(data, item)) is not None}
    return {item.name: _value(item, _raw(data, item), permit) for item in action.inputs}


def perform(name: str, *, user, permit, data):
    """Run the permit action `name` for `user`: the policy (403), the inputs, then the service."""
    action = ACTIONS.get(name)
    if action is None:
        raise FieldError("action", f"unknown action {name!r}; one of {', '.join(ACTIONS)}")
    if not action.policy(user, permit):
        raise PermissionDenied(action.denied.format(county=permit.jurisdiction.name))
    return action.run(permit, parse(action, data, permit), user)


# -- the services, called with the parsed inputs -------------------------------------------------

def _change(permit, v, user):
    new_plumber = None
    if v["new_plumber_license"]:
        from powts.accounts.models import License

        new_plumber = License.objects.filter(number=v["new_plumber_license"]).order_by("id").first()
        if new_plumber is None:
            raise FieldError("new_plumber_license", f"no license {v['new_plumber_license']!r} on record")
    return services.permit_request_change(permit=permit, kind=v["kind"], received_on=v["on"], new_plumber=new_plumber,
                                          new_owner_name=v["new_owner_name"],
                                          new_owner_mailing_address=v["new_owner_mailing_address"],
                                          new_state_approval=v["new_state_approval"])


def _test_notice(permit, v, user):
    tester = None
    if v["tester_license"]:
        from powts.accounts.models import License

        tester = License.objects.filter(number=v["tester_license"]).order_by("id").first()
        if tester is None:
            raise FieldError("tester_license", f"no license {v['tester_license']!r} on record")
    return services.component_test_notify(permit=permit, component=v["component"], notice_at=v["notice_at"],
                                          requested_day=v["requested_day"], tester=tester)


def _abandoning_plumber(permit, user):
    """A plumber records under their own license; county staff record what the permit's plumber reported."""
    if policies.is_county_staff_for(user, permit.jurisdiction_id):
        return permit.plumber
    return policies.plumber_license(user)


def _result(permit, v, user):
    inspection = services.inspection_record(inspection=v["inspection"], result=v["result"], on=v["on"],
                                            failed_items=v["failed_items"], notes=v["notes"], waive_fee=v["waive_fee"])
    if inspection.inspector_id is None:  # whoever records the result inspected, unless someone was assigned
        services.inspection_assign(inspection=inspection, inspector=user)
    return inspection


def _parcel_step(permit):
    """The inventory's pending-parcel services, for a permit whose parcel the applicant entered as new."""
    from powts.inventory import pending

    if not permit.parcel.pending:
        raise FieldError("parcel", f"parcel {permit.parcel.parcel_number} is already confirmed in the inventory")
    return pending


def _amend(permit, v, user):
    data = {k: v[k] for k in services.AMENDABLE if k in v}
    return services.permit_amend(permit=permit, data=data, on=v.get("on"), reason=v.get("reason", ""))


# An amendment names only the fields it changes (a flag sent as "0" or "false" is cleared).
AMEND_INPUTS = (
    Input("on", "date", help="the day of the amendment; default today"),
    Input("reason", max_length=500, help="why the application changes"),
    Input("work", max_length=200), Input("building_use", max_length=100), Input("lot_dimensions", max_length=100),
    Input("driving_directions"), Input("reference_points"),
    Input("estimated_daily_flow_gpd", "integer"), Input("design_flow_gpd", "integer"), Input("bedrooms", "integer"),
    Input("system_type", "choice", choices=tuple(c.InspectionSystem.values)),
    Input("has_pumps", "flag"), Input("plans_signed", "flag"), Input("state_plan_required", "flag"),
    Input("plan_stamped_by_designer", "flag"), Input("existing_system_on_lot", "flag"), Input("recording_required", "flag"),
)

RESULTS = tuple(x for x in c.InspectionResult.values if x != c.InspectionResult.REQUESTED)
METHODS = tuple(x for x in c.PaymentMethod.values if x not in (c.PaymentMethod.REFUND, c.PaymentMethod.RETURNED))

_TABLE = (
    Action("hold", "Hold for correction", policies.can_decide, STAFF_ONLY,
           (ON, REASONS, Input("respond_by", "date")),
           lambda p, v, u: services.permit_hold(permit=p, on=v["on"], reasons=v["reasons"], respond_by=v["respond_by"]),
           on_actions_endpoint=True),
    Action("resubmit", "Resubmit the corrected application", policies.acts_for_permit, PLUMBER_OR_STAFF, (ON,),
           lambda p, v, u: services.permit_resubmit(permit=p, on=v["on"]), on_actions_endpoint=True),
    Action("approve", "Approve", policies.can_decide, STAFF_ONLY, (ON,),
           lambda p, v, u: services.permit_approve(permit=p, on=v["on"]), on_actions_endpoint=True),
    Action("deny", "Deny", policies.can_decide, STAFF_ONLY,
           (ON, REASONS, Input("amendments", "lines"), Input("minor_technical", "flag"), Input("failure_to_correct", "flag")),
           lambda p, v, u: services.permit_deny(permit=p, on=v["on"], reasons=v["reasons"], amendments=v["amendments"],
                                                minor_technical=v["minor_technical"],
                                                failure_to_correct=v["failure_to_correct"]),
           on_actions_endpoint=True),
    Action("issue", "Issue the permit", policies.can_decide, STAFF_ONLY, (ON,),
           lambda p, v, u: services.permit_issue(permit=p, on=v["on"]), on_actions_endpoint=True),
    Action("final-approve", "Final approval", policies.can_decide, STAFF_ONLY, (ON,),
           lambda p, v, u: services.permit_final_approve(permit=p, on=v["on"]), on_actions_endpoint=True),
    Action("suspend", "Suspend", policies.can_decide, STAFF_ONLY, (ON, REASONS),
           lambda p, v, u: services.permit_suspend(permit=p, on=v["on"], reasons=v["reasons"]), on_actions_endpoint=True),
    Action("reinstate", "Lift the suspension", policies.can_decide, STAFF_ONLY, (ON, Input("note")),
           lambda p, v, u: services.permit_reinstate(permit=p, on=v["on"], note=v["note"]), on_actions_endpoint=True),
    Action("revoke", "Revoke", policies.can_decide, STAFF_ONLY, (ON, REASONS),
           lambda p, v, u: services.permit_revoke(permit=p, on=v["on"], reasons=v["reasons"]), on_actions_endpoint=True),
    Action("plan-revision", "File a plan revision", policies.acts_for_permit, PLUMBER_OR_STAFF,
           (ON, Input("title", also=("note",), max_length=200, help="what changed"),
            Input("approved_on", "date", help="the day DSPS or the agent approved the revision")),
           lambda p, v, u: services.permit_plan_revision(permit=p, on=v["on"], title=v["title"],
                                                         approved_elsewhere_on=v["approved_on"]),
           on_actions_endpoint=True),
    Action("verify-recording", "Verify a document's recording", policies.can_decide, STAFF_ONLY,
           (ON, Input("document", "record", required=True, record="documents",
                      help="the id of the document whose recording staff verified"),
            Input("recording_number", max_length=60, help="the register of deeds' document number"),
            Input("recorded_on", "date", help="the date the document was recorded")),
           lambda p, v, u: services.document_verify_recording(document=v["document"], recording_number=v["recording_number"],
                                                              recorded_on=v["recorded_on"], verified_on=v["on"]),
           on_actions_endpoint=True),
    Action("document", "Add a document", policies.acts_for_permit, PLUMBER_OR_STAFF,
           (Input("on", "date", default="today", also=("received_on",)), Input("kind", required=True, max_length=40),
            Input("title", max_length=200), Input("recorded", "flag")),
           lambda p, v, u: services.permit_add_document(permit=p, kind=v["kind"], title=v["title"], received_on=v["on"],
                                                        recorded=v["recorded"])),
    Action("plot-plan", "Store the plot plan", policies.acts_for_permit, PLUMBER_OR_STAFF,
           (ON, Input("plot_plan", "json", required=True, help="GeoJSON, feet")),
           lambda p, v, u: services.permit_set_plot_plan(permit=p, plot_plan=v["plot_plan"], on=v["on"])),
    Action("amend", "Amend the application", policies.acts_for_permit, PLUMBER_OR_STAFF, AMEND_INPUTS, _amend,
           on_actions_endpoint=True, only_given=True),
    Action("confirm-parcel", "Confirm the new parcel", policies.can_decide, STAFF_ONLY, (Input("note", max_length=500),),
           lambda p, v, u: _parcel_step(p).parcel_confirm(parcel=p.parcel, reason=v["note"]), on_actions_endpoint=True),
    Action("merge-parcel", "Merge the new parcel into the parcel on record", policies.can_decide, STAFF_ONLY,
           (Input("into_parcel_number", required=True, max_length=60, help="the parcel on record it really is"),
            Input("note", max_length=500)),
           lambda p, v, u: _parcel_step(p).parcel_merge_pending(pending=p.parcel, into_number=v["into_parcel_number"],
                                                                reason=v["note"]), on_actions_endpoint=True),
    Action("payment", "Record a payment", policies.can_decide, "County staff record payments.",
           (Input("invoice", "record", required=True, record="invoices"), Input("amount", "decimal", required=True),
            Input("on", "date", default="today", also=("received_on",)),
            Input("method", "choice", choices=METHODS, default="check"), Input("reference", max_length=100)),
           lambda p, v, u: services.payment_record(invoice=v["invoice"], amount=v["amount"], received_on=v["on"],
                                                   method=v["method"] or c.PaymentMethod.CHECK, reference=v["reference"])),
    Action("change", "Apply for a renewal, transfer or change of plumber", policies.may_apply_for_change,
           "Only the owner, the permit's plumber or county staff may apply for a change.",
           (Input("kind", "choice", required=True, choices=tuple(c.ChangeKind.values)),
            Input("on", "date", default="today", also=("received_on",)), Input("new_owner_name", max_length=200),
            Input("new_owner_mailing_address", max_length=500), Input("new_plumber_license", max_length=40),
            Input("new_state_approval", "flag")),
           _change),
    Action("grant", "Grant a change", policies.can_decide, "County staff grant or refuse changes.",
           (Input("change", "record", required=True, record="changes"), ON,
            Input("require_onsite_inspection", "flag", help="renewal: require a new on-site inspection")),
           lambda p, v, u: services.permit_grant_change(change=v["change"], on=v["on"],
                                                        require_onsite_inspection=v["require_onsite_inspection"])),
    Action("refuse", "Refuse a change", policies.can_decide, "County staff grant or refuse changes.",
           (Input("change", "record", required=True, record="changes"), ON, Input("note", help="the reason")),
           lambda p, v, u: services.permit_refuse_change(change=v["change"], on=v["on"], reason=v["note"])),
    Action("inspection", "Request an inspection", policies.acts_for_permit,
           "The permit's plumber (or county staff) requests inspections.",
           (Input("stage", max_length=40), Input("notice_at", "datetime", help="when the notice is given; default now"),
            Input("requested_day", "date")),
           lambda p, v, u: services.inspection_request(permit=p, stage=v["stage"], notice_at=v["notice_at"],
                                                       requested_day=v["requested_day"], requested_by=u)),
    Action("result", "Record an inspection's result", policies.can_decide, "County inspectors record results.",
           (Input("inspection", "record", required=True, record="inspections"),
            Input("result", "choice", required=True, choices=RESULTS),
            Input("on", "date", default="today", also=("inspected_on",)), Input("failed_items", "lines"),
            Input("notes"), Input("waive_fee", "flag")),
           _result),
)
_RECORDS = (
    Action("contract-change", "File a servicing contract change", policies.acts_for_permit, PLUMBER_OR_STAFF,
           (Input("changed_on", "date", required=True, help="the day the servicing contract changed"),
            Input("on", "date", default="today", also=("received_on",), help="the day the copy was received"),
            Input("title", max_length=200)),
           lambda p, v, u: services.servicing_contract_change_file(permit=p, changed_on=v["changed_on"], received_on=v["on"],
                                                                   title=v["title"]),
           on_actions_endpoint=True),
    Action("connect", "Record the connection of the structure", policies.acts_for_permit, PLUMBER_OR_STAFF,
           (Input("connected_on", "date", required=True, help="the day the structure was connected"),),
           lambda p, v, u: services.permit_record_connection(permit=p, connected_on=v["connected_on"]),
           on_actions_endpoint=True),
    Action("test-notice", "Give notice of a component test", policies.acts_for_permit, PLUMBER_OR_STAFF,
           (Input("component", max_length=200, required=True, help="what is tested"),
            Input("notice_at", "datetime", help="when the notice is given; default now"), Input("requested_day", "date"),
            Input("tester_license", max_length=40, help="license number of the person performing the test")),
           _test_notice, on_actions_endpoint=True),
    Action("test-verify", "Verify a component test", policies.can_decide, STAFF_ONLY,
           (Input("test", "record", required=True, record="component_tests"),
            Input("method", "choice", required=True, choices=tuple(v for v in c.TestVerification.values if v)),
            Input("passed", "flag"), Input("on", "date", default="today", also=("verified_on",)),
            Input("results", max_length=4000, help="the test results (required with written verification)")),
           lambda p, v, u: services.component_test_verify(test=v["test"], method=v["method"], passed=v["passed"],
                                                          on=v["on"], results=v["results"]),
           on_actions_endpoint=True),
    Action("abandon-components", "Record the replaced system's components abandoned", policies.acts_for_permit,
           PLUMBER_OR_STAFF,
           (Input("components", max_length=300, required=True, help="the components abandoned"),
            Input("method", "choice", required=True, choices=tuple(AbandonmentMethod.values)),
            Input("on", "date", default="today", also=("abandoned_on",), help="the day of the abandonment")),
           lambda p, v, u: services.replaced_components_abandon(permit=p, plumber=_abandoning_plumber(p, u),
                                                                components=v["components"], method=v["method"],
                                                                abandoned_on=v["on"]),
           on_actions_endpoint=True),
    Action("void-transfer", "Void: property sold without a transfer form", policies.can_decide, STAFF_ONLY,
           (ON, Input("new_owner_name", max_length=200, required=True, help="who the property passed to")),
           lambda p, v, u: services.permit_void_for_missing_transfer(permit=p, on=v["on"], new_owner_name=v["new_owner_name"]),
           on_actions_endpoint=True),
    Action("appeal", "Record an appeal", policies.can_decide, STAFF_ONLY,
           (Input("on", "date", default="today", also=("filed_on",)), Input("appellant", max_length=200, required=True),
            Input("decision", max_length=300, help="the decision appealed, when it is not a notice"),
            Input("notice", "record", record="notices", help="the id of the notice appealed")),
           lambda p, v, u: services.appeal_file(permit=p, filed_on=v["on"], appellant=v["appellant"], decision=v["decision"],
                                                notice=v["notice"]),
           on_actions_endpoint=True),
    Action("appeal-hearing", "Set an appeal's hearing date", policies.can_decide, STAFF_ONLY,
           (Input("appeal", "record", required=True, record="appeals"), Input("hearing_on", "date", required=True)),
           lambda p, v, u: services.appeal_schedule(appeal=v["appeal"], hearing_on=v["hearing_on"]),
           on_actions_endpoint=True),
    Action("appeal-decide", "Record an appeal's outcome", policies.can_decide, STAFF_ONLY,
           (Input("appeal", "record", required=True, record="appeals"),
            Input("outcome", "choice", required=True, choices=tuple(v for v in c.AppealOutcome.values if v)),
            Input("on", "date", default="today", also=("decided_on",)), Input("note", max_length=2000)),
           lambda p, v, u: services.appeal_decide(appeal=v["appeal"], outcome=v["outcome"], decided_on=v["on"], note=v["note"]),
           on_actions_endpoint=True),
)
ACTIONS = {a.name: a for a in _TABLE + _RECORDS}

# Filing a new application has no permit yet: its inputs are here, its policy is policies.can_file and its
# service services.application_submit (the parcel, owner and plumber are found there).
APPLICATION_INPUTS = (
    Input("parcel_number", required=True, max_length=60), Input("owner_name", max_length=200),
    Input("new_parcel", "flag", help="new construction: the parcel is not yet in the inventory (created pending)"),
    Input("site_address", max_length=200, help="a new parcel's site address"),
    Input("municipality", max_length=100, help="a new parcel's town, village or city"),
    Input("legal_description", max_length=2000, help="a new parcel's legal description (lot, CSM, section)"),
    Input("owner_mailing_address", max_length=500),
    Input("plumber_license", max_length=40, help="license number; defaults to the signed-in plumber's"),
    Input("jurisdiction", max_length=50, help="the county's slug, for users not tied to a county"),
    Input("filed_on", "date"),
    Input("kind", "choice", choices=tuple(c.PermitKind.values), default=c.PermitKind.STATE),
    Input("system_type", "choice", choices=tuple(c.InspectionSystem.values), default=c.InspectionSystem.STANDARD),
    Input("work", max_length=200), Input("building_use", max_length=100), Input("lot_dimensions", max_length=100),
    Input("driving_directions"), Input("reference_points"),
    Input("estimated_daily_flow_gpd", "integer"), Input("design_flow_gpd", "integer"), Input("bedrooms", "integer"),
    Input("has_pumps", "flag"), Input("plans_signed", "flag"), Input("state_plan_required", "flag"),
    Input("plan_stamped_by_designer", "flag"), Input("existing_system_on_lot", "flag"), Input("recording_required", "flag"),
    Input("holding_tank", "flag"), Input("frequent_servicing", "flag"), Input("off_lot", "flag"), Input("shared", "flag"),
    Input("owned_by_other", "flag"), Input("flow_not_by_bedrooms", "flag"), Input("flow_rated_reconnection", "flag"),
    Input("replaces_system", "flag"),
    Input("nonplumbing_kind", "choice", choices=tuple(v for v in c.NonplumbingKind.values if v)),
    Input("container_gallons", "integer"), Input("placement_days", "integer"), Input("temporary_until", "date"),
    Input("temporary_reason", "choice", choices=tuple(v for v in c.TemporaryReason.values if v)),
    Input("plot_plan", "json"), Input("documents", "list", max_length=40, help="kinds of the documents filed with it"),
)
INTEGER_BOUNDS = {"estimated_daily_flow_gpd": 10**7, "design_flow_gpd": 10**7, "bedrooms": 100, "container_gallons": 10**6, "placement_days": 3660}


def parse_application(data) -> dict:
    """The inputs of a new application, as services.application_submit takes them (blank ones left out)."""
    if not hasattr(data, "get"):
        raise FieldError("body", "the request body must be form fields or a JSON object")
    out = {}
    for item in APPLICATION_INPUTS:
        raw = _raw(data, item)
        value = _value(item, raw, None)
        if item.kind == "choice" and not value:
            value = item.default
        if item.kind == "json" and value in (None, ""):
            continue
        if value is None or (value == "" and item.kind != "flag"):
            continue
        out[item.name] = value
    if not out.get("parcel_number"):
        raise FieldError("parcel_number", "parcel_number is required")
    return out

# The application form's setback check before filing: only the plan.
PLAN_CHECK = Action("plan-check", "Check the plot plan", lambda u, p: True, APPLICATION_DENIED,
                    (Input("plot_plan", "json", help="GeoJSON, feet or longitude and latitude"),), lambda p, v, u: None)
