"""Batches hold leases: a dead worker's batch is taken back, run again only when that is safe, committed once."""

from __future__ import annotations

import datetime as dt
import socket
import subprocess
import time
from collections.abc import Mapping
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from apps.accounts.models import User
from apps.core.models import OutboxMessage
from apps.lre.batching import register_per_item
from apps.lre.engine import job_advance
from apps.lre.leases import lease_duration
from apps.lre.models import LreBatch, LreEvent, LreJob
from apps.lre.reaper import WORKER_LOST, batches_reclaim, lre_recover_on_worker_start
from apps.lre.selectors import job_progress
from apps.lre.services import LRE_ADVANCE_TASK, LRE_RECLAIM_TASK, batch_retry, job_create_from_turn, job_resume
from apps.runtime.executor import Catalog, ExecutionContext, StepResult, build_catalog
from apps.runtime.manifests import ArgSpec, Capability, Manifest, ResultShape
from apps.runtime.models import Turn
from tests.conftest import api_client_for
from tests.lre.test_engine import ListItems, handed_off_turn

pytestmark = pytest.mark.django_db


class WorkerGone(BaseException):
    """What a worker killed mid-batch looks like from inside: nothing after this line of its code runs."""


class Mapper:
    """Test executor: copies items; on the items it is told to, the first ``die_times`` attempts lose the worker."""

    def __init__(self, *, capabilities: frozenset[Capability] = frozenset(), die_on: int = 0, die_times: int = 1):
        self.manifest = Manifest(
            name="lre_lease_probe",
            purpose="Test only: copy items, or stop the way a killed worker does.",
            args={"from_step": ArgSpec(type="collection", required=True)},
            result=ResultShape(kind="collection", fields=("n",)),
            capabilities=capabilities,
        )
        self.die_on, self.die_times = die_on, die_times
        self.calls: list[int] = []
        self.during: Any = None  # called inside the step, before it returns

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        numbers = [item["n"] for item in args["from_step"]]
        self.calls.extend(numbers)
        if self.die_on in numbers and self.calls.count(self.die_on) <= self.die_times:
            raise WorkerGone
        if self.during is not None:
            self.during()
        return StepResult(outcome="success", items=tuple({"n": n, "attempt": self.calls.count(n)} for n in numbers))


def lease_job(owner: User, settings: Any, mapper: Mapper, count: int = 3) -> tuple[LreJob, Catalog]:
    settings.METNOS_LRE_BATCH_SIZE = 1
    register_per_item(mapper.manifest.name)
    catalog = build_catalog({"lre_probe_list": ListItems(), "lre_lease_probe": mapper})
    raw = {
        "steps": [
            {"tool": "lre_probe_list", "args": {"items": [{"n": n} for n in range(1, count + 1)]}},
            {"tool": "lre_lease_probe", "args": {"from_step": 1}},
        ]
    }
    turn, plan = handed_off_turn(owner, raw, catalog, run_first=1)
    return job_create_from_turn(turn=turn, plan=plan, first_step=2, catalog=catalog, title="leases"), catalog


def _batch(job: LreJob, index: int) -> LreBatch:
    return LreBatch.objects.get(job=job, index=index)


def _after_lease(extra: float = 1.0) -> dt.datetime:
    return timezone.now() + lease_duration() + dt.timedelta(seconds=extra)


def _kinds(job: LreJob) -> list[str]:
    return list(LreEvent.objects.filter(job=job).order_by("created_at", "id").values_list("kind", flat=True))


def test_a_batch_whose_worker_died_is_reclaimed_after_its_lease_and_runs_again_when_it_only_reads(
    owner: User, settings: Any
) -> None:
    mapper = Mapper(die_on=2)
    job, catalog = lease_job(owner, settings, mapper)
    with pytest.raises(WorkerGone):
        job_advance(job_id=job.pk, catalog=catalog)
    first = _batch(job, 1)
    running = _batch(job, 2)
    assert (first.status, running.status) == (LreBatch.Status.COMMITTED, LreBatch.Status.RUNNING)
    assert running.lease_holder.startswith(f"{socket.gethostname()}:") and running.lease_expires_at is not None

    # Until its lease runs out the batch is its worker's: another worker runs the other batches, not that one,
    # and the job does not end while it runs.
    assert batches_reclaim(catalog=catalog) == []
    assert job_advance(job_id=job.pk, catalog=catalog).status == LreJob.Status.RUNNING
    assert mapper.calls == [1, 2, 3]
    # The console says a batch stopped answering once its worker missed its renewals, and gives no estimate.
    late = job_progress(job=LreJob.objects.get(pk=job.pk), now=timezone.now() + lease_duration())
    assert late.stalled == 1 and late.estimate is None and "stopped answering" in late.estimate_reason

    OutboxMessage.objects.all().delete()
    assert batches_reclaim(now=_after_lease(), catalog=catalog) == [running.pk]
    assert batches_reclaim(now=_after_lease(), catalog=catalog) == []  # once
    reclaimed = _batch(job, 2)
    assert (reclaimed.status, reclaimed.error_class, reclaimed.error_code) == ("pending", "recoverable", WORKER_LOST)
    assert running.turn is not None and Turn.objects.get(pk=running.turn.pk).status == Turn.Status.INTERRUPTED
    assert _kinds(job) == [LreEvent.Kind.RECLAIMED]
    # Its worker is gone, so the job is asked for again.
    assert list(OutboxMessage.objects.values_list("task_name", "args")) == [(LRE_ADVANCE_TASK, [job.pk, owner.pk])]

    job = job_advance(job_id=job.pk, catalog=catalog)
    assert job.status == LreJob.Status.COMPLETED
    assert mapper.calls == [1, 2, 3, 2]
    again = _batch(job, 2)
    assert (again.attempts, again.result_items) == (2, [{"n": 2, "attempt": 2}])
    # The batch committed before the worker died is as it was.
    kept = _batch(job, 1)
    assert (kept.result_items, kept.finished_at, kept.attempts) == (first.result_items, first.finished_at, 1)


def test_a_batch_whose_step_may_have_taken_effect_is_not_repeated_but_goes_to_review(
    owner: User, settings: Any
) -> None:
    mapper = Mapper(capabilities=frozenset({"files.write"}), die_on=1)
    job, catalog = lease_job(owner, settings, mapper, count=2)
    with pytest.raises(WorkerGone):
        job_advance(job_id=job.pk, catalog=catalog)
    assert batches_reclaim(now=_after_lease(), catalog=catalog) == [_batch(job, 1).pk]

    batch = _batch(job, 1)
    assert (batch.status, batch.error_class, batch.error_code) == ("needs_review", "unknown", WORKER_LOST)
    job = LreJob.objects.get(pk=job.pk)
    assert job.status == LreJob.Status.NEEDS_ATTENTION
    assert "whether its step took effect is unknown" in job.attention_reason
    assert _kinds(job) == [LreEvent.Kind.RECLAIMED, LreEvent.Kind.NEEDS_REVIEW, LreEvent.Kind.NEEDS_ATTENTION]
    job_advance(job_id=job.pk, catalog=catalog)
    assert mapper.calls == [1]  # never repeated blindly

    batch_retry(batch=batch)  # the user decides it is safe: exactly one more attempt
    job = job_resume(job=LreJob.objects.get(pk=job.pk))
    job = job_advance(job_id=job.pk, catalog=catalog)
    assert job.status == LreJob.Status.COMPLETED
    assert mapper.calls == [1, 1, 2]  # item 1 ran once more, as granted
    assert LreEvent.Kind.RETRY_GRANTED in _kinds(job) and LreEvent.Kind.RESUMED in _kinds(job)


def test_a_worker_lost_on_every_attempt_leaves_the_batch_for_review(owner: User, settings: Any) -> None:
    mapper = Mapper(die_on=1, die_times=2)
    job, catalog = lease_job(owner, settings, mapper, count=1)
    for _ in range(2):
        with pytest.raises(WorkerGone):
            job_advance(job_id=job.pk, catalog=catalog)
        batches_reclaim(now=_after_lease(), catalog=catalog)
    batch = _batch(job, 1)
    assert (batch.status, batch.attempts, batch.error_class) == ("needs_review", 2, "recoverable")
    assert LreJob.objects.get(pk=job.pk).status == LreJob.Status.NEEDS_ATTENTION


def test_a_result_that_arrives_after_its_lease_was_taken_back_is_not_committed(owner: User, settings: Any) -> None:
    mapper = Mapper()
    job, catalog = lease_job(owner, settings, mapper, count=1)
    # While the step runs, its worker is taken for dead (a database outage longer than the lease, say).
    first_turn: list[int] = []

    def once() -> None:
        first_turn.append(_batch(job, 1).turn_id or 0)
        mapper.during = None
        batches_reclaim(now=_after_lease(), catalog=catalog)

    mapper.during = once
    job_advance(job_id=job.pk, max_batches=1, catalog=catalog)
    batch = _batch(job, 1)
    assert batch.status == LreBatch.Status.PENDING and batch.result_items == []  # the late result was not kept
    assert _kinds(job) == [LreEvent.Kind.RECLAIMED, LreEvent.Kind.LATE_RESULT]
    assert Turn.objects.get(pk=first_turn[0]).status == Turn.Status.INTERRUPTED  # not "completed"

    job = job_advance(job_id=job.pk, catalog=catalog)
    assert job.status == LreJob.Status.COMPLETED
    assert _batch(job, 1).result_items == [{"n": 1, "attempt": 2}]  # committed once, by the attempt holding the lease


def _dead_pid() -> int:
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


def test_a_starting_worker_takes_back_at_once_the_batches_of_dead_local_processes(owner: User, settings: Any) -> None:
    mapper = Mapper(die_on=1)
    job, catalog = lease_job(owner, settings, mapper, count=1)
    with pytest.raises(WorkerGone):
        job_advance(job_id=job.pk, catalog=catalog)
    batch = _batch(job, 1)
    lre_recover_on_worker_start(catalog=catalog)  # held by this process, which is alive: left alone
    assert _batch(job, 1).status == LreBatch.Status.RUNNING
    LreBatch.objects.filter(pk=batch.pk).update(lease_holder=f"{socket.gethostname()}:{_dead_pid()}#dead")
    assert batches_reclaim(catalog=catalog) == []  # the schedule waits for the lease
    lre_recover_on_worker_start(catalog=catalog)
    assert _batch(job, 1).status == LreBatch.Status.PENDING


def test_the_embedded_mode_goes_on_with_its_running_jobs_when_it_starts(owner: User, settings: Any) -> None:
    job, _ = lease_job(owner, settings, Mapper(), count=1)
    OutboxMessage.objects.all().delete()  # the in-memory queue died with the process
    settings.EMBEDDED_SERVICES = False
    lre_recover_on_worker_start()
    assert not OutboxMessage.objects.exists()  # with a broker, queued work is the broker's (and the outbox's)
    settings.EMBEDDED_SERVICES = True
    lre_recover_on_worker_start()
    assert list(OutboxMessage.objects.values_list("task_name", "args")) == [(LRE_ADVANCE_TASK, [job.pk, owner.pk])]


@pytest.mark.django_db(transaction=True)
def test_a_running_batch_renews_its_lease_while_its_step_runs(owner: User, settings: Any) -> None:
    settings.METNOS_LRE_LEASE_SECONDS = 3  # renewed every second
    mapper = Mapper()
    job, catalog = lease_job(owner, settings, mapper, count=1)
    seen: list[tuple[Any, Any]] = []

    def watch() -> None:
        for _ in range(2):
            seen.append(LreBatch.objects.values_list("heartbeat_at", "lease_expires_at").get(job=job))
            time.sleep(1.6)

    mapper.during = watch
    job_advance(job_id=job.pk, catalog=catalog)
    (beat_before, expiry_before), (beat_after, expiry_after) = seen
    assert beat_after > beat_before and expiry_after > expiry_before
    done = _batch(job, 1)
    assert done.status == LreBatch.Status.COMMITTED and done.lease_expires_at is None


def test_the_reaper_runs_on_the_schedule_on_the_default_queue() -> None:
    from metnos_site.celery import BEAT_SCHEDULE, QUEUE_DEFAULT, app

    [entry] = [spec for spec in BEAT_SCHEDULE.values() if spec["task"] == LRE_RECLAIM_TASK]
    assert float(str(entry["schedule"])) <= lease_duration().total_seconds()
    assert app.amqp.router.route({}, LRE_RECLAIM_TASK)["queue"].name == QUEUE_DEFAULT


def test_the_job_page_and_api_show_the_history_of_decisions(owner: User, second_user: User, settings: Any) -> None:
    mapper = Mapper(capabilities=frozenset({"files.write"}), die_on=1)
    job, catalog = lease_job(owner, settings, mapper, count=1)
    with pytest.raises(WorkerGone):
        job_advance(job_id=job.pk, catalog=catalog)
    batches_reclaim(now=_after_lease(), catalog=catalog)

    client = Client()
    client.force_login(owner)
    page = client.get(f"/work/{job.pk}/").content.decode()
    assert "History (3)" in page and "whether its step took effect is unknown" in page
    history = api_client_for(owner).get(f"/api/v1/lre-jobs/{job.pk}/history/")
    assert history.status_code == 200
    assert [row["kind"] for row in history.json()] == ["reclaimed", "needs_review", "needs_attention"]
    assert api_client_for(second_user).get(f"/api/v1/lre-jobs/{job.pk}/history/").status_code == 404
