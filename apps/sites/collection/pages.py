"""Arriving on a page during a collection: reading it, preparing it, and what blocks it.

After a navigation the page is read once it is readable (:func:`read_page`,
which already reads again once when the page changed at that moment). If
that read still fails because the document changed during the check, one
fresh read is allowed on the same page and origin, within
``RECOVERY_READ_TIMEOUT`` and the caller's remaining time; the earlier
result is discarded and no click is repeated. "The same page" is the
address the read started on without its fragment (scheme, host, port, path
and query, :func:`~apps.sites.collection.revisit.page_address`): a reload or a
change of fragment is the same page, another path or query is not, and a
fresh read that would land there is refused (``left_page``). The fresh read
is checked like any other: a challenge or a preparation that needs the user
still blocks.

A loaded page with nothing left to load is observed first and then checked:
a change counter started just before the observation must count no change
through the quiet window the usual wait asks for (:func:`_read_then_check`).
The observation then overlaps that window instead of following it; a page
that changed meanwhile is observed again once it is quiet.

A page may need preparing before it is read for records (rejecting
cookies, closing an overlay): that is the ``prepare_page`` hook, built
elsewhere. A request to verify humanity, or a preparation that needs the
user, blocks the collection: it is never clicked through.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from playwright.sync_api import Page

from apps.sites.acting.settle import mutation_counter, stop_counter
from apps.sites.browser.websites import InvalidOrigin, origin_of
from apps.sites.collection.revisit import page_address
from apps.sites.limits import RECOVERY_READ_TIMEOUT
from apps.sites.observation.humanity import Prose, humanity_request
from apps.sites.observation.limits import OBSERVATION_TIMEOUT
from apps.sites.observation.reader import observe
from apps.sites.observation.snapshot import ObservationFailed, Snapshot
from apps.sites.observation.waits import Observer, PageRead, Readiness, read_page, wait_until_readable
from apps.sites.observation.waits_watch import watch_page

_CHANGED = frozenset({"changed", "navigating"})


@dataclass(frozen=True)
class PreparedPage:
    """What preparing a page did: ``blocked`` names what needs the user (consent pending), else empty."""

    blocked: str = ""
    changed: bool = False


PreparePage = Callable[[Page, Snapshot, float], PreparedPage]


def no_preparation(page: Page, snapshot: Snapshot, deadline: float) -> PreparedPage:
    """A hook that prepares nothing (the executor uses :class:`~apps.sites.collection.preparation.SitePreparation`)."""
    return PreparedPage()


@dataclass(frozen=True)
class Arrival:
    """A read after arriving: the snapshot, or the closed-set reason there is none."""

    snapshot: Snapshot | None
    failure: str = ""
    recovered: bool = False


def _same_page(page: Page, address: str, origin: str) -> bool:
    """Whether ``page`` still shows ``address`` (fragment aside) on ``origin``."""
    try:
        return page_address(page.url) == address and str(origin_of(page.url)) == origin
    except InvalidOrigin:
        return False


def read_arrival(
    page: Page,
    *,
    deadline: float,
    observer: Observer = observe,
    settled: Readiness | None = None,
    look_now: bool = False,
) -> Arrival:
    """Read the page after a navigation, with the one recovery read the spec allows.

    ``settled`` is how the click's own wait ended: a page it found readable
    is observed at once instead of being waited for a second time; with
    ``look_now`` the page is observed as it is (its reader checks what it
    read, and reads again with the usual wait when that is not enough). The
    recovery read happens only on the page the read started on (same
    address without fragment, same origin) and is kept only if the page is
    still there once it is read.
    """
    address = page_address(page.url)
    try:
        origin = str(origin_of(page.url))
    except InvalidOrigin:
        origin = ""
    at_once = look_now or (settled is not None and settled.ready)
    first = _read_settled(page, deadline, observer) if at_once else _read_then_check(page, deadline, observer)
    if first is None:
        first = read_page(page, deadline=deadline, observer=observer)
    if first.snapshot is not None:
        return Arrival(first.snapshot)
    if first.failure not in _CHANGED or not origin or page.is_closed():
        return Arrival(None, first.failure or "unreadable")
    if not _same_page(page, address, origin):
        return Arrival(None, "left_page")
    # The earlier result is discarded, even if part of it was clear.
    recovery_deadline = min(deadline, time.monotonic() + RECOVERY_READ_TIMEOUT.total_seconds())
    second = read_page(page, deadline=recovery_deadline, observer=observer)
    if page.is_closed():
        return Arrival(None, second.failure or "unreadable")
    if not _same_page(page, address, origin):
        return Arrival(None, "left_page")
    if second.snapshot is not None:
        return Arrival(second.snapshot, recovered=True)
    return Arrival(None, second.failure or "unreadable")


def _observe(page: Page, deadline: float, observer: Observer) -> Snapshot:
    """One observation, bounded by ``OBSERVATION_TIMEOUT`` within ``deadline``."""
    return observer(page, deadline=min(deadline, time.monotonic() + OBSERVATION_TIMEOUT.total_seconds()))


def _read_settled(page: Page, deadline: float, observer: Observer) -> PageRead | None:
    """Observe a page already found readable; None (wait and read as usual) when it changed meanwhile."""
    try:
        snapshot = _observe(page, deadline, observer)
    except ObservationFailed:
        return None
    return PageRead(snapshot, Readiness(True, 0.0, (), 0, False), 1)


def _read_then_check(page: Page, deadline: float, observer: Observer) -> PageRead | None:
    """Observe a loaded page at once, then show it stayed unchanged through the quiet window;
    None (wait and read as usual) when it was still loading, veiled or could not be read."""
    watch = watch_page(page)
    main = page.main_frame
    if watch.navigation_pending(main) or watch.pending_data():
        return None
    counter = mutation_counter(main, deadline)
    if counter is None:
        return None
    mark = watch.mark(main)
    stopped = False
    try:
        try:
            snapshot = _observe(page, deadline, observer)
        except ObservationFailed as failure:
            if failure.reason in _CHANGED:
                # The page changed under this first read: it counts as :func:`read_page`'s first
                # attempt, and its one read again follows the usual wait.
                return _read_again(page, deadline, observer)
            return None
        if snapshot.veiled:
            return None
        # The counter started before the observation: its quiet since then is the page's.
        readiness = wait_until_readable(page, deadline, counter=counter)
        if not readiness.ready or watch.new_document_since(mark, main):
            return None
        changes, stopped = stop_counter(main, counter, deadline), True
        if changes is not None and changes[0] == 0:
            return PageRead(snapshot, readiness, 1)
        return _read_settled(page, deadline, observer)  # it changed after the observation and is quiet now
    finally:
        if not stopped:
            stop_counter(main, counter, deadline)


def _read_again(page: Page, deadline: float, observer: Observer) -> PageRead:
    readiness = wait_until_readable(page, deadline)
    try:
        snapshot = _observe(page, deadline, observer)
    except ObservationFailed as failure:
        return PageRead(None, readiness, 2, failure.reason)
    return PageRead(snapshot, readiness, 2)


def challenge_shown(snapshot: Snapshot) -> bool:
    """Whether the page asks to verify humanity (a challenge stays with the user)."""
    blocks = [Prose(panel.text, heading=panel.name) for panel in snapshot.panels if panel.text]
    blocks.append(Prose(snapshot.text))
    return humanity_request(blocks) is not None


_RANGE_TOTAL = re.compile(r"\b\d{1,5}\s*[-\u2013]\s*\d{1,5}\s+(?:of|di|su)\s+(\d{1,6})\b", re.IGNORECASE)


def stated_total(text: str) -> int | None:
    """A total of items the page states as a range of it ("Showing 1-10 of 23", "1-10 di 23"), if any.

    Bare counts ("3 bills") are not totals: a page says them of anything.
    """
    found = [int(match.group(1)) for match in _RANGE_TOTAL.finditer(text)]
    return max(found) if found else None
