from django.db import models


class ClaimStatus(models.TextChoices):
    RECEIVED = "received", "Received"
    INCOMPLETE = "incomplete", "Incomplete"
    COMPLETE = "complete", "Complete, awaiting payment"
    INELIGIBLE = "ineligible", "Not eligible"
    CONSOLIDATED = "consolidated", "Consolidated"
    CONDITIONAL = "conditional", "Conditionally approved"
    PAID = "paid", "Paid"


class LineStatus(models.TextChoices):
    PAID = "paid", "Paid"
    CONDITIONAL = "conditional", "Conditionally approved"
    INCOMPLETE = "incomplete", "Incomplete"
    INELIGIBLE = "ineligible", "Not eligible"
    CONSOLIDATED = "consolidated", "Consolidated"


class WellKind(models.TextChoices):
    DRILLED = "drilled", "Drilled"
    DRIVEN = "driven", "Driven"
    BORED = "bored", "Bored"
    DUG = "dug", "Dug"


class SupplyUse(models.TextChoices):
    RESIDENTIAL = "residential", "Residential"
    LIVESTOCK = "livestock", "Livestock"


class Missing(models.TextChoices):
    """What a claim may lack (s. 281.75(5)(c)): the department names each item in its notice."""
    AFFIDAVIT = "affidavit", "the claim verified by affidavit (Wis. Stat. s. 281.75(5)(a))"
    SAMPLES = "samples", "test results showing the water supply is contaminated (Wis. Stat. s. 281.75(5)(b)1.)"
    TAX_RETURNS = "tax_returns", ("a copy of the Wisconsin income or franchise tax returns for the year before "
                                  "the claim (Wis. Stat. s. 281.75(4m)(c))")
    COSTS = "costs", "the eligible costs claimed (Wis. Stat. s. 281.75(7)(c))"
