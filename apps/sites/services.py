"""Services of the managed browser that change state."""

from __future__ import annotations

from dataclasses import dataclass

from apps.accounts.models import User
from apps.sites.browser.jobs import browser_jobs_withdraw
from apps.sites.browser.slots import leases_close_for_owner


@dataclass(frozen=True)
class WebSessionsClosed:
    """What "Close the web sessions" did: running sessions asked to end, waiting requests withdrawn."""

    ended: int
    withdrawn: int


def web_sessions_close(*, owner: User) -> WebSessionsClosed:
    """End the owner's web sessions, wherever they run, and withdraw the ones still waiting.

    A running session notices within a second, stops every further request,
    keeps the owner's browser data (cookies and storage are saved as usual)
    and frees its browser; one that does not close itself in time has its
    browser ended. Browser jobs no worker has started yet are withdrawn with
    the waiting requests. Preferences and website data are never changed or
    deleted. Other owners' sessions are untouched.
    """
    ended, withdrawn = leases_close_for_owner(owner=owner)
    return WebSessionsClosed(ended=ended, withdrawn=withdrawn + browser_jobs_withdraw(owner=owner))
