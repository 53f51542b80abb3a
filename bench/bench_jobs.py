"""Benchmark (not a test) of background jobs: 10,000 small jobs through the embedded queue and
through Redis, their throughput and the time from enqueue to start.

    .venv/bin/python bench/bench_jobs.py [--jobs 10000] [--workers 4] [--queues sqlite,redis]

Uses its own data directory (a fresh temporary one: SQLite database and queue file) or DATABASE_URL, and
starts its own redis-server on a spare loopback port (stopped at the end). For each queue, with a consumer
of --workers threads running (as `powts worker` or `powts serve` run it) while the jobs are put on:

- powts jobs: `powts.jobs.services.job_start` of a job that does nothing (the Job row, its audit row, the
  queue message; the worker claims the row, beats, finishes it): enqueue rate, throughput from the first
  enqueue to the last job done, and enqueue-to-start latency (Job.created_at -> started_at) p50/p95;
- baseline, same run and same queue: Huey's own no-op task (no Job row, no database): the same figures;
- baseline for Redis: a plain LPUSH/BRPOP loop between two threads (the floor any Redis queue sits on).
"""
from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_redis() -> tuple[subprocess.Popen, str]:
    exe = shutil.which("redis-server")
    if not exe:
        sys.exit("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    proc = subprocess.Popen([exe, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import redis

    client = redis.Redis(port=port)
    for _ in range(100):
        try:
            client.ping()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    return proc, f"redis://127.0.0.1:{port}/0"


def setup_django(data_dir: Path) -> None:
    os.environ["POWTS_DATA_DIR"] = str(data_dir)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "powts.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def line(label: str, n: int, enqueue_s: float, total_s: float, lat: list[float]) -> str:
    return (f"  {label:<34} enqueue {n / enqueue_s:8.0f}/s   throughput {n / total_s:7.0f} jobs/s ({total_s:6.1f} s)   "
            f"enqueue->start p50 {1000 * pct(lat, .5):8.1f} ms  p95 {1000 * pct(lat, .95):8.1f} ms")


def use_queue(kind: str, url: str, data_dir: Path) -> None:
    from huey.contrib.djhuey import HUEY
    from huey.storage import RedisStorage, SqliteStorage

    HUEY.immediate = False
    HUEY.storage = (SqliteStorage(name="powts", filename=str(data_dir / f"bench-queue-{time.time_ns()}.sqlite3"))
                    if kind == "sqlite" else RedisStorage(name="powts", url=url))
    HUEY.storage.flush_queue()


_STARTED: list[float] = []
_NOOP = None


def bench_raw_huey(n: int, workers: int) -> tuple[float, float, list[float]]:
    """Huey's own no-op task on the same queue and consumer: the queue's cost without powts' Job rows."""
    global _NOOP
    from huey.contrib.djhuey import task

    from powts.core.queue import start_consumer

    if _NOOP is None:
        @task(name="bench_noop")
        def noop(enqueued_at: float) -> None:
            _STARTED.append(time.time() - enqueued_at)  # list.append is atomic under the GIL

        _NOOP = noop
    _STARTED.clear()
    consumer = start_consumer(workers=workers, periodic=False)
    try:
        t0 = time.perf_counter()
        for _ in range(n):
            _NOOP(time.time())
        enqueue_s = time.perf_counter() - t0
        while len(_STARTED) < n:
            time.sleep(0.01)
        total_s = time.perf_counter() - t0
    finally:
        consumer.stop(graceful=True)
    return enqueue_s, total_s, list(_STARTED)


def bench_powts_jobs(n: int, workers: int, tag: str) -> tuple[float, float, list[float]]:
    from django.db import close_old_connections

    from powts.core.queue import start_consumer
    from powts.jobs import kinds
    from powts.jobs.models import Job, JobState
    from powts.jobs.services import job_start

    kinds.register("bench.noop", lambda job, progress: {"counts": {"nothing": 0}})
    consumer = start_consumer(workers=workers, periodic=False)
    try:
        t0 = time.perf_counter()
        first = None
        for i in range(n):
            job = job_start(kind="bench.noop", title=f"bench {tag} {i}", params={})
            first = first or job.pk
        enqueue_s = time.perf_counter() - t0
        ids = Job.objects.filter(pk__gte=first, kind="bench.noop")
        while ids.filter(state=JobState.DONE).count() < n:
            failed = ids.filter(state=JobState.FAILED).count()
            if failed:
                raise SystemExit(f"{failed} bench job(s) failed: {ids.filter(state=JobState.FAILED).first().error}")
            time.sleep(0.2)
        total_s = time.perf_counter() - t0
    finally:
        consumer.stop(graceful=True)
        close_old_connections()
    lat = [(s - c).total_seconds() for c, s in ids.values_list("created_at", "started_at")]
    return enqueue_s, total_s, lat


def bench_plain_redis(url: str, n: int) -> tuple[float, float, list[float]]:
    import redis

    client, reader = redis.Redis.from_url(url), redis.Redis.from_url(url)
    client.delete("bench:plain")
    lags: list[float] = []

    def consume():
        for _ in range(n):
            _, value = reader.brpop("bench:plain")
            lags.append(time.time() - float(value))

    thread = threading.Thread(target=consume)
    thread.start()
    t0 = time.perf_counter()
    for _ in range(n):
        client.lpush("bench:plain", repr(time.time()))
    enqueue_s = time.perf_counter() - t0
    thread.join()
    return enqueue_s, time.perf_counter() - t0, lags


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--queues", default="sqlite,redis")
    args = parser.parse_args(argv)
    data_dir = Path(tempfile.mkdtemp(prefix="powts-bench-jobs-"))
    redis_proc, url = start_redis() if "redis" in args.queues else (None, "")
    try:
        setup_django(data_dir)
        from django.db import connection

        print(f"bench_jobs: {args.jobs:,} jobs, consumer of {args.workers} threads, database {connection.vendor}, "
              f"load {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores")
        for queue in args.queues.split(","):
            print(f"{'embedded SQLite queue' if queue == 'sqlite' else 'Redis ' + url}:")
            use_queue(queue, url, data_dir)
            print(line("Huey no-op task (baseline)", args.jobs, *bench_raw_huey(args.jobs, args.workers)), flush=True)
            use_queue(queue, url, data_dir)
            print(line("powts job (Job row, audit, claim)", args.jobs, *bench_powts_jobs(args.jobs, args.workers, queue)),
                  flush=True)
            if queue == "redis":
                print(line("plain LPUSH/BRPOP (baseline)", args.jobs, *bench_plain_redis(url, args.jobs)), flush=True)
    finally:
        if redis_proc is not None:
            redis_proc.terminate()
            redis_proc.wait(timeout=30)
        shutil.rmtree(data_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
