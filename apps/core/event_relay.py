"""One channel-layer channel per serving process that fans live events out to its sockets.

A plain Channels consumer owns a channel of its own and joins the user's
group with it, so a publish to a user with 200 open pages is received,
buffered and dispatched 200 times through the layer's per-channel machinery
(a lock, several tasks and a decode per socket) before any frame is written.
Here the serving loop keeps a single relay channel instead. The relay joins
``user.<id>`` while at least one socket of that user is open in this process
and leaves it with the last one; the group in the layer stays per user.
One receive per event then writes the event's text, encoded once by the
publisher, to the sockets registered under that group, and no other.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol

from apps.core.events import ACCESS_MESSAGE_TYPE, CHANNELS_MESSAGE_TYPE

logger = logging.getLogger(__name__)

# Pause before receiving again after the layer failed (Redis restarting, say).
RECEIVE_RETRY_SECONDS = 1.0
# Sockets written before the loop gets a turn. The server sends buffered
# frames only when the loop runs, so yielding now and then puts the first
# browsers' frames on the wire while the rest are still being framed.
SOCKETS_PER_TURN = 50


# A join the layer refuses is tried this often, this far apart, before the socket is told to come back later.
JOIN_ATTEMPTS = 3
JOIN_RETRY_SECONDS = 0.3


class LayerUnavailable(Exception):
    """The channel layer does not answer: the socket cannot be joined to its user's events now."""


class EventSink(Protocol):
    """An open socket that accepts an event as JSON text, and hears when its access changed."""

    async def send_event_text(self, text: str) -> None: ...

    def access_changed(self, ended_session: str) -> None:
        """Called in the order of the events around it; must not wait (see ``events.user_access_message``)."""


class EventRelay:
    """The relay of one event loop: group memberships, its channel and its receive task."""

    def __init__(self, layer: Any) -> None:
        self._layer = layer
        self._sinks: dict[str, set[EventSink]] = {}
        # Membership changes wait for the layer one at a time, so a leave and
        # a join of the same group can never reach Redis in the wrong order.
        self._lock = asyncio.Lock()
        self._channel: str | None = None
        self._receiver: asyncio.Task[None] | None = None

    async def join(self, group: str, sink: EventSink) -> None:
        async with self._lock:
            if self._channel is None:
                self._channel = await self._layer.new_channel()
            # Also on later joins: it renews the membership's age in the layer.
            # The sink is registered only once the layer has accepted it, so a
            # failed join leaves nothing behind.
            await self._group_add(group, self._channel)
            self._sinks.setdefault(group, set()).add(sink)
            if self._receiver is None:
                self._receiver = asyncio.get_running_loop().create_task(self._receive_forever(self._channel))

    async def _group_add(self, group: str, channel: str) -> None:
        """Join ``group``; a layer that just came back (Redis restarted) gets a few tries before it counts as down.

        The first command on a connection Redis closed fails once, then the
        layer reconnects. :class:`LayerUnavailable` if it still fails.
        """
        for attempt in range(JOIN_ATTEMPTS):
            try:
                await self._layer.group_add(group, channel)
                return
            except Exception as error:  # whatever the layer raises, it is not answering
                if attempt + 1 == JOIN_ATTEMPTS:
                    raise LayerUnavailable from error
                await asyncio.sleep(JOIN_RETRY_SECONDS)

    async def leave(self, group: str, sink: EventSink) -> None:
        async with self._lock:
            sinks = self._sinks.get(group)
            if sinks is None or sink not in sinks:
                return
            sinks.discard(sink)
            if sinks:
                return
            del self._sinks[group]
            if self._channel is not None:
                await self._layer.group_discard(group, self._channel)
            if not self._sinks and self._receiver is not None:
                receiver, self._receiver = self._receiver, None
                receiver.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await receiver

    async def _receive_forever(self, channel: str) -> None:
        while True:
            try:
                message = await self._layer.receive(channel)
            except Exception:  # the layer's own failure: keep the sockets, recover
                logger.exception("live events: receiving from the channel layer failed")
                await self._rejoin_all(channel)
                continue
            await self._deliver(message)

    async def _rejoin_all(self, channel: str) -> None:
        """Join every group again once the layer answers: a restarted Redis has forgotten them."""
        while True:
            await asyncio.sleep(RECEIVE_RETRY_SECONDS)
            async with self._lock:
                try:
                    for group in self._sinks:
                        await self._layer.group_add(group, channel)
                except Exception:  # noqa: BLE001 - whatever the layer raises, it is still down: retry
                    logger.warning("live events: the channel layer is still unavailable")
                    continue
            return

    async def _deliver(self, message: dict[str, Any]) -> None:
        group, text = message.get("group"), message.get("text")
        if message.get("type") == ACCESS_MESSAGE_TYPE and isinstance(group, str):
            self._announce_access_change(group, message.get("ended_session"))
            return
        if message.get("type") != CHANNELS_MESSAGE_TYPE or not isinstance(group, str) or not isinstance(text, str):
            logger.warning("live events: ignored a message of type %r", message.get("type"))
            return
        # A copy: a socket may close (and leave) while an earlier one is written to.
        for written, sink in enumerate(tuple(self._sinks.get(group, ())), start=1):
            try:
                await sink.send_event_text(text)
            except Exception:  # one broken socket must not starve the others
                logger.exception("live events: writing to a socket failed")
            if written % SOCKETS_PER_TURN == 0:
                await asyncio.sleep(0)

    def _announce_access_change(self, group: str, ended_session: Any) -> None:
        # Synchronous on purpose: every socket of the group has heard it before
        # the relay reads the next message, so no event slips out after it.
        for sink in tuple(self._sinks.get(group, ())):
            try:
                sink.access_changed(ended_session if isinstance(ended_session, str) else "")
            except Exception:  # one broken socket must not keep the others open
                logger.exception("live events: telling a socket its access changed failed")


_relays: dict[tuple[asyncio.AbstractEventLoop, Any], EventRelay] = {}


def relay_for_running_loop(layer: Any) -> EventRelay:
    """The relay of the running event loop and ``layer``, created on first use.

    A server has one loop; tests open a new one per test, so relays of
    closed loops are dropped here.
    """
    key = (asyncio.get_running_loop(), layer)
    relay = _relays.get(key)
    if relay is None:
        for closed in [other for other in _relays if other[0].is_closed()]:
            del _relays[closed]
        relay = _relays[key] = EventRelay(layer)
    return relay
