"""The grants app's refusal: a Refused naming the field, the rule and its citation; nothing is saved."""
from powts.core.refusals import Refused


class GrantRefused(Refused):
    """A grant application service refused the action."""
