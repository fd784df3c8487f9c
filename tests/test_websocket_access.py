"""The live-updates WebSocket ends with the session that opened it, and only the portal's origin opens it.

A socket is closed when its session ends (sign-out, expiry, deletion), when
the account's password changes or the account is disabled. What Django
announces (sign-out, a saved user) closes it before the next event; anything
else within ``SESSION_RECHECK_SECONDS``. Each test publishes a canary with a
request text after the session ended, and the socket must never carry it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from apps.accounts.models import User
from apps.core import consumers
from apps.core.events import publish_to_user
from metnos_site.asgi import application

ORIGIN = settings.PUBLIC_ORIGIN
HOST = ORIGIN.split("://", 1)[1]
CANARY = "Canary request: transfer the savings"
# How long a test waits for an announced close (it happens before the next event).
CLOSE_TIMEOUT_SECONDS = 5.0
# The recheck interval the bound tests run with.
FAST_RECHECK_SECONDS = 0.3

pytestmark = pytest.mark.django_db(transaction=True)


def _signed_in(user: User) -> tuple[Client, bytes]:
    client = Client()
    client.force_login(user)
    return client, f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


def _communicator(cookie: bytes | None, origin: str | None = ORIGIN) -> WebsocketCommunicator:
    headers = [(b"host", HOST.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if cookie is not None:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(application, "/ws/events/", headers=headers)


async def _open(user: User) -> tuple[Client, WebsocketCommunicator]:
    client, cookie = await sync_to_async(_signed_in)(user)
    socket = _communicator(cookie)
    connected, _ = await socket.connect()
    assert connected
    return client, socket


async def _publish_canary(user: User) -> None:
    await sync_to_async(publish_to_user)(user.pk, {"type": "turn.started", "turn_id": 1, "request": CANARY})


async def _outputs_until_closed(socket: WebsocketCommunicator, timeout: float) -> list[dict[str, Any]]:
    """Everything the socket sends up to and including its close (a timeout if it never closes)."""
    outputs: list[dict[str, Any]] = []
    while not outputs or outputs[-1]["type"] != "websocket.close":
        outputs.append(await socket.receive_output(timeout=timeout))
    return outputs


def _assert_closed_without_canary(outputs: list[dict[str, Any]]) -> None:
    assert outputs[-1] == {"type": "websocket.close", "code": consumers.CLOSE_UNAUTHENTICATED}
    assert not any(CANARY in str(output) for output in outputs), outputs


async def test_signing_out_closes_the_socket_before_the_next_event(owner: User) -> None:
    client, socket = await _open(owner)
    await sync_to_async(client.post)("/accounts/logout/")
    await _publish_canary(owner)
    _assert_closed_without_canary(await _outputs_until_closed(socket, CLOSE_TIMEOUT_SECONDS))
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


async def test_signing_out_in_one_browser_leaves_the_others_open(owner: User) -> None:
    leaving, closing = await _open(owner)
    _, staying = await _open(owner)
    await sync_to_async(leaving.post)("/accounts/logout/")
    _assert_closed_without_canary(await _outputs_until_closed(closing, CLOSE_TIMEOUT_SECONDS))
    await sync_to_async(publish_to_user)(owner.pk, {"type": "device.paired", "device_id": 1, "name": "Phone"})
    assert (await staying.receive_json_from(timeout=5))["name"] == "Phone"
    await closing.disconnect()
    await staying.disconnect()


async def test_a_password_change_closes_the_socket_before_the_next_event(owner: User) -> None:
    _, socket = await _open(owner)

    def change_password() -> None:
        user = User.objects.get(pk=owner.pk)
        user.set_password("a-new-password-9")
        user.save()

    await sync_to_async(change_password)()
    await _publish_canary(owner)
    _assert_closed_without_canary(await _outputs_until_closed(socket, CLOSE_TIMEOUT_SECONDS))
    await socket.disconnect()


async def test_disabling_the_account_closes_the_socket_before_the_next_event(owner: User) -> None:
    _, socket = await _open(owner)

    def disable() -> None:
        user = User.objects.get(pk=owner.pk)
        user.is_active = False
        user.save(update_fields=["is_active"])

    await sync_to_async(disable)()
    await _publish_canary(owner)
    _assert_closed_without_canary(await _outputs_until_closed(socket, CLOSE_TIMEOUT_SECONDS))
    await socket.disconnect()


@pytest.mark.parametrize("ending", ["expired", "deleted", "disabled_quietly"])
async def test_an_unannounced_end_closes_the_socket_within_the_recheck_interval(
    owner: User, monkeypatch: pytest.MonkeyPatch, ending: str
) -> None:
    monkeypatch.setattr(consumers, "SESSION_RECHECK_SECONDS", FAST_RECHECK_SECONDS)
    _, socket = await _open(owner)

    def end() -> None:  # writes that send no signal: only the recheck can notice them
        if ending == "expired":
            Session.objects.update(expire_date=timezone.now() - dt.timedelta(seconds=1))
        elif ending == "deleted":
            Session.objects.all().delete()
        else:
            User.objects.filter(pk=owner.pk).update(is_active=False)

    await sync_to_async(end)()
    outputs = await _outputs_until_closed(socket, FAST_RECHECK_SECONDS * 2 + 1)
    await _publish_canary(owner)
    _assert_closed_without_canary(outputs)
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


async def test_an_event_is_never_delivered_on_a_stale_check(owner: User, monkeypatch: pytest.MonkeyPatch) -> None:
    # With the periodic check held off, the delivery path alone must notice the ended session.
    async def never(self: consumers.UserEventsConsumer) -> None:
        return None

    monkeypatch.setattr(consumers, "SESSION_RECHECK_SECONDS", FAST_RECHECK_SECONDS)
    monkeypatch.setattr(consumers.UserEventsConsumer, "_check_periodically", never)
    _, socket = await _open(owner)
    await sync_to_async(Session.objects.all().delete)()
    await socket.receive_nothing(timeout=FAST_RECHECK_SECONDS + 0.1)
    await _publish_canary(owner)
    _assert_closed_without_canary(await _outputs_until_closed(socket, CLOSE_TIMEOUT_SECONDS))
    await socket.disconnect()


async def test_a_valid_session_keeps_receiving_across_rechecks(owner: User, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(consumers, "SESSION_RECHECK_SECONDS", 0.05)
    _, socket = await _open(owner)
    await socket.receive_nothing(timeout=0.3)  # several periodic checks pass
    for number in range(3):
        await sync_to_async(publish_to_user)(owner.pk, {"type": "device.paired", "device_id": number, "name": "P"})
    assert [(await socket.receive_json_from(timeout=5))["device_id"] for _ in range(3)] == [0, 1, 2]
    await socket.disconnect()


# --- the Origin: scheme, host and port of the portal's address ------------------


def _other_port(origin: str) -> str:
    scheme, rest = origin.split("://", 1)
    host, _, port = rest.partition(":")
    return f"{scheme}://{host}:{int(port or (443 if scheme == 'https' else 80)) + 1}"


def _other_scheme(origin: str) -> str:
    scheme, rest = origin.split("://", 1)
    return f"{'http' if scheme == 'https' else 'https'}://{rest}"


@pytest.mark.parametrize(
    "origin", [_other_port(ORIGIN), _other_scheme(ORIGIN), "null", "http://evil.example", "", None]
)
async def test_an_origin_other_than_the_portals_is_refused(owner: User, origin: str | None) -> None:
    _, cookie = await sync_to_async(_signed_in)(owner)
    socket = _communicator(cookie, origin=origin)
    connected, _ = await socket.connect()
    assert not connected


async def test_the_portals_own_origin_is_accepted(owner: User) -> None:
    _, socket = await _open(owner)
    await socket.disconnect()


async def test_a_configured_trusted_origin_is_accepted_with_its_default_port(owner: User, settings: Any) -> None:
    settings.CSRF_TRUSTED_ORIGINS = [*settings.CSRF_TRUSTED_ORIGINS, "https://portal.example"]
    _, cookie = await sync_to_async(_signed_in)(owner)
    for origin, accepted in [
        ("https://portal.example", True),
        ("https://portal.example:443", True),
        ("https://PORTAL.example", True),
        ("http://portal.example", False),
        ("https://portal.example:8443", False),
    ]:
        socket = _communicator(cookie, origin=origin)
        connected, _ = await socket.connect()
        assert connected is accepted, origin
        await socket.disconnect()
