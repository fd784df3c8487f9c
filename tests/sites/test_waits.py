"""Waiting before reading, in real Chromium: veils, late data, permanent connections, failed checks."""

from __future__ import annotations

import time
from typing import Any

import pytest

from apps.sites.acting.click import deadline_in
from apps.sites.observation.limits import DATA_REQUEST_PATIENCE, DOM_CHANGE_PATIENCE
from apps.sites.observation.reader import observe
from apps.sites.observation.snapshot import ObservationFailed, Snapshot
from apps.sites.observation.waits import read_page, wait_until_readable
from apps.sites.observation.waits_watch import watch_page
from tests.sites.fixture_web import FixtureWeb
from tests.sites.test_observation_support import open_and_read

pytestmark = pytest.mark.browser


def _open(page: Any, url: str) -> None:
    watch_page(page)
    page.goto(url)


def test_a_textless_veil_over_the_window_is_waited_for(fixture_web: FixtureWeb, browser_page: Any) -> None:
    _open(browser_page, fixture_web.site("act-veil").url("/?lift=1200"))
    readiness = wait_until_readable(browser_page, deadline_in(8))
    assert readiness.ready and readiness.veil_seen
    snapshot = observe(browser_page)
    assert not snapshot.veiled and [control.label for control in snapshot.controls] == ["Continue"]


def test_a_veil_that_stays_is_read_as_veiled_when_the_bound_ends(fixture_web: FixtureWeb, browser_page: Any) -> None:
    _open(browser_page, fixture_web.site("act-veil").url("/?lift=-1"))
    started = time.monotonic()
    readiness = wait_until_readable(browser_page, deadline_in(1.5))
    assert not readiness.ready and readiness.blockers == ("veil",)
    assert 1.4 <= time.monotonic() - started < 6
    snapshot = observe(browser_page)
    assert snapshot.veiled and snapshot.blocker == "veil"
    assert snapshot.controls == () and snapshot.controls_obscured == 1


def test_a_message_offering_a_button_is_not_a_veil(fixture_web: FixtureWeb, browser_page: Any) -> None:
    _open(browser_page, fixture_web.site("act-veil").url("/notice.html"))
    readiness = wait_until_readable(browser_page, deadline_in(5))
    assert readiness.ready and not readiness.veil_seen
    snapshot = observe(browser_page)
    assert not snapshot.veiled and snapshot.blocker == "layer"
    assert [control.label for control in snapshot.controls] == ["Sign in again"]
    assert "Your session has expired." in snapshot.panels[0].text


def test_data_the_page_is_still_downloading_is_waited_for(fixture_web: FixtureWeb, browser_page: Any) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("act-loading").url("/delayed.html"))
    assert "Bill B-103" in snapshot.text
    assert len(snapshot.matching(name="Open")) == 3


def test_a_page_that_never_stops_changing_is_read_as_it_is_after_the_bound(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    _open(browser_page, fixture_web.site("act-veil").url("/notice.html"))
    browser_page.evaluate(
        """() => {
            const ticker = document.createElement('p');
            document.body.appendChild(ticker);
            let beat = 0;  // a script-driven ticker: the DOM changes every frame, for ever
            const tick = () => { ticker.textContent = 'Tick ' + (beat += 1); requestAnimationFrame(tick); };
            requestAnimationFrame(tick);
        }"""
    )
    result = read_page(browser_page, deadline=deadline_in(20))
    assert result.snapshot is not None and "Your session has expired." in result.snapshot.text
    assert result.readiness.ready and result.readiness.still_changing
    assert DOM_CHANGE_PATIENCE.total_seconds() - 0.5 <= result.readiness.waited < 15


def test_long_polling_does_not_keep_the_page_from_being_read(fixture_web: FixtureWeb, browser_page: Any) -> None:
    _open(browser_page, fixture_web.site("act-loading").url("/longpoll.html"))
    result = read_page(browser_page, deadline=deadline_in(15))
    assert result.snapshot is not None and "Bill B-103" in result.snapshot.text
    # Ready long before the held request (30 s) ends: it was read past once older than the bound.
    assert result.readiness.ready and result.readiness.long_requests == 1
    assert result.readiness.waited >= DATA_REQUEST_PATIENCE.total_seconds() - 1


def test_a_long_poll_that_asks_again_is_read_past_from_its_start(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("act-longpoll")
    _open(browser_page, site.url("/"))
    first = read_page(browser_page, deadline=deadline_in(15))
    assert first.readiness.ready and first.readiness.waited >= DATA_REQUEST_PATIENCE.total_seconds() - 1
    for _ in range(100):  # waiting inside Playwright, which delivers the page's events
        if site.requests().count(("GET", "/_/hold")) >= 2:
            break
        browser_page.wait_for_timeout(100)
    # The channel answered only after holding its request past the bound, then asked again at the same
    # address: the young request is the same permanent connection, not data to wait for.
    again = read_page(browser_page, deadline=deadline_in(15))
    assert again.readiness.ready and again.readiness.long_requests >= 1
    assert again.readiness.waited < DATA_REQUEST_PATIENCE.total_seconds() - 1


def test_an_event_stream_does_not_keep_the_page_from_being_read(fixture_web: FixtureWeb, browser_page: Any) -> None:
    _open(browser_page, fixture_web.site("act-loading").url("/stream.html"))
    result = read_page(browser_page, deadline=deadline_in(15))
    assert result.snapshot is not None and "Bill B-103" in result.snapshot.text
    assert result.readiness.ready
    # The stream is open and young, yet it is not data the reading waits for.
    assert browser_page.evaluate("() => events.readyState") == 1
    assert watch_page(browser_page).pending_data() == 0


@pytest.mark.parametrize("path", ["/broken.html", "/nonsense.html"])
def test_loading_checks_that_fail_or_answer_nonsense_do_not_establish_readiness(
    fixture_web: FixtureWeb, browser_page: Any, path: str
) -> None:
    _open(browser_page, fixture_web.site("act-loading").url(path))
    started = time.monotonic()
    readiness = wait_until_readable(browser_page, deadline_in(1.5))
    assert not readiness.ready
    assert readiness.blockers in (("check_failed",), ("changing",))
    assert time.monotonic() - started >= 1.4
    # The page can still be read as it is.
    assert "Bill B-" in observe(browser_page).text


def test_loading_checks_that_time_out_do_not_establish_readiness(fixture_web: FixtureWeb, browser_page: Any) -> None:
    _open(browser_page, fixture_web.site("act-loading").url("/busy.html"))
    browser_page.wait_for_timeout(400)  # the page is busy from 200 ms on
    started = time.monotonic()
    readiness = wait_until_readable(browser_page, deadline_in(1.5))
    assert (readiness.ready, readiness.blockers) == (False, ("check_failed",))
    assert time.monotonic() - started < 5  # the wait kept its deadline although the page did not answer


def test_a_read_that_fails_because_the_page_changed_is_read_again_once(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.site("act-clicks")
    _open(browser_page, site.url("/"))
    calls: list[str] = []

    def navigating_under_the_first_read(page: Any, *, deadline: float | None = None) -> Snapshot:
        calls.append(page.url)
        if len(calls) == 1:
            with page.expect_request("**/next.html"):
                page.evaluate("() => { location.href = '/next.html'; }")
        return observe(page, deadline=deadline)

    result = read_page(browser_page, deadline=deadline_in(10), observer=navigating_under_the_first_read)
    assert result.attempts == 2 and result.snapshot is not None
    assert result.snapshot.title == "Page two"


def test_a_second_change_ends_the_read_with_its_reason(fixture_web: FixtureWeb, browser_page: Any) -> None:
    _open(browser_page, fixture_web.site("act-clicks").url("/"))

    def always_changing(page: Any, *, deadline: float | None = None) -> Snapshot:
        raise ObservationFailed("changed")

    result = read_page(browser_page, deadline=deadline_in(5), observer=always_changing)
    assert (result.snapshot, result.attempts, result.failure) == (None, 2, "changed")
