"""A worker killed with ``kill -9`` in the middle of a step: the turn ends interrupted, its step not repeated."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from apps.accounts.models import User
from apps.core.models import OutboxMessage
from apps.runtime.models import StepRecord, Turn
from apps.runtime.turns import RUN_TURN_TASK, turn_submit
from tests.faults.conftest import Stack, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]

TURN_SECONDS = 60


def test_a_worker_killed_mid_step_leaves_an_interrupted_turn_and_runs_nothing_twice(
    owner: User, stack: Stack, fault_table: Any, tmp_path: Path
) -> None:
    marker, gate = tmp_path / "started", tmp_path / "gate"
    plan = {"steps": [
        {"tool": "probe_gate", "args": {"marker": str(marker), "gate": str(gate)}},
        {"tool": "probe_gate", "args": {"marker": str(tmp_path / "second"), "gate": str(gate)}},
    ]}  # fmt: skip
    stack.start_worker(probe_executors=True)
    with transaction.atomic():
        turn = turn_submit(owner=owner, text="", plan=plan, enqueue=False)
        # Sent by the worker's own relay, through the test's Redis (this process has another broker).
        OutboxMessage.objects.create(task_name=RUN_TURN_TASK, args=[turn.pk, owner.pk], next_attempt_at=timezone.now())
    assert wait_for(marker.exists, TURN_SECONDS), stack.log("worker")[-2000:]
    began = time.monotonic()
    stack.kill_worker()
    gate.write_text("open", encoding="utf-8")  # nothing may pass it now: its worker is gone
    stack.start_worker(probe_executors=True)  # a starting worker ends the turns of the dead one
    assert wait_for(lambda: Turn.objects.get(pk=turn.pk).is_finished, TURN_SECONDS), stack.log("worker")[-2000:]
    ended = Turn.objects.get(pk=turn.pk)
    assert ended.status == Turn.Status.INTERRUPTED
    steps = {record.index: record for record in StepRecord.objects.filter(turn=ended)}
    assert (steps[1].outcome, steps[1].error_code) == (StepRecord.Outcome.FAILED, "interrupted")
    assert steps[2].outcome == StepRecord.Outcome.SKIPPED
    assert not (tmp_path / "second").exists()  # the next step never started
    time.sleep(4)  # longer than the outbox's resend interval: the started message is not sent again
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.INTERRUPTED
    assert StepRecord.objects.filter(turn=ended).count() == 2
    fault_table("worker kill -9 mid-step", "turn interrupted, running step failed (effect unknown), next skipped",
                time.monotonic() - began)  # fmt: skip
