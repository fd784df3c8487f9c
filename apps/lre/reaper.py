"""Taking back the batches whose worker stopped, and resuming jobs when a worker starts.

A running batch whose lease expired (its worker died, or lost the database
for longer than the lease) is *reclaimed*: its attempt ends, its turn ends
as interrupted, and what happens next follows the attempt rules —

- a step that only reads (:func:`apps.runtime.manifests.may_take_effect` is
  false) runs again while attempts remain: a lost worker is a recoverable
  cause, and the attempt it used counts;
- with no attempt left, or for a step that may have taken effect (written a
  file, used a website), the batch needs review and the job needs
  attention: it is never repeated blindly.

The reaper runs on a schedule (``lre-reclaim`` in ``metnos_site/celery.py``)
and when a worker starts; a starting worker also takes back at once the
leases of processes of its own host that no longer exist, and — in the
embedded mode, whose queue died with the process — asks again for every job
that was running. Each reclaim is a compare-and-set on the lease it read, so
a worker that renewed its lease meanwhile keeps its batch, and a batch is
reclaimed once.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from apps.core.processes import holder_died_here
from apps.lre.engine import job_needs_attention
from apps.lre.history import event_record
from apps.lre.leases import held_by, lease_duration
from apps.lre.models import LreBatch, LreEvent, LreJob
from apps.lre.services import job_enqueue
from apps.lre.transitions import RUNNABLE, batch_transition
from apps.runtime.catalog import current_catalog
from apps.runtime.executor import Catalog
from apps.runtime.manifests import may_take_effect
from apps.runtime.turns import turn_end_interrupted

logger = logging.getLogger(__name__)

WORKER_LOST = "worker_lost"


def batches_reclaim(
    *, dead_here: bool = False, now: dt.datetime | None = None, catalog: Catalog | None = None
) -> list[int]:
    """Reclaim the running batches whose lease expired (and, with ``dead_here``, those of dead local processes).

    Returns the ids of the batches reclaimed.
    """
    now = now or timezone.now()
    running = LreBatch.objects.filter(status=LreBatch.Status.RUNNING)
    expired = Q(lease_expires_at__lt=now) | Q(lease_expires_at__isnull=True, started_at__lt=now - lease_duration())
    # Each is taken back only if still held as read: by the same lease, and still expired (not renewed since).
    candidates = [
        (pk, held_by(holder) & expired) for pk, holder in running.filter(expired).values_list("pk", "lease_holder")
    ]
    if dead_here:
        unexpired = running.exclude(expired).exclude(lease_holder="").values_list("pk", "lease_holder")
        candidates += [(pk, held_by(holder)) for pk, holder in unexpired if holder_died_here(holder)]
    if not candidates:
        return []
    catalog = catalog or current_catalog()
    return [pk for pk, still_held in candidates if _reclaim(pk, still_held, catalog)]


def _reclaim(batch_id: int, still_held: Q, catalog: Catalog) -> bool:
    with transaction.atomic():
        batch = LreBatch.objects.select_related("phase", "job").get(pk=batch_id)
        job = batch.job
        manifest = catalog.manifest(batch.phase.tool)
        effect_possible = manifest is None or may_take_effect(manifest)
        again = not effect_possible and batch.attempts < batch.attempts_allowed
        to = LreBatch.Status.PENDING if again else LreBatch.Status.NEEDS_REVIEW
        error_class = "recoverable" if not effect_possible else "unknown"
        if not batch_transition(
            batch=batch, to=to, expected=LreBatch.Status.RUNNING, where=still_held,
            error_class=error_class, error_code=WORKER_LOST, finished_at=timezone.now(), lease_expires_at=None,
        ):  # fmt: skip
            return False  # its worker renewed the lease or finished meanwhile
        if effect_possible:
            cause = "its worker stopped while it ran; whether its step took effect is unknown, so it is not repeated"
        elif again:
            cause = "its worker stopped while it ran; the step only reads, so it runs again"
        else:
            cause = f"its worker stopped while it ran, on the last of its {batch.attempts} attempts"
        event_record(job=job, batch=batch, kind=LreEvent.Kind.RECLAIMED, cause=cause)
        if batch.turn_id is not None:
            turn_end_interrupted(turn_id=batch.turn_id)
        if again:
            if job.status in RUNNABLE:
                job_enqueue(job)  # its worker is gone: someone must go on with the job
        else:
            event_record(job=job, batch=batch, kind=LreEvent.Kind.NEEDS_REVIEW, cause=f"{error_class}: {WORKER_LOST}")
            job_needs_attention(job, f"batch {batch.index} of step {batch.phase.step} needs review: {cause}")
    logger.warning("a batch whose worker stopped was reclaimed", extra={"batch": batch_id, "to": to})
    return True


def lre_recover_on_worker_start(*, catalog: Catalog | None = None) -> None:
    """What a starting worker owes long-running work: reclaim what died, and in the embedded mode go on with it."""
    batches_reclaim(dead_here=True, catalog=catalog)
    if settings.EMBEDDED_SERVICES:
        for job in LreJob.objects.filter(status__in=RUNNABLE):
            job_enqueue(job)


__all__ = ["WORKER_LOST", "batches_reclaim", "lre_recover_on_worker_start"]
