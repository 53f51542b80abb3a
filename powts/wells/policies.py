"""Who may do what with well compensation claims: DNR receives, completes and pays them (Wis. Stat.
s. 281.75(2), (5)); a superuser may act too. Nobody else reads a claim (it holds tax returns)."""
from powts.accounts.policies import is_dnr


def can_read_claims(user) -> bool:
    return bool(getattr(user, "is_authenticated", False) and (user.is_superuser or is_dnr(user)))


def can_act_on_claims(user) -> bool:
    return can_read_claims(user)
