"""The Celery application: JSON only, time limits, one queue per kind of work.

Queues: ``default`` (short work such as turns), ``browser`` (browser
automation, few concurrent slots) and ``batch`` (LRE long batches). Workers in
production subscribe with ``celery -A metnos_site worker -Q <queues>``; the
embedded mode consumes all three in-process.

Periodic work is declared once, in ``BEAT_SCHEDULE``: production runs it with
``celery -A metnos_site beat`` (one beat process), the embedded worker with a
beat thread of its own (:mod:`apps.core.embedded_worker`).
"""

from __future__ import annotations

import os

from celery import Celery
from kombu import Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "metnos_site.settings")

QUEUE_DEFAULT = "default"
QUEUE_BROWSER = "browser"
QUEUE_BATCH = "batch"
ALL_QUEUES = (QUEUE_DEFAULT, QUEUE_BROWSER, QUEUE_BATCH)

# How often confirmations past their deadline are expired and their turns ended
# (a decision checks the deadline itself, so this only bounds how long a page shows one as expired).
CONSENTS_EXPIRE_EVERY_SECONDS = 60.0
# How often running batches whose lease expired are taken back (apps/lre/reaper.py). Read here, before
# Django's settings load (importing them would run them too early); the settings validate the same variable.
_reclaim_every = os.environ.get("METNOS_LRE_RECLAIM_SECONDS", "").strip()
# An invalid value is reported by the settings, with the variable's name, as they load.
LRE_RECLAIM_EVERY_SECONDS = float(_reclaim_every) if _reclaim_every.isdigit() and int(_reclaim_every) > 0 else 15.0
# Tasks are named by string: this module loads before Django's apps. A run no worker took
# within one interval is dropped; the next one does the same work.
BEAT_SCHEDULE = {
    "consents-expire": {
        "task": "apps.runtime.consents_expire",
        "schedule": CONSENTS_EXPIRE_EVERY_SECONDS,
        "options": {"expires": CONSENTS_EXPIRE_EVERY_SECONDS},
    },
    "lre-reclaim": {
        "task": "apps.lre.reclaim",
        "schedule": LRE_RECLAIM_EVERY_SECONDS,
        "options": {"expires": LRE_RECLAIM_EVERY_SECONDS, "queue": QUEUE_DEFAULT},
    },
}

app = Celery("metnos")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.update(
    task_serializer="json",
    result_serializer="json",
    accept_content=["json"],
    result_backend=None,
    task_ignore_result=True,
    task_default_queue=QUEUE_DEFAULT,
    task_queues=[Queue(name) for name in ALL_QUEUES],
    task_routes={
        # Before the patterns: batch workers may all be busy with the batches it reclaims.
        "apps.lre.reclaim": {"queue": QUEUE_DEFAULT},
        "apps.sites.*": {"queue": QUEUE_BROWSER},
        "apps.lre.*": {"queue": QUEUE_BATCH},
    },
    worker_prefetch_multiplier=1,
    worker_hijack_root_logger=False,
    worker_redirect_stdouts=False,
    broker_connection_retry_on_startup=True,
    task_acks_late=False,
    enable_utc=True,
    beat_schedule=BEAT_SCHEDULE,
    # No result backend, so nothing for beat's default result clean-up to do.
    result_expires=None,
)
app.autodiscover_tasks()
