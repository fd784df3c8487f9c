"""Browser jobs: browser work run by a worker of the ``browser`` queue.

Nothing drives Chromium from a turn's worker. Work that needs the browser is
submitted as a job (:func:`browser_job_submit`) naming a registered *kind*,
its parameters and its authorized websites; the ``run_browser_job`` task
runs it in a browser worker (in the embedded mode, the in-process worker's
browser lane), under the task's hard time limit, and records a typed
outcome — whatever happened, a job ends ``finished``:

``completed`` (with the handler's ``result``), ``refused`` (a navigation was
refused; ``reason`` says why), the session's own endings
(``closed_by_user``, ``browser_crashed``, ``deadline_exceeded``,
``lease_lost``), ``queue_full`` / ``queue_timeout``, ``browser_unavailable``,
``time_limit``, ``interrupted`` (its worker died), ``not_started`` (no
browser worker took it in time) or ``failed``.

A job is claimed once (a second delivery finds it claimed) and only for the
owner named in the message. While it runs, its worker renews the job's
heartbeat (:data:`~apps.sites.limits.BROWSER_JOB_HEARTBEAT_EVERY`); whoever
waits for the job (:func:`browser_job_wait`) ends a job whose heartbeat is
older than :data:`~apps.sites.limits.BROWSER_JOB_HEARTBEAT_TIMEOUT` as
``interrupted``, compare-and-set, and the worker's own late ending then
changes nothing. A worker that finds its job taken away ends its browser at
once. The handler gets a :class:`BrowserJobContext`, rebuilt from the job's
row; values it resolves are registered with this worker's redaction and
model withholding, and its result is redacted before it is written.

Steps of a turn run as jobs through :mod:`apps.sites.browser.steps`.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from celery.exceptions import SoftTimeLimitExceeded
from django.db import DatabaseError, connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from apps.accounts.models import User
from apps.core.background_watch import BackgroundWatch
from apps.core.enqueue import enqueue_after_commit
from apps.core.redaction import redact_value, secret_register, secrets_redacted
from apps.runtime.tiers.client import ModelUsage, counting_into
from apps.runtime.tiers.config import ModelTier
from apps.sites.browser.sessions import (
    BrowserSession,
    BrowserUnavailable,
    NavigationFailed,
    NavigationRefused,
    SessionEnded,
    browser_session,
)
from apps.sites.browser.slots import SessionRefused, this_holder
from apps.sites.browser.websites import AuthorizedWebsites
from apps.sites.limits import (
    BROWSER_JOB_CHECK_EVERY,
    BROWSER_JOB_HEARTBEAT_EVERY,
    BROWSER_JOB_HEARTBEAT_TIMEOUT,
    BROWSER_JOB_START_MAX_WAIT,
    BROWSER_TASK_SOFT_TIME_LIMIT,
)
from apps.sites.models import BrowserJob

logger = logging.getLogger(__name__)

JobOutcome = Literal[
    "completed", "refused", "closed_by_user", "browser_crashed", "deadline_exceeded", "lease_lost", "queue_full",
    "queue_timeout", "browser_unavailable", "time_limit", "interrupted", "not_started", "failed",
]  # fmt: skip
# Waiting for a job: short looks first (a sign-in takes seconds), then longer ones. A job
# finished by this process (the embedded lane) wakes its waiter at once.
WAIT_POLLS = ((2.0, 0.05), (30.0, 0.1), (float("inf"), 0.25))
RUN_BROWSER_JOB = "apps.sites.run_browser_job"
# The embedded worker's lane for the browser queue (registered by the app).
BROWSER_LANE = "browser"
Status = BrowserJob.Status


@dataclass
class BrowserJobContext:
    """What a job's handler works with in the browser worker, rebuilt from the job's row.

    ``cancelled`` is set when whoever waits for the job cancelled it, or its
    turn is no longer running or waiting for the user; ``lost`` when the job
    was ended without this worker (its heartbeat was taken for dead).
    """

    job_id: int
    owner: User
    kind: str
    params: Mapping[str, Any]
    websites: AuthorizedWebsites
    deadline: dt.datetime
    cancelled: threading.Event = field(default_factory=threading.Event)
    lost: threading.Event = field(default_factory=threading.Event)
    secrets: list[str] = field(default_factory=list)
    opened: BrowserSession | None = None

    @contextmanager
    def session(self, *, deadline: dt.datetime | None = None) -> Iterator[BrowserSession]:
        """The job's browser session, limited to its websites and never past its deadline."""
        until = min(deadline, self.deadline) if deadline is not None else self.deadline
        with browser_session(owner=self.owner, websites=self.websites, deadline=until) as session:
            self.opened = session
            if self.lost.is_set():
                session.end("failed")
            yield session

    def withhold(self, *values: str) -> None:
        """Values first known in this job (a password, a code): kept out of its logs, model requests and result."""
        for value in values:
            if value and value not in self.secrets:
                self.secrets.append(value)
            secret_register(value)  # also withholds it from model requests

    def refusals(self) -> dict[str, int]:
        return self.opened.refusals() if self.opened is not None else {}


class JobModelUsage(ModelUsage):
    """The model requests a job sent, by tier and whether it is a cloud tier: the step counts them on its turn."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: dict[tuple[str, bool], int] = {}

    def record_sent(self, tier: ModelTier) -> None:
        super().record_sent(tier)
        with self._lock:
            self.sent[(tier.name, tier.cloud)] = self.sent.get((tier.name, tier.cloud), 0) + 1

    def as_rows(self) -> list[list[Any]]:
        with self._lock:
            return [[name, cloud, count] for (name, cloud), count in sorted(self.sent.items())]


# Where a job's stored result keeps the model requests it sent.
MODEL_REQUESTS = "model_requests"

JobHandler = Callable[[BrowserJobContext], Mapping[str, Any]]
SessionHandler = Callable[[BrowserSession, Mapping[str, Any]], Mapping[str, Any]]

_handlers: dict[str, JobHandler] = {}


class UnknownBrowserJob(ValueError):
    """No handler is registered for this kind of job."""


def register_browser_work(kind: str, handler: JobHandler) -> None:
    """A kind whose handler opens the session itself (:meth:`BrowserJobContext.session`)."""
    _handlers[kind] = handler


def register_browser_job(kind: str, handler: SessionHandler) -> None:
    """A kind whose handler works inside a session opened for it, from the job's parameters."""

    def in_session(job: BrowserJobContext) -> Mapping[str, Any]:
        with job.session() as session:
            return handler(session, job.params)

    register_browser_work(kind, in_session)


def browser_job_submit(
    *,
    owner: User,
    kind: str,
    params: Mapping[str, Any],
    websites: AuthorizedWebsites,
    deadline: dt.datetime | None = None,
) -> BrowserJob:
    """Record a job and enqueue it on the ``browser`` queue once the transaction commits.

    ``params`` are stored: they must never hold a secret.
    """
    if kind not in _handlers:
        raise UnknownBrowserJob(kind)
    job = BrowserJob.objects.create(
        owner=owner,
        kind=kind,
        params=dict(params),
        websites=sorted(str(origin) for origin in websites.origins),
        requested_at=timezone.now(),
        deadline=deadline,
    )
    transaction.on_commit(_start_embedded_lane)  # registered first: it runs before the outbox sends the job
    # Sent by name (routed to the ``browser`` queue): this module never imports the task's.
    enqueue_after_commit(RUN_BROWSER_JOB, job.pk, owner.pk)
    return job


def _start_embedded_lane() -> None:
    """The in-memory queues exist only in this process: its browser lane must be the one to take the job."""
    from apps.core.embedded_worker import embedded_lane, embedded_lane_start
    from metnos_site.celery import app

    if app.conf.broker_url.startswith("memory://") and embedded_lane(BROWSER_LANE) is None:
        embedded_lane_start(BROWSER_LANE)


def _poll_seconds(waited: float) -> float:
    return next(pause for until, pause in WAIT_POLLS if waited < until)


def browser_job_wait(
    *, owner: User, job_id: int, deadline: dt.datetime | None = None, cancelled: threading.Event | None = None
) -> BrowserJob:
    """The owner's job once finished (or as it stands at ``deadline``).

    A job no worker started within :data:`BROWSER_JOB_START_MAX_WAIT` is ended
    ``not_started``, and one whose heartbeat is older than
    :data:`BROWSER_JOB_HEARTBEAT_TIMEOUT` (its worker died) ``interrupted``.
    ``cancelled`` asks the job's worker to stop waiting for the user; the job
    is still awaited, so its outcome says what happened.
    """
    began = time.monotonic()
    cancel_sent = False
    with _finished_here(job_id) as finished:
        while True:
            job = BrowserJob.objects.get(pk=job_id, owner_id=owner.pk)
            if job.status == Status.FINISHED or (deadline is not None and timezone.now() >= deadline):
                return job
            if _ended_unattended(job):
                continue  # read the final row: the worker may have finished first
            if cancelled is not None and cancelled.is_set() and not cancel_sent:
                BrowserJob.objects.filter(pk=job_id).update(cancel_requested=True)
                cancel_sent = True
            finished.wait(_poll_seconds(time.monotonic() - began))


_waiting: dict[int, threading.Event] = {}
_waiting_lock = threading.Lock()


@contextmanager
def _finished_here(job_id: int) -> Iterator[threading.Event]:
    """Set when this process finishes the job (the embedded lane), so its waiter need not poll for it."""
    with _waiting_lock:
        event = _waiting.setdefault(job_id, threading.Event())
    try:
        yield event
    finally:
        with _waiting_lock:
            _waiting.pop(job_id, None)


def _announce_finished(job_id: int) -> None:
    with _waiting_lock:
        event = _waiting.get(job_id)
    if event is not None:
        event.set()


def _ended_unattended(job: BrowserJob) -> bool:
    """End a job nobody works on: never started in time, or its worker gone (compare-and-set)."""
    now = timezone.now()
    if job.status == Status.QUEUED and now - job.requested_at >= BROWSER_JOB_START_MAX_WAIT:
        return bool(
            BrowserJob.objects.filter(pk=job.pk, status=Status.QUEUED).update(
                status=Status.FINISHED, outcome="not_started", finished_at=now
            )
        )
    beat = job.heartbeat_at or job.started_at or now
    if job.status == Status.RUNNING and now - beat >= BROWSER_JOB_HEARTBEAT_TIMEOUT:
        return _interrupted(BrowserJob.objects.filter(pk=job.pk), now) > 0
    return False


def _interrupted(jobs: QuerySet[BrowserJob], now: dt.datetime) -> int:
    cutoff = now - BROWSER_JOB_HEARTBEAT_TIMEOUT
    stale = jobs.filter(status=Status.RUNNING).filter(
        Q(heartbeat_at__lt=cutoff) | Q(heartbeat_at__isnull=True, started_at__lt=cutoff)
    )
    return int(stale.update(status=Status.FINISHED, outcome="interrupted", finished_at=now))


def browser_jobs_reconcile_interrupted() -> int:
    """End the jobs whose worker died (a starting worker does this): their heartbeat is too old."""
    return _interrupted(BrowserJob.objects.all(), timezone.now())


def browser_jobs_withdraw(*, owner: User) -> int:
    """Withdraw the owner's jobs no worker started yet ("Close the web sessions"); how many."""
    return int(
        BrowserJob.objects.filter(owner_id=owner.pk, status=Status.QUEUED).update(
            status=Status.FINISHED, outcome="closed_by_user", finished_at=timezone.now()
        )
    )


def browser_job_run(*, job_id: int, owner_id: int) -> None:
    """Run a queued job once (a second delivery finds it claimed) and record its outcome."""
    started = timezone.now()
    claimed = BrowserJob.objects.filter(pk=job_id, owner_id=owner_id, status=Status.QUEUED).update(
        status=Status.RUNNING, started_at=started, heartbeat_at=started, holder=this_holder()
    )
    if not claimed:
        return
    job = BrowserJob.objects.select_related("owner").get(pk=job_id)
    limit = started + BROWSER_TASK_SOFT_TIME_LIMIT
    context = BrowserJobContext(
        job_id=job.pk,
        owner=job.owner,
        kind=job.kind,
        params=job.params,
        websites=AuthorizedWebsites.of(job.websites),
        deadline=min(job.deadline, limit) if job.deadline else limit,
    )
    watch = JobWatch(context).start()
    usage = JobModelUsage()
    try:
        # Whatever the handler resolves is redacted from this job's logs and model requests, and no longer.
        with secrets_redacted(()), counting_into(usage):
            outcome, reason, result = _run(context)
            result = redact_value(dict(result), context.secrets)
    finally:
        watch.stop()
    if usage.sent:
        result[MODEL_REQUESTS] = usage.as_rows()
    # Compare-and-set: a job already ended as interrupted keeps that ending.
    written = BrowserJob.objects.filter(pk=job_id, status=Status.RUNNING).update(
        status=Status.FINISHED, outcome=outcome, reason=reason, result=result, refusals=context.refusals(),
        finished_at=timezone.now(),
    )  # fmt: skip
    _announce_finished(job_id)
    logger.info(
        "browser job finished" if written else "browser job finished after it was ended as interrupted",
        extra={"kind": job.kind, "outcome": outcome, "reason": reason},
    )


def _run(job: BrowserJobContext) -> tuple[JobOutcome, str, Mapping[str, Any]]:
    handler = _handlers.get(job.kind)
    if handler is None:
        return "failed", "unknown_kind", {}
    try:
        return "completed", "", handler(job)
    except NavigationRefused as refused:
        return "refused", refused.reason, {}
    except SessionEnded as ended:
        return ended.outcome, "", {}
    except SessionRefused as refused:
        return refused.reason, "", {}
    except BrowserUnavailable:
        return "browser_unavailable", "", {}
    except SoftTimeLimitExceeded:
        return "time_limit", "", {}
    except NavigationFailed:
        return "failed", "navigation_failed", {}
    except Exception as error:  # noqa: BLE001 - any handler error is a typed outcome, never a crash
        logger.warning("browser job handler failed", extra={"kind": job.kind, "error": type(error).__name__})
        return "failed", "handler_error", {}


class JobWatch(BackgroundWatch):
    """Beside a running job, in its own thread: renews the heartbeat, and notices cancellation or loss.

    The job's own thread is busy with Playwright (and may not touch the
    database while it is), so this thread does the job's bookkeeping.
    """

    thread_name = "metnos-browser-job-watch"

    def __init__(self, job: BrowserJobContext) -> None:
        super().__init__()
        self.job = job
        step = job.params.get("step")
        self._turn_id = step.get("turn") if isinstance(step, Mapping) else None

    def _run(self) -> None:
        beat_every = BROWSER_JOB_HEARTBEAT_EVERY.total_seconds()
        last_beat = time.monotonic()
        try:
            while not self._stopping.wait(BROWSER_JOB_CHECK_EVERY.total_seconds()):
                beat = time.monotonic() - last_beat >= beat_every
                try:
                    self._look(beat=beat)
                except DatabaseError:
                    # A busy or briefly unreachable database: the heartbeat outlives a few missed beats.
                    logger.warning("browser job watch could not reach the database")
                    continue
                if beat:
                    last_beat = time.monotonic()
        finally:
            connection.close()

    def _look(self, *, beat: bool) -> None:
        jobs = BrowserJob.objects.filter(pk=self.job.job_id)
        if beat and not jobs.filter(status=Status.RUNNING).update(heartbeat_at=timezone.now()):
            self._lose()
            return
        row = jobs.values_list("status", "cancel_requested").first()
        if row is None or row[0] != Status.RUNNING:
            self._lose()
        elif row[1] or not self._turn_active():
            self.job.cancelled.set()

    def _turn_active(self) -> bool:
        if self._turn_id is None:
            return True
        from apps.runtime.models import Turn

        active = (Turn.Status.RUNNING, Turn.Status.AWAITING_INPUT)
        return Turn.objects.filter(pk=self._turn_id, owner_id=self.job.owner.pk, status__in=active).exists()

    def _lose(self) -> None:
        """The job was ended without this worker: nothing more may happen on the website for it."""
        if not self.job.lost.is_set():
            logger.warning("browser job ended without its worker", extra={"kind": self.job.kind})
        self.job.lost.set()
        self.job.cancelled.set()
        if self.job.opened is not None:
            self.job.opened.end("failed")


def open_page(session: BrowserSession, params: Mapping[str, Any]) -> Mapping[str, Any]:
    """The built-in job: open one address and report the page's title and HTTP status."""
    response = session.goto(str(params["url"]))
    return {"title": session.page.title()[:200], "status": response.status if response is not None else None}


register_browser_job("open_page", open_page)
