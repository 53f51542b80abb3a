"""The inventory file's columns (import and export share them)."""

REQUIRED = ("system_id", "parcel_id", "system_type", "owner_name")
OPTIONAL = (
    "site_address", "municipality", "owner_mailing_address", "installed_on", "last_serviced_on",
    "status", "tank_capacity_gallons", "design_flow_gpd", "bedrooms", "latitude", "longitude",
    "permit_number", "legal_description", "sewered", "language", "site_zip",
)
KNOWN = REQUIRED + OPTIONAL


def normalise_header(name) -> str:
    """'System ID ' -> 'system_id': headers match by name, whatever the case and spacing."""
    return "_".join(str(name or "").strip().lower().replace("-", " ").split())
