"""The LRE engine: admit, claim, run and commit batches, one at a time per call.

:func:`job_advance` is what a batch worker runs. Before each batch it checks,
atomically, that the job may still start work: the engine is enabled, the
job is neither paused nor waiting for attention, the owner is active and
every executor of the job is still admitted with the signature it had when
the job was created. A batch is claimed with a conditional update, so two
workers never run the same batch, and under a lease its worker renews
(:mod:`apps.lre.leases`): a dead worker's batch is taken back by the reaper
(:mod:`apps.lre.reaper`), and a result is kept only while its lease holds.
Each batch runs its step through the runtime's invocation boundary,
recorded on a turn of its own linked to the turn that handed the work off.

How an outcome is kept:

- success, empty, partial: the batch commits its result;
- a recoverable error: another attempt while attempts remain, then the
  batch needs review and the job needs attention;
- an unknown cause: review at once, without an automatic retry;
- a permanent error, a refusal or a contract violation: the batch fails for
  good, the job goes on and ends partial.

An attention state stops new batches, never a running batch's commit.
Every status changes through :mod:`apps.lre.transitions`; a batch's turn
starts and ends through the runtime's lifecycle, like any turn.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from apps.lre.batching import lre_enabled
from apps.lre.history import event_record
from apps.lre.inputs import producer_items, results_for_batch
from apps.lre.leases import LeaseWatch, held_by, lease_taken, lease_token
from apps.lre.models import LreBatch, LreEvent, LreJob, LrePhase
from apps.lre.transitions import RUNNABLE, batch_transition, job_transition, phase_transition
from apps.runtime.boundary import executor_admitted, invoke_step, result_as_json
from apps.runtime.catalog import current_catalog
from apps.runtime.executor import Catalog, StepError, StepResult, combination_rules
from apps.runtime.lifecycle import turn_batch_create, turn_batch_finish
from apps.runtime.models import Turn
from apps.runtime.plans.api import Plan, PlanInvalid, validate_plan
from apps.runtime.trace import TurnRecorder

logger = logging.getLogger(__name__)

# A recoverable error gets this many attempts in all before the batch needs review.
ATTEMPTS_PER_BATCH = 2


def phase_materialise(*, job: LreJob, plan: Plan, phase: LrePhase) -> None:
    """Create the batches of ``phase`` from its producer's collection, once."""
    if not phase_transition(phase=phase, to=LrePhase.Status.RUNNING, expected=LrePhase.Status.WAITING):
        return  # another worker did it
    batches = new_batches(job, phase, producer_items(job, plan, phase))
    LreBatch.objects.bulk_create(batches)
    LrePhase.objects.filter(pk=phase.pk).update(total_batches=len(batches))


def new_batches(job: LreJob, phase: LrePhase, items: list[dict[str, Any]] | None) -> list[LreBatch]:
    """The batches of ``phase`` over ``items`` (unsaved): slices for a per-item step, else one batch."""
    size = job.batch_size
    if items is None or not phase.per_item:
        slices = [items or []]
    else:
        slices = [items[start : start + size] for start in range(0, len(items), size)] or [[]]
    return [
        LreBatch(
            owner_id=job.owner_id,
            job=job,
            phase=phase,
            index=number,
            items=chunk,
            attempts_allowed=ATTEMPTS_PER_BATCH,
            revision=job.revision,
        )
        for number, chunk in enumerate(slices, start=1)
    ]


def job_needs_attention(job: LreJob, reason: str) -> None:
    """Stop starting new batches of ``job`` until the user decides (a running batch still saves its result)."""
    if job_transition(job=job, to=LreJob.Status.NEEDS_ATTENTION, expected=RUNNABLE, attention_reason=reason[:300]):
        event_record(job=job, kind=LreEvent.Kind.NEEDS_ATTENTION, cause=reason)


def _admission_obstacle(job: LreJob, catalog: Catalog) -> str | None:
    if not job.owner.is_active:
        return "the owner's account is not active"
    for name, signature in job.executor_signatures.items():
        executor = catalog.executors.get(name)
        if executor is None or not executor_admitted(job.owner, name):
            return f"{name} is no longer available"
        if executor.manifest.signature != signature:
            return f"{name} changed since the job was created; review it before it runs again"
    return None


def job_advance(*, job_id: int, max_batches: int | None = None, catalog: Catalog | None = None) -> LreJob:
    """Run pending batches of a job until it ends, stops, or ``max_batches`` have run.

    The catalog is the current one unless given (tests run jobs of their own executors).
    """
    ran = 0
    while max_batches is None or ran < max_batches:
        job = LreJob.objects.select_related("owner", "turn").get(pk=job_id)
        if job.status not in RUNNABLE or not lre_enabled():
            return job
        catalog = catalog or current_catalog()
        obstacle = _admission_obstacle(job, catalog)
        if obstacle is not None:
            job_needs_attention(job, obstacle)
            return LreJob.objects.get(pk=job_id)
        try:
            plan = validate_plan(job.plan, catalog, combination_rules=combination_rules())
        except PlanInvalid:
            job_needs_attention(job, "the job's plan is no longer valid")
            return LreJob.objects.get(pk=job_id)
        token = lease_token()
        batch = _claim_next(job, plan, token)
        if batch is None:
            return LreJob.objects.get(pk=job_id)
        _run_batch(job, plan, catalog, batch, token)
        ran += 1
    return LreJob.objects.get(pk=job_id)


def _claim_next(job: LreJob, plan: Plan, token: str) -> LreBatch | None:
    """Claim the next pending batch under a lease for ``token``, materialising the next phase when one finishes.

    ``None`` when no batch can start now.
    """
    while True:
        phase = LrePhase.objects.filter(job=job).exclude(status=LrePhase.Status.DONE).order_by("position").first()
        if phase is None:
            _finish(job)
            return None
        if phase.status == LrePhase.Status.WAITING:
            phase_materialise(job=job, plan=plan, phase=phase)
            continue
        for candidate in LreBatch.objects.filter(phase=phase, status=LreBatch.Status.PENDING).order_by("index"):
            claimed = batch_transition(
                batch=candidate, to=LreBatch.Status.RUNNING, expected=LreBatch.Status.PENDING,
                attempts=F("attempts") + 1, started_at=timezone.now(), revision=job.revision, **lease_taken(token),
            )  # fmt: skip
            if claimed:
                job_transition(job=job, to=LreJob.Status.RUNNING, expected=LreJob.Status.QUEUED)
                return LreBatch.objects.select_related("phase").get(pk=candidate.pk)
        if LreBatch.objects.filter(phase=phase, status=LreBatch.Status.RUNNING).exists():
            return None  # another worker is finishing this phase
        if LreBatch.objects.filter(phase=phase, status=LreBatch.Status.NEEDS_REVIEW).exists():
            job_needs_attention(job, "some batches need review")
            return None
        phase_transition(phase=phase, to=LrePhase.Status.DONE, expected=LrePhase.Status.RUNNING)


def _finish(job: LreJob) -> None:
    states = set(LreBatch.objects.filter(job=job).values_list("status", flat=True))
    status = LreJob.Status.COMPLETED if states <= {LreBatch.Status.COMMITTED} else LreJob.Status.PARTIAL
    if not states & {LreBatch.Status.COMMITTED}:
        status = LreJob.Status.FAILED
    job_transition(job=job, to=status, expected=RUNNABLE)


def _batch_turn(job: LreJob, batch: LreBatch) -> Turn:
    phase = batch.phase
    label = f"{job.title} — step {phase.step} ({phase.tool}), batch {batch.index}"
    if phase.total_batches:
        label += f" of {phase.total_batches}"
    return turn_batch_create(handed_off_by=job.turn, request_text=label, plan=job.plan)


def _run_batch(job: LreJob, plan: Plan, catalog: Catalog, batch: LreBatch, token: str) -> None:
    recorder = TurnRecorder(_batch_turn(job, batch))
    LreBatch.objects.filter(pk=batch.pk).update(turn=recorder.turn)
    watch = LeaseWatch(batch.pk, token).start()
    try:
        outcome = invoke_step(
            recorder=recorder, plan=plan, index=batch.phase.step, catalog=catalog,
            results=results_for_batch(job, plan, batch),
        )  # fmt: skip
    finally:
        watch.stop()
    result = outcome.result
    if result is None:  # refused, or its input was missing: not something another attempt fixes
        error = StepError("permanent", outcome.kind, outcome.reason or outcome.kind)
        result = StepResult(outcome="failed", error=error)
    with transaction.atomic():
        # The commit and the end of the batch's turn are one: a worker that dies between them leaves neither.
        if not _keep(job, batch, result, token):
            return  # the lease was taken back meanwhile: the reaper ended this attempt and its turn
        # The batch's turn ends like any turn: recorded, and published as turn.finished.
        turn_batch_finish(turn=recorder.turn, result=result, recorder=recorder)


def _keep(job: LreJob, batch: LreBatch, result: StepResult, token: str) -> bool:
    """Keep a batch's outcome while its lease is still ``token``'s; whether it was kept (committed at most once)."""
    now = timezone.now()
    values: dict[str, Any] = {
        "finished_at": now, "outcome": result.outcome, "result": result_as_json(result), "lease_expires_at": None,
    }  # fmt: skip
    if result.outcome != "failed":
        to = LreBatch.Status.COMMITTED
        values["result_items"] = [dict(item) for item in result.items]
    else:
        error = result.error
        error_class = error.error_class if error else "unknown"
        values.update(error_class=error_class, error_code=error.code if error else "")
        if error_class == "recoverable" and batch.attempts < batch.attempts_allowed:
            to = LreBatch.Status.PENDING  # the one retry an error of this kind is granted
        elif error_class == "permanent":
            to = LreBatch.Status.FAILED
        else:  # recoverable but exhausted, or unknown: a person decides
            to = LreBatch.Status.NEEDS_REVIEW
    if not batch_transition(batch=batch, to=to, expected=LreBatch.Status.RUNNING, where=held_by(token), **values):
        logger.warning("a batch finished after its lease was taken back; its result is not committed")
        cause = "this attempt finished after its worker was taken for stopped; its result was not kept"
        event_record(job=job, batch=batch, kind=LreEvent.Kind.LATE_RESULT, cause=cause)
        return False
    code = values.get("error_code") or values.get("error_class", "")
    if to == LreBatch.Status.PENDING:
        event_record(job=job, batch=batch, kind=LreEvent.Kind.RETRY_SCHEDULED, cause=f"recoverable error: {code}")
    elif to == LreBatch.Status.NEEDS_REVIEW:
        event_record(job=job, batch=batch, kind=LreEvent.Kind.NEEDS_REVIEW, cause=f"{values['error_class']}: {code}")
        job_needs_attention(
            job, f"batch {batch.index} of step {batch.phase.step} needs review ({values['error_class']})"
        )
    return True
