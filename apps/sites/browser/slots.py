"""The eight browsers: leases on numbered slots, and a bounded queue before them.

Every change to the leases runs in one short transaction that first takes a
lock — a PostgreSQL advisory lock, or SQLite's own write lock (Metnos opens
SQLite transactions IMMEDIATE) — so counting and claiming cannot interleave
between worker processes. A waiting request claims a slot only when it is
among the first in line for the free slots, so the queue is served in order.
"""

from __future__ import annotations

import os
import socket
import uuid
from dataclasses import dataclass
from typing import Literal

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from apps.accounts.models import User
from apps.core.processes import holder_died_here
from apps.sites.limits import BROWSER_LEASE_LIFETIME, BROWSER_LEASE_RENEW_EVERY, MAX_CONCURRENT_BROWSER_SESSIONS
from apps.sites.models import BrowserSessionLease

# Any constant distinct from other advisory locks Metnos might take.
_ADVISORY_LOCK_KEY = 0x6D65_746E_6F73_0001

SessionRefusal = Literal["queue_full", "queue_timeout", "closed_by_user", "lease_lost"]
LeaseState = Literal["running", "close_requested", "lost"]


class SessionRefused(Exception):
    """No browser for this request; ``reason`` is from :data:`SessionRefusal`."""

    def __init__(self, reason: SessionRefusal) -> None:
        super().__init__(reason)
        self.reason: SessionRefusal = reason


@dataclass(frozen=True)
class QueuePlace:
    """Where a request stands: running on a slot, or ``position`` (1 = next) in the queue."""

    token: uuid.UUID
    slot: int | None
    position: int


def this_holder() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _locked() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_ADVISORY_LOCK_KEY])


def _purge_expired() -> None:
    BrowserSessionLease.objects.filter(expires_at__lt=timezone.now()).delete()


def _position(lease: BrowserSessionLease) -> int:
    """1 for the next in line: waiting requests ahead of this one, expired ones not counted."""
    ahead = Q(requested_at__lt=lease.requested_at) | Q(requested_at=lease.requested_at, id__lt=lease.pk)
    live = BrowserSessionLease.objects.filter(expires_at__gte=timezone.now())
    return live.filter(ahead, slot__isnull=True).count() + 1


def _free_slots() -> int:
    running = BrowserSessionLease.objects.filter(slot__isnull=False, expires_at__gte=timezone.now()).count()
    return MAX_CONCURRENT_BROWSER_SESSIONS - running


def lease_request(*, owner: User) -> BrowserSessionLease:
    """Join the queue for a browser, or :class:`SessionRefused` (``queue_full``) at once."""
    now = timezone.now()
    with transaction.atomic():
        _locked()
        _purge_expired()
        waiting = BrowserSessionLease.objects.filter(slot__isnull=True).count()
        if waiting >= _free_slots() + settings.METNOS_SITES_QUEUE_LENGTH:
            raise SessionRefused("queue_full")
        return BrowserSessionLease.objects.create(
            owner=owner, holder=this_holder(), requested_at=now, expires_at=now + BROWSER_LEASE_LIFETIME
        )


def _waiting_lease(token: uuid.UUID) -> BrowserSessionLease:
    lease = BrowserSessionLease.objects.filter(token=token).first()
    if lease is None:
        raise SessionRefused("closed_by_user")  # withdrawn, or expired and purged
    if lease.close_requested:
        lease.delete()
        raise SessionRefused("closed_by_user")
    return lease


def lease_try_claim(*, token: uuid.UUID) -> QueuePlace:
    """Take a free slot if this request's turn has come, else say its place in line.

    Waiting costs reads: the lock is taken only when a slot is free for this
    request, and the waiting lease is renewed only when it has aged by
    ``BROWSER_LEASE_RENEW_EVERY``. Raises :class:`SessionRefused` when the
    request was withdrawn ("Close the web sessions") or its lease expired.
    """
    now = timezone.now()
    lease = _waiting_lease(token)
    position = _position(lease)
    if position <= _free_slots():
        return _claim(token)
    if lease.expires_at - now < BROWSER_LEASE_LIFETIME - BROWSER_LEASE_RENEW_EVERY:
        BrowserSessionLease.objects.filter(token=token).update(expires_at=now + BROWSER_LEASE_LIFETIME)
    return QueuePlace(token=token, slot=None, position=position)


def _claim(token: uuid.UUID) -> QueuePlace:
    now = timezone.now()
    with transaction.atomic():
        _locked()
        _purge_expired()
        lease = _waiting_lease(token)
        taken = set(BrowserSessionLease.objects.filter(slot__isnull=False).values_list("slot", flat=True))
        free = [slot for slot in range(MAX_CONCURRENT_BROWSER_SESSIONS) if slot not in taken]
        position = _position(lease)
        if not free or position > len(free):
            return QueuePlace(token=token, slot=None, position=position)  # another request was quicker
        lease.slot, lease.started_at, lease.expires_at = free[0], now, now + BROWSER_LEASE_LIFETIME
        lease.save(update_fields=["slot", "started_at", "expires_at"])
        return QueuePlace(token=token, slot=lease.slot, position=0)


def lease_renew(*, token: uuid.UUID) -> LeaseState:
    """Extend a running session's lease; say whether it must close or has lost its slot."""
    now = timezone.now()
    renewed = BrowserSessionLease.objects.filter(token=token, slot__isnull=False, expires_at__gte=now).update(
        expires_at=now + BROWSER_LEASE_LIFETIME
    )
    return lease_state(token=token) if renewed else "lost"


def lease_state(*, token: uuid.UUID) -> LeaseState:
    """Whether a running session may go on, must close, or no longer holds its slot."""
    close_requested = BrowserSessionLease.objects.filter(token=token, slot__isnull=False).values_list(
        "close_requested", flat=True
    )
    found = list(close_requested)
    if not found:
        return "lost"
    return "close_requested" if found[0] else "running"


def lease_release(*, token: uuid.UUID) -> None:
    BrowserSessionLease.objects.filter(token=token).delete()


def leases_close_for_owner(*, owner: User) -> tuple[int, int]:
    """Withdraw the owner's waiting requests and ask their running sessions to close.

    Returns (sessions asked to close, requests withdrawn).
    """
    with transaction.atomic():
        _locked()
        withdrawn, _ = BrowserSessionLease.objects.filter(owner_id=owner.pk, slot__isnull=True).delete()
        asked = BrowserSessionLease.objects.filter(owner_id=owner.pk, slot__isnull=False).update(close_requested=True)
    return asked, withdrawn


def leases_reconcile_dead_holders() -> int:
    """Free the slots of processes on this host that no longer exist (a worker killed outright)."""
    host = socket.gethostname()
    holders = BrowserSessionLease.objects.filter(holder__startswith=f"{host}:").values_list("id", "holder")
    dead = [lease_id for lease_id, holder in holders if holder_died_here(holder)]
    return BrowserSessionLease.objects.filter(id__in=dead).delete()[0] if dead else 0


def queue_place(lease: BrowserSessionLease) -> QueuePlace:
    """The running slot or waiting position of one of the leases a selector returned."""
    position = 0 if lease.slot is not None else _position(lease)
    return QueuePlace(token=lease.token, slot=lease.slot, position=position)
