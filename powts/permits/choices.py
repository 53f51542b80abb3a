from django.db import models


class PermitStatus(models.TextChoices):
    APPLIED = "applied", "Application filed"
    HELD = "held", "Held for correction"
    APPROVED = "approved", "Approved (fees due)"
    DENIED = "denied", "Denied"
    ISSUED = "issued", "Issued"
    COMPLETED = "completed", "Installed and approved"
    EXPIRED = "expired", "Expired"
    SUSPENDED = "suspended", "Suspended"
    REVOKED = "revoked", "Revoked"
    VOID = "void", "Void (no transfer form)"


OPEN_STATUSES = {PermitStatus.APPLIED, PermitStatus.HELD}
LIVE_STATUSES = {PermitStatus.ISSUED, PermitStatus.SUSPENDED}


class PermitKind(models.TextChoices):
    STATE = "state", "State sanitary permit"
    COUNTY = "county", "County sanitary permit"
    RECONNECTION = "reconnection", "County sanitary permit for reconnection"
    NONPLUMBING = "nonplumbing", "Nonplumbing sanitation system"


class InspectionSystem(models.TextChoices):
    """The system types the inspection rules know (powts/jurisdictions/profiles/*/inspections.yaml)."""
    STANDARD = "standard", "Standard (in-ground)"
    MOUND = "mound", "Mound"
    AT_GRADE = "at_grade", "At-grade"
    SAND_FILTER = "sand_filter", "Sand filter"
    EXPERIMENTAL = "experimental", "Experimental"
    SITE_BUILT_HOLDING_TANK = "site_built_holding_tank", "Site-built holding tank"
    NONPLUMBING = "nonplumbing", "Nonplumbing"


class NonplumbingKind(models.TextChoices):
    """Nonplumbing sanitation systems (SPS 391) a permit may be for."""
    NONE = "", "Not a nonplumbing system"
    PRIVY = "privy", "Privy"
    PORTABLE_RESTROOM = "portable_restroom", "Portable restroom"
    RV_TRANSFER_CONTAINER = "rv_transfer_container", "Recreational vehicle transfer container"


class TemporaryReason(models.TextChoices):
    """Why a temporary holding tank is permitted (the county's temporary holding tank rule)."""
    NONE = "", "Not temporary"
    WEATHER_OR_SOIL = "weather_or_soil", "Weather or soil conditions delay the approved system"
    SEWER_COMING = "sewer_coming", "Public sewer will be provided or extended"


class TestVerification(models.TextChoices):
    """How the county verified a component test (the profile's testing.verification methods)."""
    PENDING = "", "Not yet verified"
    INSPECTED = "inspected", "Inspected during the test"
    WRITTEN = "written", "Written verification and results from the responsible person"
    BOTH = "both", "Inspected, and written verification received"


class AppealOutcome(models.TextChoices):
    PENDING = "", "Not yet decided"
    UPHELD = "upheld", "Decision upheld"
    MODIFIED = "modified", "Decision modified"
    REVERSED = "reversed", "Decision reversed"
    WITHDRAWN = "withdrawn", "Appeal withdrawn"


class ChangeKind(models.TextChoices):
    RENEWAL = "renewal", "Renewal"
    TRANSFER = "transfer", "Transfer to a new owner"
    PLUMBER_CHANGE = "plumber_change", "Change of plumber"
    AMENDMENT = "amendment", "Amendment of the application"


class ChangeStatus(models.TextChoices):
    REQUESTED = "requested", "Requested (fee due)"
    GRANTED = "granted", "Granted"
    REFUSED = "refused", "Refused"
    RECORDED = "recorded", "Recorded"  # an amendment: no decision of its own, the application is reviewed as amended


class NoticeKind(models.TextChoices):
    HOLD = "hold", "Request for correction"
    DENIAL = "denial", "Notice of denial"
    SUSPENSION = "suspension", "Notice of suspension"
    REVOCATION = "revocation", "Notice of revocation"
    REINSPECTION_FEE = "reinspection_fee", "Reinspection fee notice"
    CORRECTION_ORDER = "correction_order", "Correction order"


class InvoiceStatus(models.TextChoices):
    OPEN = "open", "Open"
    PAID = "paid", "Paid"
    VOID = "void", "Void"


class PaymentMethod(models.TextChoices):
    CHECK = "check", "Check"
    CASH = "cash", "Cash"
    CARD_ELSEWHERE = "card", "Card (processed outside powts)"
    ACH = "ach", "Bank transfer"
    REFUND = "refund", "Refund"
    RETURNED = "returned", "Returned check"


class InspectionResult(models.TextChoices):
    REQUESTED = "requested", "Requested"
    PASSED = "passed", "Passed"
    FAILED = "failed", "Failed"
    NOT_READY = "not_ready", "Not ready at the scheduled time"
    CANCELLED = "cancelled", "Cancelled"


class SoilVerification(models.TextChoices):
    PENDING = "pending", "Not yet verified"
    ISSUE = "issue", "Permit may issue"
    FILE = "file", "Filed: site suitability on record"
    HOLD = "hold", "Held pending clarification"
    DENY = "deny", "Denied: site does not meet the code"


class FailureCondition(models.TextChoices):
    """Wis. Stat. s. 145.01(4m)(a)-(e) = s. 145.245(4)(a)-(e)."""
    A = "a", "(a) Discharge of sewage into surface water or groundwater"
    B = "b", "(b) Sewage in zones of saturation, adversely affecting operation"
    C = "c", "(c) Discharge of sewage to a drain tile or into zones of bedrock"
    D = "d", "(d) Discharge of sewage to the surface of the ground"
    E = "e", "(e) Failure to accept sewage; backup into the structure"


class OrderStatus(models.TextChoices):
    OPEN = "open", "Open"
    CORRECTED = "corrected", "Corrected"
    OVERDUE = "overdue", "Overdue"


class VarianceStatus(models.TextChoices):
    PETITIONED = "petitioned", "Petitioned"
    GRANTED = "granted", "Granted"
    DENIED = "denied", "Denied"
    RESCINDED = "rescinded", "Rescinded"


class VariancePetitioner(models.TextChoices):
    OWNER = "owner", "The owner"
    COUNTY = "county", "The county, on the owner's behalf"


class RescissionGround(models.TextChoices):
    """s. 145.24(3): "The department shall rescind the variance if the existing private on-site wastewater
    treatment system becomes a failing private on-site wastewater treatment system or contaminates waters
    of the state." """
    FAILING = "failing", "The system became a failing system"
    CONTAMINATES = "contaminates", "The system contaminates waters of the state"


class ClearanceKind(models.TextChoices):
    NEW_STRUCTURE = "new_structure", "New structure needing a private sewage system"
    RECONNECTION = "reconnection", "Structure connected to an existing system"
    RECONNECT_OTHER = "reconnect_other", "Disconnect one structure, connect another"
    REBUILD = "rebuild", "Rebuilding a structure after damage"
    FLOW_CHANGE = "flow_change", "Construction changing wastewater flow or load"


class ComplaintLink(models.TextChoices):
    """How a complaint found its system (or why it has none)."""
    NOT_TRIED = "", "Not matched yet"
    ADDRESS = "address", "Matched by its address"
    STAFF = "staff", "Linked by county staff"
    QUEUED = "queued", "To link: no single system at its address"
    NO_SYSTEM = "no_system", "No system on record at this location"


class ComplaintStatus(models.TextChoices):
    OPEN = "open", "open"
    CLOSED = "closed", "closed"


DOCUMENT_KINDS = {
    "system_plans": "System plans and specifications",
    "plot_plan": "Plot plan (paper)",
    "soil_report": "Soil and site evaluation report",
    "construction_details": "Construction details, layouts and testing procedures",
    "pump_specifications": "Pump and control specifications",
    "maintenance_agreement": "Maintenance agreement or servicing contract",
    "state_plan_approval": "State plan approval (stamped plans)",
    "existing_not_failing": "Verification that existing systems are not failing",
    "recorded_documents": "Recorded documents (easement, affidavit, deed restriction)",
    "revised_plans": "Revised plans",
    "transfer_form": "State transfer form",
    "plumber_transfer_form": "Transfer form signed by the new plumber",
    "maintenance_notice": "Notice of maintenance requirements (recorded)",
    "holding_tank_agreement": "Holding tank maintenance agreement with the town (recorded)",
    "servicing_contract": "Servicing contract with a licensed septage servicing operator",
    "servicing_contract_change": "Change to the servicing contract, or a new contract",
    "dnr_approval": "Written approval of the Department of Natural Resources",
    "septage_disposal_statement": "Statement of the method of final disposal of the septage",
    "sewer_connection_agreement": "Agreement with the sanitary district on connecting to the public sewer",
    "ownership_document": "Document naming the system's owners and who operates and maintains it (recorded)",
    "occupancy_deed_restriction": "Deed restriction limiting occupancy to the design (recorded)",
    "flow_affidavit": "Affidavit that the design flow and load will not be exceeded (recorded)",
    "nonplumbing_agreement": "Nonplumbing sanitary agreement (recorded)",
    "product_approval": "Manufacturer's State product approval",
    "management_plan": "Management plan with a servicing contract",
    "campground_permit": "The campground's permit from the county health department",
    "other": "Other",
}

# Documents that arrive after review (transfer forms, recordings, servicing contracts): these may be added to an
# approved or issued permit, the others only to an application under review.
DOCUMENT_KINDS_AFTER_REVIEW = {"transfer_form", "plumber_transfer_form", "recorded_documents", "maintenance_notice",
                               "holding_tank_agreement", "servicing_contract", "servicing_contract_change",
                               "ownership_document", "occupancy_deed_restriction", "flow_affidavit",
                               "nonplumbing_agreement", "sewer_connection_agreement", "dnr_approval",
                               "septage_disposal_statement"}
