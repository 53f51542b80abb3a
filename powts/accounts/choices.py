from django.db import models


class Role(models.TextChoices):
    COUNTY_STAFF = "county_staff", "County staff"
    PLUMBER = "plumber", "Plumber"
    SOIL_TESTER = "soil_tester", "Certified soil tester"
    PUMPER = "pumper", "Septage pumper"
    OWNER = "owner", "Property owner"
    STATE_AUDITOR = "state_auditor", "State auditor"
    COUNTY_ADMIN = "county_admin", "County administrator"
    DSPS = "dsps", "DSPS (state Department of Safety and Professional Services)"
    DNR = "dnr", "DNR (state Department of Natural Resources)"


CONTRACTOR_ROLES = {Role.PLUMBER, Role.SOIL_TESTER, Role.PUMPER}
# Roles tied to one county: they act for that county only (powts.accounts.policies.is_county_staff_of).
COUNTY_ROLES = {Role.COUNTY_STAFF, Role.COUNTY_ADMIN}
# State roles that read every county's records and change none (for now).
STATE_READ_ROLES = {Role.STATE_AUDITOR, Role.DSPS}


class LicenseKind(models.TextChoices):
    """Credentials issued under Wis. Stat. ch. 145 and SPS 305 (who may do POWTS work)."""

    MASTER_PLUMBER = "master_plumber", "Master plumber"
    MASTER_PLUMBER_RESTRICTED = "master_plumber_restricted", "Master plumber-restricted service"
    JOURNEYMAN_PLUMBER = "journeyman_plumber", "Journeyman plumber"
    JOURNEYMAN_PLUMBER_RESTRICTED = "journeyman_plumber_restricted", "Journeyman plumber-restricted service"
    SOIL_TESTER = "soil_tester", "Certified soil tester"
    POWTS_INSPECTOR = "powts_inspector", "Certified POWTS inspector"
    POWTS_MAINTAINER = "powts_maintainer", "Registered POWTS maintainer"
    SEPTAGE_OPERATOR = "septage_operator", "Certified septage servicing operator"
