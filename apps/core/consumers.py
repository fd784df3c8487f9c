"""The WebSocket a signed-in portal page keeps open for live updates.

The socket lives no longer than the session that opened it. Signing out
closes it before the next event; a changed password, a disabled account or
a deleted user makes it read its session again before the next event (see
``apps/core/socket_access.py``). What nobody announces — the session expired,
its row was removed — is found within ``SESSION_RECHECK_SECONDS``: the socket
checks that often, and never delivers an event on an older check. Events
that arrive while a check runs wait for its answer and are dropped with the
socket if the session has ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import random
import time
from collections import deque
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer

from apps.core.event_relay import EventRelay, LayerUnavailable, relay_for_running_loop
from apps.core.events import register_serving_loop, user_group_name
from apps.core.socket_access import session_digest, session_is_current

logger = logging.getLogger(__name__)

# Application close code for "not signed in" (4000-4999 are free for apps):
# at the handshake, and when the session of an open socket has ended.
CLOSE_UNAUTHENTICATED = 4401
# The session could not be read (the database is down): the page may try again.
CLOSE_CHECK_FAILED = 1011
# More events waited for one check than a page needs: the page reconnects.
CLOSE_TOO_MANY_WAITING = 1013
# The channel layer does not answer (Redis restarting): the page tries again later.
CLOSE_LAYER_UNAVAILABLE = 1013

# The longest an ended session that nobody announced keeps its socket open,
# and the oldest check an event is ever delivered on.
SESSION_RECHECK_SECONDS = 30.0
# Events held while a check runs, beyond which the socket is closed instead.
MAX_EVENTS_WAITING_FOR_CHECK = 1000

# An alias naming no layer: Channels then gives the socket no channel (and no
# receive task) of its own. Events reach it through the process's relay.
_NO_CHANNEL_OF_ITS_OWN = "metnos.relay-delivers"

_check_session = database_sync_to_async(session_is_current)


class UserEventsConsumer(AsyncWebsocketConsumer):
    """Streams the signed-in user's events while the session lasts; anonymous connections are refused."""

    channel_layer_alias = _NO_CHANNEL_OF_ITS_OWN
    group_name: str | None = None
    relay: EventRelay | None = None
    accepted = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ending = False
        self.user_id: int | None = None
        self.session_key = ""
        self.session_digest = ""
        self.checked_at = 0.0  # time.monotonic() of the last check that found the session current
        self.stale = False  # access changed since the running check started reading
        self.waiting: deque[str] = deque()
        self.check_task: asyncio.Task[None] | None = None
        self.watch_task: asyncio.Task[None] | None = None
        self.close_task: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        session = self.scope.get("session")
        session_key = getattr(session, "session_key", None)
        if user is None or not user.is_authenticated or not session_key:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        layer = get_channel_layer()
        if layer is None:  # live updates are off: the page works without them
            await self.close()
            return
        register_serving_loop(asyncio.get_running_loop())
        self.user_id, self.session_key, self.session_digest = user.pk, session_key, session_digest(session_key)
        self.checked_at = time.monotonic()  # the authentication middleware has just checked the session
        self.group_name = user_group_name(user.pk)
        self.relay = relay_for_running_loop(layer)
        # Joined before the handshake completes, so an event published once the
        # browser sees the socket open reaches it.
        try:
            await self.relay.join(self.group_name, self)
        except LayerUnavailable:
            # Redis is away (restarting): refuse the handshake cleanly, never a 500; the page tries again.
            logger.warning("live events: a socket was refused, the channel layer does not answer")
            await self.close(code=CLOSE_LAYER_UNAVAILABLE)
            return
        await self.accept()
        self.accepted = True
        self.watch_task = asyncio.get_running_loop().create_task(self._check_periodically())

    async def disconnect(self, code: int) -> None:
        self.ending = True
        self.waiting.clear()
        current = asyncio.current_task()
        for task in (self.watch_task, self.check_task):
            if task is not None and task is not current:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await self._leave_relay()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        # The socket is one-way: the browser acts through HTTP endpoints, where
        # CSRF and permissions apply. Anything sent here is ignored.
        return None

    async def send_event_text(self, text: str) -> None:
        if not self.accepted or self.ending:  # before the handshake completed it is not the page's yet
            return
        if self.check_task is None and time.monotonic() - self.checked_at <= SESSION_RECHECK_SECONDS:
            await self.send(text_data=text)
            return
        # A check is due or running: the event waits for its answer.
        if len(self.waiting) >= MAX_EVENTS_WAITING_FOR_CHECK:
            self._end(CLOSE_TOO_MANY_WAITING)
            return
        self.waiting.append(text)
        self._start_check()

    def access_changed(self, ended_session: str) -> None:
        # Also during the handshake: the socket is in its group from before it is accepted.
        if self.ending or not self.session_digest:
            return
        if ended_session:
            if hmac.compare_digest(ended_session, self.session_digest):
                self._end(CLOSE_UNAUTHENTICATED)  # this socket's own session was signed out
            return
        self.stale = True
        self.checked_at = float("-inf")  # nothing more is delivered before the session is read again
        self._start_check()

    def _start_check(self) -> None:
        if self.check_task is None and not self.ending:
            self.check_task = asyncio.get_running_loop().create_task(self._check())

    async def _check(self) -> None:
        try:
            while True:
                self.stale = False
                try:
                    current = self.user_id is not None and await _check_session(
                        session_key=self.session_key, user_id=self.user_id
                    )
                except Exception:  # noqa: BLE001 - unreadable is not current: close, the page retries
                    logger.warning("live events: could not read a socket's session")
                    self._end(CLOSE_CHECK_FAILED)
                    return
                if not current:
                    self._end(CLOSE_UNAUTHENTICATED)
                    return
                if not self.stale:  # nothing changed while it read: the answer holds
                    break
            self.checked_at = time.monotonic()
            while self.waiting and not self.ending:
                await self.send(text_data=self.waiting.popleft())
        except Exception:  # noqa: BLE001 - the browser went away mid-write: nothing more to deliver
            logger.info("live events: a socket closed while its waiting events were written")
            self._end(CLOSE_CHECK_FAILED)
        finally:
            self.check_task = None

    async def _check_periodically(self) -> None:
        while not self.ending:
            # Spread over the interval, so sockets opened together do not all read at once.
            await asyncio.sleep(SESSION_RECHECK_SECONDS * random.uniform(0.5, 1.0))  # noqa: S311 - not a secret
            self._start_check()
            if self.check_task is not None:
                await asyncio.shield(self.check_task)

    def _end(self, code: int) -> None:
        """Stop delivering at once, then leave the relay and close (without waiting here)."""
        if self.ending:
            return
        self.ending = True
        self.waiting.clear()
        self.close_task = asyncio.get_running_loop().create_task(self._close_ended(code))

    async def _close_ended(self, code: int) -> None:
        await self._leave_relay()
        await self.close(code=code)

    async def _leave_relay(self) -> None:
        if self.relay is not None and self.group_name is not None:
            await self.relay.leave(self.group_name, self)
