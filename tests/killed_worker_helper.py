"""A real `powts worker` process with one extra kind of job, for tests/test_worker_killed.py (run as a script,
not collected by pytest). The job's work is one row written in one transaction; on its first attempt the
job stops before that, in the middle of its run, until the test kills the process with SIGKILL.

    python tests/killed_worker_helper.py worker          # `powts worker --workers 1 --no-periodic`
    python tests/killed_worker_helper.py enqueue         # start a job; prints its id
    python tests/killed_worker_helper.py again <id>      # the same id delivered again, then waits for the worker
"""
import os
import sys
import time

KIND = "test.work_once"
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


def main(argv: list[str]) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "powts.settings")
    import django

    django.setup()
    from powts import cli
    from powts.jobs import kinds

    kinds.register(KIND, work_once)
    if argv[0] == "worker":
        return cli.main(["worker", "--workers", "1", "--no-periodic"])
    cli._auto_migrate()
    from powts.jobs import services
    from powts.jobs.models import Job

    if argv[0] == "enqueue":
        print(services.job_start(kind=KIND, title="work once").pk)
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
