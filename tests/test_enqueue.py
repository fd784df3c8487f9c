"""Services enqueue their tasks by declared name, after commit, on the queue the name routes to."""

from __future__ import annotations

from typing import Any

import pytest

from apps.core.enqueue import enqueue_after_commit
from apps.lre.services import LRE_ADVANCE_TASK
from apps.lre.tasks import lre_advance
from apps.runtime.tasks import run_turn
from apps.runtime.turns import RUN_TURN_TASK
from metnos_site.celery import QUEUE_BATCH, QUEUE_DEFAULT
from metnos_site.celery import app as celery_app


@pytest.mark.parametrize(
    ("name", "task", "queue"),
    [(RUN_TURN_TASK, run_turn, QUEUE_DEFAULT), (LRE_ADVANCE_TASK, lre_advance, QUEUE_BATCH)],
)
def test_a_services_task_name_is_its_tasks_and_routes_to_its_queue(name: str, task: Any, queue: str) -> None:
    assert task.name == name
    assert name in celery_app.tasks
    assert celery_app.amqp.router.route({}, name)["queue"].name == queue


@pytest.mark.django_db
def test_a_task_is_sent_only_once_the_transaction_commits(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    sent: list[tuple[str, list[object]]] = []
    monkeypatch.setattr(celery_app, "send_task", lambda name, args, **_: sent.append((name, args)))
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        enqueue_after_commit(RUN_TURN_TASK, 7, 3)
        assert sent == []
    assert len(callbacks) == 1
    assert sent == [(RUN_TURN_TASK, [7, 3])]
