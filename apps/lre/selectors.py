"""Reads of long-running work, always scoped to an owner, and the console's progress.

Progress follows the spec's console: the phase is reported as x/y with its
completed and total batches; the known total across phases may grow as
later phases materialise; start time comes from actual attempts of the
current revision; an indicative finish estimate needs at least three recent
results of the current, fully materialised phase, and is n.a. with a reason
otherwise. A job that needs attention says so before anything else.
"""

from __future__ import annotations

import datetime as dt
import statistics
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Min, QuerySet
from django.utils import timezone

from apps.accounts.models import User
from apps.core.tenancy import get_owned_or_404, owned_rows
from apps.lre.batching import lre_enabled
from apps.lre.leases import lease_stalled
from apps.lre.models import LreBatch, LreEvent, LreJob, LrePhase

ESTIMATE_MIN_RESULTS = 3
RECENT_RESULTS = dt.timedelta(minutes=30)
STALE_AFTER = dt.timedelta(minutes=15)


def job_list(*, owner: User) -> QuerySet[LreJob]:
    return owned_rows(LreJob, owner=owner)


def job_get_for_owner(*, owner: User, job_id: Any) -> LreJob:
    """One of the owner's jobs, or the same 404 for a missing or foreign id."""
    return get_owned_or_404(job_list(owner=owner), pk=job_id)


def batch_get_for_owner(*, owner: User, job: LreJob, batch_id: Any) -> LreBatch:
    return get_owned_or_404(owned_rows(LreBatch, owner=owner).filter(job=job), pk=batch_id)


def batches_needing_review(*, job: LreJob) -> QuerySet[LreBatch]:
    return LreBatch.objects.filter(
        job=job, owner_id=job.owner_id, status__in=[LreBatch.Status.NEEDS_REVIEW, LreBatch.Status.FAILED]
    ).select_related("phase")


def job_history(*, job: LreJob, limit: int = 100) -> list[LreEvent]:
    """The most recent decisions on ``job`` and its batches, oldest first."""
    rows = LreEvent.objects.filter(job=job, owner_id=job.owner_id).select_related("batch", "batch__phase")
    return list(reversed(rows.order_by("-created_at", "-id")[:limit]))


@dataclass(frozen=True)
class JobProgress:
    status: str
    attention: str  # why the job needs the user, first of all
    phase_position: int | None  # x of "phase x/y"
    phase_count: int
    phase_tool: str
    phase_done: int  # batches of the current phase that ended (committed, failed, skipped)
    phase_total: int | None  # None: not materialised yet
    known_total: int  # batches known across phases; grows as phases materialise
    committed: int
    errors: int
    skipped: int
    pending: int
    stalled: int  # running batches whose worker missed its lease renewals (reclaimed once the lease expires)
    started_at: dt.datetime | None
    stale: bool
    percent: int | None
    estimate: dt.datetime | None
    estimate_reason: str  # why there is no estimate ("" when there is one)


def job_progress(*, job: LreJob, now: dt.datetime | None = None) -> JobProgress:
    """One owner-scoped aggregate read of a job's state for the console."""
    now = now or timezone.now()
    counts = dict(
        LreBatch.objects.filter(job=job, owner_id=job.owner_id)
        .values_list("status")
        .annotate(n=Count("id"))
        .values_list("status", "n")
    )
    phases = list(LrePhase.objects.filter(job=job, owner_id=job.owner_id).order_by("position"))
    current = next((phase for phase in phases if phase.status != LrePhase.Status.DONE), None)
    done_states = [LreBatch.Status.COMMITTED, LreBatch.Status.FAILED, LreBatch.Status.SKIPPED]
    phase_done = 0
    if current is not None:
        phase_done = LreBatch.objects.filter(phase=current, status__in=done_states).count()
    started_at = LreBatch.objects.filter(job=job, revision=job.revision, started_at__isnull=False).aggregate(
        first=Min("started_at")
    )["first"]
    last_activity = job.updated_at
    latest_batch = (
        LreBatch.objects.filter(job=job, finished_at__isnull=False)
        .order_by("-finished_at")
        .values_list("finished_at", flat=True)
        .first()
    )
    if latest_batch and latest_batch > last_activity:
        last_activity = latest_batch
    stale = job.status == LreJob.Status.RUNNING and now - last_activity > STALE_AFTER
    stalled = 0
    if counts.get(LreBatch.Status.RUNNING):
        leases = LreBatch.objects.filter(job=job, owner_id=job.owner_id, status=LreBatch.Status.RUNNING)
        stalled = sum(
            lease_stalled(beat, expiry, now) for beat, expiry in leases.values_list("heartbeat_at", "lease_expires_at")
        )
    total = current.total_batches if current is not None else None
    percent = round(100 * phase_done / total) if total else None
    estimate, reason = _estimate(job, current, phase_done, stale, stalled, now)
    return JobProgress(
        status=job.status,
        attention=job.attention_reason if job.status == LreJob.Status.NEEDS_ATTENTION else "",
        phase_position=current.position if current is not None else None,
        phase_count=len(phases),
        phase_tool=current.tool if current is not None else "",
        phase_done=phase_done,
        phase_total=total,
        known_total=sum(phase.total_batches or 0 for phase in phases),
        committed=counts.get(LreBatch.Status.COMMITTED, 0),
        errors=counts.get(LreBatch.Status.FAILED, 0) + counts.get(LreBatch.Status.NEEDS_REVIEW, 0),
        skipped=counts.get(LreBatch.Status.SKIPPED, 0),
        pending=counts.get(LreBatch.Status.PENDING, 0) + counts.get(LreBatch.Status.RUNNING, 0),
        stalled=stalled,
        started_at=started_at,
        stale=stale,
        percent=percent,
        estimate=estimate,
        estimate_reason=reason,
    )


def _estimate(
    job: LreJob, phase: LrePhase | None, done: int, stale: bool, stalled: int, now: dt.datetime
) -> tuple[dt.datetime | None, str]:
    if job.status == LreJob.Status.NEEDS_ATTENTION:
        return None, "the job needs your attention"
    if job.status == LreJob.Status.PAUSED:
        return None, "the job is paused"
    if job.is_finished or phase is None:
        return None, "the job has ended"
    if not lre_enabled():
        return None, "the engine is disabled"
    if stale:
        return None, "no recent progress was observed"
    if stalled:
        return None, "a batch's worker stopped answering"
    if phase.total_batches is None:
        return None, "this phase's total is not known yet"
    recent = list(
        LreBatch.objects.filter(
            phase=phase,
            status=LreBatch.Status.COMMITTED,
            revision=job.revision,
            finished_at__gte=now - RECENT_RESULTS,
            started_at__isnull=False,
        ).values_list("started_at", "finished_at")
    )
    if len(recent) < ESTIMATE_MIN_RESULTS:
        return None, f"fewer than {ESTIMATE_MIN_RESULTS} recent results in this phase"
    seconds = statistics.median(
        (finished - started).total_seconds() for started, finished in recent if started and finished
    )
    remaining = phase.total_batches - done
    return now + dt.timedelta(seconds=seconds * remaining), ""
