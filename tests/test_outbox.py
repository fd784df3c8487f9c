"""The outbox keeps background work that the broker did not take, and sends it again (apps/core/outbox.py).

The broker's refusals are the broker's (``send_task`` raising, as kombu does
when Redis is down); everything of ours runs for real. tests/faults/ does the
same against a real Redis that is stopped and restarted.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError

from apps.accounts.models import User
from apps.core.models import OutboxMessage
from apps.core.outbox import HEADER, outbox_due_now, outbox_relay, outbox_send, outbox_started
from apps.runtime.models import Turn
from apps.runtime.turns import RUN_TURN_TASK, turn_submit
from metnos_site.celery import app as celery_app

pytestmark = pytest.mark.django_db


class Broker:
    """Takes messages while up; refuses them, as kombu does, while down."""

    def __init__(self) -> None:
        self.up = True
        self.taken: list[tuple[str, list[Any], dict[str, Any]]] = []

    def send_task(self, name: str, args: list[Any], headers: dict[str, Any], **_: Any) -> None:
        if not self.up:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        self.taken.append((name, list(args), dict(headers)))


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Broker:
    fake = Broker()
    monkeypatch.setattr(celery_app, "send_task", fake.send_task)
    monkeypatch.setattr("apps.core.outbox.relay_until_sent", lambda: None)  # the tests drive the relay
    return fake


def _due(message: OutboxMessage) -> None:
    OutboxMessage.objects.filter(pk=message.pk).update(next_attempt_at=timezone.now() - dt.timedelta(seconds=1))


def test_a_turn_submitted_while_the_broker_is_down_is_accepted_and_sent_when_it_is_back(
    owner: User, broker: Broker, django_capture_on_commit_callbacks: Any
) -> None:
    broker.up = False
    with django_capture_on_commit_callbacks(execute=True):
        turn = turn_submit(owner=owner, text="list the pdf files in Purchasing")
    message = OutboxMessage.objects.get()
    assert (message.task_name, message.args, message.sent_at) == (RUN_TURN_TASK, [turn.pk, owner.pk], None)
    assert message.attempts == 1 and message.last_error == "OperationalError"
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.QUEUED

    _due(message)
    assert outbox_relay() == 0  # still down: kept, tried later
    broker.up = True
    _due(message)
    assert outbox_relay() == 1
    assert broker.taken == [(RUN_TURN_TASK, [turn.pk, owner.pk], {HEADER: message.pk})]
    message.refresh_from_db()
    assert message.sent_at is not None and message.started_at is None


def test_a_message_sent_but_never_started_is_sent_again_and_a_started_one_never(
    owner: User, broker: Broker, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        turn_submit(owner=owner, text="first")
        turn_submit(owner=owner, text="second")
    lost, started = OutboxMessage.objects.order_by("pk")
    assert len(broker.taken) == 2
    assert (lost.attempts, lost.sent_at, lost.last_error) == (1, None, "")  # the send at commit wrote nothing more
    outbox_started(started.pk)  # a worker began it (the task_prerun signal)
    assert outbox_relay() == 0  # nothing is due before the resend interval
    _due(lost)
    _due(started)
    assert outbox_relay() == 1  # the broker lost the first (Redis restarted without its data)
    assert [args for _, args, _ in broker.taken][-1] == lost.args
    lost.refresh_from_db()
    assert lost.attempts == 2
    # Each resend waits longer: a long queue is not flooded.
    assert lost.next_attempt_at - lost.sent_at >= dt.timedelta(seconds=2 * 120 - 1)  # type: ignore[operator]


def test_the_relay_stops_at_the_first_refusal_and_keeps_the_order(owner: User, broker: Broker) -> None:
    broker.up = False
    first = OutboxMessage.objects.create(task_name=RUN_TURN_TASK, args=[1, owner.pk], next_attempt_at=timezone.now())
    second = OutboxMessage.objects.create(task_name=RUN_TURN_TASK, args=[2, owner.pk], next_attempt_at=timezone.now())
    assert outbox_relay() == 0
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.attempts == 1 and second.attempts == 0  # one refusal is enough to wait


def test_a_rolled_back_submission_leaves_no_message(owner: User, broker: Broker) -> None:
    from django.db import transaction

    with pytest.raises(RuntimeError), transaction.atomic():
        turn_submit(owner=owner, text="never")
        raise RuntimeError("the request failed")
    assert not OutboxMessage.objects.exists()
    assert broker.taken == []


def test_embedded_start_sends_every_unstarted_message_again(owner: User, broker: Broker) -> None:
    later = timezone.now() + dt.timedelta(hours=1)
    waiting = OutboxMessage.objects.create(task_name=RUN_TURN_TASK, args=[1, owner.pk], next_attempt_at=later,
                                           sent_at=timezone.now())  # fmt: skip
    done = OutboxMessage.objects.create(task_name=RUN_TURN_TASK, args=[2, owner.pk], next_attempt_at=later,
                                        sent_at=timezone.now(), started_at=timezone.now())  # fmt: skip
    assert outbox_due_now() == 1
    assert outbox_relay() == 1
    assert broker.taken[0][2] == {HEADER: waiting.pk}
    assert outbox_send(done.pk) is True and len(broker.taken) == 1  # started: never sent again


@pytest.mark.django_db(transaction=True)
def test_a_worker_marks_the_message_started(owner: User, background_worker: Any) -> None:
    """With the real worker of the pass (in-process or a celery worker process), a delivered task says so."""
    import time

    turn = turn_submit(owner=owner, text="book a flight")
    deadline = time.monotonic() + 60
    while not Turn.objects.get(pk=turn.pk).is_finished and time.monotonic() < deadline:
        time.sleep(0.05)
    message = OutboxMessage.objects.get(args=[turn.pk, owner.pk])
    assert message.started_at is not None and (message.attempts, message.last_error) == (1, "")
