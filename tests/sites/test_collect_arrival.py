"""Arriving on a loaded page: observed at once, and kept only if the page stayed unchanged through the quiet window."""

from __future__ import annotations

from typing import Any

import pytest

from apps.sites.acting.click import deadline_in
from apps.sites.collection.pages import read_arrival
from apps.sites.observation.waits_watch import watch_page
from tests.sites.fixture_web import FixtureWeb

pytestmark = pytest.mark.browser


def test_a_page_still_changing_after_its_first_look_is_read_again_once_quiet(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    watch_page(browser_page)
    browser_page.goto(fixture_web.site("collect-recovery").url("/settling.html"))
    arrival = read_arrival(browser_page, deadline=deadline_in(10))
    assert arrival.snapshot is not None and not arrival.recovered
    assert "You have 3 bills." in arrival.snapshot.text
    assert "Counting" not in arrival.snapshot.text


def test_a_quiet_loaded_page_is_read_as_first_seen(fixture_web: FixtureWeb, browser_page: Any) -> None:
    watch_page(browser_page)
    browser_page.goto(fixture_web.site("collect-recovery").url("/bills.html"))
    arrival = read_arrival(browser_page, deadline=deadline_in(10))
    assert arrival.snapshot is not None and "RW-2026-03" in arrival.snapshot.text
