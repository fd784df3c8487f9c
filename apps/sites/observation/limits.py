"""Bounds of page observation and of the waits around a click, in one place.

The spec asks for bounded observations and bounded waits without naming
these numbers; they are Metnos's choices. Tests cite these names.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import timedelta


@dataclass(frozen=True)
class ObservationLimits:
    """Hard bounds of one snapshot; what does not fit is counted, never silently dropped."""

    max_controls: int = 5_000
    max_forms: int = 40
    max_fields: int = 60
    # The options of one <select> kept (their labels, page text): a period or type chooser.
    max_options: int = 40
    max_panels: int = 20
    max_frames: int = 16
    max_frame_depth: int = 4
    name_text: int = 200
    control_text: int = 200
    section_text: int = 160
    row_text: int = 300
    href_text: int = 500
    panel_text: int = 4_000
    panel_images: int = 20
    page_text: int = 20_000
    # A fixed layer covering this share of the window is a panel; sticky ones
    # must cover more (sticky page headers are common and are not panels).
    panel_fixed_fraction: float = 0.1
    panel_sticky_fraction: float = 0.3
    panel_absolute_fraction: float = 0.5
    # A layer under every probe point covering this share hides the window.
    veil_fraction: float = 0.9

    def for_page(self, **remaining: int) -> dict[str, object]:
        """The bounds as the page script reads them, with per-frame budgets applied."""
        values = asdict(self) | remaining
        return {_camel(key): value for key, value in values.items()}


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


OBSERVATION_LIMITS = ObservationLimits()
# One observation of one page, all frames included.
OBSERVATION_TIMEOUT = timedelta(seconds=5)
# Controls shown to a model or a rule at once when a long page is examined in groups.
CONTROL_GROUP_SIZE = 60

# Waits before reading.
# The page counts as still changing until its DOM has been quiet this long.
QUIET_WINDOW = timedelta(milliseconds=200)
# A loaded document whose DOM does not change at all during this first look is stable at once.
QUICK_QUIET = timedelta(milliseconds=50)
# One in-page stability check lasts at most this long; the wait then checks the rest again.
QUIET_CHECK_SLICE = timedelta(milliseconds=1_000)
# A data request open longer than this is a permanent connection (long polling,
# event streams): reading no longer waits for it.
DATA_REQUEST_PATIENCE = timedelta(seconds=3)
# Sooner than that, a page that showed a loading veil while its data arrived and has lifted it
# says its data is in: requests open this long since are background connections.
BACKGROUND_AFTER_VEIL = timedelta(seconds=1)
# While data requests are open, the wait looks this often whether a veil covers the page.
VEIL_LOOK_EVERY = timedelta(milliseconds=250)
# A data request answered this long ago counts as answered even if it never finishes (a page
# that fires a request and never reads the answer's body leaves it unfinished for ever).
ANSWER_BODY_GRACE = timedelta(milliseconds=50)
# A DOM that keeps changing this long (a ticker or animation driven by script) is read as it is.
DOM_CHANGE_PATIENCE = timedelta(seconds=3)
# How often the wait looks again at requests, navigation and veils.
WAIT_POLL = timedelta(milliseconds=50)

# After a click without evidence of an in-place answer, a navigation may still start this late.
NAVIGATION_START_GRACE = timedelta(milliseconds=1_000)
# After a click expected to act in place that drew something (and asked for no data), a
# navigation may still start this soon (a notice drawn, then the page moves on).
DRAWN_NAVIGATION_GRACE = timedelta(milliseconds=250)
# After the address changes without a new document, the page may draw this much later.
DRAW_PATIENCE = timedelta(seconds=3)
# Playwright's own actionability check before the click is dispatched.
ACTIONABILITY_TIMEOUT = timedelta(seconds=2)
