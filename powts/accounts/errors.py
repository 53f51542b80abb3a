"""The accounts app's refusal: a Refused (powts.core.refusals) naming each bad field."""
from powts.core.refusals import Refused


class AccountRefused(Refused):
    """An account, password or license refused (a weak password, a bad license record, ...)."""
