"""The steps the cookie and overlay procedures share: read, press once, watch a panel go.

Each step records its phase on a :class:`DiagnosticTrail` (reads are
``preparation``, clicks ``dispatch``, watching ``subsequent``) and ends the
procedure with a :class:`Stop` carrying a closed-set kind and reason.
"""

from __future__ import annotations

import time
from datetime import timedelta

from playwright.sync_api import Page

from apps.sites.acting.click import ClickApproval, ClickOutcome, click
from apps.sites.browser.diagnostics import Action, DiagnosticTrail, diagnose_click
from apps.sites.observation.limits import OBSERVATION_TIMEOUT
from apps.sites.observation.reader import observe
from apps.sites.observation.snapshot import Control, ControlIdentity, FramePath, ObservationFailed, Snapshot
from apps.sites.observation.waits import pause, read_page

# How long a panel is given to close after its exit was pressed, watched by observation only.
CLOSE_PATIENCE = timedelta(seconds=5)


class Stop(Exception):
    """The procedure ends here with ``kind`` and a closed-set ``reason``."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind, self.reason = kind, reason


class PanelProcedure:
    """One run on one page: its deadline, its clicks (each control once) and its trail."""

    def __init__(self, page: Page, deadline: float, action: Action) -> None:
        self.page, self.deadline = page, deadline
        self.action: Action = action
        self.trail = DiagnosticTrail(action)
        self.clicked: set[ControlIdentity] = set()
        self.clicks = 0

    def read(self) -> Snapshot:
        self.trail.phase = "preparation"
        if time.monotonic() >= self.deadline:
            raise Stop("failed", "deadline")
        until = min(self.deadline, time.monotonic() + 2 * OBSERVATION_TIMEOUT.total_seconds())
        result = read_page(self.page, deadline=until)
        if result.snapshot is None:
            raise Stop("failed", "unreadable")
        return result.snapshot

    def press(self, control: Control, *, twice: str) -> ClickOutcome:
        """Click once through :func:`acting.click`; a control already clicked stops with ``twice``."""
        if control.identity in self.clicked:
            raise Stop("paused", twice)
        self.trail.phase = "dispatch"
        outcome = click(self.page, control, approval=ClickApproval(control), deadline=self.deadline)
        if outcome.invoked:
            self.clicked.add(control.identity)
            self.clicks += 1
        if outcome.kind == "dispatch_error_effect_unknown":
            self.trail.record(diagnose_click(self.action, "dispatch", outcome.error_type, outcome.reason))
            raise Stop("failed", "click_effect_unknown")
        if outcome.kind != "dispatched":
            raise Stop("failed", "click_refused")
        return outcome

    def wait_gone(self, panel: tuple[FramePath, str], *, still_open: str) -> None:
        """Watch the panel (frame path, key) go, observing only; still there after the patience stops."""
        self.trail.phase = "subsequent"
        until = min(self.deadline, time.monotonic() + CLOSE_PATIENCE.total_seconds())
        while True:
            try:
                snapshot = observe(self.page, deadline=until)
                if not any((seen.frame_path, seen.key) == panel for seen in snapshot.panels):
                    return
            except ObservationFailed:
                pass  # the page is changing (closing, reloading): look again
            if time.monotonic() >= until or not pause(self.page, until):
                raise Stop("paused", still_open)
