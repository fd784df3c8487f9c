"""Serving a handoff panel from the browser session's own thread.

Sync Playwright objects belong to the thread that made them, so the step that
met the humanity check keeps its session open and serves the panel itself
(:func:`handoff_serve`), as a step waits for a one-time code: it shows the
page (or a window the owner's click opened, while it is open), forwards the
owner's clicks and wheel scrolls to it (never a keystroke: the panel does not
support keyboard or audio checks), and waits for Resume, Cancel or the
panel's expiry. Database work goes through
:func:`~apps.sites.signin.executor.off_browser_loop`'s helper thread; between
looks the thread waits inside Playwright (``page.wait_for_timeout``), so the
session's request checks keep running while the page works.

**The image.** :func:`panel_image` is a screenshot of the page's viewport
with every editable field masked — text, password and one-time-code fields,
text areas, selects and editable regions, in every frame — so no value is
ever shown; checkboxes and buttons stay visible, since a check is usually one.

**Resume.** Pressing Resume asks for a fresh observation (``recheck``): only
an observation without the check lets the sign-in go on; a still open check
or no observation at all keeps the panel open and says which.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Literal, TypeVar

from django.utils import timezone
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from apps.sites.browser.sessions import BrowserSession
from apps.sites.handoff.panels import (
    Command,
    Status,
    handoff_commands_take,
    handoff_image_store,
    handoff_nudged,
    handoff_panel_state,
    handoff_panel_still_blocked,
    handoff_panel_verifying,
)

T = TypeVar("T")
R = TypeVar("R")

# Everything a person could type into, in any frame: masked in every image.
EDITABLE_FIELDS = (
    "input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=submit]):not([type=button])"
    ":not([type=reset]):not([type=image]):not([type=range]):not([type=color]):not([type=file]),"
    " textarea, select, [contenteditable]:not([contenteditable=false])"
)
MASK_COLOR = "#3c4043"
SCREENSHOT_TIMEOUT_MS = 5000.0
# How often the step looks for the owner's commands and decisions, and how long a command's effect is awaited.
LOOK_EVERY_MS = 250.0
ROW_EVERY_SECONDS = 1.0
SETTLE_AFTER_COMMAND_MS = 400.0
SCROLL_SETTLE_MS = 300.0

PanelEnding = Literal["verified", "cancelled", "expired", "turn_cancelled"]


@dataclass(frozen=True)
class ServedPanel:
    """How serving ended; ``result`` is the procedure's verified end when Resume cleared the check."""

    ending: PanelEnding
    result: object = None


def panel_image(page: Page) -> bytes:
    """A PNG of the page's viewport with every editable field masked (values are never shown)."""
    masks = [frame.locator(EDITABLE_FIELDS) for frame in page.frames]
    return page.screenshot(
        type="png", mask=masks, mask_color=MASK_COLOR, animations="disabled", caret="hide",
        timeout=SCREENSHOT_TIMEOUT_MS,
    )  # fmt: skip


def apply_command(page: Page, command: Command) -> None:
    """Forward one click or wheel scroll to the page; nothing else reaches it."""
    size = page.viewport_size or {"width": 1280, "height": 720}
    if command.kind == "click":
        if 0 <= command.x < size["width"] and 0 <= command.y < size["height"]:
            page.mouse.click(command.x, command.y)
    elif command.kind == "scroll":
        page.mouse.move(size["width"] / 2, size["height"] / 2)
        page.mouse.wheel(0, command.dy)
        page.wait_for_timeout(SCROLL_SETTLE_MS)  # a wheel scroll may be animated: let it end before the next


class PanelServer:
    """One panel served from the session's thread (see the module docstring)."""

    def __init__(
        self,
        session: BrowserSession,
        page: Page,
        *,
        panel_id: int,
        channel: str,
        outside: Callable[[Callable[[], object]], object],
        cancelled: threading.Event,
        submitted: Callable[[], bool] = lambda: False,
    ) -> None:
        self.session = session
        self.page = page
        self.panel_id = panel_id
        self.channel = channel
        self._outside = outside
        self.cancelled = cancelled
        self.submitted = submitted
        self.taken = 0
        self._known = session.pages()
        self._drawn: Page | None = None

    @property
    def shown(self) -> Page:
        """The page the owner sees and acts on: the newest window opened from the panel, while it is open.

        A check answered in a window of its own (opened by the owner's click)
        is shown until it closes; then the page of the check again. Every
        window passed the session's website checks when it opened.
        """
        opened = [page for page in self.session.pages() if not any(page is known for known in self._known)]
        return opened[-1] if opened else self.page

    def db(self, function: Callable[[], T]) -> T:
        return self._outside(function)  # type: ignore[return-value]

    def show(self) -> None:
        """A fresh masked image for the portal; a page that cannot be drawn keeps the last one."""
        shown = self._drawn = self.shown
        try:
            png = panel_image(shown)
        except PlaywrightError:
            self.session.ensure_running()
            return
        handoff_image_store(channel=self.channel, png=png)

    def serve(self, recheck: Callable[[], R | str]) -> ServedPanel:
        """Serve until Resume clears the check (the procedure's result), Cancel, expiry or the turn's end.

        Commands come from the cache at every look; the panel's row is read
        once a second, or at once when Resume or Cancel nudged the channel.
        """
        self.show()
        row_due = 0.0
        while True:
            # Closing the web sessions, the deadline or a crash ends the panel with the session.
            self.session.ensure_running()
            if self.cancelled.is_set():
                return ServedPanel("turn_cancelled")
            if handoff_nudged(channel=self.channel) or time.monotonic() >= row_due:
                row_due = time.monotonic() + ROW_EVERY_SECONDS
                panel = self.db(lambda: handoff_panel_state(panel_id=self.panel_id))
                if panel.status == Status.CANCELLED:
                    return ServedPanel("cancelled")
                if panel.status == Status.OPEN and timezone.now() >= panel.expires_at:
                    return ServedPanel("expired")
                if panel.status == Status.RESUME_REQUESTED and self.db(
                    lambda: handoff_panel_verifying(panel_id=self.panel_id)
                ):
                    outcome = recheck()
                    if not isinstance(outcome, str):
                        return ServedPanel("verified", outcome)
                    self.db(
                        partial(
                            handoff_panel_still_blocked, panel_id=self.panel_id, check=outcome,
                            credentials_submitted=self.submitted(),
                        )
                    )  # fmt: skip
                    self.show()
                    continue
            self._forward()
            if self.shown is not self._drawn:
                self.show()  # a window opened or closed on its own: show what the owner now faces
            self.page.wait_for_timeout(LOOK_EVERY_MS)

    def _forward(self) -> None:
        commands, self.taken = handoff_commands_take(channel=self.channel, after=self.taken)
        if not commands:
            return
        for command in commands:
            try:
                apply_command(self.shown, command)
            except PlaywrightError:
                self.session.ensure_running()
        self.page.wait_for_timeout(SETTLE_AFTER_COMMAND_MS)
        self.session.ensure_on_websites()
        self.show()
