"""A real `powts worker` process with one extra kind of job, for tests/test_worker_killed.py (run as a script,
not collected by pytest). The job's work is one row written in one transaction; on its first attempt the
job stops before that, in the middle of its run, until the test kills the process with SIGKILL.

    python tests/killed_worker_helper.py worker          # `powts worker --workers 1 --no-periodic`
    python tests/killed_worker_helper.py enqueue         # start a job; prints its id
    python tests/killed_worker_helper.py again <id>      # the same id delivered again, then waits for the worker
    python tests/killed_worker_helper.py enqueue-long    # start a job that writes in one long transaction
    python tests/killed_worker_helper.py sweep           # the stale check once; prints how many jobs it took back

The long job's first attempt holds its write transaction open until a file `let-go` appears in the data
directory; it makes `inside-<attempt>` there once it is inside the transaction.
"""
import os
import sys
import time

KIND = "test.work_once"
LONG = "test.long_write"
WORK = "test work done"  # the audit action the job's work writes, counted by the test


def work_once(job, progress) -> dict:
    from django.db import transaction

    from powts.audit.services import audit_create

    progress(step="working")  # the test waits for this before it kills the worker
    if job.attempts == 1:
        while True:  # the middle of the job: killed here
            time.sleep(1)
    with transaction.atomic():
        audit_create(job, action=WORK)
    return {"counts": {"work": 1}}


def long_write(job, progress) -> dict:
    from pathlib import Path

    from django.db import transaction

    from powts.audit.services import audit_create

    flags = Path(os.environ["POWTS_DATA_DIR"])
    progress(step="writing")
    with transaction.atomic():  # SQLite: the write lock is held from here to the end (an import's one transaction)
        audit_create(job, action=WORK)
        (flags / f"inside-{job.attempts}").touch()
        while job.attempts == 1 and not (flags / "let-go").exists():
            time.sleep(0.1)
    return {"counts": {"work": 1}}


def main(argv: list[str]) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "powts.settings")
    import django

    django.setup()
    from powts import cli
    from powts.jobs import kinds

    kinds.register(KIND, work_once)
    kinds.register(LONG, long_write)
    if argv[0] == "worker":
        return cli.main(["worker", "--workers", "1", "--no-periodic"])
    cli.apply_migrations("killed-worker helper")
    from powts.jobs import services
    from powts.jobs.models import Job

    if argv[0] == "enqueue":
        print(services.job_start(kind=KIND, title="work once").pk)
        return 0
    if argv[0] == "enqueue-long":
        print(services.job_start(kind=LONG, title="one long write").pk)
        return 0
    if argv[0] == "sweep":
        print(services.requeue_stale())
        return 0
    if argv[0] == "again":
        from powts.core.tasks import queue_ping

        services.enqueue(Job(pk=int(argv[1])))
        # one worker thread takes messages in order: when the ping is answered, the second delivery was handled
        print(queue_ping("after").get(blocking=True, timeout=300))
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
