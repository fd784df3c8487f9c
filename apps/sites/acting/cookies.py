"""Rejecting cookies: reject optional choices, never accept, and pause when unsure.

:func:`reject_cookies` reads the page and handles each consent notice
(:mod:`apps.sites.acting.cookie_labels`) in turn, then reads again, so a notice
that appears after the first is handled too; callers run
:func:`consent_clear_before_submission` right before submitting anything.

For one notice, rejection needs the pair *panel identity, control identity*:
the panel is a consent notice by its own words, and the rejecting control
belongs to that same panel (same panel, same frame) with a label that means
rejection. In order of preference:

1. a rejecting control in the notice ("Reject all", "Accetta solo i necessari");
2. else its settings control ("Manage preferences"), once; in the second
   layer a rejecting control, or every optional toggle switched *off* (never
   on) and then the save control — provided a last read of the panel finds
   no switchable toggle still on;
3. else pause and ask: only acceptance offered ("Got it"), labels unclear,
   a toggle whose state cannot be read.

A close control, a navigation menu, a link to another page or a promotion
is never rejection. Every click goes through :func:`acting.click` with its
own approval, and no control is clicked twice. After the rejecting click the
panel is given ``CLOSE_PATIENCE`` to close, watched by observing only —
no second click, no model. Decisions are remembered per owner
(:class:`ConsentMemory`) and checked again against the page before use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from apps.sites.acting.cookie_labels import (
    PRESS_ROLES,
    TOGGLE_ROLES,
    clean_label,
    consent_panels,
    control_meaning,
    is_necessary,
    notice_outside_panels,
)
from apps.sites.acting.cookie_memory import ConsentMemory, NoticeIdentity, notice_identity
from apps.sites.acting.overlay_elements import exit_kind, toggle_state, toggles_on_around
from apps.sites.acting.overlay_steps import PanelProcedure, Stop
from apps.sites.browser.diagnostics import ActionDiagnostic
from apps.sites.observation.snapshot import Control, Panel, Snapshot

CookieKind = Literal["rejected", "no_notice", "paused", "failed"]
PauseReason = Literal[
    "only_accept",
    "no_rejection",
    "unclear_labels",
    "ambiguous_rejection",
    "settings_unclear",
    "toggle_unreadable",
    "optional_locked_on",
    "toggle_stayed_on",
    "optional_still_on",
    "notice_still_open",
    "notice_outside_panel",
    "too_many_notices",
]
FailReason = Literal["unreadable", "click_refused", "click_effect_unknown", "browser_error", "deadline"]

# A page may stack notices (cookies, then partners); past this many, ask.
MAX_NOTICES = 3


@dataclass(frozen=True)
class CookieOutcome:
    """How the cookie procedure ended; ``reason`` is from a closed set, never page data."""

    kind: CookieKind
    reason: str = ""
    notices: int = 0  # notices rejected
    clicks: int = 0
    diagnostics: tuple[ActionDiagnostic, ...] = ()

    @property
    def clear(self) -> bool:
        """Nothing stands in the way of going on: rejected, or there was no notice."""
        return self.kind in ("rejected", "no_notice")


class _Rejection(PanelProcedure):
    """One run of the procedure on one page."""

    def __init__(self, page: Page, memory: ConsentMemory, deadline: float) -> None:
        super().__init__(page, deadline, "cookies")
        self.memory = memory
        self.notices = 0

    def wait_closed(self, panel: Panel) -> None:
        self.wait_gone((panel.frame_path, panel.key), still_open="notice_still_open")

    # --- deciding ------------------------------------------------------------

    def _identity(self, snapshot: Snapshot, panel: Panel) -> NoticeIdentity:
        return notice_identity(snapshot.url, panel)

    def _stays(self, control: Control) -> bool:
        """A link to another document is navigation, not rejection."""
        if control.role != "link" or not control.href:
            return True
        return exit_kind(self.page, control, self.deadline) == "stays"

    def rejecting_control(self, snapshot: Snapshot, panel: Panel) -> Control | None:
        """The panel's one rejecting control, the remembered one first when it still reads as rejection."""
        notice = self._identity(snapshot, panel)
        controls = snapshot.panel_controls(panel)
        remembered = self.memory.recall(notice)
        if remembered is not None:
            again = [c for c in controls if c.identity == remembered and control_meaning(c) == "reject"]
            if len(again) == 1 and not again[0].ambiguous and again[0].enabled and self._stays(again[0]):
                return again[0]
            self.memory.forget(notice)
        candidates = [
            control
            for control in controls
            if control.role in PRESS_ROLES and control.enabled and control_meaning(control) == "reject"
        ]
        if not candidates:
            return None
        if any(control.ambiguous for control in candidates):
            raise Stop("paused", "ambiguous_rejection")
        staying = [control for control in candidates if self._stays(control)]
        if not staying:
            return None
        # Per-vendor "Reject" buttons sit in rows of their own; the notice-wide one does not.
        free = [c for c in staying if clean_label(c.row) in ("", clean_label(c.label))] or staying
        if len({clean_label(control.label) for control in free}) > 1:
            raise Stop("paused", "ambiguous_rejection")
        return free[0]

    def one_of(self, controls: list[Control], unclear: PauseReason) -> Control | None:
        if not controls:
            return None
        if len({clean_label(control.label) for control in controls}) > 1 or controls[0].ambiguous:
            raise Stop("paused", unclear)
        return controls[0]

    def meaning_controls(self, snapshot: Snapshot, panel: Panel, meaning: str) -> list[Control]:
        return [
            control
            for control in snapshot.panel_controls(panel)
            if control.role in PRESS_ROLES
            and control.enabled
            and control_meaning(control) == meaning
            and self._stays(control)
        ]

    def cannot_reject(self, snapshot: Snapshot, panel: Panel) -> Stop:
        meanings = {control_meaning(control) for control in snapshot.panel_controls(panel)}
        if "unclear" in meanings:
            return Stop("paused", "unclear_labels")
        if "accept" in meanings:
            return Stop("paused", "only_accept")
        return Stop("paused", "no_rejection")

    # --- the procedure -------------------------------------------------------

    def handle(self, snapshot: Snapshot, panel: Panel) -> None:
        """Reject one notice, through its settings layer when it has no rejecting control."""
        rejecting = self.rejecting_control(snapshot, panel)
        if rejecting is not None:
            self.reject_with(snapshot, panel, rejecting)
            return
        settings = self.one_of(self.meaning_controls(snapshot, panel, "settings"), "settings_unclear")
        if settings is None:
            raise self.cannot_reject(snapshot, panel)
        self.press(settings, twice="settings_unclear")
        layer_snapshot = self.read()
        layer = self.second_layer(layer_snapshot, panel)
        rejecting = self.rejecting_control(layer_snapshot, layer)
        if rejecting is not None:
            self.reject_with(layer_snapshot, layer, rejecting)
            return
        self.save_with_optional_off(layer_snapshot, layer)

    def second_layer(self, snapshot: Snapshot, first: Panel) -> Panel:
        notices = consent_panels(snapshot)
        if not notices:
            # The notice redrew itself as its settings ("Select the categories you allow"): the same panel,
            # whose words no longer name cookies, is its second layer.
            notices = tuple(panel for panel in snapshot.panels if panel.key == first.key)
        if len(notices) > 1:
            notices = tuple(panel for panel in notices if panel.key != first.key)
        if len(notices) != 1:
            raise Stop("paused", "settings_unclear")
        return notices[0]

    def reject_with(self, snapshot: Snapshot, panel: Panel, control: Control) -> None:
        self.press(control, twice="ambiguous_rejection")
        self.wait_closed(panel)
        self.memory.remember(self._identity(snapshot, panel), control.identity)
        self.notices += 1

    def save_with_optional_off(self, snapshot: Snapshot, panel: Panel) -> None:
        save = self.one_of(self.meaning_controls(snapshot, panel, "save"), "unclear_labels")
        if save is None:
            raise self.cannot_reject(snapshot, panel)
        for toggle in snapshot.panel_controls(panel):
            if toggle.role in TOGGLE_ROLES:
                self.switch_off(toggle)
        # The last look, hidden toggles included: nothing optional may still be on.
        still_on = toggles_on_around(self.page, save, self.deadline)
        if still_on is None:
            raise Stop("paused", "toggle_unreadable")
        if any(not is_necessary(label) for label in still_on):
            raise Stop("paused", "optional_still_on")
        self.press(save, twice="unclear_labels")
        self.wait_closed(panel)
        self.notices += 1

    def switch_off(self, toggle: Control) -> None:
        """Switch an optional toggle off, and check it is off; never switch anything on."""
        state = toggle_state(self.page, toggle, self.deadline)
        if state is None:
            raise Stop("paused", "toggle_unreadable")
        if not state or is_necessary(toggle.label):
            return
        if not toggle.enabled:
            raise Stop("paused", "optional_locked_on")
        self.press(toggle, twice="toggle_stayed_on")
        if toggle_state(self.page, toggle, self.deadline) is not False:
            raise Stop("paused", "toggle_stayed_on")

    def run(self) -> CookieOutcome:
        try:
            for _ in range(MAX_NOTICES + 1):
                snapshot = self.read()
                notices = consent_panels(snapshot)
                if not notices:
                    if notice_outside_panels(snapshot):
                        raise Stop("paused", "notice_outside_panel")
                    return self.outcome("rejected" if self.notices else "no_notice")
                if self.notices >= MAX_NOTICES:
                    raise Stop("paused", "too_many_notices")
                self.handle(snapshot, notices[0])
            raise Stop("paused", "too_many_notices")
        except Stop as stop:
            return self.outcome(stop.kind, stop.reason)
        except PlaywrightError as error:
            self.trail.failed(error)
            return self.outcome("failed", "browser_error")

    def outcome(self, kind: str, reason: str = "") -> CookieOutcome:
        return CookieOutcome(cast(CookieKind, kind), reason, self.notices, self.clicks, self.trail.snapshot())


def reject_cookies(page: Page, *, memory: ConsentMemory, deadline: float) -> CookieOutcome:
    """Reject every consent notice on the page, or pause; never accept.

    ``rejected``: every notice seen was rejected and has closed. ``no_notice``:
    there was none. ``paused(reason)``: the evidence does not allow rejection
    (only acceptance offered, unclear labels, a toggle that cannot be read, a
    notice that stays open) and the user must be asked. ``failed(reason)``:
    the page could not be read or a click could not be made.
    """
    return _Rejection(page, memory, deadline).run()


def consent_clear_before_submission(page: Page, *, memory: ConsentMemory, deadline: float) -> CookieOutcome:
    """The re-check to run right before a submission: notices that appeared since are rejected now.

    Submit only when the outcome is ``clear``.
    """
    return reject_cookies(page, memory=memory, deadline=deadline)


def consent_pending(snapshot: Snapshot) -> bool:
    """Whether the page shows a consent notice still waiting for an answer."""
    return bool(consent_panels(snapshot)) or notice_outside_panels(snapshot)
