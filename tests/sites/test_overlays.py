"""Closing temporary panels in real Chromium, only through a safe exit; promotions are not consent."""

from __future__ import annotations

from typing import Any

import pytest

from apps.sites.acting.click import deadline_in
from apps.sites.acting.cookie_labels import classify_panel
from apps.sites.acting.cookie_memory import ConsentMemory
from apps.sites.acting.cookies import reject_cookies
from apps.sites.acting.overlays import close_overlay
from tests.sites.fixture_web import FixtureWeb
from tests.sites.test_observation_support import nothing_pressed, open_and_read, presses_become, read

pytestmark = pytest.mark.browser
PROCEDURE_SECONDS = 30.0


def _paths(site: Any) -> list[str]:
    return [path for _, path in site.requests()]


@pytest.mark.parametrize("path", ["/index.html", "/safe.html"])
def test_a_promotion_is_other_and_the_cookie_procedure_never_presses_its_close(
    fixture_web: FixtureWeb, browser_page: Any, path: str
) -> None:
    site = fixture_web.fresh("promo-popup")
    snapshot = open_and_read(browser_page, site.url(path))
    assert [classify_panel(snapshot, panel) for panel in snapshot.panels] == ["promotion"]
    outcome = reject_cookies(browser_page, memory=ConsentMemory(owner_id=1), deadline=deadline_in(PROCEDURE_SECONDS))
    assert (outcome.kind, outcome.clicks) == ("no_notice", 0)
    assert nothing_pressed(browser_page, site)


def test_a_promotion_is_closed_through_its_close_button_that_stays(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("promo-popup")
    open_and_read(browser_page, site.url("/safe.html"))
    outcome = close_overlay(browser_page, deadline=deadline_in(PROCEDURE_SECONDS))
    assert (outcome.kind, outcome.clicks) == ("closed", 1), outcome
    assert presses_become(browser_page, site, ["close"])
    assert "/offers.html" not in _paths(site)
    assert read(browser_page).panels == ()


def test_close_controls_that_navigate_or_submit_are_not_safe_exits(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("promo-popup")
    open_and_read(browser_page, site.url("/index.html"))
    outcome = close_overlay(browser_page, deadline=deadline_in(PROCEDURE_SECONDS))
    assert (outcome.kind, outcome.reason, outcome.clicks) == ("paused", "no_safe_exit", 0), outcome
    assert nothing_pressed(browser_page, site)
    assert site.submissions() == [] and "/offers.html" not in _paths(site)


def test_an_overlay_drawn_inside_an_iframe_is_closed_through_its_own_exit(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("overlay-frame")
    snapshot = open_and_read(browser_page, site.url("/index.html"))
    assert [panel.hosted_frames for panel in snapshot.panels] == [(("name:promo",),)]
    outcome = close_overlay(browser_page, deadline=deadline_in(PROCEDURE_SECONDS))
    assert (outcome.kind, outcome.clicks) == ("closed", 1), outcome
    assert presses_become(browser_page, site, ["no-grazie"])
    assert "/iscriviti.html" not in _paths(site)


def test_an_iframe_overlay_whose_only_close_navigates_is_left_alone(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("overlay-frame")
    open_and_read(browser_page, site.url("/unsafe.html"))
    outcome = close_overlay(browser_page, deadline=deadline_in(PROCEDURE_SECONDS))
    assert (outcome.kind, outcome.reason, outcome.clicks) == ("paused", "no_safe_exit", 0), outcome
    assert "/offerte.html" not in _paths(site)


def test_a_consent_notice_is_not_an_overlay_to_close(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("consent-layers")
    open_and_read(browser_page, site.url("/index.html"))
    outcome = close_overlay(browser_page, deadline=deadline_in(PROCEDURE_SECONDS))
    assert (outcome.kind, outcome.reason, outcome.clicks) == ("paused", "consent_notice", 0), outcome
    assert nothing_pressed(browser_page, site)


@pytest.mark.parametrize(
    ("site_name", "path"),
    [("promo-popup", "/offers.html"), ("consent-banner", "/signin-dialog.html")],  # a sign-in dialog is the way
)
def test_a_page_with_nothing_in_the_way_has_no_overlay(
    fixture_web: FixtureWeb, browser_page: Any, site_name: str, path: str
) -> None:
    site = fixture_web.fresh(site_name)
    open_and_read(browser_page, site.url(path))
    outcome = close_overlay(browser_page, deadline=deadline_in(PROCEDURE_SECONDS))
    assert (outcome.kind, outcome.clicks) == ("no_overlay", 0)
    assert nothing_pressed(browser_page, site)
