"""The outbox: background work is delivered once the broker can take it, whatever happened to the broker.

A service that starts background work (a turn, an LRE job's advance, a
browser job) calls :func:`outbox_enqueue` inside the transaction that
writes the work's row. The message is a row of the same transaction, so
committed work always has its message and rolled-back work never does.
After commit it is sent at once. If the broker cannot take it (Redis is down
or restarting) the request still succeeds: the message stays, and this
process keeps trying until the broker is back.

A message counts as delivered only when a worker *starts* its task (the
``task_prerun`` signal marks it, from the message's header). One the broker
took but no worker started within ``METNOS_OUTBOX_RESEND_SECONDS`` (Redis
restarted without its data, a worker died holding it) is sent again, and in
the embedded mode, whose in-memory queue dies with the process, every
unstarted message is sent again when the worker starts. So a message can
arrive twice: every task it starts takes its row with a compare-and-set
claim, and a second delivery finds nothing to do.

Every worker process runs the relay every ``METNOS_OUTBOX_RELAY_SECONDS``.
Messages hold ids, never users' content; started ones are kept a day, to be
seen in the admin, then removed.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
from typing import Any, Final

from django.conf import settings
from django.db import close_old_connections, transaction
from django.db.models import F
from django.utils import timezone

from apps.core.models import OutboxMessage
from apps.core.redaction import error_kind

logger = logging.getLogger(__name__)

HEADER: Final = "metnos_outbox"
# After a failed send: wait 1, 2, 4 … seconds, at most this long, before the next try.
MAX_BACKOFF_SECONDS: Final = 60
KEEP_STARTED: Final = dt.timedelta(days=1)
RELAY_BATCH: Final = 200
# Publishing waits this little for a broker that is down: the request is answered, the relay retries.
_SEND_RETRY_POLICY: Final = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}


def outbox_enqueue(task_name: str, *args: int | str) -> OutboxMessage:
    """Record ``task_name(*args)`` in the current transaction; it is sent once the transaction commits.

    The row counts that send already (``attempts=1``) and is due for the relay
    only if no worker has started it one resend interval later: a first send
    the broker takes, the usual case, writes nothing more.
    """
    message = OutboxMessage.objects.create(
        task_name=task_name,
        args=list(args),
        attempts=1,
        next_attempt_at=timezone.now() + dt.timedelta(seconds=settings.METNOS_OUTBOX_RESEND_SECONDS),
    )
    # The row just written is sent as it is: no worker can have started it before its commit.
    transaction.on_commit(lambda: _send(message, by_relay=False))
    return message


def outbox_send(message_id: int) -> bool:
    """Send one unstarted message again (the relay); False if the broker did not take it (it is tried again)."""
    message = OutboxMessage.objects.filter(pk=message_id, started_at__isnull=True).first()
    if message is None:
        return True  # already started: nothing to send
    return _send(message, by_relay=True)


def _send(message: OutboxMessage, *, by_relay: bool) -> bool:
    from metnos_site.celery import app as celery_app

    try:
        celery_app.send_task(
            message.task_name,
            args=list(message.args),
            headers={HEADER: message.pk},
            retry=True,
            retry_policy=_SEND_RETRY_POLICY,
        )
    except Exception as error:  # noqa: BLE001 - whatever the broker says, the work is kept for later
        backoff = min(2 ** min(message.attempts, 16), MAX_BACKOFF_SECONDS)
        OutboxMessage.objects.filter(pk=message.pk).update(
            next_attempt_at=timezone.now() + dt.timedelta(seconds=backoff), last_error=error_kind(error)[:200]
        )
        logger.warning("the broker did not take %s (%s): it is sent again when it can be", message, error_kind(error))
        relay_until_sent()
        return False
    if by_relay:
        now = timezone.now()
        # Sent again if still not started: after the interval, then twice as long each time (a long queue).
        resend = settings.METNOS_OUTBOX_RESEND_SECONDS * 2 ** min(message.attempts - 1, 5)
        OutboxMessage.objects.filter(pk=message.pk, started_at__isnull=True).update(
            sent_at=now, next_attempt_at=now + dt.timedelta(seconds=resend), last_error=""
        )
    return True


def outbox_relay(*, limit: int = RELAY_BATCH) -> int:
    """Send the unstarted messages that are due; how many the broker took. Stops at the first refusal."""
    now = timezone.now()
    due = list(
        OutboxMessage.objects.filter(started_at__isnull=True, next_attempt_at__lte=now)
        .order_by("next_attempt_at", "pk")
        .values_list("pk", "next_attempt_at")[:limit]
    )
    sent = 0
    for message_id, due_at in due:
        # Taken (and its send counted) by moving its next attempt on: of two relays, one sends it.
        taken = OutboxMessage.objects.filter(pk=message_id, next_attempt_at=due_at, started_at__isnull=True).update(
            next_attempt_at=now + dt.timedelta(seconds=settings.METNOS_OUTBOX_RESEND_SECONDS),
            attempts=F("attempts") + 1,
        )
        if not taken:
            continue
        if not outbox_send(message_id):
            break
        sent += 1
    OutboxMessage.objects.filter(started_at__lt=now - KEEP_STARTED).delete()
    return sent


def outbox_due_now() -> int:
    """Every unstarted message becomes due at once (the embedded mode's queue died with its process)."""
    return OutboxMessage.objects.filter(started_at__isnull=True).update(next_attempt_at=timezone.now())


def outbox_started(message_id: Any) -> None:
    """A worker began the message's task: it is delivered (the ``task_prerun`` handler calls this)."""
    if isinstance(message_id, int):
        OutboxMessage.objects.filter(pk=message_id, started_at__isnull=True).update(started_at=timezone.now())


# --- The relay threads ------------------------------------------------------------


class _Relay(threading.Thread):
    """Runs :func:`outbox_relay` every few seconds: for ever (a worker) or until nothing is left unsent."""

    def __init__(self, *, every: float, forever: bool) -> None:
        super().__init__(name="metnos-outbox-relay" if forever else "metnos-outbox-retry", daemon=True)
        self.every, self.forever = every, forever
        self.stopped = threading.Event()

    def run(self) -> None:
        try:
            while not self.stopped.wait(self.every):
                try:
                    outbox_relay()
                    # Done when no unstarted message waits on a send the broker refused.
                    refused = OutboxMessage.objects.filter(started_at__isnull=True).exclude(last_error="")
                    if not self.forever and not refused.exists():
                        return
                except Exception as error:  # noqa: BLE001 - the database may be away too: try again later
                    logger.warning("the outbox relay could not run (%s)", error_kind(error))
                finally:
                    close_old_connections()
        finally:
            _forget(self)


_lock = threading.Lock()
_relays: dict[bool, _Relay] = {}


def _forget(relay: _Relay) -> None:
    with _lock:
        if _relays.get(relay.forever) is relay:
            del _relays[relay.forever]


def _start(*, forever: bool, every: float) -> _Relay:
    with _lock:
        relay = _relays.get(forever) or _relays.get(True)
        if relay is not None and relay.is_alive():
            return relay
        relay = _Relay(every=every, forever=forever)
        _relays[forever] = relay
        relay.start()
        return relay


def relay_until_sent() -> None:
    """Keep trying, in this process, until every message it could not send is sent."""
    every = settings.METNOS_OUTBOX_RELAY_SECONDS or 5
    _start(forever=False, every=float(min(every, MAX_BACKOFF_SECONDS)))


def relay_start() -> _Relay | None:
    """The periodic relay of a worker process (None when ``METNOS_OUTBOX_RELAY_SECONDS`` is 0)."""
    if not settings.METNOS_OUTBOX_RELAY_SECONDS:
        return None
    return _start(forever=True, every=float(settings.METNOS_OUTBOX_RELAY_SECONDS))


def relay_stop(timeout: float = 5.0) -> None:
    """Stop this process's relays (the embedded worker stopping)."""
    with _lock:
        relays = list(_relays.values())
    deadline = time.monotonic() + timeout
    for relay in relays:
        relay.stopped.set()
        relay.join(max(0.0, deadline - time.monotonic()))
