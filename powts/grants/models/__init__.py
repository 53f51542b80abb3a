from powts.grants.models.applications import GrantApplication, GrantDecision
from powts.grants.models.program import (
    PARTICIPATING,
    AllocationLine,
    AllocationRun,
    CountyCertification,
    CountyPayment,
    Disbursement,
    ParticipationApplication,
    ParticipationItem,
    ParticipationStatus,
)

__all__ = ["PARTICIPATING", "AllocationLine", "AllocationRun", "CountyCertification", "CountyPayment", "Disbursement",
           "GrantApplication", "GrantDecision", "ParticipationApplication", "ParticipationItem", "ParticipationStatus"]
