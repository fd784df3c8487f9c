"""The WebSocket a signed-in portal page keeps open for live updates."""

from __future__ import annotations

import asyncio
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from apps.core.events import CHANNELS_MESSAGE_TYPE, register_serving_loop, user_group_name

# Application close code for "not signed in" (4000-4999 are free for apps).
CLOSE_UNAUTHENTICATED = 4401


class UserEventsConsumer(AsyncJsonWebsocketConsumer):
    """Streams the signed-in user's events; anonymous connections are refused."""

    group_name: str | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        register_serving_loop(asyncio.get_running_loop())
        self.group_name = user_group_name(user.pk)
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        await self.accept()

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Events touch no database: skip Channels' per-message connection
        # cleanup, which queues through one thread for every open socket.
        if message.get("type") == CHANNELS_MESSAGE_TYPE:
            await self.user_event(message)
            return
        await super().dispatch(message)

    async def disconnect(self, code: int) -> None:
        if self.group_name is not None:
            await self.channel_layer.group_discard(self.group_name, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        # The socket is one-way: the browser acts through HTTP endpoints, where
        # CSRF and permissions apply. Anything sent here is ignored.
        return None

    async def user_event(self, message: dict[str, Any]) -> None:
        await self.send_json(message["event"])
