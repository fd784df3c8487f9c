"""Live turn events reach only the owner's browsers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from apps.accounts.models import User
from apps.runtime.turns import turn_conduct, turn_submit
from metnos_site.asgi import application
from tests.runtime.conftest import QUOTES_REQUEST

pytestmark = pytest.mark.django_db(transaction=True)
HOST = settings.PUBLIC_ORIGIN.split("://", 1)[1].encode()


def _cookie(user: User) -> bytes:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


async def _socket(user: User) -> WebsocketCommunicator:
    cookie = await sync_to_async(_cookie)(user)
    headers = [(b"origin", settings.PUBLIC_ORIGIN.encode()), (b"host", HOST), (b"cookie", cookie)]
    communicator = WebsocketCommunicator(application, "/ws/events/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


def _run_turn(owner: User) -> int:
    turn = turn_conduct(turn=turn_submit(owner=owner, text=QUOTES_REQUEST, enqueue=False))
    return turn.pk


async def test_turn_events_stream_to_the_owner_only(owner: User, second_user: User, purchasing: Path) -> None:
    mine = await _socket(owner)
    theirs = await _socket(second_user)
    try:
        turn_id = await sync_to_async(_run_turn)(owner)
        received: list[dict[str, Any]] = []
        while not received or received[-1]["type"] != "turn.finished":
            received.append(await mine.receive_json_from(timeout=10))
        # Queued by the conductor and sent by another thread, they still arrive in the order they happened.
        steps = [(event["type"], event.get("step")) for event in received]
        assert steps == [
            ("turn.started", None),
            *[(kind, step) for step in range(1, 5) for kind in ("turn.step_started", "turn.step_finished")],
            ("turn.finished", None),
        ]
        assert all(event["turn_id"] == turn_id for event in received)
        assert received[-1]["status"] == "completed"
        assert await theirs.receive_nothing(timeout=0.5)
    finally:
        await mine.disconnect()
        await theirs.disconnect()
