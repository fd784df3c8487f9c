"""What followed a click: a navigation, an answer in place, or nothing.

After the click the page may navigate (possibly late: scripts start
navigations after a delay), answer in place with a data request, or change
nothing. Evidence ends the wait early: a data request started by the click
that has answered, followed by a quiet page, ends it at once (an answer the
page has not drawn yet gets ``DRAW_PATIENCE`` to be drawn). Without
evidence the wait gives a navigation ``NAVIGATION_START_GRACE`` to start.
A new tab or popup ends the wait at once: the caller goes on in it (the page
that opened it is not waited for). When only the address changed (a
same-document route), the page may draw the new view later: the wait gives
it ``DRAW_PATIENCE`` to change its content.

A caller that clicks a control expected to change the page in place (a
button without an address: a tab, a menu, "details") may say so: then
content the click drew in place, with no data asked for, is evidence too:
a navigation then has ``DRAWN_NAVIGATION_GRACE`` to start (and is waited
for if it does), and the wait ends once the page is quiet rather than after
the whole navigation grace.

A caller that can tell for itself whether what it needs has appeared (the
collection revealing a row's details) may ask to look as soon as the click
drew something in place (``look_when_drawn``): the wait then ends at the
first change, even while data asked for by the click is still on its way
(``drawn_early``; the page was not waited for). Whoever asks looks, and waits
the usual way when what it needs is not there yet.
"""

from __future__ import annotations

import time
from contextlib import suppress
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from playwright.sync_api import Frame, JSHandle, Page

from apps.sites.observation.limits import (
    DRAW_PATIENCE,
    DRAWN_NAVIGATION_GRACE,
    NAVIGATION_START_GRACE,
    QUIET_WINDOW,
)
from apps.sites.observation.reader import page_script_handle, run_page_script
from apps.sites.observation.scripts import script_beside
from apps.sites.observation.snapshot import ObservationFailed, PageAnswer
from apps.sites.observation.waits import EVENT_POLL, Readiness, pause, wait_until_readable
from apps.sites.observation.waits_watch import PageWatch, WatchMark

ClickEffect = Literal["navigated", "updated_in_place", "no_change"]
# What ended the wait after the click: a navigation seen, an answer in place
# (data asked and answered), a new tab or popup, the document gone, or the navigation grace elapsed.
Evidence = Literal[
    "navigation", "answer_in_place", "drawn_in_place", "drawn_early", "new_page", "document_gone", "grace_elapsed"
]
# Requests that are an answer in place; a script or a document is not.
ANSWER_TYPES = frozenset({"fetch", "xhr"})


# The change counter and the calls made on it (settle.js) are a few lines of their own: each call
# sends them, not the whole page script.
_COUNTER_SCRIPT = script_beside(__file__, "settle.js", "counter")
_PRESS_SCRIPT = script_beside(__file__, "settle.js", "press")
_RECOUNT_SCRIPT = script_beside(__file__, "settle.js", "recount")
_COUNT_SCRIPT = script_beside(__file__, "settle.js", "count")
_STOP_IF_CHANGED_SCRIPT = script_beside(__file__, "settle.js", "stop_if_changed")
_STOP_SCRIPT = script_beside(__file__, "settle.js", "stop")


def mutation_counter(frame: Frame, deadline: float) -> JSHandle | None:
    """A handle to an in-page counter of DOM changes (nothing on the page changes)."""
    try:
        return page_script_handle(frame, {}, deadline, script=_COUNTER_SCRIPT)
    except ObservationFailed:
        return None


def _counted(frame: Frame, counter: JSHandle | None, deadline: float, script: str) -> tuple[int, int] | None:
    if counter is None:
        return None
    try:
        answer = PageAnswer(run_page_script(frame, {"counter": counter}, deadline, script=script))
        return answer.count("count"), answer.count("content")
    except ObservationFailed:
        return None


def _changes(frame: Frame, counter: JSHandle | None, deadline: float) -> tuple[int, int] | None:
    """(all changes, content changes) since the counter started; None when unreadable."""
    return _counted(frame, counter, deadline, _COUNT_SCRIPT)


def stop_counter(frame: Frame, counter: JSHandle | None, deadline: float) -> tuple[int, int] | None:
    """Disconnect the counter; its last (all changes, content changes), None when unreadable."""
    return _counted(frame, counter, max(deadline, time.monotonic() + 0.5), _STOP_SCRIPT)


@dataclass(frozen=True)
class Settled:
    effect: ClickEffect
    evidence: Evidence
    readiness: Readiness
    seconds: float  # from just before the click to the end of the wait


class Settling:
    """The click's frame, the watch and the marks taken just before the click."""

    def __init__(
        self,
        page: Page,
        frame: Frame,
        watch: PageWatch,
        deadline: float,
        *,
        quiet: timedelta = QUIET_WINDOW,
        expect_in_place: bool = False,
        look_when_drawn: bool = False,
    ) -> None:
        self.page = page
        self.quiet = quiet
        self.expect_in_place = expect_in_place or look_when_drawn
        self.look_when_drawn = look_when_drawn
        self.frame = frame
        self.watch = watch
        self.deadline = deadline
        self.counter = mutation_counter(frame, deadline)
        self.counter_stopped = False
        self.restart_marks()

    def restart_marks(self) -> None:
        """What the page's events said just before the click (the counter may have started earlier)."""
        self.mark: WatchMark = self.watch.mark(self.frame)
        self.dispatched_at = self.mark.at
        self.main_mark: WatchMark = self.watch.mark(self.page.main_frame)

    def live_counter(self) -> JSHandle | None:
        """The change counter while it counts (an aimed press sets its guard on it)."""
        return None if self.counter_stopped else self.counter

    def press_blocked(self) -> bool:
        """The guard of an aimed press blocked it: it landed elsewhere, and nothing received it.
        Unreadable (the press took the page to another document) is not blocked."""
        if self.counter is None or self.counter_stopped:
            return False
        try:
            answer = PageAnswer(
                run_page_script(self.frame, {"counter": self.counter}, self.deadline, script=_PRESS_SCRIPT)
            )
            return answer.flag("blocked")
        except ObservationFailed:
            return False

    def recount_after_scroll(self) -> None:
        """Count again once the page drew what a scroll set off (two frames, before the click's own
        checks end); the call does not wait for them. A counter that cannot be told counts on."""
        if self.counter is not None and not self.counter_stopped:
            with suppress(ObservationFailed):
                run_page_script(self.frame, {"counter": self.counter}, self.deadline, script=_RECOUNT_SCRIPT)

    def abandon(self) -> None:
        """No click after all: the counter is stopped."""
        if not self.counter_stopped:
            stop_counter(self.frame, self.counter, self.deadline)
            self.counter_stopped = True

    def navigated(self) -> bool:
        main = self.page.main_frame
        return self.watch.navigated_since(self.mark, self.frame) or self.watch.navigated_since(self.main_mark, main)

    def new_document(self) -> bool:
        main = self.page.main_frame
        return self.watch.new_document_since(self.mark, self.frame) or self.watch.new_document_since(
            self.main_mark, main
        )

    def asked_for_data(self) -> bool:
        """A fetch or XHR started since the click: the page is answering in place."""
        return any(request.resource_type in ANSWER_TYPES for request in self.watch.data_requests_since(self.mark))

    def answered_in_place(self) -> bool:
        """The click asked for data only, and every request since has answered."""
        requests = self.watch.data_requests_since(self.mark)
        return self.asked_for_data() and not any(self.watch.is_open(request) for request in requests)

    def _readable(self) -> Readiness:
        return wait_until_readable(self.page, self.deadline, quiet=self.quiet, counter=self._main_counter())

    def _main_counter(self) -> JSHandle | None:
        """The change counter, when it counts the main frame's document still (a readiness check's)."""
        if self.counter is None or self.frame is not self.page.main_frame or self.new_document():
            return None
        return self.counter

    def _drawn(self) -> bool:
        """The click changed the frame's DOM (content or attributes: a menu shown) since it was dispatched."""
        changes = _changes(self.frame, self.counter, self.deadline)
        return changes is not None and changes[0] > 0

    def _nothing_drawn(self) -> bool:
        """The frame's content has not changed since the click (a counter that cannot be read says so)."""
        changes = _changes(self.frame, self.counter, self.deadline)
        return changes is not None and changes[1] == 0

    def _drawn_stopping(self) -> bool:
        """:meth:`_drawn`, the counter stopped in the same call when it counted a change."""
        changes = _counted(self.frame, self.counter, self.deadline, _STOP_IF_CHANGED_SCRIPT)
        drawn = changes is not None and changes[0] > 0
        self.counter_stopped = self.counter_stopped or drawn
        return drawn

    def _drawn_in_place(self) -> Settled:
        """Drawn in place: a navigation still has ``DRAWN_NAVIGATION_GRACE`` to start, then the page settles."""
        grace_end = min(self.deadline, self.dispatched_at + DRAWN_NAVIGATION_GRACE.total_seconds())
        while not self.navigated() and not self.asked_for_data() and time.monotonic() < grace_end:
            if not pause(self.page, grace_end, EVENT_POLL):
                break
        if self.navigated():
            return self._settled("navigated", "navigation", self.after_navigation())
        readiness = self._readable()
        if self.navigated():
            return self._navigated_after(readiness)
        return self._settled("updated_in_place", "drawn_in_place", readiness)

    def _drawn_early(self) -> Settled:
        """Drawn in place, looked at at once: not waited for (not ``ready``); what holds is said."""
        pending = self.watch.pending_data()
        waited = time.monotonic() - self.mark.at
        readiness = Readiness(False, waited, ("requests",) if pending else ("changing",), 0, False)
        return self._settled("updated_in_place", "drawn_early", readiness)

    def _await_drawing(self) -> None:
        """Only the address changed, or only data answered: give the page time to draw the new view."""
        draw_by = min(self.deadline, time.monotonic() + DRAW_PATIENCE.total_seconds())
        while time.monotonic() < draw_by and not self.new_document():
            changes = _changes(self.frame, self.counter, draw_by)
            if changes is None or changes[1] > 0:
                return
            if not pause(self.page, draw_by):
                return

    def after_navigation(self) -> Readiness:
        if not self.new_document():
            self._await_drawing()
        return self._readable()

    def settle(self) -> Settled:
        # The graces count from the click's dispatch: Playwright's own checks before it (longer on a
        # busy machine) are no time the page had to start a navigation.
        self.dispatched_at = time.monotonic()
        try:
            return self._settle()
        finally:
            if not self.counter_stopped and not self.new_document():
                stop_counter(self.frame, self.counter, self.deadline)

    def _navigated_after(self, readiness: Readiness) -> Settled:
        """A navigation seen once a readiness wait ended: a new document that wait already found
        readable (it waits out pending navigations) is not waited for a second time."""
        if readiness.ready and self.new_document():
            return self._settled("navigated", "navigation", readiness)
        return self._settled("navigated", "navigation", self.after_navigation())

    def _opened_page(self) -> Settled:
        """A new tab or popup: the caller can use it now. This page was not waited for (not ``ready``)."""
        changes = stop_counter(self.frame, self.counter, self.deadline)  # read and stopped in one call
        self.counter_stopped = True
        effect: ClickEffect = "updated_in_place" if changes is not None and changes[0] else "no_change"
        waited = time.monotonic() - self.mark.at
        return self._settled(effect, "new_page", Readiness(False, waited, (), 0, False))

    def _settled(self, effect: ClickEffect, evidence: Evidence, readiness: Readiness) -> Settled:
        return Settled(effect, evidence, readiness, time.monotonic() - self.mark.at)

    def _settle(self) -> Settled:
        grace_end = min(self.deadline, self.dispatched_at + NAVIGATION_START_GRACE.total_seconds())
        while True:
            if self.navigated():
                return self._settled("navigated", "navigation", self.after_navigation())
            if self.answered_in_place():
                readiness = self._readable()
                if not self.navigated() and self._nothing_drawn():
                    # The answer came, the page has not drawn it yet ("Load more": rows a moment later).
                    self._await_drawing()
                    readiness = self._readable()
                if not self.navigated():
                    return self._settled("updated_in_place", "answer_in_place", readiness)
                return self._navigated_after(readiness)  # the answer sent the page elsewhere
            if self.watch.popups_since(self.mark):
                return self._opened_page()
            if self.look_when_drawn and self._drawn_stopping():
                return self._drawn_early()
            if self.expect_in_place and not self.asked_for_data() and self._drawn():
                return self._drawn_in_place()
            # Once data was asked for, its answer is awaited past the grace (while
            # it is young enough to be waited for at all).
            awaiting = self.asked_for_data() and self.watch.pending_data() > 0
            until = self.deadline if awaiting else grace_end
            if time.monotonic() >= until or not pause(self.page, until, EVENT_POLL):
                break
        readiness = self._readable()
        if self.navigated():
            return self._navigated_after(readiness)
        changes = _changes(self.frame, self.counter, self.deadline)
        if changes is None:
            # The counter went away with its document: the frame was replaced.
            return self._settled("navigated", "document_gone", readiness)
        return self._settled("updated_in_place" if changes[0] else "no_change", "grace_elapsed", readiness)
