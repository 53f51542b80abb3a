"""Errors of the setbacks package."""

from powts.core.refusals import Refused


class PlanError(Refused):
    """A plot plan that cannot be checked. `problems` lists every problem found, one per line,
    each naming the feature (index and name) it is about."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems), field="plot_plan")


class SetbackRulesError(Refused):
    """Setback data in a profile that does not load (missing citation, unknown kind, ...)."""
