"""Celery tasks of the runtime: thin wrappers that re-fetch through the owner and call services."""

from __future__ import annotations

from celery import shared_task

from apps.runtime.lifecycle import turn_claim
from apps.runtime.turns import RUN_TURN_TASK, consents_expire, turn_conduct


# The hard and soft limits come from METNOS_TASK_TIME_LIMIT / _SOFT_TIME_LIMIT
# (Celery's task_time_limit settings), which the interruption check also uses.
@shared_task(name=RUN_TURN_TASK, ignore_result=True)
def run_turn(turn_id: int, owner_id: int) -> None:
    turn = turn_claim(turn_id=turn_id, owner_id=owner_id)  # scoped to the owner like a selector
    if turn is None:
        return  # delivered twice, or already conducted: never run a turn twice
    turn_conduct(turn=turn)


# Scheduled by beat (metnos_site.celery.BEAT_SCHEDULE; the embedded worker runs the same schedule):
# reads never expire confirmations, so this is what ends the turns whose confirmation went unanswered.
@shared_task(name="apps.runtime.consents_expire", ignore_result=True)
def consents_expire_due() -> None:
    consents_expire()
