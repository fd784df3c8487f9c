"""The in-process Celery worker of the embedded mode.

Without a broker (no ``REDIS_URL``) Metnos uses Celery's in-memory transport
and runs a real worker in a background thread of the serving process, so a
request that enqueues work returns at once while the work runs alongside —
unlike eager mode, which would run the task inside the request.

**Lanes.** An app may ask for some queues to be served by threads of their
own (:func:`embedded_lane_register`): the worker then runs one controller
for those queues beside the main pool, which serves every other queue.
``sites`` does so for the ``browser`` queue, because a turn's step waits in
a main-pool thread for its browser job: if the jobs shared the pool, turns
waiting for them could take every thread and the jobs would never run. A
lane starts with the worker, or on its own (:func:`embedded_lane_start`)
in a process that has only the in-memory broker and no worker, such as a
command that conducts a turn itself: the in-memory queues exist only in
this process, so nothing else could ever take the lane's work.

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
from collections.abc import Callable
from dataclasses import dataclass, field

from celery import signals
from celery.beat import ScheduleEntry, Scheduler, Service
from django.conf import settings

from metnos_site.celery import ALL_QUEUES
from metnos_site.celery import app as celery_app

logger = logging.getLogger(__name__)

READY_TIMEOUT_SECONDS = 30.0
# How long the beat thread sleeps at most between looks at its schedule, so it stops promptly.
BEAT_MAX_SLEEP_SECONDS = 1
# How often an idle in-memory consumer looks at its queues (kombu's default is a whole second,
# which a turn and then its browser job would each wait once).
MEMORY_POLL_SECONDS = 0.02


class EmbeddedWorkerError(RuntimeError):
    """The embedded worker could not start."""


@dataclass(frozen=True)
class EmbeddedLane:
    """Queues served by threads of their own; ``threads`` is read when the lane starts."""

    name: str
    queues: tuple[str, ...]
    threads: Callable[[], int]


_lanes: dict[str, EmbeddedLane] = {}


def embedded_lane_register(*, name: str, queues: tuple[str, ...], threads: Callable[[], int]) -> None:
    """Serve ``queues`` in their own lane of the embedded worker (an app calls this in ``ready``)."""
    _lanes[name] = EmbeddedLane(name=name, queues=queues, threads=threads)


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
        if self.is_alive():  # a beat never started has nothing to wait for
            self.service.stop(wait=True)


@dataclass
class EmbeddedController:
    """One Celery worker controller running in a thread of this process."""

    hostname: str
    queues: tuple[str, ...]
    thread: threading.Thread
    controller: object

    @property
    def alive(self) -> bool:
        return self.thread.is_alive()

    def stop(self) -> None:
        stop = getattr(self.controller, "stop", None)
        if stop is not None:
            stop(in_sighandler=False, exitcode=0)
        self.thread.join(timeout=10)


@dataclass
class EmbeddedWorker:
    main: EmbeddedController
    beat: EmbeddedBeat
    lanes: dict[str, EmbeddedController] = field(default_factory=dict)

    @property
    def hostname(self) -> str:
        return self.main.hostname

    @property
    def alive(self) -> bool:
        return self.main.alive

    def stop(self) -> None:
        from apps.core.outbox import relay_stop

        self.beat.stop()  # first, so nothing is sent to a worker that is going away
        relay_stop()
        self.main.stop()
        for name in list(self.lanes):
            _stop_lane(name)


_lock = threading.Lock()
_worker: EmbeddedWorker | None = None
_running_lanes: dict[str, EmbeddedController] = {}


def _on_ready(consumer: object, ready: threading.Event) -> None:
    ready.set()
    # The same signal a `celery worker` process sends, so apps react to the
    # embedded worker starting exactly as to a separate one.
    signals.worker_ready.send(sender=consumer)


def embedded_worker() -> EmbeddedWorker | None:
    return _worker


def embedded_lane(name: str) -> EmbeddedController | None:
    """The lane running in this process under ``name``, if any."""
    lane = _running_lanes.get(name)
    return lane if lane is not None and lane.alive else None


def _start_controller(hostname: str, queues: tuple[str, ...], concurrency: int) -> EmbeddedController:
    if not celery_app.conf.broker_url.startswith("memory://"):
        raise EmbeddedWorkerError("the embedded worker runs only with the in-memory broker")
    from celery.worker import WorkController

    options = dict(celery_app.conf.broker_transport_options or {})
    options.setdefault("polling_interval", MEMORY_POLL_SECONDS)
    celery_app.conf.broker_transport_options = options
    ready = threading.Event()
    controller = WorkController(
        app=celery_app,
        hostname=hostname,
        pool_cls="threads",
        concurrency=concurrency,
        queues=list(queues),
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
        loglevel="WARNING",
        ready_callback=lambda consumer: _on_ready(consumer, ready),
    )
    thread = threading.Thread(target=controller.start, name=f"metnos-embedded-{hostname.split('@')[0]}", daemon=True)
    thread.start()
    if not ready.wait(READY_TIMEOUT_SECONDS):
        raise EmbeddedWorkerError("the embedded worker did not become ready")
    return EmbeddedController(hostname=hostname, queues=queues, thread=thread, controller=controller)


def _start_lane(name: str) -> EmbeddedController:
    """Start the lane ``name`` unless it runs already (the caller holds the lock)."""
    running = embedded_lane(name)
    if running is not None:
        return running
    lane = _lanes[name]
    started = _start_controller(f"embedded-{name}@{socket.gethostname()}", lane.queues, lane.threads())
    _running_lanes[name] = started
    logger.info("embedded %s lane ready (%s)", name, started.hostname)
    return started


def _stop_lane(name: str) -> None:
    lane = _running_lanes.pop(name, None)
    if lane is not None:
        lane.stop()


def embedded_lane_start(name: str) -> EmbeddedController:
    """Start (once per process) the lane ``name`` alone, without the main pool or the schedule."""
    with _lock:
        return _start_lane(name)


def start_embedded_worker(*, concurrency: int | None = None, schedule: bool = True) -> EmbeddedWorker:
    """Start (once per process) the worker: its lanes, a thread pool for every other queue, and the schedule.

    ``schedule=False`` builds the schedule without running it: its entries are
    sent only when applied by hand (the test suite, whose tests must not see
    an entry fire in the middle of them).
    """
    global _worker
    with _lock:
        if _worker is not None and _worker.alive:
            return _worker
        if _worker is not None:
            _worker.beat.stop()  # its worker died: one schedule per process
        lanes = {name: _start_lane(name) for name in _lanes}
        laned = {queue for lane in lanes.values() for queue in lane.queues}
        main = _start_controller(
            f"embedded@{socket.gethostname()}",
            tuple(queue for queue in ALL_QUEUES if queue not in laned),
            concurrency or settings.METNOS_EMBEDDED_WORKER_CONCURRENCY,
        )
        beat = EmbeddedBeat()
        if schedule:
            beat.start()
        _worker = EmbeddedWorker(main=main, beat=beat, lanes=lanes)
        logger.info("embedded worker ready (%s)", main.hostname)
        return _worker


def start_embedded_worker_if_configured() -> EmbeddedWorker | None:
    if not settings.METNOS_EMBEDDED_WORKER:
        return None
    return start_embedded_worker()
