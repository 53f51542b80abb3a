"""The worker class `powts serve` runs: gunicorn's gthread worker that takes a new connection only while
one of its threads is free.

Why: gthread accepts whenever its poller wakes, busy or not, and a kept-alive connection stays with the
process that accepted it. The API benchmark's 32 clients open their connections together: with gthread,
two single-thread processes took them 11/21 and 12/20 in two runs of five on PostgreSQL, and the first of
those missed its p99 (790 ms; 133 requests a second over 200 ms, the busy process's share). This worker
took them 14/18 or 15/17 in all five of its runs (three on PostgreSQL, two on SQLite; bench/bench_maintenance.py,
`ss -tnp` during the load). A busy process leaves the connection in the listen queue for a free
one; the connection waits at most until some process's request ends.
"""
from __future__ import annotations

from gunicorn.workers.gthread import ThreadWorker


class FreeThreadWorker(ThreadWorker):
    """Listens only while it has fewer requests in hand than threads (and room for another connection)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.in_hand = 0  # requests submitted to the thread pool and not yet finished; main thread only

    def set_accept_enabled(self, enabled):
        # gthread's loop asks for accepting whenever it has room for connections; the threads decide here.
        super().set_accept_enabled(enabled and self.in_hand < self.cfg.threads)

    def _listen_if_free(self):
        self.set_accept_enabled(self.alive and self.nr_conns < self.worker_connections)

    def enqueue_req(self, conn):
        self.in_hand += 1
        super().enqueue_req(conn)
        self._listen_if_free()

    def finish_request(self, conn, fs):
        self.in_hand -= 1
        super().finish_request(conn, fs)  # may hand the connection straight back to a thread (enqueue_req)
        self._listen_if_free()
