"""Celery tasks of LRE: thin wrappers over the engine and the reaper."""

from __future__ import annotations

from celery import shared_task

from apps.lre.engine import job_advance
from apps.lre.models import LreJob
from apps.lre.reaper import batches_reclaim
from apps.lre.services import LRE_ADVANCE_TASK, LRE_RECLAIM_TASK


@shared_task(name=LRE_ADVANCE_TASK, ignore_result=True)
def lre_advance(job_id: int, owner_id: int) -> None:
    # The owner travels with the id so a forged message cannot run another owner's job.
    if LreJob.objects.filter(pk=job_id, owner_id=owner_id).exists():
        job_advance(job_id=job_id)


# Scheduled by beat (metnos_site.celery.BEAT_SCHEDULE), on the default queue: batch workers may all be busy.
@shared_task(name=LRE_RECLAIM_TASK, ignore_result=True)
def lre_reclaim() -> None:
    batches_reclaim()
