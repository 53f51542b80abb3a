from powts.core.refusals import Refused


class OversightRefused(Refused):
    """A refused oversight action (program audit, hold, flag, referral, assessment)."""
