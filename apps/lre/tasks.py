"""Celery tasks of LRE (the ``batch`` queue): thin wrappers over the engine."""

from __future__ import annotations

from celery import shared_task

from apps.lre.engine import job_advance
from apps.lre.models import LreJob
from apps.lre.services import LRE_ADVANCE_TASK


@shared_task(name=LRE_ADVANCE_TASK, ignore_result=True)
def lre_advance(job_id: int, owner_id: int) -> None:
    # The owner travels with the id so a forged message cannot run another owner's job.
    if LreJob.objects.filter(pk=job_id, owner_id=owner_id).exists():
        job_advance(job_id=job_id)
