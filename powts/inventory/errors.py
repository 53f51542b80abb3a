"""The inventory's refusal: a Refused (powts.core.refusals) naming each bad field."""
from powts.core.refusals import Refused


class InventoryRefused(Refused):
    """An inventory write refused (a system id already on record, a field that cannot be changed here, ...)."""
