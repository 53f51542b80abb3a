"""Several server processes on one port share the API clients' kept-alive connections
by who is free to answer. A process whose threads are all answering leaves a new connection to another
process; when a thread comes free it takes new connections again. gunicorn's own gthread worker
accepts busy or not (the first test shows it), which gave one of four processes twice another's share."""
import logging
import os
import selectors
import socket
import threading
from concurrent import futures

import pytest
from gunicorn.config import Config
from gunicorn.workers.gthread import ThreadWorker

from powts.core.gunicorn_worker import FreeThreadWorker


class Held:
    """A worker of the given class on a real listening socket, whose requests wait until released."""

    def __init__(self, worker_class, threads):
        cfg = Config()
        cfg.set("threads", threads)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.worker = worker_class(0, os.getppid(), [self.listener], None, 30, cfg, logging.getLogger("test"))
        w = self.worker
        w.tpool, w.poller = futures.ThreadPoolExecutor(max_workers=threads), selectors.DefaultSelector()
        w.method_queue.init()
        self.release, self.clients = threading.Event(), []
        w.handle = lambda conn: self.release.wait(10) and False  # answered; the connection then closes
        w.set_accept_enabled(True)

    def listening(self) -> bool:
        return any(key.fileobj is self.listener for key in self.worker.poller.get_map().values())

    def client_connects(self):
        self.clients.append(socket.create_connection(self.listener.getsockname()))
        self.worker.accept(self.listener)

    def requests_end(self):
        self.release.set()
        self.worker.tpool.shutdown(wait=True)  # the answers are in; their finish waits on the main thread's queue
        self.worker.method_queue.run_callbacks(None)

    def close(self):
        self.release.set()
        self.worker.tpool.shutdown(wait=True)
        for s in [*self.clients, self.listener]:
            s.close()
        self.worker.poller.close()
        self.worker.method_queue.close()


@pytest.fixture
def held():
    made = []

    def make(worker_class, threads=1):
        made.append(Held(worker_class, threads))
        return made[-1]

    yield make
    for h in made:
        h.close()


def test_gunicorns_own_worker_keeps_listening_while_busy(held):
    h = held(ThreadWorker)
    h.client_connects()
    assert h.listening()  # so it may take the next connection too and answer it only after this one


def test_a_busy_process_leaves_new_connections_to_the_others(held):
    h = held(FreeThreadWorker)
    assert h.listening()
    h.client_connects()
    assert not h.listening()
    h.worker.set_accept_enabled(True)  # gthread's loop asks again on every turn while it has room
    assert not h.listening()
    h.requests_end()
    assert h.worker.in_hand == 0 and h.listening()


def test_with_two_threads_the_second_request_fills_it(held):
    h = held(FreeThreadWorker, threads=2)
    h.client_connects()
    assert h.listening()
    h.client_connects()
    assert not h.listening()
    h.requests_end()
    assert h.worker.in_hand == 0 and h.listening()


def test_a_stopping_process_does_not_listen_again(held):
    h = held(FreeThreadWorker)
    h.client_connects()
    h.worker.alive = False  # SIGTERM: gthread stops accepting and finishes what it has
    h.requests_end()
    assert not h.listening()
