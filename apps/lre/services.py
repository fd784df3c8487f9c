"""Writes of long-running work: handing a plan off, and the user's decisions.

The engine that runs batches is in ``engine.py``; these functions create a
job from a turn and apply what the user decides (pause, resume, cancel,
retry one batch, skip one batch). Every decision keeps committed results,
and changes a status only through :mod:`apps.lre.transitions`: a decision
on a job or batch that moved meanwhile is refused, not applied.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from apps.core.enqueue import enqueue_after_commit
from apps.lre.batching import batch_size, runs_per_item
from apps.lre.engine import phase_materialise
from apps.lre.history import event_record
from apps.lre.models import LreBatch, LreEvent, LreJob, LrePhase
from apps.lre.transitions import JOB_FINISHED, batch_transition, job_transition
from apps.runtime.executor import Catalog
from apps.runtime.models import Turn
from apps.runtime.plans.api import Plan

# The batch worker's task that advances a job (declared in apps/lre/tasks.py).
LRE_ADVANCE_TASK = "apps.lre.advance"
# The scheduled reaper of expired batch leases (apps/lre/reaper.py), on the default queue.
LRE_RECLAIM_TASK = "apps.lre.reclaim"


class HandoffRefused(Exception):
    """The remaining plan cannot run as long work (the reason says why)."""


class DecisionRefused(Exception):
    """A decision that does not apply to the job or batch in its current state."""


def handoff_obstacle(plan: Plan, first_step: int, catalog: Catalog) -> str | None:
    """Why the steps from ``first_step`` on cannot be handed off, or ``None`` when they can."""
    for step in plan.steps[first_step - 1 :]:
        executor = catalog.executors.get(step.tool)
        if executor is None:
            return f"{step.tool} is not in the catalog"
        manifest = executor.manifest
        if manifest.consent.mode != "none":
            # Long work runs unattended: a confirmation per batch would stall it.
            return f"{step.tool} needs a confirmation, which long work cannot ask for"
        if "credentials.use" in manifest.capabilities:
            return f"{step.tool} uses credentials, which are bound to a turn"
        if manifest.placement == "device":
            return f"{step.tool} runs on a device"
    return None


@transaction.atomic
def job_create_from_turn(*, turn: Turn, plan: Plan, first_step: int, catalog: Catalog, title: str) -> LreJob:
    """Hand the steps of ``plan`` from ``first_step`` on to LRE; the first phase is materialised at once."""
    obstacle = handoff_obstacle(plan, first_step, catalog)
    if obstacle is not None:
        raise HandoffRefused(obstacle)
    tools = {step.tool for step in plan.steps[first_step - 1 :]}
    job = LreJob.objects.create(
        owner_id=turn.owner_id,
        turn=turn,
        title=title[:200],
        plan=plan.as_json(),
        first_step=first_step,
        executor_signatures={name: catalog.executors[name].manifest.signature for name in sorted(tools)},
        batch_size=batch_size(),
    )
    for position, index in enumerate(range(first_step, len(plan.steps) + 1), start=1):
        tool = plan.steps[index - 1].tool
        LrePhase.objects.create(
            owner_id=turn.owner_id, job=job, position=position, step=index, tool=tool, per_item=runs_per_item(tool)
        )
    phase_materialise(job=job, plan=plan, phase=LrePhase.objects.get(job=job, position=1))
    job_enqueue(job)
    return job


def job_enqueue(job: LreJob) -> None:
    """Ask a batch worker to advance ``job`` once the current transaction commits."""
    enqueue_after_commit(LRE_ADVANCE_TASK, job.pk, job.owner_id)


def _decided(job: LreJob, to: str, allowed: tuple[str, ...], decision: str, **fields: object) -> None:
    """Apply a decision on ``job`` if it is still in one of the ``allowed`` states, else refuse it."""
    if not job_transition(job=job, to=to, expected=allowed, **fields):
        job.refresh_from_db(fields=["status"])
        raise DecisionRefused(f"A job that is {LreJob.Status(job.status).label.lower()} cannot be {decision}.")
    job.refresh_from_db()


@transaction.atomic
def job_pause(*, job: LreJob) -> LreJob:
    """Stop starting new batches; a running batch may still save its result."""
    _decided(job, LreJob.Status.PAUSED, (LreJob.Status.QUEUED, LreJob.Status.RUNNING), "paused")
    event_record(job=job, kind=LreEvent.Kind.PAUSED, cause="paused by you")
    return job


@transaction.atomic
def job_resume(*, job: LreJob) -> LreJob:
    """Continue a paused job, or one that needed attention once its batches were decided."""
    allowed = (LreJob.Status.PAUSED, LreJob.Status.NEEDS_ATTENTION)
    if job.status in allowed and LreBatch.objects.filter(job=job, status=LreBatch.Status.NEEDS_REVIEW).exists():
        raise DecisionRefused("Some batches need your review first: retry or skip each of them.")
    _decided(job, LreJob.Status.QUEUED, allowed, "resumed", attention_reason="", revision=F("revision") + 1)
    event_record(job=job, kind=LreEvent.Kind.RESUMED, cause="resumed by you")
    job_enqueue(job)
    return job


@transaction.atomic
def job_cancel(*, job: LreJob) -> LreJob:
    """End the job; committed results stay, pending batches are not run."""
    unfinished = tuple(status for status in LreJob.Status if status not in JOB_FINISHED)
    if not job_transition(job=job, to=LreJob.Status.CANCELLED, expected=unfinished):
        raise DecisionRefused("This job has already ended.")
    job.refresh_from_db()
    event_record(job=job, kind=LreEvent.Kind.CANCELLED, cause="cancelled by you")
    return job


@transaction.atomic
def batch_retry(*, batch: LreBatch) -> LreBatch:
    """Grant one more attempt to a batch under review: one attempt, not a loop."""
    under_review = (LreBatch.Status.NEEDS_REVIEW, LreBatch.Status.FAILED)
    if not batch_transition(
        batch=batch, to=LreBatch.Status.PENDING, expected=under_review, attempts_allowed=F("attempts") + 1
    ):
        raise DecisionRefused("Only a batch under review or failed can be retried.")
    batch.refresh_from_db()
    cause = f"one more attempt granted by you (last attempt: {batch.error_class or 'error'} {batch.error_code})"
    event_record(job=batch.job, batch=batch, kind=LreEvent.Kind.RETRY_GRANTED, cause=cause)
    return batch


@transaction.atomic
def batch_skip(*, batch: LreBatch) -> LreBatch:
    """Leave a batch under review out; the job reports it as skipped."""
    uncommitted = (LreBatch.Status.NEEDS_REVIEW, LreBatch.Status.FAILED, LreBatch.Status.PENDING)
    if not batch_transition(batch=batch, to=LreBatch.Status.SKIPPED, expected=uncommitted):
        raise DecisionRefused("Only a batch that has not committed can be skipped.")
    batch.refresh_from_db()
    event_record(job=batch.job, batch=batch, kind=LreEvent.Kind.SKIPPED, cause="left out by you")
    return batch
