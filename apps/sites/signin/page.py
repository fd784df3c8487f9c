"""The sign-in procedure's hands on a page: finding an observed form's fields again
(:func:`apps.sites.acting.fields.find_field`), reading the form's prose, spotting a
challenge widget, typing and reading back.

The page scripts (``page.js``) only read, but for selecting and focusing a
field before typing. Values are typed by the browser and read back to be
compared in constant time; they are never logged, returned or put in an
exception.

The prose and the challenge widgets are read for one observation: asked
again about the same observed form or snapshot (the search, the outcome
check and the check before typing all ask), the first read answers. The
answers are kept by the form and the snapshot themselves
(:class:`~apps.sites.observation.snapshot.PageReads`), so they go with the
observation and a fresh one reads the page again.
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from playwright.sync_api import ElementHandle, Frame, Page
from playwright.sync_api import Error as PlaywrightError

from apps.sites.acting.fields import find_fields
from apps.sites.observation.humanity import Prose
from apps.sites.observation.lexicon import lexicon
from apps.sites.observation.reader import frames_at, remaining_ms
from apps.sites.observation.scripts import script_beside
from apps.sites.observation.snapshot import Form, Snapshot
from apps.sites.observation.waits import pause

LocateReason = Literal["found", "not_found", "ambiguous"]
_READ_SCRIPT = script_beside(__file__, "page.js", "read")


@dataclass(frozen=True)
class LocatedFields:
    """The elements of an observed form's fields, found again; ``reason`` says why not."""

    reason: LocateReason
    elements: tuple[ElementHandle, ...] = ()


def _frame(page: Page, form: Form) -> Frame | None:
    frames = frames_at(page, form.frame_path)
    return frames[0] if len(frames) == 1 else None


def _request(form: Form, mode: str) -> dict[str, object]:
    fields = [
        {"type": field.type, "name": field.name, "autocomplete": field.autocomplete, "placeholder": field.placeholder}
        for field in form.fields
    ]
    return {"mode": mode, "kind": form.kind, "fields": fields, "markers": []}


def locate_fields(page: Page, form: Form, targets: Sequence[int], *, deadline: float) -> LocatedFields:
    """The elements of ``form``'s fields at ``targets``, each found again as a click's control is."""
    elements = []
    for lookup in find_fields(page, form, [form.fields[index] for index in targets], deadline=deadline):
        if lookup.kind != "found" or lookup.element is None:
            return LocatedFields("ambiguous" if lookup.kind == "ambiguous" else "not_found")
        elements.append(lookup.element)
    return LocatedFields("found", tuple(elements))


def form_prose(page: Page, form: Form) -> tuple[Prose, ...]:
    """The form's static, visible prose in blocks, with their heading and FAQ context."""
    return form.reads.once("prose", lambda: _read_prose(page, form)).blocks


@dataclass(frozen=True)
class _FormRead:
    blocks: tuple[Prose, ...]
    frame: Frame | None = None
    challenge: bool | None = None  # a challenge widget in the form's frame (read in the same call)


def _read_prose(page: Page, form: Form) -> _FormRead:
    frame = _frame(page, form)
    if frame is None:
        return _FormRead(())
    request = {**_request(form, "prose"), "markers": list(lexicon("signin")["challenge_markers"])}
    try:
        answer = frame.evaluate(_READ_SCRIPT, request)
    except PlaywrightError:
        return _FormRead(())
    blocks = answer.get("blocks", []) if isinstance(answer, dict) else []
    challenge = answer.get("challenge") if isinstance(answer, dict) else None
    prose = tuple(
        Prose(str(block.get("text", "")), str(block.get("heading", "")), bool(block.get("inFaq")))
        for block in blocks
        if isinstance(block, dict)
    )
    return _FormRead(prose, frame, challenge if isinstance(challenge, bool) else None)


def challenge_visible(page: Page, snapshot: Snapshot) -> bool:
    """A visible challenge widget (a CAPTCHA frame or element) anywhere on the page."""
    return snapshot.reads.once("challenge", lambda: _read_challenge(page, snapshot))


def _read_challenge(page: Page, snapshot: Snapshot) -> bool:
    markers = lexicon("signin")["challenge_markers"]
    if any(marker in info.url.casefold() for info in snapshot.frames[1:] for marker in markers):
        return True
    # Frames whose form prose was read for this observation answered already.
    known: dict[Frame, bool] = {}
    for form in snapshot.forms:
        read = form.reads.get("prose")
        if isinstance(read, _FormRead) and read.frame is not None and read.challenge is not None:
            known[read.frame] = read.challenge
    request = {"mode": "challenge", "kind": "form", "fields": [], "markers": list(markers)}
    for frame in page.frames:
        if frame in known:
            if known[frame]:
                return True
            continue
        try:
            answer = frame.evaluate(_READ_SCRIPT, request)
        except PlaywrightError:
            continue
        if isinstance(answer, dict) and answer.get("challenge") is True:
            return True
    return False


_READ_BACK = script_beside(__file__, "page.js", "read_back")
# Playwright's ``fill`` first builds its own script in a utility world of every new document
# (~20 ms, the longest part of typing on a page just opened). Typing needs none of it: one call in
# the page checks the field as ``fill`` does, selects its text and focuses it; the browser then
# inserts the value as a keyboard would, as ``fill`` does.
_READY_TO_TYPE = script_beside(__file__, "page.js", "ready_to_type")
# A field not ready to type into (hidden, disabled, focus taken) is looked at again this long.
FIELD_PATIENCE_SECONDS = 2.0
_NEVER_READY = frozenset({"gone", "not_a_field"})


def _focus_for_typing(page: Page, element: ElementHandle, deadline: float) -> bool:
    """The field selected and focused, once it is shown and editable (within ``FIELD_PATIENCE_SECONDS``)."""
    until = min(deadline, time.monotonic() + FIELD_PATIENCE_SECONDS)
    while True:
        state = element.evaluate(_READY_TO_TYPE)
        if state == "focused":
            return True
        if state in _NEVER_READY or time.monotonic() >= until or not pause(page, until):
            return False


def type_and_check(page: Page, elements: Sequence[ElementHandle], values: Sequence[str], *, deadline: float) -> bool:
    """Type each value into its field, then read every field back; True only if all match exactly."""
    if not elements or not all(values):
        return False
    try:
        for element, value in zip(elements, values, strict=True):
            if not _focus_for_typing(page, element, deadline):
                return False
            page.keyboard.insert_text(value)
        # Every field read back in one round trip (each ``input_value`` would be one).
        read_back = elements[0].evaluate(_READ_BACK, list(elements[1:]))
    except PlaywrightError:
        return False
    if not isinstance(read_back, list) or len(read_back) != len(values):
        return False
    # Compare without logging or keeping either side.
    return all(
        isinstance(seen, str) and hmac.compare_digest(seen.encode(), value.encode())
        for seen, value in zip(read_back, values, strict=True)
    )


def press_enter(element: ElementHandle, *, deadline: float) -> bool:
    """Submit a form that has no submit control of its own, from its last field."""
    try:
        element.press("Enter", timeout=max(1.0, remaining_ms(deadline)))
    except PlaywrightError:
        return False
    return True
