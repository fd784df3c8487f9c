"""The watch beside each live session: renews its lease and ends it when it must end.

It runs in its own thread (the session's thread is busy with Playwright and
may not touch the database) and:

* renews the slot's lease, so the slot stays this session's while it lives;
* looks for "Close the web sessions" every second and ends the session;
* ends the session at its deadline;
* ends the browser by force when the session has not closed itself within
  the grace time, and at once when the lease was lost — another request may
  already hold the slot, and a ninth browser must never run.
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import TYPE_CHECKING

from django.db import DatabaseError, connection
from django.utils import timezone

from apps.core.background_watch import BackgroundWatch
from apps.sites.browser.processes import browser_kill
from apps.sites.browser.slots import LeaseState, lease_renew, lease_state
from apps.sites.limits import BROWSER_CLOSE_CHECK_EVERY, BROWSER_CLOSE_GRACE, BROWSER_LEASE_RENEW_EVERY

if TYPE_CHECKING:
    from apps.sites.browser.sessions import BrowserSession

logger = logging.getLogger(__name__)

_GRACE_SECONDS = BROWSER_CLOSE_GRACE.total_seconds()


class SessionWatch(BackgroundWatch):
    thread_name = "metnos-session-watch"

    def __init__(self, session: BrowserSession, *, token: str) -> None:
        super().__init__()
        self._session = session
        self._token = token
        self.forced = False

    def _run(self) -> None:
        token = uuid.UUID(self._token)
        renew_every = BROWSER_LEASE_RENEW_EVERY.total_seconds()
        last_renewal = time.monotonic()
        ending_since: float | None = None
        try:
            while not self._stopping.wait(BROWSER_CLOSE_CHECK_EVERY.total_seconds()):
                renewal_due = time.monotonic() - last_renewal >= renew_every
                state = self._lease_state(token, renew=renewal_due)
                if renewal_due and state is not None:
                    last_renewal = time.monotonic()
                self._apply(state)
                if self._session.outcome is not None and ending_since is None:
                    ending_since = time.monotonic()
                overdue = ending_since is not None and time.monotonic() - ending_since > _GRACE_SECONDS
                if (state == "lost" or overdue) and not self.forced:
                    self.forced = True
                    browser_kill(self._token)
        finally:
            connection.close()

    def _lease_state(self, token: uuid.UUID, *, renew: bool) -> LeaseState | None:
        try:
            if renew:
                return lease_renew(token=token)
            return lease_state(token=token)
        except DatabaseError:
            # A busy or briefly unreachable database: the lease outlives a few missed checks.
            logger.warning("browser session watch could not reach the database")
            return None

    def _apply(self, state: LeaseState | None) -> None:
        if state == "lost":
            self._session.end("lease_lost")
        elif state == "close_requested":
            self._session.end("closed_by_user")
        deadline = self._session.deadline
        if deadline is not None and timezone.now() >= deadline:
            self._session.end("deadline_exceeded")
