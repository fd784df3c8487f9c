"""When a turn hands its plan to LRE: a per-item step over more items than a turn should handle."""

from __future__ import annotations

from collections.abc import Mapping

from django.urls import reverse

from apps.lre.batching import handoff_threshold, lre_enabled, runs_per_item
from apps.lre.inputs import producer_of
from apps.lre.services import handoff_obstacle, job_create_from_turn
from apps.runtime.executor import Catalog, StepResult
from apps.runtime.models import Turn
from apps.runtime.plans.api import Plan


def lre_handoff(
    *, turn: Turn, plan: Plan, index: int, catalog: Catalog, results: Mapping[int, StepResult]
) -> str | None:
    step = plan.steps[index - 1]
    producer = producer_of(plan, index)
    if producer is None or producer not in results or not runs_per_item(step.tool) or not lre_enabled():
        return None
    items = len(results[producer].items)
    if items <= handoff_threshold() or handoff_obstacle(plan, index, catalog) is not None:
        return None
    title = turn.request_text.strip().splitlines()[0][:120] if turn.request_text.strip() else "Long-running work"
    job = job_create_from_turn(turn=turn, plan=plan, first_step=index, catalog=catalog, title=title)
    where = reverse("lre:job", args=[job.pk])
    return (
        f"Step {index} ({step.tool}) has {items} items to work through, more than a single turn handles. "
        f"It continues as long-running job {job.pk} in batches of {job.batch_size}, with the rest of the plan; "
        f"follow it under Work ({where}). Nothing is reported as done until its batches commit."
    )
