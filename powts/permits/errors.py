"""The permits app's refusal: a Refused (powts.core.refusals) naming the field, the rule and its citation."""
from powts.core.refusals import Refused


class PermitRefused(Refused):
    """A permit, fee, inspection, site or enforcement service refused the action; nothing was saved."""
