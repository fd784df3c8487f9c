"""The results a job's steps resolve their references against.

Steps before the hand-off come from the records of the turn that handed the
work off; a finished phase contributes the union of its committed batches.
A per-item batch sees its producer's result cut down to its own items, so a
step never receives another batch's items, nor an older step's result.
"""

from __future__ import annotations

from typing import Any

from apps.lre.models import LreBatch, LreJob, LrePhase
from apps.runtime.boundary import result_from_json
from apps.runtime.executor import StepResult
from apps.runtime.models import StepRecord
from apps.runtime.plans.api import Plan


def producer_of(plan: Plan, step: int) -> int | None:
    """The step whose collection ``step`` consumes through ``from_step``, if any."""
    value = plan.steps[step - 1].args.get("from_step")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def handed_off_results(job: LreJob) -> dict[int, StepResult]:
    """Results the handing-off turn recorded for the steps before the job's first step."""
    records = StepRecord.objects.filter(turn_id=job.turn_id, index__lt=job.first_step).exclude(result={})
    return {record.index: result_from_json(record.result) for record in records}


def phase_items(phase: LrePhase) -> list[dict[str, Any]]:
    """Every item the committed batches of ``phase`` produced, in batch order."""
    items: list[dict[str, Any]] = []
    for result_items in (
        LreBatch.objects.filter(phase=phase, status=LreBatch.Status.COMMITTED)
        .order_by("index")
        .values_list("result_items", flat=True)
    ):
        items.extend(result_items)
    return items


def phase_result(phase: LrePhase) -> StepResult:
    """A finished phase as one step result: its items, and partial if some batch did not commit."""
    items = phase_items(phase)
    uncommitted = LreBatch.objects.filter(phase=phase).exclude(status=LreBatch.Status.COMMITTED).exists()
    if uncommitted:
        return StepResult(outcome="partial", items=tuple(items))
    return StepResult(outcome="success" if items else "empty", items=tuple(items))


def results_for_batch(job: LreJob, plan: Plan, batch: LreBatch) -> dict[int, StepResult]:
    """What step ``batch.phase.step`` may reference, with its producer reduced to this batch's items."""
    results = handed_off_results(job)
    for phase in LrePhase.objects.filter(job=job, position__lt=batch.phase.position, status=LrePhase.Status.DONE):
        results[phase.step] = phase_result(phase)
    producer = producer_of(plan, batch.phase.step)
    if producer is not None:
        results[producer] = StepResult(outcome="success", items=tuple(batch.items))
    return results


def producer_items(job: LreJob, plan: Plan, phase: LrePhase) -> list[dict[str, Any]] | None:
    """The whole collection ``phase`` runs over; ``None`` when its step consumes no collection."""
    producer = producer_of(plan, phase.step)
    if producer is None:
        return None
    if producer < job.first_step:
        return [dict(item) for item in handed_off_results(job).get(producer, StepResult(outcome="empty")).items]
    source = LrePhase.objects.get(job=job, step=producer)
    return phase_items(source)
