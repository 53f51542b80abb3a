"""Errors of the setbacks package."""


class PlanError(ValueError):
    """A plot plan that cannot be checked. `problems` lists every problem found, one per line,
    each naming the feature (index and name) it is about."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


class SetbackRulesError(ValueError):
    """Setback data in a profile that does not load (missing citation, unknown kind, ...)."""
