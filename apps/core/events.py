"""Typed live events and the one publisher used by views and workers alike.

Each user has exactly one Channels group; events for a user are sent only to
that group, never to a shared group filtered afterwards.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

# The Channels handler name for user events (``user.event`` → ``user_event``).
CHANNELS_MESSAGE_TYPE = "user.event"


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
        "turn.confirmation_requested",
        "turn.input_requested",
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


UserEvent = DeviceEvent | TaskEvent | TurnEvent


def user_group_name(user_id: int) -> str:
    return f"user.{int(user_id)}"


def publish_to_user(user_id: int, event: UserEvent) -> None:
    """Send ``event`` to every open browser of ``user_id`` (and nobody else)."""
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(user_group_name(user_id), {"type": CHANNELS_MESSAGE_TYPE, "event": dict(event)})
