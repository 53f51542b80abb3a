"""Every write to permits, fees, inspections and enforcement goes through this package, one module per concern:

- amendments: an application changed after filing, each change recorded
- applications: filing (application_submit, permit_file), documents and recording, amendments, plot plan
- review: hold, resubmit, approve, deny, issue, plan revisions
- changes: renewal, transfer, change of plumber, the expiry sweep
- suspension: suspend, reinstate, revoke
- fees: invoices, payments, returned checks
- inspections: requests, results, final approval
- site: soil and site evaluations, building-permit clearances, emergency work
- enforcement: failing systems, correction orders, variances, public complaints
- conditions: what must be on file before approval and issuance (recorded documents, holding tanks, nonplumbing)
- testing: component test notices and their verification
- abandonment: the replaced system's components abandoned by the installing plumber
- records: servicing contract changes, connection of the structure, a transfer never filed, appeals

Each service is keyword-only, runs in one transaction, checks the county profile before it writes and
writes its audit event (powts.audit) and timeline entry in that transaction; a refused move changes
nothing. Reads (what an application lacks, the stages a system needs, unpaid invoices) are in
powts.permits.selectors. The names below are the package's public services.
"""
from powts.permits.services.applications import (
                                                  APPLICATION_FIELDS,
                                                  application_submit,
                                                  document_verify_recording,
                                                  permit_add_document,
                                                  permit_file,
                                                  permit_set_plot_plan,
                                                  permit_update_application,
)
from powts.permits.services.abandonment import replaced_components_abandon
from powts.permits.services.amendments import AMENDABLE, permit_amend
from powts.permits.services.changes import (
                                                  permit_grant_change,
                                                  permit_refuse_change,
                                                  permit_request_change,
                                                  permits_expire,
)
from powts.permits.services.fees import invoice_raise, payment_record, payment_returned
from powts.permits.services.inspections import (
                                                  inspection_assign,
                                                  inspection_record,
                                                  inspection_request,
                                                  permit_final_approve,
)
from powts.permits.services.review import (
                                                  permit_approve,
                                                  permit_deny,
                                                  permit_hold,
                                                  permit_issue,
                                                  permit_plan_revision,
                                                  permit_resubmit,
)
from powts.permits.services.records import (
                                                  appeal_decide,
                                                  appeal_file,
                                                  appeal_schedule,
                                                  permit_record_connection,
                                                  permit_void_for_missing_transfer,
                                                  servicing_contract_change_file,
)
from powts.permits.services.testing import component_test_notify, component_test_verify
from powts.permits.services.suspension import permit_reinstate, permit_revoke, permit_suspend

__all__ = [
    "AMENDABLE", "APPLICATION_FIELDS", "permit_amend", "application_submit", "document_verify_recording", "inspection_assign", "inspection_record",
    "inspection_request", "invoice_raise", "payment_record", "payment_returned", "permit_add_document",
    "permit_approve", "permit_deny", "permit_file", "permit_final_approve", "permit_grant_change", "permit_hold",
    "permit_issue", "permit_plan_revision", "permit_refuse_change", "permit_reinstate", "permit_request_change",
    "permit_resubmit", "permit_revoke", "permit_set_plot_plan", "permit_suspend", "permit_update_application",
    "permits_expire", "appeal_decide", "appeal_file", "appeal_schedule", "permit_record_connection",
    "permit_void_for_missing_transfer", "servicing_contract_change_file", "component_test_notify", "component_test_verify",
    "replaced_components_abandon",
]
