"""Redis stopped and restarted: between submit and pickup, mid-turn, and under the live-events socket.

The server and the worker use this test's own Redis, which is killed (so it
loses every queued message, as the shared one would without persistence)
and started again on the same port. Every committed turn is delivered once
the broker is back, a submission while it is down is accepted, no turn runs
twice, and the socket connects again without a 500.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.core.models import OutboxMessage
from apps.runtime.models import StepRecord, Turn
from tests.conftest import REPO_ROOT
from tests.faults.conftest import Stack, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]

TURN_SECONDS = 60
CSRF = "f" * 32


class Portal:
    """The portal's API as a signed-in browser calls it (session cookie and CSRF token)."""

    def __init__(self, url: str, user: User) -> None:
        client = Client()
        client.force_login(user)
        self.url = url
        self.cookies = f"sessionid={client.cookies['sessionid'].value}; csrftoken={CSRF}"

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        request = urllib.request.Request(
            self.url + path,
            method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={"Cookie": self.cookies, "X-CSRFToken": CSRF, "Content-Type": "application/json",
                     "Referer": self.url + "/"},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, error.read()[:500]


def _files(owner: User) -> None:
    from django.conf import settings

    folder = Path(settings.FILES_ROOT) / str(owner.pk) / "Inbox"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "note.txt").write_text("hello", encoding="utf-8")


def _ended(turn_id: int, timeout: float = TURN_SECONDS) -> Turn:
    wait_for(lambda: Turn.objects.get(pk=turn_id).is_finished, timeout, step=0.2)
    return Turn.objects.get(pk=turn_id)


def _submit(portal: Portal, text: str) -> int:
    status, body = portal.call("POST", "/api/v1/turns/", {"text": text})
    assert status in (201, 202), (status, body)
    return int(body["id"])


def test_a_turn_submitted_while_redis_is_down_is_accepted_and_runs_when_it_is_back(
    owner: User, stack: Stack, fault_table: Any
) -> None:
    _files(owner)
    stack.start_server()
    stack.start_worker()
    portal = Portal(stack.url, owner)
    assert _ended(_submit(portal, "find the txt files in the Inbox folder")).status == Turn.Status.COMPLETED

    stack.redis.stop()
    began = time.monotonic()
    turn_id = _submit(portal, "find the txt files in the Inbox folder")  # a 500 here before the outbox
    assert Turn.objects.get(pk=turn_id).status == Turn.Status.QUEUED
    message = OutboxMessage.objects.get(args=[turn_id, owner.pk])
    assert message.sent_at is None and message.last_error

    stack.redis.start()
    turn = _ended(turn_id)
    assert turn.status == Turn.Status.COMPLETED, (turn.status, turn.answer, stack.log("worker")[-2000:])
    assert StepRecord.objects.filter(turn=turn).count() == 1  # run once
    fault_table("Redis down at submit, back later", f"accepted; {turn.status} once Redis was back",
                time.monotonic() - began)  # fmt: skip


def test_turns_queued_before_a_redis_restart_are_not_lost(owner: User, stack: Stack, fault_table: Any) -> None:
    _files(owner)
    stack.start_server()
    portal = Portal(stack.url, owner)
    # No worker yet: the turns wait in Redis, which then loses them.
    queued = [_submit(portal, "find the txt files in the Inbox folder") for _ in range(3)]
    # Each answer came after its commit's send, which the broker took (no refusal recorded).
    assert OutboxMessage.objects.filter(last_error="", started_at__isnull=True).count() == 3
    began = time.monotonic()
    stack.redis.stop()
    stack.redis.start()
    stack.start_worker()
    ended = [_ended(turn_id) for turn_id in queued]
    assert [turn.status for turn in ended] == [Turn.Status.COMPLETED] * 3, [turn.answer for turn in ended]
    for turn in ended:
        assert StepRecord.objects.filter(turn=turn).count() == 1  # a second delivery never runs it twice
    fault_table("Redis restarted (queue lost) between submit and pickup", "3 of 3 turns completed, each once",
                time.monotonic() - began)  # fmt: skip


def test_a_redis_restart_mid_turn_still_ends_the_turn_truthfully(
    owner: User, stack: Stack, fault_table: Any, tmp_path: Path
) -> None:
    """The worker conducts while its broker goes away and comes back: the turn ends, its step run once."""
    from django.db import transaction
    from django.utils import timezone

    from apps.runtime.turns import RUN_TURN_TASK, turn_submit

    marker, gate = tmp_path / "started", tmp_path / "gate"
    plan = {"steps": [{"tool": "probe_gate", "args": {"marker": str(marker), "gate": str(gate)}}]}
    stack.start_worker(probe_executors=True)
    with transaction.atomic():
        turn = turn_submit(owner=owner, text="", plan=plan, enqueue=False)
        # Sent by the worker's own relay, through the test's Redis (this process has another broker).
        OutboxMessage.objects.create(task_name=RUN_TURN_TASK, args=[turn.pk, owner.pk], next_attempt_at=timezone.now())
    assert wait_for(marker.exists, TURN_SECONDS), stack.log("worker")[-2000:]
    began = time.monotonic()
    stack.redis.stop()  # mid-step: the step's events find no broker
    time.sleep(1)
    stack.redis.start()
    gate.write_text("open", encoding="utf-8")
    ended = _ended(turn.pk)
    assert ended.status == Turn.Status.COMPLETED, (ended.status, ended.answer)
    assert StepRecord.objects.filter(turn=ended).count() == 1
    fault_table("Redis restarted mid-step", f"turn {ended.status}, its step run once", time.monotonic() - began)


async def _listen(stack: Stack, cookie: str, wanted: Callable[[dict[str, Any]], bool], act: Callable[[], Any]) -> bool:
    """Open the live-events socket as the portal page does, run ``act``, and wait for an event ``wanted``."""
    sys.path.insert(0, str(REPO_ROOT / "bench"))
    from _websocket_client import LeanClient

    heard = asyncio.Event()

    def on_text(payload: bytes, _: float) -> None:
        if wanted(json.loads(payload)):
            heard.set()

    host = stack.url.removeprefix("http://")
    loop = asyncio.get_running_loop()
    transport, client = await loop.create_connection(
        lambda: LeanClient(host=host, path="/ws/events/", origin=stack.url, cookie=cookie, on_text=on_text),
        "127.0.0.1", int(host.rsplit(":", 1)[1]),
    )  # fmt: skip
    try:
        await asyncio.wait_for(client.opened, 20)  # a 500 at the handshake fails here
        await asyncio.to_thread(act)
        await asyncio.wait_for(heard.wait(), TURN_SECONDS)
        return True
    finally:
        transport.abort()


def test_the_live_events_socket_connects_and_delivers_after_a_redis_restart(
    owner: User, stack: Stack, fault_table: Any
) -> None:
    _files(owner)
    stack.start_server()
    stack.start_worker()
    portal = Portal(stack.url, owner)
    submitted: list[int] = []

    def submit() -> None:
        submitted.append(_submit(portal, "find the txt files in the Inbox folder"))

    def finished(event: dict[str, Any]) -> bool:
        # A fresh socket, and only this test's turns: any end it hears is the one just submitted.
        return event.get("type") == "turn.finished"

    assert asyncio.run(_listen(stack, portal.cookies, finished, submit))
    stack.redis.stop()
    stack.redis.start()
    began = time.monotonic()
    # The first socket after the restart used to be answered 500; now it opens, and hears the next turn end.
    assert asyncio.run(_listen(stack, portal.cookies, finished, submit))
    fault_table("Redis restarted under the live-events socket", "next socket opened and delivered the turn's end",
                time.monotonic() - began)  # fmt: skip
