"""The in-process Celery worker of the embedded mode.

Without a broker (no ``REDIS_URL``) Metnos uses Celery's in-memory transport
and runs a real worker in a background thread of the serving process, so a
request that enqueues work returns at once while the work runs alongside —
unlike eager mode, which would run the task inside the request.

It also runs the periodic schedule (``BEAT_SCHEDULE`` in ``metnos_site.celery``)
with Celery's own beat in a thread beside it, as ``celery -A metnos_site beat``
does in production: the same entries, the same intervals, sent to the same
in-memory queues. Its schedule lives in memory (nothing is written to disk),
and it stops with the worker.
"""

from __future__ import annotations

import logging
import socket
import threading
from dataclasses import dataclass

from celery import signals
from celery.beat import ScheduleEntry, Scheduler, Service
from django.conf import settings

from metnos_site.celery import ALL_QUEUES
from metnos_site.celery import app as celery_app

logger = logging.getLogger(__name__)

READY_TIMEOUT_SECONDS = 30.0
# How long the beat thread sleeps at most between looks at its schedule, so it stops promptly.
BEAT_MAX_SLEEP_SECONDS = 1


class EmbeddedWorkerError(RuntimeError):
    """The embedded worker could not start."""


class EmbeddedBeat(threading.Thread):
    """Celery's beat service over the app's ``beat_schedule``, in a thread of this process."""

    def __init__(self) -> None:
        super().__init__(name="metnos-embedded-beat", daemon=True)
        # The plain scheduler keeps its state in memory; beat's default writes a schedule file.
        self.service = Service(celery_app, max_interval=BEAT_MAX_SLEEP_SECONDS, scheduler_cls=Scheduler)
        self.scheduler: Scheduler = self.service.scheduler  # built here, before the thread reads it

    @property
    def schedule(self) -> dict[str, ScheduleEntry]:
        """The entries it runs, by name."""
        return dict(self.scheduler.schedule)

    def run(self) -> None:
        self.service.start()

    def stop(self) -> None:
        self.service.stop(wait=True)


@dataclass
class EmbeddedWorker:
    hostname: str
    thread: threading.Thread
    controller: object
    beat: EmbeddedBeat

    @property
    def alive(self) -> bool:
        return self.thread.is_alive()

    def stop(self) -> None:
        self.beat.stop()  # first, so nothing is sent to a worker that is going away
        stop = getattr(self.controller, "stop", None)
        if stop is not None:
            stop(in_sighandler=False, exitcode=0)
        self.thread.join(timeout=10)


_lock = threading.Lock()
_worker: EmbeddedWorker | None = None


def _on_ready(consumer: object, ready: threading.Event) -> None:
    ready.set()
    # The same signal a `celery worker` process sends, so apps react to the
    # embedded worker starting exactly as to a separate one.
    signals.worker_ready.send(sender=consumer)


def embedded_worker() -> EmbeddedWorker | None:
    return _worker


def start_embedded_worker(*, concurrency: int | None = None) -> EmbeddedWorker:
    """Start (once per process) a thread-pool worker consuming every queue, and the beat schedule."""
    global _worker
    with _lock:
        if _worker is not None and _worker.alive:
            return _worker
        if _worker is not None:
            _worker.beat.stop()  # its worker died: one schedule per process
        if not celery_app.conf.broker_url.startswith("memory://"):
            raise EmbeddedWorkerError("the embedded worker runs only with the in-memory broker")
        from celery.worker import WorkController

        ready = threading.Event()
        hostname = f"embedded@{socket.gethostname()}"
        controller = WorkController(
            app=celery_app,
            hostname=hostname,
            pool_cls="threads",
            concurrency=concurrency or settings.METNOS_EMBEDDED_WORKER_CONCURRENCY,
            queues=list(ALL_QUEUES),
            without_heartbeat=True,
            without_mingle=True,
            without_gossip=True,
            loglevel="WARNING",
            ready_callback=lambda consumer: _on_ready(consumer, ready),
        )
        thread = threading.Thread(target=controller.start, name="metnos-embedded-worker", daemon=True)
        thread.start()
        if not ready.wait(READY_TIMEOUT_SECONDS):
            raise EmbeddedWorkerError("the embedded worker did not become ready")
        beat = EmbeddedBeat()
        beat.start()
        _worker = EmbeddedWorker(hostname=hostname, thread=thread, controller=controller, beat=beat)
        logger.info("embedded worker ready (%s)", hostname)
        return _worker


def start_embedded_worker_if_configured() -> EmbeddedWorker | None:
    if not settings.METNOS_EMBEDDED_WORKER:
        return None
    return start_embedded_worker()
