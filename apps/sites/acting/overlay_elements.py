"""Reading facts about an observed control's element, without touching the page.

The cookie and overlay procedures need a few facts the snapshot does not
carry: whether a toggle is on, whether a close control would navigate or
submit, which toggles around a save button are still on. Each is read from
the one element with the control's identity (:func:`acting.find_control`),
by a small read-only script. Anything that cannot be read is ``None``: the
callers then pause rather than guess.
"""

from __future__ import annotations

from contextlib import suppress

from playwright.sync_api import ElementHandle, Page
from playwright.sync_api import Error as PlaywrightError

from apps.sites.observation.limits import OBSERVATION_LIMITS
from apps.sites.observation.reader import frames_at, page_script_handle
from apps.sites.observation.scripts import script_beside
from apps.sites.observation.snapshot import Control, ObservationFailed, PageAnswer

# Whether a checkbox, radio or switch is on; how a press would leave the page (a link, a form
# submission, neither); the labels of the toggles still on in the panel around a control.
TOGGLE_STATE_JS = script_beside(__file__, "overlay_elements.js", "toggle_state")
EXIT_KIND_JS = script_beside(__file__, "overlay_elements.js", "exit_kind")
TOGGLES_ON_JS = script_beside(__file__, "overlay_elements.js", "toggles_on")


def element_of(page: Page, control: Control, deadline: float) -> ElementHandle | None:
    """The one element with the control's identity in its frame, reachable or not; else None.

    Unlike :func:`acting.find_control` (which prepares a click) a covered or
    disabled element is still found: these reads only look at it.
    """
    frames = frames_at(page, control.frame_path)
    if len(frames) != 1:
        return None
    identity = control.identity
    request = {
        "mode": "find",
        "limits": OBSERVATION_LIMITS.for_page(),
        "identity": {key: getattr(identity, key) for key in ("role", "name", "text", "section", "row", "fingerprint")},
    }
    try:
        handle = page_script_handle(frames[0], request, deadline)
        if PageAnswer({"matches": handle.get_property("matches").json_value()}).count("matches") != 1:
            return None
        return handle.get_property("element").as_element()
    except (ObservationFailed, PlaywrightError):  # the fact cannot be read
        return None


def read_element(page: Page, control: Control, script: str, deadline: float) -> object:
    """The script's answer about the control's element, or None when it cannot be read."""
    element = element_of(page, control, deadline)
    if element is None:
        return None
    try:
        return element.evaluate(script)
    except PlaywrightError:  # the document changed under the read
        return None
    finally:
        with suppress(PlaywrightError):  # the handle went with its document
            element.dispose()


def toggle_state(page: Page, control: Control, deadline: float) -> bool | None:
    answer = read_element(page, control, TOGGLE_STATE_JS, deadline)
    return answer if isinstance(answer, bool) else None


def exit_kind(page: Page, control: Control, deadline: float) -> str | None:
    """``stays``, ``navigates`` or ``submits``; None when it cannot be read."""
    answer = read_element(page, control, EXIT_KIND_JS, deadline)
    return answer if answer in ("stays", "navigates", "submits") else None


def toggles_on_around(page: Page, control: Control, deadline: float) -> tuple[str, ...] | None:
    """Labels of the switchable toggles still on in the control's panel; None when unreadable."""
    answer = read_element(page, control, TOGGLES_ON_JS, deadline)
    if not isinstance(answer, list) or not all(isinstance(item, str) for item in answer):
        return None
    return tuple(answer)
