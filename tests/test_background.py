"""Background work runs beside the web process, never inside the request."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable

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
