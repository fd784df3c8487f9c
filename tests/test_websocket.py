"""The live-updates WebSocket: authentication, Origin and per-user groups."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from apps.accounts.models import User
from apps.accounts.services import device_pair
from apps.core.consumers import CLOSE_UNAUTHENTICATED
from apps.core.events import publish_to_user
from metnos_site.asgi import application

ORIGIN = settings.PUBLIC_ORIGIN.encode()
HOST = settings.PUBLIC_ORIGIN.split("://", 1)[1].encode()
NOTHING_ARRIVES_SECONDS = 0.5

pytestmark = pytest.mark.django_db(transaction=True)


def _session_cookie(user: User) -> bytes:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


def _communicator(cookie: bytes | None = None, origin: bytes = ORIGIN) -> WebsocketCommunicator:
    headers = [(b"origin", origin), (b"host", HOST)]
    if cookie is not None:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(application, "/ws/events/", headers=headers)


async def _connect(user: User) -> WebsocketCommunicator:
    communicator = _communicator(await sync_to_async(_session_cookie)(user))
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def test_anonymous_socket_is_closed_as_unauthenticated() -> None:
    communicator = _communicator()
    connected, code = await communicator.connect()
    assert not connected
    assert code == CLOSE_UNAUTHENTICATED


async def test_foreign_origin_is_refused(owner: User) -> None:
    cookie = await sync_to_async(_session_cookie)(owner)
    communicator = _communicator(cookie, origin=b"https://evil.example")
    connected, _ = await communicator.connect()
    assert not connected


async def test_user_receives_own_events_and_nobody_else_does(owner: User, second_user: User) -> None:
    mine = await _connect(owner)
    theirs = await _connect(second_user)
    try:
        await sync_to_async(publish_to_user)(owner.pk, {"type": "device.paired", "device_id": 7, "name": "Phone"})
        event: dict[str, Any] = await mine.receive_json_from(timeout=5)
        assert event == {"type": "device.paired", "device_id": 7, "name": "Phone"}
        assert await theirs.receive_nothing(timeout=NOTHING_ARRIVES_SECONDS)
    finally:
        await mine.disconnect()
        await theirs.disconnect()


async def test_every_open_browser_of_the_user_receives_the_event(owner: User) -> None:
    browsers = [await _connect(owner) for _ in range(3)]
    try:
        await sync_to_async(publish_to_user)(owner.pk, {"type": "device.revoked", "device_id": 1, "name": "Old"})
        received = await asyncio.gather(*(browser.receive_json_from(timeout=5) for browser in browsers))
        assert all(event["type"] == "device.revoked" for event in received)
    finally:
        for browser in browsers:
            await browser.disconnect()


async def test_pairing_a_device_notifies_only_its_owner(owner: User, second_user: User) -> None:
    mine = await _connect(owner)
    theirs = await _connect(second_user)
    try:
        paired = await sync_to_async(device_pair)(owner=owner, name="Laptop")
        event = await mine.receive_json_from(timeout=5)
        assert event == {"type": "device.paired", "device_id": paired.device.pk, "name": "Laptop"}
        assert paired.token not in str(event)
        assert await theirs.receive_nothing(timeout=NOTHING_ARRIVES_SECONDS)
    finally:
        await mine.disconnect()
        await theirs.disconnect()


async def test_messages_from_the_browser_are_ignored(owner: User) -> None:
    communicator = await _connect(owner)
    try:
        await communicator.send_json_to({"type": "device.paired", "device_id": 1, "name": "forged"})
        assert await communicator.receive_nothing(timeout=NOTHING_ARRIVES_SECONDS)
    finally:
        await communicator.disconnect()
