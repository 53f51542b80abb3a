from powts.core.refusals import Refused


class QueueUnavailable(Refused):
    """The queue (Redis) could not be reached: the job is kept, waiting, and starts when workers are back."""

    def __init__(self):
        super().__init__("Background jobs are unavailable right now. Nothing was lost: the job is kept and starts "
                         "by itself when they are back.")
