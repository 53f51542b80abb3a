"""The maintenance app's refusal: a Refused (powts.core.refusals) naming each bad field, with the rule's citation."""
from powts.core.refusals import Refused


class MaintenanceRefused(Refused):
    """A maintenance report, contract or holding-tank record refused; nothing was stored."""
