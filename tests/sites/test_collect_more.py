"""A list shown a few rows at a time in place, in real Chromium: "Load more" pressed until it is gone, and
a pager's "Next" pressed until the last page, the address never changing (``collect-more``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.sites.collect_support import collect, pages_requested
from tests.sites.fixture_web import FixtureWeb

pytestmark = pytest.mark.browser

EVERY_BILL = sorted(f"BL-{2026 if index < 12 else 2025}-{100 - index:04d}" for index in range(17))


def test_load_more_is_pressed_again_while_it_brings_rows(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-more")
    collected = collect(browser_page, site, "/more.html", "all bills")
    assert sorted(collected.identifiers()) == EVERY_BILL  # 6, then 6, then the last 5
    assert collected.ledger.actions["in_place"] == 2
    assert pages_requested(site) == ["/more.html"]


def test_next_in_place_is_pressed_again_until_the_last_page(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-more")
    collected = collect(browser_page, site, "/pages.html", "all bills")
    assert sorted(collected.identifiers()) == EVERY_BILL  # four pages of five, the last of two
    assert collected.ledger.actions["in_place"] == 3
    assert "Next" not in collected.notices()


def test_a_next_disabled_once_the_last_page_was_reached_by_its_number_leaves_nothing_unread(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-more")
    collected = collect(browser_page, site, "/pages.html?numbers", "all bills")
    assert sorted(collected.identifiers()) == EVERY_BILL
    assert "could not be clicked" not in collected.notices()
    assert collected.result.outcome == "success", collected.notices()
