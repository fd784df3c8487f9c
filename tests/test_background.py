"""Background work runs beside the web process, never inside the request."""

from __future__ import annotations

import datetime as dt
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from tests.conftest import SERVICES_PASS, WorkerHandle
from tests.probe import gates

WAIT_SECONDS = 30


def wait_until(condition: Callable[[], bool], seconds: float = WAIT_SECONDS) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


@pytest.mark.django_db(transaction=True)
def test_task_enqueued_by_a_request_runs_while_the_request_returns(
    background_worker: WorkerHandle, client: Client
) -> None:
    gate_id = uuid.uuid4().hex

    response = client.post(f"/test-probe/enqueue/{gate_id}")

    # The response is already here while the task is blocked on a gate that
    # only this test opens: the request did not run the task.
    assert response.status_code == 202
    assert wait_until(lambda: gates.is_marked(gate_id, "started")), "the worker never started the task"
    assert not gates.is_marked(gate_id, "finished")

    gates.mark(gate_id, "open")

    assert wait_until(lambda: gates.is_marked(gate_id, "finished")), "the task did not finish after the gate opened"
    assert not gates.is_marked(gate_id, "timed_out")


def test_the_worker_matches_the_pass(background_worker: WorkerHandle) -> None:
    # Embedded pass: a thread of this process; services pass: a separate
    # `celery worker` process, which must not be this one.
    if SERVICES_PASS:
        assert background_worker.kind == "process"
        assert background_worker.pid is not None
    else:
        assert background_worker.kind == "embedded"


def _production_beat_schedule() -> dict[str, Any]:
    """What `celery -A metnos_site beat` loads (its persistent scheduler merges the same setting)."""
    from celery.beat import Scheduler, Service

    from metnos_site.celery import app

    return dict(Service(app, scheduler_cls=Scheduler).scheduler.schedule)


def _entries(schedule: dict[str, Any]) -> dict[str, tuple[str, float, dict[str, Any]]]:
    return {
        name: (entry.task, entry.schedule.run_every.total_seconds(), entry.options) for name, entry in schedule.items()
    }


def test_beat_runs_the_declared_schedule() -> None:
    from metnos_site.celery import BEAT_SCHEDULE, app

    production = _production_beat_schedule()
    assert _entries(production) == {
        name: (spec["task"], spec["schedule"], spec["options"]) for name, spec in BEAT_SCHEDULE.items()
    }
    assert {spec["task"] for spec in BEAT_SCHEDULE.values()} <= set(app.tasks)


@pytest.mark.skipif(SERVICES_PASS, reason="the embedded worker runs only in the embedded pass")
def test_the_embedded_worker_runs_the_same_schedule_as_beat(background_worker: WorkerHandle) -> None:
    from apps.core.embedded_worker import embedded_worker

    worker = embedded_worker()
    assert worker is not None
    assert _entries(worker.beat.schedule) == _entries(_production_beat_schedule())


def test_the_embedded_beat_runs_until_stopped() -> None:
    from apps.core.embedded_worker import EmbeddedBeat

    beat = EmbeddedBeat()
    beat.start()
    assert wait_until(beat.is_alive)
    beat.stop()
    beat.join(timeout=10)
    assert not beat.is_alive()


@pytest.mark.skipif(SERVICES_PASS, reason="the embedded worker runs only in the embedded pass")
@pytest.mark.django_db(transaction=True)
def test_the_embedded_beat_expires_a_due_confirmation_through_the_worker(background_worker: WorkerHandle) -> None:
    from django.utils import timezone

    from apps.accounts.models import User
    from apps.core.embedded_worker import embedded_worker
    from apps.runtime.models import ConsentRequest, Conversation, Turn

    owner = User.objects.create_user("beat-owner", password="beat-password-1")
    conversation = Conversation.objects.create(owner=owner)
    turn = Turn.objects.create(
        owner=owner, conversation=conversation, request_text="delete", status=Turn.Status.AWAITING_CONFIRMATION
    )
    consent = ConsentRequest.objects.create(
        owner=owner, turn=turn, conversation=conversation, step_index=1, tool="delete_files", plan_digest="d",
        catalog_signature="s", expires_at=timezone.now() - dt.timedelta(seconds=1),
    )  # fmt: skip
    worker = embedded_worker()
    assert worker is not None
    # What the beat thread does when the entry is due, without waiting for its interval.
    worker.beat.scheduler.apply_entry(worker.beat.schedule["consents-expire"])
    assert wait_until(lambda: Turn.objects.get(pk=turn.pk).status == Turn.Status.DECLINED)
    assert ConsentRequest.objects.get(pk=consent.pk).decision == ConsentRequest.Decision.EXPIRED
