"""Queue health: a task that does nothing but answer, so a test or an operator can see that a worker
is taking work off the configured queue (`powts worker`, or the consumer inside `powts serve`)."""
from huey.contrib.djhuey import task


@task()
def queue_ping(token: str) -> str:
    return f"pong {token}"
