"""The lease a running batch holds: taken with its claim, renewed by its worker, the condition of its commit.

A worker that claims a batch takes a lease with a token of its own
(``host:pid#random``), valid for ``METNOS_LRE_LEASE_SECONDS``. While the
batch's step runs, a :class:`LeaseWatch` thread renews it a third of the way
through each period and records the heartbeat the console shows. The
batch's result is committed only while the lease is still that token's
(:func:`held_by`): once the reaper (:mod:`apps.lre.reaper`) has taken an
expired lease back, a late result from the old worker is not committed —
so a batch is committed once, whoever finishes it.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import Q
from django.utils import timezone

from apps.core.background_watch import BackgroundWatch
from apps.lre.models import LreBatch
from apps.runtime.lifecycle import conductor_identity

logger = logging.getLogger(__name__)


def lease_duration() -> dt.timedelta:
    return dt.timedelta(seconds=int(settings.METNOS_LRE_LEASE_SECONDS))


def renew_every() -> dt.timedelta:
    """A lease is renewed a third of the way through: one renewal may fail without losing it."""
    return lease_duration() / 3


def lease_token() -> str:
    """A new token for one claim: the process (so a starting worker knows its dead peers) and a random part."""
    return f"{conductor_identity()}#{secrets.token_hex(6)}"


def lease_taken(token: str, now: dt.datetime | None = None) -> dict[str, Any]:
    """The fields a claim sets on the batch it takes."""
    now = now or timezone.now()
    return {"lease_holder": token, "lease_expires_at": now + lease_duration(), "heartbeat_at": now}


def held_by(token: str) -> Q:
    """The condition of a change only the lease's holder may make (its commit)."""
    return Q(lease_holder=token)


def lease_stalled(heartbeat_at: dt.datetime | None, expires_at: dt.datetime | None, now: dt.datetime) -> bool:
    """Whether a running batch's worker missed at least one renewal of its lease.

    Judged from the lease the worker took (its length is the gap between its
    last heartbeat and its expiry), so any reader agrees whatever its own settings.
    """
    if heartbeat_at is None or expires_at is None:
        return False
    return now > heartbeat_at + (expires_at - heartbeat_at) * 2 / 3


class LeaseWatch(BackgroundWatch):
    """Beside a running batch, in its own thread: renews the lease, and stops renewing once it was taken back.

    The batch's thread is busy with its step; this thread does the lease's
    database work on a connection of its own, and tolerates a few failed
    renewals (a busy or briefly unreachable database) before the lease ends.
    """

    thread_name = "metnos-lre-lease"

    def __init__(self, batch_id: int, token: str) -> None:
        super().__init__()
        self.batch_id = batch_id
        self.token = token

    def _run(self) -> None:
        try:
            while not self._stopping.wait(renew_every().total_seconds()):
                try:
                    if not self.renew():  # taken back: the commit, fenced by the lease, will be refused
                        logger.warning("the lease of a running batch was taken back", extra={"batch": self.batch_id})
                        return
                except DatabaseError:
                    logger.warning("a batch's lease could not be renewed", extra={"batch": self.batch_id})
        finally:
            connection.close()

    def renew(self) -> bool:
        """Extend the lease if it is still this token's; whether it was."""
        now = timezone.now()
        renewed = LreBatch.objects.filter(
            pk=self.batch_id, status=LreBatch.Status.RUNNING, lease_holder=self.token
        ).update(lease_expires_at=now + lease_duration(), heartbeat_at=now)
        return renewed == 1
