"""When a control is obstructed: a static copy of the page and the obstruction's measurements.

:func:`click_or_capture` clicks through :func:`acting.click`; when the click
is refused because something covers the control (``covered``,
``not_actionable``), :func:`save_obstruction_copy` keeps, for the operator:

- ``page.html`` (and ``frame.html`` when the control is in a frame): an
  inert copy (:mod:`apps.sites.acting.obstruction_copy`) — no active code, no field
  values, no tokens in addresses;
- ``measurements.json``: the control's box, the window, how many of nine
  probe points something else covers, and what covers it described only by
  closed-set words and numbers (tag from the HTML vocabulary, ARIA role,
  position, z-index, opacity, box) — no text, ids, classes or selectors.

Copies stay local, under ``DATA_DIR/obstructions/<owner id>/``, folders
0700 and files 0600 like the owner's other browser data, the newest
``MAX_COPIES_PER_OWNER`` kept. No copy is taken while a consent or
authentication step is pending: the caller says so, and a consent notice
seen on the page counts as pending too. A copy certifies nothing about the
website's workflow; it changes no outcome.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

from django.conf import settings
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from apps.sites.acting.click import ClickApproval, ClickOutcome, click
from apps.sites.acting.cookies import consent_pending
from apps.sites.acting.obstruction_copy import static_copy
from apps.sites.acting.obstruction_measure import MEASURE_JS, clean_measurements
from apps.sites.acting.overlay_elements import read_element
from apps.sites.browser.diagnostics import ActionDiagnostic, DiagnosticTrail
from apps.sites.observation.reader import frames_at, observe
from apps.sites.observation.snapshot import Control, ObservationFailed

CopyKind = Literal["saved", "skipped", "failed"]
MAX_COPIES_PER_OWNER = 20
# A copy is taken within this time after the refused click, whatever was left of the click's deadline.
CAPTURE_TIMEOUT = timedelta(seconds=5)
# Click refusals that mean something stands over the control.
OBSTRUCTED_REASONS = frozenset({"covered", "not_actionable"})


@dataclass(frozen=True)
class CaptureContext:
    """Whose copy this would be, and whether a step that forbids copies is pending."""

    owner_id: int
    consent_pending: bool = False
    authentication_pending: bool = False


@dataclass(frozen=True)
class ObstructionCopy:
    kind: CopyKind
    reason: str = ""
    folder: Path | None = None
    diagnostics: tuple[ActionDiagnostic, ...] = field(default=())


def copies_root(owner_id: int) -> Path:
    """The owner's folder of obstruction copies, private to this service's user."""
    root = Path(settings.DATA_DIR) / "obstructions"
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder = root / str(int(owner_id))
    folder.mkdir(mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)
    return folder


def _write_private(path: Path, text: str) -> None:
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text)


def _keep_newest(owner_folder: Path) -> None:
    copies = sorted(path for path in owner_folder.iterdir() if path.is_dir())
    for old in copies[:-MAX_COPIES_PER_OWNER]:
        shutil.rmtree(old, ignore_errors=True)


def _pending(page: Page, capture: CaptureContext, deadline: float) -> str:
    if capture.authentication_pending:
        return "authentication_pending"
    if capture.consent_pending:
        return "consent_pending"
    try:
        return "consent_pending" if consent_pending(observe(page, deadline=deadline)) else ""
    except ObservationFailed:
        return "consent_unknown"  # cannot tell that no consent step is pending: no copy


def save_obstruction_copy(page: Page, control: Control, *, capture: CaptureContext, reason: str) -> ObstructionCopy:
    """Keep a static copy and the measurements of ``control``'s obstruction; never raises."""
    deadline = time.monotonic() + CAPTURE_TIMEOUT.total_seconds()
    trail = DiagnosticTrail("obstruction_copy")
    pending = _pending(page, capture, deadline)
    if pending:
        return ObstructionCopy("skipped", pending)
    try:
        measured = read_element(page, control, MEASURE_JS, deadline)
        if measured is None:
            return ObstructionCopy("failed", "unreadable")
        frames = frames_at(page, control.frame_path)
        documents = {"page.html": page.main_frame.content()}
        if control.frame_path and len(frames) == 1:
            documents["frame.html"] = frames[0].content()
        trail.phase = "recording"
        stamp = datetime.now(tz=UTC).strftime("%Y%m%dT%H%M%S%fZ")
        owner_folder = copies_root(capture.owner_id)
        folder = owner_folder / f"{stamp}-{secrets.token_hex(4)}"
        folder.mkdir(mode=0o700)
        for name, document in documents.items():
            _write_private(folder / name, static_copy(document))
        record = {"reason": reason if reason in OBSTRUCTED_REASONS else "other", **clean_measurements(measured)}
        _write_private(folder / "measurements.json", json.dumps(record, indent=2, sort_keys=True))
        trail.phase = "cleanup"
        _keep_newest(owner_folder)
    except (PlaywrightError, OSError) as error:
        trail.failed(error)
        reason = "browser_error" if isinstance(error, PlaywrightError) else "file_system"
        return ObstructionCopy("failed", reason, None, trail.snapshot())
    return ObstructionCopy("saved", "", folder, trail.snapshot())


def click_or_capture(
    page: Page,
    control: Control,
    *,
    approval: ClickApproval,
    deadline: float,
    capture: CaptureContext,
    expect_in_place: bool = False,
    look_when_drawn: bool = False,
) -> tuple[ClickOutcome, ObstructionCopy | None]:
    """:func:`acting.click`, plus an obstruction copy when something covers the control.

    The copy never changes the click's outcome, and nothing is retried.
    """
    outcome = click(
        page, control, approval=approval, deadline=deadline, expect_in_place=expect_in_place,
        look_when_drawn=look_when_drawn,
    )  # fmt: skip
    if outcome.kind != "not_found" or outcome.reason not in OBSTRUCTED_REASONS:
        return outcome, None
    return outcome, save_obstruction_copy(page, control, capture=capture, reason=outcome.reason)
