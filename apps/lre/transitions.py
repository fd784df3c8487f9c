"""The states of long-running work: the one owner of a job's, a phase's and a batch's status.

The engine and the user's decisions change a status only through
:func:`job_transition`, :func:`phase_transition` and :func:`batch_transition`;
``tests/test_house_rules.py`` fails on a write anywhere else. Each is:

- **compare-and-set**: it applies only while the status is still one the
  caller expected (so two workers never claim one batch, and a decision on a
  job that moved meanwhile is refused), and only a change the tables below
  list;
- **recorded**: the row itself, with the fields the change sets (a claim's
  attempt, a commit's result), and a structural log line;
- **announced**: a job that ends or needs attention tells the owner's
  browsers (``task.finished`` for ``lre_job``) after commit.

The caller's row object is not changed; read it again to see the new state.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping
from typing import Any, Final

from django.db import models, transaction
from django.utils import timezone

from apps.core.events import publish_to_user
from apps.lre.models import LreBatch, LreJob, LrePhase

logger = logging.getLogger(__name__)

Job, Phase, Batch = LreJob.Status, LrePhase.Status, LreBatch.Status

RUNNABLE: Final = (Job.QUEUED, Job.RUNNING)
JOB_FINISHED: Final = frozenset({Job.COMPLETED, Job.PARTIAL, Job.FAILED, Job.CANCELLED})
_ANNOUNCED: Final = JOB_FINISHED | {Job.NEEDS_ATTENTION}

# Every change of status there is: from → the statuses it may go to.
JOB_TRANSITIONS: Final[Mapping[str, frozenset[str]]] = {
    Job.QUEUED: frozenset({Job.RUNNING, Job.PAUSED, Job.NEEDS_ATTENTION, *JOB_FINISHED}),
    Job.RUNNING: frozenset({Job.PAUSED, Job.NEEDS_ATTENTION, *JOB_FINISHED}),
    Job.PAUSED: frozenset({Job.QUEUED, Job.CANCELLED}),  # resumed, or cancelled
    Job.NEEDS_ATTENTION: frozenset({Job.QUEUED, Job.CANCELLED}),  # resumed once its batches are decided
}
PHASE_TRANSITIONS: Final[Mapping[str, frozenset[str]]] = {
    Phase.WAITING: frozenset({Phase.RUNNING}),  # its batches are created
    Phase.RUNNING: frozenset({Phase.DONE}),
}
BATCH_TRANSITIONS: Final[Mapping[str, frozenset[str]]] = {
    Batch.PENDING: frozenset({Batch.RUNNING, Batch.SKIPPED}),  # claimed, or left out by the user
    # Kept: committed, another attempt, failed for good, or a person decides.
    Batch.RUNNING: frozenset({Batch.COMMITTED, Batch.PENDING, Batch.FAILED, Batch.NEEDS_REVIEW}),
    Batch.NEEDS_REVIEW: frozenset({Batch.PENDING, Batch.SKIPPED}),  # the user retries or skips it
    Batch.FAILED: frozenset({Batch.PENDING, Batch.SKIPPED}),
}


class TransitionNotAllowed(ValueError):
    """A change of status the tables do not list: a mistake in the code, never a race."""


def _sources(table: Mapping[str, frozenset[str]], kind: str, to: str, expected: str | Collection[str]) -> list[str]:
    sources = [expected] if isinstance(expected, str) else list(expected)
    for source in sources:
        if to not in table.get(source, ()):
            raise TransitionNotAllowed(f"A {kind} does not go from {source} to {to}.")
    return sources


def _recorded(applied: bool, row: models.Model, to: str) -> bool:
    if applied:
        logger.info("%s %s is %s", type(row).__name__, row.pk, to)
    return applied


def job_transition(*, job: LreJob, to: str, expected: str | Collection[str], **fields: Any) -> bool:
    """Move ``job`` to ``to`` if its status is still one of ``expected`` (with ``fields``); whether it moved.

    An end sets ``finished_at``; an end or a need for attention is announced after commit.
    """
    sources = _sources(JOB_TRANSITIONS, "job", to, expected)
    if to in JOB_FINISHED:
        fields.setdefault("finished_at", timezone.now())
    applied = LreJob.objects.filter(pk=job.pk, status__in=sources).update(status=to, **fields) == 1
    if applied and to in _ANNOUNCED:
        reference, owner_id = f"{job.pk}:{to}", job.owner_id
        transaction.on_commit(
            lambda: publish_to_user(owner_id, {"type": "task.finished", "task": "lre_job", "reference": reference})
        )
    return _recorded(applied, job, to)


def phase_transition(*, phase: LrePhase, to: str, expected: str | Collection[str], **fields: Any) -> bool:
    """Move ``phase`` to ``to`` if its status is still one of ``expected``; whether it moved."""
    sources = _sources(PHASE_TRANSITIONS, "phase", to, expected)
    return _recorded(
        LrePhase.objects.filter(pk=phase.pk, status__in=sources).update(status=to, **fields) == 1, phase, to
    )


def batch_transition(
    *, batch: LreBatch, to: str, expected: str | Collection[str], where: models.Q | None = None, **fields: Any
) -> bool:
    """Move ``batch`` to ``to`` if its status is still one of ``expected`` (with ``fields``); whether it moved.

    ``where`` adds a condition the row must still meet, such as the lease a
    commit or a reclaim depends on (:mod:`apps.lre.leases`).
    """
    sources = _sources(BATCH_TRANSITIONS, "batch", to, expected)
    rows = LreBatch.objects.filter(pk=batch.pk, status__in=sources)
    if where is not None:
        rows = rows.filter(where)
    return _recorded(rows.update(status=to, **fields) == 1, batch, to)
