"""Browser jobs: browser work run by a worker of the ``browser`` queue.

An executor that needs the browser does not drive it from the turn's worker:
it submits a job (:func:`browser_job_submit`) naming a registered *kind* and
its authorized websites, and waits for the job's outcome
(:func:`browser_job_wait`). The ``run_browser_job`` task opens the session
there, under the task's hard time limit, calls the kind's handler and records
a typed outcome — whatever happened, a job ends ``finished``:

``completed`` (with the handler's ``result``), ``refused`` (a navigation was
refused; ``reason`` says why), the session's own endings
(``closed_by_user``, ``browser_crashed``, ``deadline_exceeded``,
``lease_lost``), ``queue_full`` / ``queue_timeout``, ``browser_unavailable``,
``time_limit``, ``interrupted`` (its worker died), ``failed``.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any, Literal

from celery.exceptions import SoftTimeLimitExceeded
from django.db import transaction
from django.utils import timezone

from apps.sites.browser.sessions import (
    BrowserSession,
    BrowserUnavailable,
    NavigationFailed,
    NavigationRefused,
    SessionEnded,
    browser_session,
)
from apps.sites.browser.slots import SessionRefused
from apps.sites.browser.websites import AuthorizedWebsites
from apps.sites.limits import BROWSER_TASK_SOFT_TIME_LIMIT, BROWSER_TASK_TIME_LIMIT
from apps.sites.models import BrowserJob

logger = logging.getLogger(__name__)

JobHandler = Callable[[BrowserSession, Mapping[str, Any]], Mapping[str, Any]]
JobOutcome = Literal[
    "completed", "refused", "closed_by_user", "browser_crashed", "deadline_exceeded", "lease_lost", "queue_full",
    "queue_timeout", "browser_unavailable", "time_limit", "interrupted", "failed",
]  # fmt: skip
WAIT_POLL_SECONDS = 0.2

_handlers: dict[str, JobHandler] = {}


class UnknownBrowserJob(ValueError):
    """No handler is registered for this kind of job."""


def register_browser_job(kind: str, handler: JobHandler) -> None:
    _handlers[kind] = handler


def browser_job_submit(
    *,
    owner: Any,
    kind: str,
    params: Mapping[str, Any],
    websites: AuthorizedWebsites,
    deadline: dt.datetime | None = None,
) -> BrowserJob:
    """Record a job and enqueue it on the ``browser`` queue once the transaction commits."""
    from apps.sites.tasks import run_browser_job

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
    job_id, owner_id = job.pk, owner.pk
    transaction.on_commit(lambda: run_browser_job.delay(job_id, owner_id))
    return job


def browser_job_wait(*, owner: Any, job_id: int, deadline: dt.datetime) -> BrowserJob:
    """The owner's job once finished, or as it stands at ``deadline``."""
    while True:
        job = BrowserJob.objects.get(pk=job_id, owner_id=owner.pk)
        if job.status == BrowserJob.Status.FINISHED or timezone.now() >= deadline:
            return job
        time.sleep(WAIT_POLL_SECONDS)


def browser_job_run(*, job_id: int, owner_id: int) -> None:
    """Run a queued job once (a second delivery finds it claimed) and record its outcome."""
    started = timezone.now()
    claimed = BrowserJob.objects.filter(pk=job_id, owner_id=owner_id, status=BrowserJob.Status.QUEUED).update(
        status=BrowserJob.Status.RUNNING, started_at=started
    )
    if not claimed:
        return
    job = BrowserJob.objects.select_related("owner").get(pk=job_id)
    limit = started + BROWSER_TASK_SOFT_TIME_LIMIT
    deadline = min(job.deadline, limit) if job.deadline else limit
    outcome, reason, result, refusals = _run(job, deadline)
    job.status, job.outcome, job.reason = BrowserJob.Status.FINISHED, outcome, reason
    job.result, job.refusals, job.finished_at = dict(result), refusals, timezone.now()
    job.save(update_fields=["status", "outcome", "reason", "result", "refusals", "finished_at"])
    logger.info("browser job finished", extra={"kind": job.kind, "outcome": outcome, "reason": reason})


def _run(job: BrowserJob, deadline: dt.datetime) -> tuple[JobOutcome, str, Mapping[str, Any], dict[str, int]]:
    handler = _handlers.get(job.kind)
    if handler is None:
        return "failed", "unknown_kind", {}, {}
    session: BrowserSession | None = None
    try:
        websites = AuthorizedWebsites.of(job.websites)
        with browser_session(owner=job.owner, websites=websites, deadline=deadline) as session:
            result = handler(session, job.params)
        return "completed", "", result, session.refusals()
    except NavigationRefused as refused:
        return "refused", refused.reason, {}, _refusals(session)
    except SessionEnded as ended:
        return ended.outcome, "", {}, _refusals(session)
    except SessionRefused as refused:
        return refused.reason, "", {}, {}
    except BrowserUnavailable:
        return "browser_unavailable", "", {}, {}
    except SoftTimeLimitExceeded:
        return "time_limit", "", {}, _refusals(session)
    except NavigationFailed:
        return "failed", "navigation_failed", {}, _refusals(session)
    except Exception as error:  # noqa: BLE001 - any handler error is a typed outcome, never a crash
        logger.warning("browser job handler failed", extra={"kind": job.kind, "error": type(error).__name__})
        return "failed", "handler_error", {}, _refusals(session)


def _refusals(session: BrowserSession | None) -> dict[str, int]:
    return session.refusals() if session is not None else {}


def browser_jobs_reconcile_interrupted() -> int:
    """End the jobs whose worker died: running longer than the hard time limit."""
    cutoff = timezone.now() - BROWSER_TASK_TIME_LIMIT
    return BrowserJob.objects.filter(status=BrowserJob.Status.RUNNING, started_at__lt=cutoff).update(
        status=BrowserJob.Status.FINISHED, outcome="interrupted", finished_at=timezone.now()
    )


def open_page(session: BrowserSession, params: Mapping[str, Any]) -> Mapping[str, Any]:
    """The built-in job: open one address and report the page's title and HTTP status."""
    response = session.goto(str(params["url"]))
    return {"title": session.page.title()[:200], "status": response.status if response is not None else None}


register_browser_job("open_page", open_page)
