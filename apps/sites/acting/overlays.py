"""Closing a temporary panel that covers the page, only through a safe exit.

A temporary panel is a modal dialog or a layer covering at least
``COVERING_FRACTION`` of the window, drawn in the page or inside an iframe
(a fixed iframe is itself a panel, and its frame's controls belong to it).
It is closed only through a *safe exit*: a control of that same panel whose
visible label means close ("Close", a multiplication sign, "No thanks", "Chiudi") and that,
read on the element itself, neither navigates (a link to another document)
nor submits (a submit button of a form). Anything else pauses:

- a consent notice is the cookie procedure's (:mod:`apps.sites.acting.cookies`);
  its close control is not rejection, so it is never pressed here;
- a sign-in dialog (a password field) is not in the way: it is the way;
- a panel with no safe exit, or several different ones, is left alone.

After the click the panel is watched closing, by observation only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from apps.sites.acting.cookie_labels import PRESS_ROLES, classify_panel, control_meaning
from apps.sites.acting.overlay_elements import exit_kind
from apps.sites.acting.overlay_steps import PanelProcedure, Stop
from apps.sites.browser.diagnostics import ActionDiagnostic
from apps.sites.observation.snapshot import Control, Panel, Snapshot

OverlayKind = Literal["closed", "no_overlay", "paused", "failed"]
OverlayReason = Literal[
    "consent_notice",
    "no_safe_exit",
    "overlay_still_open",
    "navigated",
    "unreadable",
    "click_refused",
    "click_effect_unknown",
    "browser_error",
    "deadline",
]

# A panel covering this share of the window (or modal) is in the way.
COVERING_FRACTION = 0.25


@dataclass(frozen=True)
class OverlayOutcome:
    kind: OverlayKind
    reason: str = ""
    clicks: int = 0
    diagnostics: tuple[ActionDiagnostic, ...] = ()


def covering_panels(snapshot: Snapshot) -> tuple[Panel, ...]:
    """Temporary panels in the way: modal, or covering enough of the window; sign-in dialogs excepted."""
    return tuple(
        panel
        for panel in snapshot.panels
        if (panel.modal or panel.viewport_fraction >= COVERING_FRACTION)
        and not any(field.type == "password" for index in panel.forms for field in snapshot.forms[index].fields)
    )


class _Closing(PanelProcedure):
    def safe_exit(self, snapshot: Snapshot, panel: Panel) -> Control:
        """The panel's first close control that neither navigates nor submits (a sign or "No thanks" alike)."""
        for control in snapshot.panel_controls(panel):
            if (
                control.role in PRESS_ROLES
                and control.enabled
                and not control.ambiguous
                and control_meaning(control) == "close"
                and exit_kind(self.page, control, self.deadline) == "stays"
            ):
                return control
        raise Stop("paused", "no_safe_exit")

    def close(self, snapshot: Snapshot, panel: Panel) -> None:
        outcome = self.press(self.safe_exit(snapshot, panel), twice="overlay_still_open")
        if outcome.effect == "navigated":
            raise Stop("failed", "navigated")
        self.wait_gone((panel.frame_path, panel.key), still_open="overlay_still_open")

    def run(self) -> OverlayOutcome:
        try:
            snapshot = self.read()
            panels = covering_panels(snapshot)
            if not panels:
                return self.outcome("no_overlay")
            if any(classify_panel(snapshot, panel) == "consent" for panel in panels):
                raise Stop("paused", "consent_notice")
            self.close(snapshot, panels[0])
            return self.outcome("closed")
        except Stop as stop:
            return self.outcome(stop.kind, stop.reason)
        except PlaywrightError as error:
            self.trail.failed(error)
            return self.outcome("failed", "browser_error")

    def outcome(self, kind: str, reason: str = "") -> OverlayOutcome:
        return OverlayOutcome(cast(OverlayKind, kind), reason, self.clicks, self.trail.snapshot())


def close_overlay(page: Page, *, deadline: float) -> OverlayOutcome:
    """Close the temporary panel covering the page through a safe exit, or pause.

    ``closed``: a safe exit was pressed and the panel went away.
    ``no_overlay``: nothing covers the page. ``paused(reason)``: a consent
    notice (for the cookie procedure), no safe exit, or a panel that stayed.
    ``failed(reason)``: unreadable page, refused or uncertain click.
    """
    return _Closing(page, deadline, "overlay").run()
