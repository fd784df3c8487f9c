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
from apps.sites.observation.snapshot import Control, ObservationFailed, PageAnswer

# Whether a checkbox, radio or switch is on: true, false, or null when it says nothing.
TOGGLE_STATE_JS = """(el) => {
  const input = el instanceof HTMLInputElement ? el : el.querySelector('input[type=checkbox], input[type=radio]');
  if (input && (input.type === 'checkbox' || input.type === 'radio')) return input.checked;
  for (const name of ['aria-checked', 'aria-pressed']) {
    const value = el.getAttribute(name);
    if (value === 'true') return true;
    if (value === 'false') return false;
  }
  return null;
}"""

# How a press on the element would leave the page: through a link, a form submission, or neither.
EXIT_KIND_JS = """(el) => {
  const anchor = el.closest('a[href], area[href]');
  if (anchor) {
    const raw = anchor.getAttribute('href').trim();
    if (anchor.hasAttribute('download')) return 'navigates';
    if (raw === '' || raw.startsWith('#')) return 'stays';
    if (/^javascript:\\s*(void\\s*\\(?\\s*0\\s*\\)?\\s*;?|;)?$/i.test(raw)) return 'stays';
    const target = new URL(anchor.href, document.baseURI);
    const here = new URL(document.URL);
    target.hash = ''; here.hash = '';
    return target.href === here.href ? 'stays' : 'navigates';
  }
  const button = el.closest('button, input[type=submit], input[type=image]');
  if (button) {
    const type = (button.getAttribute('type') || 'submit').toLowerCase();
    if ((type === 'submit' || type === 'image') && button.form) return 'submits';
  }
  return 'stays';
}"""

# Labels of the toggles still on and switchable in the panel around a control,
# hidden ones included: the last look before choices are saved.
TOGGLES_ON_JS = """(el) => {
  const parentOf = (node) => node.parentElement || (node.getRootNode() && node.getRootNode().host) || null;
  const isPanel = (node) => {
    if (node.tagName === 'DIALOG' || node.getAttribute('aria-modal') === 'true') return true;
    const role = (node.getAttribute('role') || '').toLowerCase();
    if (role === 'dialog' || role === 'alertdialog') return true;
    const position = getComputedStyle(node).position;
    return position === 'fixed' || position === 'sticky';
  };
  let panel = el;
  while (panel && !isPanel(panel)) panel = parentOf(panel);
  const root = panel || document.body;
  const toggles = [];
  const visit = (node) => {
    for (const child of node.children) {
      if (child.matches('input[type=checkbox], [role=switch], [role=checkbox], [role=menuitemcheckbox]')) {
        toggles.push(child);
      }
      if (child.shadowRoot) visit(child.shadowRoot);
      visit(child);
    }
  };
  visit(root);
  const labelOf = (toggle) => {
    const named = toggle.getAttribute('aria-label');
    if (named) return named;
    if (toggle.labels && toggle.labels.length) return toggle.labels[0].textContent || '';
    const around = toggle.closest('label, li, tr, [role=row], [role=listitem]');
    return (around || toggle).textContent || '';
  };
  return toggles
    .filter((toggle) => (toggle instanceof HTMLInputElement
      ? toggle.checked : toggle.getAttribute('aria-checked') === 'true'))
    .filter((toggle) => !(toggle.disabled || toggle.getAttribute('aria-disabled') === 'true'))
    .map((toggle) => labelOf(toggle).replace(/\\s+/g, ' ').trim().slice(0, 200));
}"""


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
