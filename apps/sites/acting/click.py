"""Clicking an observed control safely.

Before the click the control is checked again: the same frame, the same
document (not replaced since it was observed) and exactly one element with
the same identity (role, accessible name, visible text, section title, row
text, structural fingerprint). The check only reads the page; it never
writes identifiers into it. Zero matches, several matches, a control hidden
or covered, or a replaced document stop before anything is dispatched.

A control in the top document is pressed by the browser's mouse at a point
one page call checked (found again, holding still, hit at its centre), behind
a guard that lets the press through only to the control; a control in a frame
is clicked by Playwright on its element.

A :class:`ClickApproval` authorises one click and is spent the moment the
click is invoked. An error or timeout during the click does not prove that
nothing happened (``dispatch_error_effect_unknown``) and does not authorise
another click; a fresh observation may clarify the state, without resending.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from playwright.sync_api import ElementHandle, Frame, JSHandle, Page
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from apps.sites.acting.settle import ClickEffect, Evidence, Settling
from apps.sites.observation.limits import ACTIONABILITY_TIMEOUT, OBSERVATION_LIMITS, QUIET_WINDOW
from apps.sites.observation.page_calls import press_within
from apps.sites.observation.reader import frames_at, page_script_handle, remaining_ms, run_page_script
from apps.sites.observation.scripts import script_beside
from apps.sites.observation.snapshot import Control, FramePath, ObservationFailed, PageAnswer
from apps.sites.observation.waits import CHECK_MARGIN_SECONDS, Readiness
from apps.sites.observation.waits_watch import PageWatch, watch_page

# The plain facts of a page-script answer, in one round trip (each property read would be two).
FOUND_FACTS = script_beside(__file__, "click.js", "found_facts")
_SAME_ELEMENT = script_beside(__file__, "click.js", "same_element")

ClickKind = Literal[
    "dispatched", "not_found", "changed", "ambiguous", "dispatch_error_effect_unknown", "approval_spent"
]


class ClickApproval:
    """Authority to invoke one click on one observed control, spent when the click is invoked."""

    def __init__(self, control: Control) -> None:
        self.control = control
        self._spent = False

    @property
    def spent(self) -> bool:
        return self._spent

    def spend(self) -> None:
        self._spent = True

    def refund(self) -> None:
        """The click was never sent (Playwright's own checks stopped it first): the approval is whole again."""
        self._spent = False


@dataclass(frozen=True)
class ClickOutcome:
    """What happened. ``reason`` and ``error_type`` come from closed sets, never page data.

    ``invoked`` is True once the click was invoked, whatever followed: the
    approval is spent and the click must not be sent again. ``evidence`` says
    what ended the wait after the click and ``settle_seconds`` how long it took.
    """

    kind: ClickKind
    reason: str = ""
    effect: ClickEffect | None = None
    readiness: Readiness | None = None
    new_pages: tuple[Page, ...] = ()
    error_type: str = ""
    evidence: Evidence | None = None
    settle_seconds: float = 0.0

    @property
    def invoked(self) -> bool:
        return self.kind in ("dispatched", "dispatch_error_effect_unknown")


class Refused(Exception):
    """A check before acting failed; ``outcome`` says how, and nothing was sent."""

    def __init__(self, kind: ClickKind, reason: str) -> None:
        super().__init__(reason)
        self.outcome = ClickOutcome(kind, reason)


def failed_read(failure: ObservationFailed) -> Refused:
    if failure.reason in ("changed", "navigating"):
        return Refused("changed", "document_replaced")
    return Refused("not_found", failure.reason)


def frame_at(page: Page, path: FramePath) -> Frame:
    """The one frame at ``path``; refused otherwise. Its document is checked by the lookup in it."""
    frames = frames_at(page, path)
    if not frames:
        raise Refused("changed", "frame_gone")
    if len(frames) > 1:
        raise Refused("ambiguous", "several_frames")
    return frames[0]


def check_document(answer: PageAnswer, document: str) -> None:
    """A lookup's answer came from the document observed (``timeOrigin``); refused otherwise."""
    if answer.text("timeOrigin", 64) != document:
        raise Refused("changed", "document_replaced")


def find_control(frame: Frame, control: Control, deadline: float) -> ElementHandle:
    """The one element with the control's identity, read without touching the page."""
    return _find(frame, control, deadline)[0]


def _find(frame: Frame, control: Control, deadline: float) -> tuple[ElementHandle, bool]:
    """:func:`find_control`'s element, and whether it lies wholly inside the viewport."""
    request = _lookup_request(control, "find")
    try:
        handle = page_script_handle(frame, request, deadline)
        clean = handle.as_element()
        if clean is not None:  # one match, reachable, enabled and in view, in the observed document
            return clean, True
        answer = PageAnswer(handle.evaluate(FOUND_FACTS, ["matches", "reachable", "enabled", "inView", "timeOrigin"]))
        check_document(answer, control.document)
        element = handle.get_property("element").as_element()
    except ObservationFailed as failure:
        raise failed_read(failure) from failure
    except PlaywrightError as error:
        raise Refused("changed", "document_replaced") from error
    _refuse(answer, handed_over=element is not None)
    if element is None:  # refused above; said again for the type checker
        raise Refused("ambiguous", "several_matches")
    return element, answer.flag("inView")


def _lookup_request(control: Control, mode: str) -> dict[str, object]:
    """A page-script lookup of the control by its identity, in the document it was observed in."""
    identity = control.identity
    return {
        "mode": mode,
        "document": control.document,
        "limits": OBSERVATION_LIMITS.for_page(),
        "identity": {
            "role": identity.role,
            "name": identity.name,
            "text": identity.text,
            "section": identity.section,
            "row": identity.row,
            "fingerprint": identity.fingerprint,
        },
    }


def _refuse(answer: PageAnswer, *, handed_over: bool = True) -> None:
    """The refusal a lookup's facts call for (the first check that failed), if any; a lookup that
    handed over no element for its one match is ambiguous."""
    matches = answer.count("matches")
    if matches == 0:
        raise Refused("not_found", "no_match")
    if matches > 1 or not handed_over:
        raise Refused("ambiguous", "several_matches")
    if answer.flag("scrolled") and not answer.flag("same"):
        raise Refused("changed", "element_replaced")  # the page drew it again as it scrolled
    if not answer.flag("reachable"):
        raise Refused("not_found", "covered")
    if not answer.flag("enabled"):
        raise Refused("not_found", "disabled")


def _same_element(first: ElementHandle, second: ElementHandle) -> bool:
    try:
        return first.evaluate(_SAME_ELEMENT, second) is True
    except PlaywrightError:
        return False


def _prepare(frame: Frame, control: Control, settling: Settling, deadline: float) -> ElementHandle:
    """Check the control again in its frame; the element for Playwright's click, or a refusal.

    A control out of view, or in a frame, is scrolled into view by Playwright's trial click and
    checked again; the change counter counts from the second frame after (what a scroll draws,
    lazy content, is not the click's doing). Playwright's click then checks again that the
    element is visible, stable, enabled and hit before it presses, and a click those checks stop
    is refunded.
    """
    element, in_view = _find(frame, control, deadline)
    if in_view and not control.frame_path:
        return element
    try:
        # Playwright's actionability checks (visible, stable, enabled, receives the pointer)
        # scroll the frame and the element into view; nothing is dispatched.
        element.click(trial=True, timeout=min(remaining_ms(deadline), ACTIONABILITY_TIMEOUT.total_seconds() * 1000))
    except PlaywrightError as error:
        raise Refused("not_found", "not_actionable") from error
    settling.recount_after_scroll()
    # Scrolling may have changed the page: the final check, again read-only. An element of a
    # replaced document is never the same element (its handle no longer answers).
    if not _same_element(element, find_control(frame, control, deadline)):
        raise Refused("changed", "element_replaced")
    return element


def _stopped_before_dispatch(error: PlaywrightError) -> bool:
    """Playwright's call log shows it tried the click but never performed it (its checks never passed).

    Without that log, or once it says it performed the click, nothing is known: the click may have acted.
    """
    log = str(error)
    return "attempting click action" in log and "performing click action" not in log


def click(
    page: Page,
    control: Control,
    *,
    approval: ClickApproval,
    deadline: float,
    quiet: timedelta = QUIET_WINDOW,
    expect_in_place: bool = False,
    look_when_drawn: bool = False,
) -> ClickOutcome:
    """Click an observed control once, then wait for what follows, within ``deadline``.

    Refusals (``not_found``, ``changed``, ``ambiguous``) dispatch nothing and
    leave the approval unspent. Once the click is invoked the approval is
    spent: ``dispatched`` says what followed (``navigated``,
    ``updated_in_place`` or ``no_change``) and how the wait ended;
    ``dispatch_error_effect_unknown`` says the click may or may not have acted.
    ``quiet`` is the wait's quiet window (see :func:`apps.sites.observation.waits.wait_until_readable`);
    ``expect_in_place`` lets content drawn in place end the wait, and ``look_when_drawn`` ends it at
    the first change, data still on its way (:mod:`apps.sites.acting.settle`).
    """
    if approval.control != control:
        raise ValueError("the approval is for another control")
    if approval.spent:
        return ClickOutcome("approval_spent")
    watch = watch_page(page)
    try:
        if control.ambiguous:
            raise Refused("ambiguous", "ambiguous_when_observed")
        frame = frame_at(page, control.frame_path)
    except Refused as refusal:
        return refusal.outcome
    # The change counter starts before the lookup: the lookup's element handle makes Playwright
    # prepare its own script in the page, and a call queued behind that would wait for it.
    settling = Settling(
        page, frame, watch, deadline, quiet=quiet, expect_in_place=expect_in_place, look_when_drawn=look_when_drawn
    )
    counter = settling.live_counter()
    if not control.frame_path and counter is not None:
        stopped = _press_at_aim(page, frame, control, settling, counter, approval, deadline)
    else:
        stopped = _press_element(frame, control, settling, approval, deadline)
    if stopped is not None:
        return stopped
    return settled_outcome(settling, watch)


def settled_outcome(settling: Settling, watch: PageWatch) -> ClickOutcome:
    """Wait for what a dispatched action set off, and say what followed (a click's or a choice's)."""
    settled = settling.settle()
    return ClickOutcome(
        "dispatched",
        effect=settled.effect,
        readiness=settled.readiness,
        new_pages=watch.popups_since(settling.mark),
        evidence=settled.evidence,
        settle_seconds=settled.seconds,
    )


def _press_at_aim(
    page: Page,
    frame: Frame,
    control: Control,
    settling: Settling,
    counter: JSHandle,
    approval: ClickApproval,
    deadline: float,
) -> ClickOutcome | None:
    """A control in the top document: the browser's mouse presses the point one page call checked
    (:func:`_aim`); the press goes through only to the control. None once it went through."""
    try:
        x, y = _aim(frame, control, counter, deadline)
    except Refused as refusal:
        settling.abandon()
        return refusal.outcome
    settling.restart_marks()
    approval.spend()
    try:
        press_within(page, x, y, timeout_ms=_press_timeout_ms(deadline))
    except PlaywrightError as error:
        settling.abandon()
        return effect_unknown(error)
    if settling.press_blocked():
        # Something else came under the point after the check: the guard kept the press from it.
        settling.abandon()
        approval.refund()
        return ClickOutcome("not_found", "covered")
    return None


def _aim(frame: Frame, control: Control, counter: JSHandle, deadline: float) -> tuple[float, float]:
    """Where to press: the control found again (scrolled into view first if need be), holding still
    over two frames, hit at its centre, and a guard set on ``counter``; else a refusal."""
    request = _lookup_request(control, "aim")
    request["counter"] = counter
    margin_ms = CHECK_MARGIN_SECONDS * 1000  # left for the page to answer once its checks are over
    request["maxMs"] = min(ACTIONABILITY_TIMEOUT.total_seconds() * 1000, max(0.0, remaining_ms(deadline) - margin_ms))
    try:
        answer = PageAnswer(run_page_script(frame, request, deadline))
    except ObservationFailed as failure:
        raise failed_read(failure) from failure
    check_document(answer, control.document)
    if answer.flag("aimed"):
        return answer.number("x"), answer.number("y")
    _refuse(answer)
    if "stable" in answer.raw and not answer.flag("stable"):
        raise Refused("not_found", "not_actionable")  # it never held still
    raise Refused("not_found", "covered")  # another element takes the press at its centre


def _press_element(
    frame: Frame, control: Control, settling: Settling, approval: ClickApproval, deadline: float
) -> ClickOutcome | None:
    """A control in a frame: Playwright's click on its element (its own checks, refunded when they
    stop it before it presses). None once it was sent."""
    try:
        element = _prepare(frame, control, settling, deadline)
    except Refused as refusal:
        settling.abandon()
        return refusal.outcome
    settling.restart_marks()
    approval.spend()
    try:
        element.click(timeout=_press_timeout_ms(deadline), no_wait_after=True)
    except PlaywrightError as error:
        settling.abandon()
        if _stopped_before_dispatch(error):
            approval.refund()
            return ClickOutcome("not_found", "not_actionable", error_type=type(error).__name__)
        return effect_unknown(error)
    return None


def _press_timeout_ms(deadline: float) -> float:
    return max(1.0, min(remaining_ms(deadline), ACTIONABILITY_TIMEOUT.total_seconds() * 1000))


def effect_unknown(error: PlaywrightError) -> ClickOutcome:
    """The press was sent and then failed: it may have acted, and it is never sent again."""
    reason = "timeout" if isinstance(error, PlaywrightTimeoutError) else "error"
    return ClickOutcome("dispatch_error_effect_unknown", reason, error_type=type(error).__name__)


def deadline_in(seconds: float) -> float:
    """A deadline ``seconds`` from now, as the functions here take them."""
    return time.monotonic() + seconds
