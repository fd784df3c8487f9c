"""The panel's image: the page as the session shows it, with every editable field masked.

Drawn with :func:`apps.sites.handoff.server.panel_image` in real Chromium;
the pixels are read back from the PNG. A masked field is one flat box of the
mask colour, whatever its value; the humanity check itself stays visible.
"""

from __future__ import annotations

from typing import Any

import pytest

from apps.sites.handoff.server import MASK_COLOR, panel_image
from tests.sites.fixture_web import FixtureWeb
from tests.sites.png_support import decode_png

pytestmark = pytest.mark.browser

MASK = tuple(int(MASK_COLOR[i : i + 2], 16) for i in (1, 3, 5))


def _inside(page: Any, selector: str) -> tuple[int, int, int, int]:
    box = page.locator(selector).bounding_box()
    assert box is not None
    # One pixel in from each edge: the box's borders are anti-aliased.
    return int(box["x"]) + 1, int(box["y"]) + 1, int(box["x"] + box["width"]) - 1, int(box["y"] + box["height"]) - 1


def test_every_field_is_one_flat_box_of_the_mask_colour_and_the_check_stays_visible(
    browser_page: Any, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh("signin-handoff")
    browser_page.goto(site.url("/login.html"))
    browser_page.fill("#p", "CANARY-handoff-typed-pw")  # typed by someone: still never drawn
    png = panel_image(browser_page)
    assert b"CANARY" not in png
    pixels = decode_png(png)
    for field in ("#u", "#p", "#note"):
        assert pixels.colours(*_inside(browser_page, field)) == {MASK}, f"{field} is not masked"
    check = pixels.colours(*_inside(browser_page, "#human"))
    assert MASK not in check and len(check) > 1  # the check, with its words, is drawn as it is


def test_without_the_masks_the_same_fields_would_show_their_values(browser_page: Any, fixture_web: FixtureWeb) -> None:
    # The control for the test above: the unmasked fields are not flat, so flatness means a mask.
    site = fixture_web.fresh("signin-handoff")
    browser_page.goto(site.url("/login.html"))
    pixels = decode_png(browser_page.screenshot(type="png"))
    for field in ("#u", "#p", "#note"):
        assert len(pixels.colours(*_inside(browser_page, field))) > 1
