"""A click expected to change the page in place, in real Chromium: content drawn is evidence.

The collection clicks buttons without an address (tabs, menus, "details")
expecting them to change the page in place. What they drew ends the wait once
the page is quiet, instead of after the navigation grace; a navigation that
starts anyway is still seen, and a click that drew nothing keeps the grace.
"""

from __future__ import annotations

from typing import Any

import pytest

from apps.sites.acting.click import ClickApproval, click, deadline_in
from apps.sites.collection.signals import classify_control
from apps.sites.observation.limits import NAVIGATION_START_GRACE
from apps.sites.observation.reader import observe
from apps.sites.observation.snapshot import Control
from tests.sites.fixture_web import FixtureWeb
from tests.sites.test_observation_support import nothing_pressed, only, open_and_read

pytestmark = pytest.mark.browser
GRACE = NAVIGATION_START_GRACE.total_seconds()


def _click_in_place(page: Any, control: Control, *, expect_in_place: bool = True) -> Any:
    return click(
        page, control, approval=ClickApproval(control), deadline=deadline_in(15), expect_in_place=expect_in_place
    )


def test_a_tab_that_draws_its_content_ends_the_wait_without_the_navigation_grace(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("act-clicks").url("/inplace.html"))
    outcome = _click_in_place(browser_page, only(snapshot, role="tab", name="2025"))
    assert (outcome.kind, outcome.effect, outcome.evidence) == ("dispatched", "updated_in_place", "drawn_in_place")
    assert outcome.settle_seconds < GRACE
    assert "Invoice I-2025-1" in observe(browser_page).text


def test_a_menu_shown_by_an_attribute_alone_is_drawn_in_place_too(fixture_web: FixtureWeb, browser_page: Any) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("act-clicks").url("/inplace.html"))
    outcome = _click_in_place(browser_page, only(snapshot, name="Menu"))
    assert (outcome.effect, outcome.evidence) == ("updated_in_place", "drawn_in_place")
    assert outcome.settle_seconds < GRACE
    assert only(observe(browser_page), role="link", name="Page two").href.endswith("/next.html")


def test_without_the_expectation_the_same_click_keeps_the_navigation_grace(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("act-clicks").url("/inplace.html"))
    outcome = _click_in_place(browser_page, only(snapshot, name="Menu"), expect_in_place=False)
    assert (outcome.effect, outcome.evidence) == ("updated_in_place", "grace_elapsed")
    assert outcome.settle_seconds >= GRACE


def test_a_navigation_that_starts_while_the_drawing_settles_is_still_waited_for(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("act-clicks").url("/inplace.html"))
    outcome = _click_in_place(browser_page, only(snapshot, name="Save and continue"))
    assert (outcome.effect, outcome.evidence) == ("navigated", "navigation")
    assert observe(browser_page).title == "Page two"


def test_a_click_that_draws_nothing_still_gives_a_late_navigation_its_grace(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("act-clicks").url("/"))
    outcome = _click_in_place(browser_page, only(snapshot, name="Continue later"))
    assert (outcome.kind, outcome.effect) == ("dispatched", "navigated")
    assert observe(browser_page).title == "Page two"


def test_the_selected_tab_is_current_and_is_not_a_period_to_open(fixture_web: FixtureWeb, browser_page: Any) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("act-clicks").url("/inplace.html"))
    shown, other = only(snapshot, role="tab", name="2026"), only(snapshot, role="tab", name="2025")
    assert (shown.current, other.current) == (True, False)
    assert classify_control(shown, object_words=("invoice",)) is None
    signal = classify_control(other, object_words=("invoice",))
    assert signal is not None and (signal.kind, signal.expansion) == ("expansion", "period")
    # Once another year is shown, the first is a period to open like any other.
    _click_in_place(browser_page, other)
    again = only(observe(browser_page), role="tab", name="2026")
    assert not again.current and classify_control(again, object_words=("invoice",)) is not None


def test_content_drawn_while_scrolling_to_the_control_is_not_the_clicks_doing(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("act-clicks").url("/scroll-drawn.html"))
    control = only(snapshot, name="Show nothing")
    assert not control.in_viewport  # the click scrolls to it first, and the page draws as it scrolls
    outcome = _click_in_place(browser_page, control)
    assert (outcome.kind, outcome.effect, outcome.evidence) == ("dispatched", "no_change", "grace_elapsed")
    assert "Item 1" in observe(browser_page).text  # the page did draw, before the click


def test_a_caller_that_looks_when_drawn_gets_the_page_before_the_clicks_request_answers(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    # The panel is drawn at once; the beacon its button sends is answered later (or never read).
    snapshot = open_and_read(browser_page, fixture_web.site("collect-accordion").url("/caricamento.html"))
    button = snapshot.matching(name="Dettagli")[0]
    outcome = click(
        browser_page, button, approval=ClickApproval(button), deadline=deadline_in(15), look_when_drawn=True
    )
    assert (outcome.kind, outcome.effect, outcome.evidence) == ("dispatched", "updated_in_place", "drawn_early")
    assert outcome.readiness is not None and not outcome.readiness.ready
    assert "caricamento" in observe(browser_page).text  # what was drawn first: the values are on their way


def test_the_navigation_grace_counts_from_the_clicks_dispatch_not_from_playwrights_checks(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    # The button slides for a second: Playwright waits for it to stand still (longer than the grace)
    # before dispatching; the page then draws a notice and moves on 100 ms later.
    snapshot = open_and_read(browser_page, fixture_web.site("act-clicks").url("/inplace.html"))
    browser_page.evaluate(
        "document.getElementById('save').animate("
        "[{transform: 'translateX(0)'}, {transform: 'translateX(40px)'}], {duration: 1000})"
    )
    outcome = _click_in_place(browser_page, only(snapshot, name="Save and continue"))
    assert (outcome.effect, outcome.evidence) == ("navigated", "navigation")
    assert observe(browser_page).title == "Page two"


def test_a_control_drawn_again_as_the_page_scrolls_to_it_is_refused_and_not_pressed(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.site("act-clicks")
    snapshot = open_and_read(browser_page, site.url("/scroll-recycled.html"))
    control = only(snapshot, name="Show details")
    assert not control.in_viewport
    approval = ClickApproval(control)
    outcome = click(browser_page, control, approval=approval, deadline=deadline_in(15), expect_in_place=True)
    # Checked again once the page drew what the scroll set off: another element stands there now.
    assert (outcome.kind, outcome.reason) == ("changed", "element_replaced")
    assert not outcome.invoked and not approval.spent
    assert nothing_pressed(browser_page, site)


def test_a_press_that_would_land_on_something_laid_over_the_control_is_blocked_and_refunded(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.site("act-clicks")
    snapshot = open_and_read(browser_page, site.url("/hover-cover.html"))
    control = only(snapshot, name="Show receipt")
    approval = ClickApproval(control)
    outcome = click(browser_page, control, approval=approval, deadline=deadline_in(15))
    # Checked and aimed at, then covered as the pointer arrived: the press reached neither.
    assert (outcome.kind, outcome.reason) == ("not_found", "covered")
    assert not outcome.invoked and not approval.spent
    assert nothing_pressed(browser_page, site)
