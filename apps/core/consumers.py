"""The WebSocket a signed-in portal page keeps open for live updates."""

from __future__ import annotations

import asyncio
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer

from apps.core.event_relay import EventRelay, relay_for_running_loop
from apps.core.events import register_serving_loop, user_group_name

# Application close code for "not signed in" (4000-4999 are free for apps).
CLOSE_UNAUTHENTICATED = 4401

# An alias naming no layer: Channels then gives the socket no channel (and no
# receive task) of its own. Events reach it through the process's relay.
_NO_CHANNEL_OF_ITS_OWN = "metnos.relay-delivers"


class UserEventsConsumer(AsyncWebsocketConsumer):
    """Streams the signed-in user's events; anonymous connections are refused."""

    channel_layer_alias = _NO_CHANNEL_OF_ITS_OWN
    group_name: str | None = None
    relay: EventRelay | None = None
    accepted = False

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        layer = get_channel_layer()
        if layer is None:  # live updates are off: the page works without them
            await self.close()
            return
        register_serving_loop(asyncio.get_running_loop())
        self.group_name = user_group_name(user.pk)
        self.relay = relay_for_running_loop(layer)
        # Joined before the handshake completes, so an event published once the
        # browser sees the socket open reaches it.
        await self.relay.join(self.group_name, self)
        await self.accept()
        self.accepted = True

    async def disconnect(self, code: int) -> None:
        if self.relay is not None and self.group_name is not None:
            await self.relay.leave(self.group_name, self)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        # The socket is one-way: the browser acts through HTTP endpoints, where
        # CSRF and permissions apply. Anything sent here is ignored.
        return None

    async def send_event_text(self, text: str) -> None:
        if self.accepted:  # an event before the handshake completed is not the page's yet
            await self.send(text_data=text)
