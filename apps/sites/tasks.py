"""Celery tasks of the managed browser, on the ``browser`` queue (``apps.sites.*`` is routed there)."""

from __future__ import annotations

from celery import shared_task

from apps.sites.browser.jobs import RUN_BROWSER_JOB, browser_job_run
from apps.sites.limits import BROWSER_TASK_SOFT_TIME_LIMIT, BROWSER_TASK_TIME_LIMIT


# Not acks_late: a browser job may have acted on a website, so a lost worker
# must not make it run again (its job is ended as interrupted instead).
# Jobs send it by name (apps.sites.browser.jobs), so nothing imports this module back.
@shared_task(
    name=RUN_BROWSER_JOB,
    ignore_result=True,
    time_limit=int(BROWSER_TASK_TIME_LIMIT.total_seconds()),
    soft_time_limit=int(BROWSER_TASK_SOFT_TIME_LIMIT.total_seconds()),
)
def run_browser_job(job_id: int, owner_id: int) -> None:
    # The owner travels with the id, so a forged message cannot run another owner's job.
    browser_job_run(job_id=job_id, owner_id=owner_id)
