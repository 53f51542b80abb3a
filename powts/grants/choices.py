from django.db import models


class ApplicantType(models.TextChoices):
    # the law engine's names (powts.law.batch.APPLICANT_TYPES)
    RESIDENCE = "residence", "Principal residence"
    BUSINESS = "business", "Small commercial establishment"


class ApplicationStatus(models.TextChoices):
    RECEIVED = "received", "Received"
    ELIGIBLE = "eligible", "Eligible"
    INELIGIBLE = "ineligible", "Not eligible"
    WITHDRAWN = "withdrawn", "Withdrawn"


class ApplicationSource(models.TextChoices):
    ONLINE = "online", "Online (owner)"
    PAPER = "paper", "Paper form (entered by county staff)"
    IMPORT = "import", "File import"


class IncomeEvidence(models.TextChoices):
    # s. 145.246(3)(c)-(d): income is shown by the prior year's return, or by evidence for the
    # current year where the department accepts it.
    PRIOR_YEAR_RETURN = "prior_year_return", "Prior year's income tax return"
    CURRENT_YEAR_EVIDENCE = "current_year_evidence", "Current-year evidence accepted by the department"
