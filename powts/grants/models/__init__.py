from powts.grants.models.applications import GrantApplication, GrantDecision

__all__ = ["GrantApplication", "GrantDecision"]
