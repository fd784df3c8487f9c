"""The single local attempt at a Cloudflare challenge (spec: CAPTCHAs, codes, and resuming).

For a supported Cloudflare challenge — a Turnstile widget or Cloudflare's
"Just a moment..." interstitial page — :func:`cloudflare_attempt` clicks the
challenge's checkbox once, in the session's own page, and then checks the
page until the challenge is gone or its response token is present, for at
most :data:`~apps.sites.limits.CLOUDFLARE_ATTEMPT_SECONDS` and never past the
caller's deadline. reCAPTCHA, hCaptcha and anything it does not recognise are
``unsupported`` and nothing is clicked: the caller asks the user for help, as
it does when the attempt ends ``still_open``. A dispatched click never counts
as success; only a fresh check of the page does. Playwright errors end the
attempt with a typed outcome, never an exception. No paid service is used and
no request is made except the page's own.

:func:`cloudflare_challenge_kind` only reads the page. Observing or loading a
challenge does not authorise a click; the call to :func:`cloudflare_attempt`
is the one authorised action.

Why this follows playwright-captcha instead of calling it. The spec names the
local playwright-captcha library (0.1.5, MIT, github.com/techinz/playwright-captcha).
Its click solver (``solvers/click/cloudflare/solve_by_click.py``) is async
only: it awaits ``playwright.async_api`` pages, frames and element handles,
while the managed session (:mod:`apps.sites.browser.sessions`) drives a sync
Playwright page whose event loop cannot also serve the async API, and whose
Chromium has no debugging endpoint a second, async client could join.
Importing the package would also load its paid-service clients (2captcha,
10captcha). So this module reimplements the narrow click step, in the
library's order, with its selectors:

1. detect the challenge: the library's indicators
   (``CF_TURNSTILE_INDICATORS_SELECTORS``, ``CF_INTERSTITIAL_INDICATORS_SELECTORS``
   in ``utils/detection.py``) plus the widget's structure;
2. find the challenge frames and, in them, a visible ``input[type=checkbox]``
   (``search_shadow_root_iframes``, ``get_ready_checkbox``);
3. click it once (``click_checkbox``, without the library's retries and
   repeated attempts: the spec allows one);
4. verify on the page. The library trusts the widget's own ``#success``
   element for Turnstile; Metnos instead requires the page's
   ``cf-turnstile-response`` token or the challenge gone.

One deliberate difference: the library finds the challenge frames by the
prefix ``https://challenges.cloudflare.com/cdn-cgi/challenge-platform/``. That
host cannot be reached from the tests (nor should a test reach it), so frames
are recognised by the path ``/cdn-cgi/challenge-platform/`` on any host, or
by the widget's frame title, and the fixture websites serve the widget from
that path on loopback. The real widget keeps its checkbox in a closed shadow
root that Playwright cannot see into; the library opens such roots with an
init script installed before the page loads (``patches/unlockShadowRoot.js``),
which :func:`cloudflare_prepare` installs the same way. Without it, an attempt
at a real widget finds no checkbox and ends ``still_open``, having clicked
nothing.
"""

from __future__ import annotations

import importlib.util
import re
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame, Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from apps.sites.limits import CLOUDFLARE_ATTEMPT_SECONDS
from apps.sites.observation.scripts import script_beside

AttemptOutcome = Literal["cleared", "still_open", "unsupported"]

SUPPORTED_KINDS = frozenset({"turnstile", "interstitial"})
# Most telling first: an unsupported challenge on the page outranks a Cloudflare
# one (clearing Turnstile would not clear it), the whole-page interstitial
# outranks the widget it embeds.
KIND_ORDER = ("recaptcha", "hcaptcha", "interstitial", "turnstile", "other")

# From playwright-captcha's utils/detection.py, plus the widget's structure.
TURNSTILE_SELECTORS = (
    'input[name="cf-turnstile-response"]',
    'script[src*="challenges.cloudflare.com/turnstile/v0"]',
    ".cf-turnstile",
    'iframe[title*="Cloudflare security challenge" i]',
)
# Read in the top document only: the widget's own frame loads scripts from the same path.
INTERSTITIAL_SELECTORS = (
    'script[src*="/cdn-cgi/challenge-platform/"]',
    "#challenge-form",
    "#challenge-stage",
    "#challenge-running",
    "#cf-challenge-running",
)
RECAPTCHA_SELECTORS = (
    ".g-recaptcha",
    'textarea[name="g-recaptcha-response"]',
    'iframe[src*="/recaptcha/"]',
    'iframe[title*="recaptcha" i]',
    'script[src*="/recaptcha/"]',
)
HCAPTCHA_SELECTORS = (
    ".h-captcha",
    'textarea[name="h-captcha-response"]',
    'iframe[src*="hcaptcha"]',
    'iframe[title*="hcaptcha" i]',
    'script[src*="hcaptcha"]',
)
# Some challenge Metnos does not know: never clicked.
OTHER_SELECTORS = (
    'iframe[src*="captcha" i]',
    'iframe[title*="captcha" i]',
    'iframe[title*="challenge" i]',
    '[class*="captcha" i]',
    '[id*="captcha" i]',
)
CHALLENGE_FRAME_PATH = "/cdn-cgi/challenge-platform/"
CHALLENGE_FRAME_TITLE = re.compile(r"cloudflare security challenge", re.IGNORECASE)
FRAME_URL_KINDS = (("/recaptcha/", "recaptcha"), ("hcaptcha.com", "hcaptcha"), (CHALLENGE_FRAME_PATH, "turnstile"))
CHECKBOX = 'input[type="checkbox"]'

# cloudflare_challenge_kind's own bound: it has no deadline of its own.
OBSERVE_SECONDS = 2.0
POLL_MS = 150.0

# Reads the page (open shadow roots included) and writes nothing.
_READ_SCRIPT = script_beside(__file__, "captcha.js")
_SELECTORS = {
    "recaptcha": list(RECAPTCHA_SELECTORS),
    "hcaptcha": list(HCAPTCHA_SELECTORS),
    "interstitial": list(INTERSTITIAL_SELECTORS),
    "turnstile": list(TURNSTILE_SELECTORS),
    "other": list(OTHER_SELECTORS),
}


@dataclass(frozen=True)
class CloudflareAttempt:
    """What the one attempt came to, how long it took, and the challenge it found."""

    outcome: AttemptOutcome
    seconds: float
    kind: str  # "turnstile", "interstitial", "recaptcha", "hcaptcha", "other", "none", "unknown"


@dataclass(frozen=True)
class _Seen:
    """One read of the page: the challenge on it and its Turnstile response inputs."""

    kind: str
    tokens: int
    filled: int

    @property
    def token_present(self) -> bool:
        """A Turnstile whose every response input holds a token."""
        return self.kind == "turnstile" and self.tokens > 0 and self.filled == self.tokens


def cloudflare_challenge_kind(page: Page) -> str:
    """The challenge on ``page``: observation only, it never clicks or writes.

    ``turnstile`` or ``interstitial`` (supported), ``recaptcha``, ``hcaptcha``,
    ``other`` (a challenge not recognised), ``none``, or ``unknown`` when the
    page could not be read.
    """
    try:
        seen = _observe(page, time.monotonic() + OBSERVE_SECONDS)
    except PlaywrightError:
        return "unknown"
    return "unknown" if seen is None else seen.kind


def cloudflare_attempt(page: Page, *, deadline: float) -> CloudflareAttempt:
    """Try a supported Cloudflare challenge once, for at most min(10 s, ``deadline`` - now).

    ``deadline`` is a ``time.monotonic()`` value. ``cleared`` only when a
    fresh read of the page shows the challenge gone or its token present;
    ``unsupported`` (nothing clicked) for any other challenge or none;
    ``still_open`` otherwise, also when time ran out or the page failed.
    """
    started = time.monotonic()
    until = min(started + CLOUDFLARE_ATTEMPT_SECONDS, deadline)

    def ended(outcome: AttemptOutcome, kind: str) -> CloudflareAttempt:
        return CloudflareAttempt(outcome, round(time.monotonic() - started, 3), kind)

    if until <= started:
        return ended("still_open", "unknown")
    seen: _Seen | None = None
    try:
        seen = _observe(page, until)
        if seen is None:
            return ended("still_open", "unknown")
        if seen.kind not in SUPPORTED_KINDS:
            return ended("unsupported", seen.kind)
        return ended(_click_once_and_check(page, seen, until), seen.kind)
    except PlaywrightError:
        # The page or browser went away under the attempt: the check is not known to be gone.
        return ended("still_open", seen.kind if seen is not None else "unknown")


def cloudflare_prepare(page: Page) -> bool:
    """Let later documents of ``page`` open their closed shadow roots, as playwright-captcha does.

    Installs the library's own ``patches/unlockShadowRoot.js`` as an init
    script (read from the installed package without importing it), so that
    the real Turnstile's checkbox is visible to an attempt on a page loaded
    afterwards. False when the script or the page is not available.
    """
    script = _unlock_shadow_root_script()
    if script is None:
        return False
    try:
        page.add_init_script(script)
    except PlaywrightError:
        return False
    return True


def _click_once_and_check(page: Page, seen: _Seen, until: float) -> AttemptOutcome:
    """Check the page until the challenge clears or time runs out; click its checkbox once on the way."""
    clicked = False
    current: _Seen | None = seen
    gone_once = False
    while True:
        if current is not None and current.kind == "none":
            # Gone only when two reads in a row agree: one could fall between a reload's documents.
            if gone_once:
                return "cleared"
            gone_once = True
        else:
            gone_once = False
        if current is not None and current.token_present:
            return "cleared"
        if current is not None and current.kind not in SUPPORTED_KINDS | {"none"}:
            return "still_open"  # another challenge took its place
        if not clicked:
            checkbox = _visible_checkbox(page)
            if checkbox is not None:
                clicked = True  # one click, whatever comes of it
                _click(checkbox, until)
        if not _pause(page, until):
            return "still_open"
        current = _observe(page, until)


def _observe(page: Page, until: float) -> _Seen | None:
    """Read every frame for challenges; None when the top document cannot be read."""
    signals: set[str] = set()
    tokens = filled = 0
    for frame in page.frames:
        top = frame == page.main_frame
        signals.update(kind for marker, kind in FRAME_URL_KINDS if not top and marker in frame.url)
        answer = _read(frame, until)
        if top and (answer is None or answer.get("loading") is not False):
            return None  # a document still arriving shows no challenge yet: not a sign it is gone
        if answer is None:
            continue  # a child frame that went away; the top document still shows its widget
        signals.update(kind for kind in KIND_ORDER if answer.get(kind) is True and (top or kind != "interstitial"))
        tokens += _count(answer.get("tokens"))
        filled += _count(answer.get("filled"))
    kind = next((kind for kind in KIND_ORDER if kind in signals), "none")
    return _Seen(kind, tokens, filled)


def _read(frame: Frame, until: float) -> dict[str, Any] | None:
    """The read script's answer in ``frame`` within the time left; None on any failure."""
    timeout = (until - time.monotonic()) * 1000
    if timeout <= 0:
        return None
    try:
        # wait_for_function has a timeout even when the page is busy; the script answers at once.
        handle = frame.wait_for_function(_READ_SCRIPT, arg=_SELECTORS, timeout=timeout, polling=50)
        answer = handle.json_value()
        handle.dispose()
    except PlaywrightError:
        return None
    return answer if isinstance(answer, dict) else None


def _visible_checkbox(page: Page) -> Locator | None:
    """The first visible checkbox inside a Cloudflare challenge frame, if one is ready."""
    for frame in page.frames:
        if frame == page.main_frame or not _challenge_frame(frame):
            continue
        checkbox = frame.locator(CHECKBOX).first
        try:
            if checkbox.is_visible():
                return checkbox
        except PlaywrightError:
            continue
    return None


def _challenge_frame(frame: Frame) -> bool:
    """A frame served from Cloudflare's challenge path, or titled as its widget."""
    if CHALLENGE_FRAME_PATH in frame.url:
        return True
    try:
        title = frame.frame_element().get_attribute("title") or ""
    except PlaywrightError:
        return False
    return bool(CHALLENGE_FRAME_TITLE.search(title))


def _click(checkbox: Locator, until: float) -> None:
    """One click within the time left; whether it worked is for the page to show."""
    timeout = (until - time.monotonic()) * 1000
    if timeout <= 0:
        return
    try:
        checkbox.click(timeout=timeout, no_wait_after=True)
    except (PlaywrightTimeoutError, PlaywrightError):
        return


def _pause(page: Page, until: float) -> bool:
    """Let Playwright deliver events for one poll; False when time is up or the page is gone."""
    wait_ms = min(POLL_MS, (until - time.monotonic()) * 1000)
    if wait_ms <= 0:
        return False
    try:
        page.wait_for_timeout(wait_ms)
    except PlaywrightError:
        return False
    return True


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


@cache
def _unlock_shadow_root_script() -> str | None:
    # find_spec locates the package without running its __init__ (which loads the paid-service clients).
    spec = importlib.util.find_spec("playwright_captcha")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        path = Path(location) / "utils" / "js_scripts" / "patches" / "unlockShadowRoot.js"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return None
