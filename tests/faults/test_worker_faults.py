"""A worker killed with ``kill -9`` mid-step and mid-batch: nothing repeated that may have taken effect.

Mid-step, the turn ends interrupted and its step is not repeated; mid-batch,
the batch is taken back once its lease runs out, runs again (its step only
reads) and is committed once.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from apps.accounts.models import User
from apps.core.models import OutboxMessage
from apps.lre.models import LreBatch, LreEvent, LreJob
from apps.lre.selectors import job_progress
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


BATCH_ENV = {
    "METNOS_LRE_HANDOFF_ITEMS": "4",  # ten items are handed off ...
    "METNOS_LRE_BATCH_SIZE": "2",  # ... as five batches of two
    "METNOS_LRE_LEASE_SECONDS": "4",
    "METNOS_LRE_RECLAIM_SECONDS": "1",
}


def test_a_worker_killed_mid_batch_has_its_batch_reclaimed_after_the_lease_and_nothing_committed_twice(
    owner: User, stack: Stack, fault_table: Any, tmp_path: Path
) -> None:
    log, gate, held = tmp_path / "calls.log", tmp_path / "gate", tmp_path / "held"
    plan = {"steps": [
        {"tool": "probe_count", "args": {"count": 10}},
        {"tool": "probe_each", "args": {"from_step": 1, "log": str(log), "hold": 5, "gate": str(gate)}},
    ]}  # fmt: skip
    # The batch worker, and a worker of the default queue that runs the schedule (and so the reaper).
    stack.start_worker("default,batch", probe_executors=True, name="batch", env=BATCH_ENV)
    stack.start_worker("default", probe_executors=True, name="scheduler", beat=True, env=BATCH_ENV)
    with transaction.atomic():
        turn = turn_submit(owner=owner, text="", plan=plan, enqueue=False)
        OutboxMessage.objects.create(task_name=RUN_TURN_TASK, args=[turn.pk, owner.pk], next_attempt_at=timezone.now())
    assert wait_for(held.exists, TURN_SECONDS), stack.log("batch")[-2000:]
    job = LreJob.objects.get(turn=turn)
    before = {b.index: (b.result_items, b.finished_at) for b in LreBatch.objects.filter(job=job, status="committed")}
    assert sorted(before) == [1, 2]
    holding = LreBatch.objects.get(job=job, status=LreBatch.Status.RUNNING)
    assert holding.index == 3

    stack.kill_worker("batch")
    killed = time.monotonic()
    gate.write_text("open", encoding="utf-8")
    # The console, read again and again until the reaper takes the batch back: always the truth.
    seen_stalled, committed_seen = False, 2
    while LreBatch.objects.get(pk=holding.pk).status == LreBatch.Status.RUNNING:
        assert time.monotonic() - killed < TURN_SECONDS, stack.log("scheduler")[-2000:]
        progress = job_progress(job=LreJob.objects.get(pk=job.pk))
        assert progress.status == LreJob.Status.RUNNING and progress.committed == committed_seen
        assert progress.phase_total == 5 and progress.pending == 3  # batch 3 running, 4 and 5 waiting
        seen_stalled = seen_stalled or progress.stalled == 1
        if progress.stalled:
            assert progress.estimate is None and "stopped answering" in progress.estimate_reason
        time.sleep(0.1)
    reclaimed_after = time.monotonic() - killed
    # Not before the lease could have run out (it was renewed at most a third of it before the kill).
    assert reclaimed_after > 4 * 2 / 3 - 0.5, reclaimed_after
    assert seen_stalled
    reclaimed = LreBatch.objects.get(pk=holding.pk)
    assert (reclaimed.status, reclaimed.error_code) == (LreBatch.Status.PENDING, "worker_lost")
    assert holding.turn is not None and Turn.objects.get(pk=holding.turn.pk).status == Turn.Status.INTERRUPTED

    stack.start_worker("batch", probe_executors=True, name="batch", env=BATCH_ENV)
    assert wait_for(lambda: LreJob.objects.get(pk=job.pk).is_finished, TURN_SECONDS), stack.log("batch")[-2000:]
    ended = LreJob.objects.get(pk=job.pk)
    assert ended.status == LreJob.Status.COMPLETED, ended.attention_reason
    batches = {b.index: b for b in LreBatch.objects.filter(job=job)}
    for index, (items, finished_at) in before.items():  # committed before the kill: as they were
        assert (batches[index].result_items, batches[index].finished_at, batches[index].attempts) == (
            items, finished_at, 1,
        )  # fmt: skip
    assert batches[3].attempts == 2
    committed = sorted(item["n"] for b in batches.values() for item in b.result_items)
    assert committed == list(range(1, 11))  # every item committed, none twice
    calls = [int(line.split()[0]) for line in log.read_text(encoding="utf-8").splitlines()]
    assert sorted(calls) == sorted([*range(1, 11), 5, 6])  # only the reclaimed batch ran again
    assert list(LreEvent.objects.filter(job=job).values_list("kind", flat=True)) == [LreEvent.Kind.RECLAIMED]
    fault_table(
        "worker kill -9 mid-batch",
        f"batch reclaimed {reclaimed_after:.1f} s after the kill (lease 4 s), run again, committed once",
        time.monotonic() - killed,
    )
