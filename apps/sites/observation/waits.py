"""Waiting until a page can be read, and reading it.

:func:`wait_until_readable` waits, within a deadline (a ``time.monotonic()``
value), until the page is not loading a new document, has no young data
request open, is not covered by a veil, and its DOM has been quiet for
``QUIET_WINDOW`` — or, for a loaded document that does not change at all
during the check's first ``QUICK_QUIET``, at once (a page immediately
observed as stable needs no extra pause). A DOM that keeps changing for ``DOM_CHANGE_PATIENCE``
(a ticker, an animation driven by script) is read as it is. A request open past ``DATA_REQUEST_PATIENCE`` (long
polling, event streams) no longer delays reading — nor, sooner, a request open
``BACKGROUND_AFTER_VEIL`` when the page covered itself with a loading veil
while its data arrived and has lifted it since (its data is in: what is
still open is a background connection). A check that errors, times
out or answers nonsense proves nothing: the wait looks again, within the same
deadline, and reports ``check_failed`` if it never succeeds.

:func:`read_page` waits, observes, and when the read failed because the page
changed at that moment, waits and reads once more.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal, Protocol

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame, JSHandle, Page

from apps.sites.observation.limits import (
    BACKGROUND_AFTER_VEIL,
    DOM_CHANGE_PATIENCE,
    OBSERVATION_LIMITS,
    OBSERVATION_TIMEOUT,
    QUICK_QUIET,
    QUIET_CHECK_SLICE,
    QUIET_WINDOW,
    VEIL_LOOK_EVERY,
    WAIT_POLL,
)
from apps.sites.observation.page_calls import idle
from apps.sites.observation.reader import observe, run_page_script
from apps.sites.observation.snapshot import ObservationFailed, PageAnswer, Snapshot
from apps.sites.observation.waits_watch import watch_page

Blocker = Literal["navigation", "requests", "veil", "changing", "check_failed", "closed"]
READY_STATES = frozenset({"loading", "interactive", "complete"})
# Time left for the page to answer a check beyond the check's own length.
CHECK_MARGIN_SECONDS = 0.15
# How often a wait looks again at what Playwright's events said (a document or data request
# answered, a navigation or a tab started): reading them costs no page script, so a short
# poll ends the wait soon after the event. In-page checks keep the ``WAIT_POLL`` rhythm.
EVENT_POLL = timedelta(milliseconds=10)
# No quiet window: for callers whose reads carry their own stability check.
LOADED_ONLY = timedelta(0)


@dataclass(frozen=True)
class Readiness:
    """How a wait ended: ``ready``, or what still held when the deadline came."""

    ready: bool
    waited: float
    blockers: tuple[Blocker, ...]
    long_requests: int
    veil_seen: bool
    # Ready although the DOM never stopped changing: read as it is after ``DOM_CHANGE_PATIENCE``.
    still_changing: bool = False


@dataclass(frozen=True)
class _Check:
    ready_state: str
    quiet: bool
    veiled: bool


def pause(page: Page, deadline: float, every: timedelta = WAIT_POLL) -> bool:
    """Let Playwright deliver events for one poll interval, or until the page's watch sees one;
    False when the page is gone."""
    wait_seconds = min(every.total_seconds(), deadline - time.monotonic())
    if wait_seconds > 0:
        try:
            idle(page, wait_seconds, watch_page(page).wake)
        except PlaywrightError:
            return False
    return not page.is_closed()


def _check(frame: Frame, deadline: float, quiet: timedelta, counter: JSHandle | None = None) -> _Check | None:
    """One in-page stability check; None when it errors, times out or answers nonsense."""
    slice_seconds = min(QUIET_CHECK_SLICE.total_seconds(), deadline - time.monotonic() - CHECK_MARGIN_SECONDS)
    request: dict[str, object] = {
        "mode": "readiness",
        "quietMs": quiet.total_seconds() * 1000,
        "quickMs": min(QUICK_QUIET, quiet).total_seconds() * 1000,
        "maxMs": max(0.0, slice_seconds * 1000),
        "limits": OBSERVATION_LIMITS.for_page(),
    }
    if counter is not None:
        request["counter"] = counter
        # The page may still be drawing the last answer it got: the counter's quiet counts only
        # as long after that answer as after the last change.
        answered = watch_page(frame.page).last_data_answer
        request["answeredMsAgo"] = (time.monotonic() - answered) * 1000 if answered is not None else None
    try:
        answer = PageAnswer(run_page_script(frame, request, deadline))
        if not answer.flag("ready"):
            return None
        return _Check(answer.choice("readyState", READY_STATES), answer.flag("quiet"), answer.flag("veiled"))
    except ObservationFailed:
        return None


@dataclass
class _VeilWatch:
    """Whether the page covered itself with a veil while data arrived, and whether it lifted it since."""

    seen: bool = False
    lifted: bool = False
    next_look: float = 0.0

    def look(self, frame: Frame, deadline: float, now: float) -> None:
        if now < self.next_look:
            return
        self.next_look = now + VEIL_LOOK_EVERY.total_seconds()
        glance = _check(frame, deadline, LOADED_ONLY)  # no quiet window: only whether a veil is drawn
        if glance is None:
            return
        if glance.veiled:
            self.seen, self.lifted = True, False
        elif self.seen:
            self.lifted = True


def _parsed(frame: Frame) -> bool:
    """The frame's document has been parsed (Playwright's record of its events: no page script runs)."""
    try:
        frame.wait_for_load_state("domcontentloaded", timeout=1)
    except PlaywrightError:
        return False
    return True


def wait_until_readable(
    page: Page, deadline: float, *, quiet: timedelta = QUIET_WINDOW, counter: JSHandle | None = None
) -> Readiness:
    """Wait until the page can be read, at most until ``deadline``; never a blind sleep.

    ``quiet`` is how long the DOM must have stayed unchanged. A caller that
    checks what it reads by observing again (sign-in evidence has its own
    stability check) may pass ``LOADED_ONLY``: the document parsed and no data
    request young enough to wait for, known from Playwright's events alone
    (no check runs in the page, so a veil is the caller's to see in what it reads).
    ``counter`` is the caller's change counter in the main frame's document (see
    :mod:`apps.sites.acting.settle`): a DOM already unchanged for ``QUICK_QUIET`` by its
    count is stable at the first look.
    """
    watch = watch_page(page)
    # The caller's counter counts one document: a new one (a navigation during the wait) drops it.
    counted_document = watch.mark(page.main_frame) if counter is not None else None
    started = time.monotonic()
    veil_seen = False
    blockers: tuple[Blocker, ...] = ()
    changing_since: float | None = None
    veil = _VeilWatch()
    while True:
        every = WAIT_POLL
        now = time.monotonic()
        if page.is_closed():
            return Readiness(False, now - started, ("closed",), 0, veil_seen)
        if now >= deadline:
            return Readiness(False, now - started, blockers or ("changing",), watch.open_past_patience(), veil_seen)
        main = page.main_frame
        if watch.navigation_pending(main):
            blockers, every = ("navigation",), EVENT_POLL
        elif watch.pending_data():
            blockers, every = ("requests",), EVENT_POLL
            if deadline - now > CHECK_MARGIN_SECONDS:
                veil.look(main, deadline, now)
                veil_seen = veil_seen or veil.seen
            background = BACKGROUND_AFTER_VEIL.total_seconds()
            if veil.lifted and not watch.young_pending_data(background) and deadline - now > CHECK_MARGIN_SECONDS:
                check = _check(main, deadline, quiet)
                if check is not None and check.quiet and not check.veiled and check.ready_state != "loading":
                    watch.read_past(background)
                    return Readiness(True, time.monotonic() - started, (), watch.open_past_patience(), veil_seen)
        elif quiet <= LOADED_ONLY:
            if _parsed(main):
                return Readiness(True, time.monotonic() - started, (), watch.open_past_patience(), veil_seen)
            blockers, every = ("navigation",), EVENT_POLL
        elif deadline - time.monotonic() <= CHECK_MARGIN_SECONDS:
            pass  # no time left for a check: what held last still holds
        else:
            if counted_document is not None and watch.new_document_since(counted_document, main):
                counter = counted_document = None
            check = _check(main, deadline, quiet, counter)
            if check is None and counter is not None:
                counter = counted_document = None  # its document may be gone: check without it
            if check is None:
                blockers = ("check_failed",)
            elif check.ready_state == "loading":
                blockers = ("navigation",)
            elif check.veiled:
                veil_seen, blockers = True, ("veil",)
            elif not check.quiet:
                blockers = ("changing",)
                changing_since = now if changing_since is None else changing_since
                if time.monotonic() - changing_since >= DOM_CHANGE_PATIENCE.total_seconds():
                    # It never holds still (a ticker, an animation driven by script): read it as it is.
                    waited = time.monotonic() - started
                    return Readiness(True, waited, (), watch.open_past_patience(), veil_seen, still_changing=True)
                continue  # the check itself waited
            elif not watch.pending_data() and not watch.navigation_pending(main):
                finished = time.monotonic()
                return Readiness(True, finished - started, (), watch.open_past_patience(), veil_seen)
            else:
                continue
        if not pause(page, deadline, every):
            return Readiness(False, time.monotonic() - started, ("closed",), 0, veil_seen)


class Observer(Protocol):
    def __call__(self, page: Page, *, deadline: float | None = None) -> Snapshot: ...


@dataclass(frozen=True)
class PageRead:
    """A read of the page: the snapshot, or the closed-set reason it could not be taken."""

    snapshot: Snapshot | None
    readiness: Readiness
    attempts: int
    failure: str = ""


# Failures that mean "the page changed under the read", which one more read may fix.
_CHANGED = frozenset({"changed", "navigating"})


def read_page(page: Page, *, deadline: float, observer: Observer = observe) -> PageRead:
    """Wait until readable, then observe; read again once if the page changed at that moment."""
    readiness = wait_until_readable(page, deadline)
    for attempt in (1, 2):
        observe_by = min(deadline, time.monotonic() + OBSERVATION_TIMEOUT.total_seconds())
        try:
            return PageRead(observer(page, deadline=observe_by), readiness, attempt)
        except ObservationFailed as failure:
            if failure.reason not in _CHANGED or attempt == 2:
                return PageRead(None, readiness, attempt, failure.reason)
        readiness = wait_until_readable(page, deadline)
    raise AssertionError("unreachable")  # pragma: no cover
