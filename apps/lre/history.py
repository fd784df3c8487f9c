"""A job's history: every decision on it or on its batches, by the user or by the engine.

Written beside the transition it explains, in the same transaction, so the
history never shows a decision that did not apply. Read by the console's
job page and the REST detail (:func:`apps.lre.selectors.job_history`).
"""

from __future__ import annotations

from apps.lre.models import LreBatch, LreEvent, LreJob


def event_record(
    *, job: LreJob, kind: str, batch: LreBatch | None = None, cause: str = "", attempt: int | None = None
) -> LreEvent:
    """Add one entry to ``job``'s history."""
    if batch is not None and attempt is None:
        attempt = batch.attempts
    return LreEvent.objects.create(
        owner_id=job.owner_id, job=job, batch=batch, kind=kind, cause=cause[:300], attempt=attempt
    )
