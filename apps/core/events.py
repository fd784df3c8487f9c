"""Typed live events and the one publisher used by views and workers alike.

Each user has exactly one Channels group; events for a user are sent only to
that group, never to a shared group filtered afterwards.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Literal, TypedDict

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

# The type of the channel-layer message that carries one user event.
CHANNELS_MESSAGE_TYPE = "user.event"
# The type of the message that tells a user's sockets their access changed
# (a session ended, the password changed, the account was disabled).
ACCESS_MESSAGE_TYPE = "user.access"


class DeviceEvent(TypedDict):
    type: Literal["device.paired", "device.revoked"]
    device_id: int
    name: str


class TaskEvent(TypedDict):
    type: Literal["task.started", "task.finished"]
    task: str
    reference: str


class TurnEvent(TypedDict, total=False):
    """Progress of a turn; ``type`` and ``turn_id`` are always present."""

    type: Literal[
        "turn.started",
        "turn.step_started",
        "turn.step_finished",
        "turn.step_retried",
        "turn.confirmation_requested",
        "turn.input_requested",
        "turn.handoff_opened",
        "turn.handoff_closed",
        "turn.finished",
    ]
    turn_id: int
    conversation_id: int
    request: str
    path: str
    step: int
    tool: str
    outcome: str
    summary: str
    status: str
    answer: str
    consent_id: int
    proposal: dict[str, str]
    files: list[dict[str, object]]
    cloud_requests: int
    # Why a failed step is run once more (turn.step_retried): a closed error code, never a message.
    error_code: str
    # A question to the user (turn.input_requested); never its answer.
    input_id: int
    kind: str
    prompt: str
    sensitive: bool
    choices: list[str]
    # A verification panel (turn.handoff_opened / _closed).
    panel_id: int
    url: str
    expires_at: str


UserEvent = DeviceEvent | TaskEvent | TurnEvent


def user_group_name(user_id: int) -> str:
    return f"user.{int(user_id)}"


PUBLISH_TIMEOUT_SECONDS = 10.0

_serving_loop: asyncio.AbstractEventLoop | None = None
_publisher_loop: asyncio.AbstractEventLoop | None = None
_publisher_lock = threading.Lock()


def register_serving_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Remember the event loop that serves WebSockets in this process.

    Publishing from a worker thread on that loop wakes it at once; a group
    send from another loop would leave the in-memory layer's queues unwatched
    until the server loop next woke up (up to a second later).
    """
    global _serving_loop
    _serving_loop = loop


def _dedicated_loop() -> asyncio.AbstractEventLoop:
    """One long-lived loop per process for publishers with no serving loop (workers).

    It keeps the Redis layer's connections open between events instead of a
    new thread, loop and connection per event.
    """
    global _publisher_loop
    with _publisher_lock:
        if _publisher_loop is None or _publisher_loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="metnos-event-publisher", daemon=True).start()
            _publisher_loop = loop
        return _publisher_loop


def _target_loop() -> asyncio.AbstractEventLoop:
    loop = _serving_loop
    if loop is not None and loop.is_running() and not loop.is_closed():
        return loop
    return _dedicated_loop()


def user_event_message(group: str, event: UserEvent) -> dict[str, str]:
    """The channel-layer message for ``event``: its JSON text, encoded once for every socket.

    It names its group because one relay channel per serving process joins
    the groups of all the users it has sockets for (``apps/core/event_relay.py``).
    """
    return {"type": CHANNELS_MESSAGE_TYPE, "group": group, "text": json.dumps(event, separators=(",", ":"))}


def user_access_message(group: str, *, ended_session: str = "") -> dict[str, str]:
    """The channel-layer message that makes ``group``'s sockets check their access.

    ``ended_session`` is the digest of a session that just ended (its sockets
    close without reading anything); empty, every socket of the group reads
    its session and account again before it delivers another event.
    """
    return {"type": ACCESS_MESSAGE_TYPE, "group": group, "ended_session": ended_session}


def publish_to_user(user_id: int, event: UserEvent) -> None:
    """Send ``event`` to every open browser of ``user_id`` (and nobody else)."""
    group = user_group_name(user_id)
    _send_to_group(group, user_event_message(group, event))


def publish_access_change(user_id: int, *, ended_session: str = "") -> None:
    """Tell every open socket of ``user_id`` that its access changed (see :func:`user_access_message`)."""
    group = user_group_name(user_id)
    _send_to_group(group, user_access_message(group, ended_session=ended_session))


def _send_to_group(group: str, message: dict[str, str]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _target_loop()
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        # Synchronous code running on the loop itself: schedule, never block it.
        loop.create_task(layer.group_send(group, message))
        return
    if running is not None:
        # Another loop's thread (not expected from synchronous code): the plain path.
        async_to_sync(layer.group_send)(group, message)
        return
    asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result(timeout=PUBLISH_TIMEOUT_SECONDS)
