"""The nightly measure of the database's statistics as a background job (its time in settings.POWTS_SWEEPS)."""


def database_statistics(job, progress) -> dict:
    from powts.core.sqlite_statistics import measure

    progress(done=0, step="measuring the database's tables")
    return measure()


def register() -> None:
    from powts.jobs import kinds

    kinds.register("sweep.database_statistics", database_statistics)
