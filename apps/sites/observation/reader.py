"""Observing a live page: the page script in every visible frame, assembled into a Snapshot.

The script (``observe.js`` with its helpers) runs through
:mod:`apps.sites.observation.page_calls`, so every read has a timeout, even when the page
is busy. It never writes to the page. Frames are read top-down; each child
frame is placed by its ``<iframe>`` element in the parent (visible? inside a
panel?), and the budgets of the limits are shared by all frames.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame, JSHandle, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from apps.sites.observation.assembly import FrameRead, assemble_snapshot
from apps.sites.observation.lexicon import period_option_source
from apps.sites.observation.limits import OBSERVATION_LIMITS, OBSERVATION_TIMEOUT, ObservationLimits
from apps.sites.observation.page_calls import evaluate_handle_within, evaluate_within
from apps.sites.observation.scripts import script_beside
from apps.sites.observation.snapshot import FramePath, ObservationFailed, PageAnswer, Snapshot
from apps.sites.observation.waits_watch import watch_page

HELPERS_MARKER = "/* OBSERVE HELPERS */"
# The page script's identity mode on its own: the last look of every
# observation need not send the whole script again.
IDENTITY_SCRIPT = script_beside(__file__, "observe_identity.js")
# Playwright's messages when the document went away under a read.
_GONE_MARKERS = ("context was destroyed", "navigat", "detached", "Target closed", "has been closed")


def _assembled() -> str:
    """observe.js with its helper files placed inside its one function."""
    main = script_beside(__file__, "observe.js")
    helpers = script_beside(__file__, "observe_dom.js") + "\n" + script_beside(__file__, "observe_page.js")
    if HELPERS_MARKER not in main:
        raise RuntimeError("observe.js lost its helpers marker")
    return main.replace(HELPERS_MARKER, helpers, 1)


_PAGE_SCRIPT = _assembled()


def page_script() -> str:
    """The page script: observe.js with its helpers."""
    return _PAGE_SCRIPT


def remaining_ms(deadline: float) -> float:
    return max(0.0, (deadline - time.monotonic()) * 1000)


def _failed(error: PlaywrightError) -> ObservationFailed:
    if isinstance(error, PlaywrightTimeoutError):
        return ObservationFailed("timeout")
    gone = any(marker in str(error) for marker in _GONE_MARKERS)
    return ObservationFailed("changed" if gone else "unreadable")


def page_script_handle(
    frame: Frame, request: Mapping[str, object], deadline: float, *, script: str | None = None
) -> JSHandle:
    """Run the page script (or ``script``) in ``frame`` within the deadline; a handle to its answer."""
    timeout = remaining_ms(deadline)
    if timeout <= 0:
        raise ObservationFailed("timeout")
    try:
        return evaluate_handle_within(frame, script or page_script(), request, timeout_ms=timeout)
    except PlaywrightError as error:
        raise _failed(error) from error


def run_page_script(
    frame: Frame, request: Mapping[str, object], deadline: float, *, script: str | None = None
) -> object:
    """Run the page script (or ``script``) in ``frame`` within the deadline; its answer as JSON."""
    timeout = remaining_ms(deadline)
    if timeout <= 0:
        raise ObservationFailed("timeout")
    try:
        return evaluate_within(frame, script or page_script(), request, timeout_ms=timeout)
    except PlaywrightError as error:
        raise _failed(error) from error


def frame_key(frame: Frame) -> str:
    """A frame's step in a frame path: its name (or id), else its address without query or fragment."""
    if frame.name:
        return "name:" + frame.name[:100]
    parts = urlsplit(frame.url)
    return f"{parts.scheme}://{parts.netloc}{parts.path}"[:300] if parts.netloc else frame.url[:100]


def frame_path(frame: Frame) -> FramePath:
    steps: list[str] = []
    current = frame
    while current.parent_frame is not None:
        steps.append(frame_key(current))
        current = current.parent_frame
    return tuple(reversed(steps))


def frames_at(page: Page, path: FramePath) -> list[Frame]:
    """Every frame of the page at ``path`` (more than one means the path is ambiguous)."""
    frames = [page.main_frame]
    for step in path:
        frames = [child for frame in frames for child in frame.child_frames if frame_key(child) == step]
    return frames


@dataclass
class _Walk:
    limits: ObservationLimits
    deadline: float
    reads: list[FrameRead] = field(default_factory=list)
    omitted: int = 0
    hidden: int = 0
    unreadable: int = 0

    def budget(self) -> dict[str, object]:
        used_controls = sum(len(read.raw.rows("controls", 10**6)) for read in self.reads)
        used_forms = sum(len(read.raw.items("forms", 10**6)) for read in self.reads)
        used_panels = sum(len(read.raw.items("panels", 10**6)) for read in self.reads)
        return self.limits.for_page(
            max_controls=max(0, self.limits.max_controls - used_controls),
            max_forms=max(0, self.limits.max_forms - used_forms),
            max_panels=max(0, self.limits.max_panels - used_panels),
        )


def _read_frame(walk: _Walk, frame: Frame, path: FramePath, host: PageAnswer | None) -> FrameRead:
    request = {"mode": "snapshot", "limits": walk.budget(), "periods": period_option_source()}
    answer = run_page_script(frame, request, walk.deadline)
    try:
        raw = PageAnswer(json.loads(answer) if isinstance(answer, str) else None)
    except ValueError as error:
        raise ObservationFailed("nonsense") from error
    if not raw.flag("ok"):
        raise ObservationFailed("unreadable")
    return FrameRead(path=path, raw=raw, host=host)


def _read_children(walk: _Walk, parent: Frame, parent_path: FramePath, depth: int) -> None:
    for child in sorted(parent.child_frames, key=frame_key):
        if len(walk.reads) >= walk.limits.max_frames or depth > walk.limits.max_frame_depth:
            walk.omitted += 1
            continue
        path = (*parent_path, frame_key(child))
        try:
            element = child.frame_element()
            host = PageAnswer(
                run_page_script(parent, {"mode": "host", "element": element, "limits": walk.budget()}, walk.deadline)
            )
            if not host.flag("visible"):
                walk.hidden += 1
                continue
            walk.reads.append(_read_frame(walk, child, path, host))
        except ObservationFailed as error:
            if error.reason == "timeout":
                raise
            walk.unreadable += 1
            continue
        except PlaywrightError:
            walk.unreadable += 1
            continue
        _read_children(walk, child, path, depth + 1)


def observe(page: Page, *, deadline: float | None = None, limits: ObservationLimits = OBSERVATION_LIMITS) -> Snapshot:
    """A bounded, deterministic snapshot of the page as it is now, every visible frame included.

    Raises :class:`ObservationFailed` when the page cannot be read within the
    deadline, or when it started loading another document while being read
    (``changed``/``navigating``: read again once it is readable).
    """
    deadline = deadline if deadline is not None else time.monotonic() + OBSERVATION_TIMEOUT.total_seconds()
    watch = watch_page(page)
    main = page.main_frame
    if watch.navigation_pending(main):
        raise ObservationFailed("navigating")  # what could be read now is about to be replaced
    before = watch.mark(main)
    walk = _Walk(limits=limits, deadline=deadline)
    walk.reads.append(_read_frame(walk, main, (), None))
    _read_children(walk, main, (), 1)
    # A page without frames is read by one script in one go. Frames are read one
    # after another, and the top document may be replaced in between.
    if len(walk.reads) + walk.hidden + walk.unreadable + walk.omitted > 1:
        after = PageAnswer(run_page_script(main, {}, deadline, script=IDENTITY_SCRIPT))
        if after.text("timeOrigin", 64) != walk.reads[0].raw.text("timeOrigin", 64):
            raise ObservationFailed("changed")
    if watch.new_document_since(before, main):
        raise ObservationFailed("changed")
    if watch.navigation_pending(main):
        raise ObservationFailed("navigating")
    return assemble_snapshot(walk.reads, limits, omitted=walk.omitted, hidden=walk.hidden, unreadable=walk.unreadable)
