"""Turn events leave the conductor in order, without making it wait for the channel layer.

``publish_to_user`` returns only once the channel layer took the event: a
round trip to the serving loop's thread (embedded mode) or to Redis
(services mode). A conductor that waited for it before every step would add
that latency, which grows with the load on the machine, to each step. So
the conductor puts the event in a queue and goes on; one thread per process
publishes the queue in order, so each browser sees a turn's events in the
order they happened. Events are queued only after their transaction
commits, as before, so a browser never hears of rows it cannot read yet.

A process that exits waits (boundedly) for the queue to be sent, so the
last events of a turn conducted by a command are not lost. While the
channel layer is away (Redis restarting), an event is tried again for
``RETRY_SECONDS`` before it is given up.
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
import time

from apps.core.events import PUBLISH_TIMEOUT_SECONDS, UserEvent, publish_to_user

logger = logging.getLogger(__name__)

_Item = tuple[int, UserEvent] | threading.Event
# How long one event is retried while the channel layer is away; the events after it wait meanwhile.
RETRY_SECONDS = 15.0


class _OrderedSender:
    """One queue and one daemon thread per process (started again in a forked child)."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[_Item] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._pid: int | None = None

    def send(self, user_id: int, event: UserEvent) -> None:
        self._ensure_thread()
        self._queue.put((user_id, event))

    def drain(self, timeout: float = PUBLISH_TIMEOUT_SECONDS) -> bool:
        """Wait until every event queued so far was handed to the channel layer; False on timeout."""
        if self._pid != os.getpid():
            return True  # nothing was queued in this process
        sent = threading.Event()
        self._queue.put(sent)
        return sent.wait(timeout)

    def _ensure_thread(self) -> None:
        if self._pid == os.getpid():
            return
        with self._lock:
            if self._pid == os.getpid():
                return
            if self._pid is not None:
                # A forked child: the parent's thread and queue did not come along.
                self._queue = queue.SimpleQueue()
            else:
                atexit.register(self.drain)
            threading.Thread(target=self._run, name="metnos-turn-events", daemon=True).start()
            self._pid = os.getpid()

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if isinstance(item, threading.Event):
                item.set()
                continue
            _publish_patiently(*item)


def _publish_patiently(user_id: int, event: UserEvent) -> None:
    """Publish one event; while the channel layer is away (Redis restarting), try again for a bounded time.

    Later events wait behind it, so the order holds. An event given up on is
    not lost to the person: a page that reconnects reads the turn's state
    over HTTP.
    """
    deadline = time.monotonic() + RETRY_SECONDS
    pause = 0.1
    while True:
        try:
            publish_to_user(user_id, event)
            return
        except Exception as error:  # noqa: BLE001 - a lost live event must not stop the others
            if time.monotonic() + pause > deadline:
                logger.warning("a live turn event was not sent (%s)", type(error).__name__)
                return
            time.sleep(pause)
            pause = min(pause * 2, 2.0)


_sender = _OrderedSender()


def send_in_order(user_id: int, event: UserEvent) -> None:
    """Queue ``event`` for ``user_id``'s browsers; it is published after every event queued before it."""
    _sender.send(user_id, event)
