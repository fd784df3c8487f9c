"""The live-updates WebSocket: authentication, Origin, per-user groups and the process's relay."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import InMemoryChannelLayer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from apps.accounts.models import User
from apps.accounts.services import device_pair
from apps.core import event_relay
from apps.core.consumers import CLOSE_UNAUTHENTICATED
from apps.core.event_relay import SOCKETS_PER_TURN, EventRelay
from apps.core.events import (
    DeviceEvent,
    publish_to_user,
    user_access_message,
    user_event_message,
    user_group_name,
)
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


async def test_events_arrive_in_the_order_they_were_published(owner: User) -> None:
    browser = await _connect(owner)
    try:
        for number in range(5):
            await sync_to_async(publish_to_user)(owner.pk, {"type": "device.paired", "device_id": number, "name": "P"})
        received = [await browser.receive_json_from(timeout=5) for _ in range(5)]
        assert [event["device_id"] for event in received] == [0, 1, 2, 3, 4]
    finally:
        await browser.disconnect()


async def test_a_closed_page_leaves_the_others_receiving(owner: User) -> None:
    staying, leaving = await _connect(owner), await _connect(owner)
    await leaving.disconnect()
    try:
        await sync_to_async(publish_to_user)(owner.pk, {"type": "device.revoked", "device_id": 2, "name": "Tablet"})
        assert (await staying.receive_json_from(timeout=5))["name"] == "Tablet"
    finally:
        await staying.disconnect()


async def test_a_page_opened_after_all_closed_receives_again(owner: User) -> None:
    first = await _connect(owner)
    await first.disconnect()
    again = await _connect(owner)
    try:
        await sync_to_async(publish_to_user)(owner.pk, {"type": "device.paired", "device_id": 3, "name": "Again"})
        assert (await again.receive_json_from(timeout=5))["name"] == "Again"
    finally:
        await again.disconnect()


# --- the relay on its own, over a private in-memory layer ------------------------


class RecordingSocket:
    def __init__(self) -> None:
        self.texts: list[str] = []
        self.arrived = asyncio.Event()

    async def send_event_text(self, text: str) -> None:
        self.texts.append(text)
        self.arrived.set()

    def access_changed(self, ended_session: str) -> None:
        self.texts.append(f"access changed: {ended_session}")


class BrokenSocket:
    async def send_event_text(self, text: str) -> None:
        raise ConnectionResetError("the browser went away")

    def access_changed(self, ended_session: str) -> None:
        raise ConnectionResetError("the browser went away")


PAIRED: DeviceEvent = {"type": "device.paired", "device_id": 9, "name": "Phone"}


async def test_one_relay_channel_stands_for_all_the_sockets_of_a_group() -> None:
    layer = InMemoryChannelLayer()
    relay = EventRelay(layer)
    group = user_group_name(1)
    sockets = [RecordingSocket() for _ in range(SOCKETS_PER_TURN * 2 + 1)]  # crosses the turns the relay yields at
    for socket in sockets:
        await relay.join(group, socket)
    assert len(layer.groups[group]) == 1
    await layer.group_send(group, user_event_message(group, PAIRED))
    await asyncio.wait_for(asyncio.gather(*(socket.arrived.wait() for socket in sockets)), timeout=5)
    assert all(socket.texts == ['{"type":"device.paired","device_id":9,"name":"Phone"}'] for socket in sockets)
    for socket in sockets:
        await relay.leave(group, socket)
    assert group not in layer.groups


async def test_a_broken_socket_does_not_starve_the_others() -> None:
    layer = InMemoryChannelLayer()
    relay = EventRelay(layer)
    group = user_group_name(1)
    broken, healthy = BrokenSocket(), RecordingSocket()
    await relay.join(group, broken)
    await relay.join(group, healthy)
    try:
        await layer.group_send(group, user_event_message(group, PAIRED))
        await asyncio.wait_for(healthy.arrived.wait(), timeout=5)
        assert len(healthy.texts) == 1
    finally:
        await relay.leave(group, broken)
        await relay.leave(group, healthy)


async def test_the_relay_delivers_to_the_named_group_only() -> None:
    layer = InMemoryChannelLayer()
    relay = EventRelay(layer)
    mine, theirs = RecordingSocket(), RecordingSocket()
    await relay.join(user_group_name(1), mine)
    await relay.join(user_group_name(2), theirs)
    try:
        await layer.group_send(user_group_name(1), user_event_message(user_group_name(1), PAIRED))
        await asyncio.wait_for(mine.arrived.wait(), timeout=5)
        await asyncio.sleep(NOTHING_ARRIVES_SECONDS)
        assert theirs.texts == []
    finally:
        await relay.leave(user_group_name(1), mine)
        await relay.leave(user_group_name(2), theirs)


async def test_the_relay_tells_a_groups_sockets_of_an_access_change_between_its_events() -> None:
    layer = InMemoryChannelLayer()
    relay = EventRelay(layer)
    group = user_group_name(1)
    broken, mine, theirs = BrokenSocket(), RecordingSocket(), RecordingSocket()
    for joined_group, socket in ((group, broken), (group, mine), (user_group_name(2), theirs)):
        await relay.join(joined_group, socket)
    try:
        await layer.group_send(group, user_access_message(group, ended_session="digest"))
        await layer.group_send(group, user_event_message(group, PAIRED))
        await asyncio.wait_for(mine.arrived.wait(), timeout=5)
        assert mine.texts == ["access changed: digest", '{"type":"device.paired","device_id":9,"name":"Phone"}']
        assert theirs.texts == []
    finally:
        await relay.leave(group, broken)
        await relay.leave(group, mine)
        await relay.leave(user_group_name(2), theirs)


class RestartingLayer(InMemoryChannelLayer):
    """Forgets every group and fails one receive, as a Redis restart does."""

    restarts = 1

    async def receive(self, channel: str) -> dict[str, Any]:
        if self.restarts:
            self.restarts -= 1
            self.groups.clear()
            raise ConnectionError("the channel layer restarted")
        message: dict[str, Any] = await super().receive(channel)
        return message


async def test_the_relay_rejoins_its_groups_after_the_layer_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(event_relay, "RECEIVE_RETRY_SECONDS", 0.01)
    layer = RestartingLayer()
    relay = EventRelay(layer)
    group, socket = user_group_name(1), RecordingSocket()
    await relay.join(group, socket)
    try:
        async with asyncio.timeout(5):
            while layer.restarts or group not in layer.groups:
                await asyncio.sleep(0.01)
        await layer.group_send(group, user_event_message(group, PAIRED))
        await asyncio.wait_for(socket.arrived.wait(), timeout=5)
    finally:
        await relay.leave(group, socket)
