"""Celery tasks of the runtime: thin wrappers that re-fetch through the owner and call services."""

from __future__ import annotations

from celery import shared_task

from apps.runtime.selectors import turn_get_for_owner
from apps.runtime.turns import turn_conduct


@shared_task(name="apps.runtime.run_turn", ignore_result=True, time_limit=30 * 60, soft_time_limit=29 * 60)
def run_turn(turn_id: int, owner_id: int) -> None:
    from apps.accounts.models import User

    owner = User.objects.get(pk=owner_id)
    turn = turn_get_for_owner(owner=owner, turn_id=turn_id)
    if turn.status != turn.Status.QUEUED:
        return  # delivered twice, or already conducted: never run a turn twice
    turn_conduct(turn=turn)
