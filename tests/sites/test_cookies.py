"""Rejecting cookies in real Chromium: rejected or paused for the user, never accepted.

Every consent fixture records the button it received (``/_/press``); each
test asserts the outcome and exactly what was pressed.
"""

from __future__ import annotations

from typing import Any

import pytest

from apps.sites.acting.click import deadline_in
from apps.sites.acting.cookie_memory import ConsentMemory, notice_identity
from apps.sites.acting.cookies import CookieOutcome, consent_clear_before_submission, reject_cookies
from tests.sites.fixture_web import FixtureSite, FixtureWeb
from tests.sites.test_observation_support import nothing_pressed, open_and_read, presses_become

pytestmark = pytest.mark.browser
PROCEDURE_SECONDS = 30.0


def open_notice(fixture_web: FixtureWeb, page: Any, site_name: str, path: str) -> FixtureSite:
    site = fixture_web.fresh(site_name)
    open_and_read(page, site.url(path))
    return site


def run(page: Any, memory: ConsentMemory | None = None) -> CookieOutcome:
    return reject_cookies(page, memory=memory or ConsentMemory(owner_id=1), deadline=deadline_in(PROCEDURE_SECONDS))


@pytest.mark.parametrize(
    "path",
    [
        "/index.html",  # id="reject" sits on the accept button: the label decides
        "/necessari.html",  # "Accetta solo i necessari" is a rejection
        "/link.html",  # a rejecting link that stays on the page
    ],
)
def test_a_rejecting_label_is_pressed_and_the_notice_closes(
    fixture_web: FixtureWeb, browser_page: Any, path: str
) -> None:
    site = open_notice(fixture_web, browser_page, "consent-banner", path)
    outcome = run(browser_page)
    assert (outcome.kind, outcome.notices, outcome.clicks) == ("rejected", 1, 1), outcome
    assert presses_become(browser_page, site, ["reject"])


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("/thats-ok.html", "only_accept"),  # "That's ok" accepts without saying so
        ("/got-it.html", "only_accept"),  # "Got it" accepts; the × beside it is no rejection
        ("/va-bene.html", "only_accept"),  # "Va bene" accepts, even with id="rifiuta"; "Chiudi" is no rejection
        ("/navigating.html", "only_accept"),  # "Rifiuta" that leads to another page is navigation
        ("/mismatch.html", "unclear_labels"),  # a hidden name cannot turn a visible "Accept all" into rejection
    ],
)
def test_without_a_rejecting_control_the_procedure_pauses_and_presses_nothing(
    fixture_web: FixtureWeb, browser_page: Any, path: str, reason: str
) -> None:
    site = open_notice(fixture_web, browser_page, "consent-banner", path)
    outcome = run(browser_page)
    assert (outcome.kind, outcome.reason, outcome.clicks) == ("paused", reason, 0), outcome
    assert nothing_pressed(browser_page, site)
    assert not any(path.startswith("/privacy") for _, path in site.requests())


def test_two_notices_at_once_are_both_rejected(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = open_notice(fixture_web, browser_page, "consent-banner", "/sequence-now.html")
    outcome = run(browser_page)
    assert (outcome.kind, outcome.notices) == ("rejected", 2), outcome
    assert presses_become(browser_page, site, ["reject-1", "reject-2"])


def test_a_notice_appearing_later_is_rejected_by_the_check_before_submission(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = open_notice(fixture_web, browser_page, "consent-banner", "/sequence.html")
    memory = ConsentMemory(owner_id=1)
    first = run(browser_page, memory)
    assert (first.kind, first.notices) == ("rejected", 1), first
    browser_page.fill("input[name=email]", "someone@example.test")
    browser_page.wait_for_selector("#partners", state="visible")
    second = consent_clear_before_submission(browser_page, memory=memory, deadline=deadline_in(PROCEDURE_SECONDS))
    assert (second.kind, second.notices, second.clear) == ("rejected", 1, True), second
    assert presses_become(browser_page, site, ["reject-1", "reject-2"])
    assert site.submissions() == []


@pytest.mark.parametrize("path", ["/other.html", "/signin-dialog.html"])
def test_a_page_without_notice_gives_no_notice(fixture_web: FixtureWeb, browser_page: Any, path: str) -> None:
    # A sign-in dialog speaking of personal data, with "Continue" and "Close", is no consent notice.
    site = open_notice(fixture_web, browser_page, "consent-banner", path)
    outcome = run(browser_page)
    assert (outcome.kind, outcome.clicks, outcome.clear) == ("no_notice", 0, True)
    assert nothing_pressed(browser_page, site)


def test_a_notice_inside_a_frame_from_another_origin_is_rejected_there(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    cmp = fixture_web.fresh("consent-cmp")
    site = fixture_web.fresh("consent-frame")
    open_and_read(browser_page, site.url(f"/index.html?cmp={cmp.origin}"))
    outcome = run(browser_page)
    assert (outcome.kind, outcome.notices) == ("rejected", 1), outcome
    assert presses_become(browser_page, cmp, ["reject"])


def test_the_reject_control_of_a_settings_layer_is_pressed(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = open_notice(fixture_web, browser_page, "consent-layers", "/index.html")
    outcome = run(browser_page)
    assert (outcome.kind, outcome.clicks) == ("rejected", 2), outcome
    assert presses_become(browser_page, site, ["settings", "reject"])


@pytest.mark.parametrize(
    ("path", "saved"),
    [
        ("/toggles.html", "save|necessary=1|statistics=0|marketing=0"),
        ("/switches.html", "save|necessary=1|ads=0|stats=0"),
    ],
)
def test_optional_toggles_are_switched_off_never_on_before_saving(
    fixture_web: FixtureWeb, browser_page: Any, path: str, saved: str
) -> None:
    site = open_notice(fixture_web, browser_page, "consent-layers", path)
    outcome = run(browser_page)
    # settings, the one optional toggle that was on, save
    assert (outcome.kind, outcome.clicks) == ("rejected", 3), outcome
    assert presses_become(browser_page, site, ["settings", saved])


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("/hidden-toggle.html", "optional_still_on"),  # a toggle the observation cannot see is still on
        ("/locked.html", "optional_locked_on"),  # an optional choice that cannot be switched off
    ],
)
def test_a_settings_layer_that_would_save_an_optional_choice_pauses(
    fixture_web: FixtureWeb, browser_page: Any, path: str, reason: str
) -> None:
    site = open_notice(fixture_web, browser_page, "consent-layers", path)
    outcome = run(browser_page)
    assert (outcome.kind, outcome.reason) == ("paused", reason), outcome
    assert presses_become(browser_page, site, ["settings"])


def test_a_remembered_decision_is_checked_again_and_never_trusted_blindly(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("consent-banner")
    snapshot = open_and_read(browser_page, site.url("/index.html"))
    (panel,) = snapshot.panels
    accept = next(c for c in snapshot.panel_controls(panel) if c.text == "Accept all")
    memory = ConsentMemory(owner_id=1)
    # A stale or poisoned decision naming the accept button: the label no longer reads as rejection.
    memory.remember(notice_identity(snapshot.url, panel), accept.identity)
    outcome = run(browser_page, memory)
    assert outcome.kind == "rejected", outcome
    assert presses_become(browser_page, site, ["reject"])
    reject = next(c for c in snapshot.panel_controls(panel) if c.text == "Reject all")
    assert memory.recall(notice_identity(snapshot.url, panel)) == reject.identity

    # The same notice on the next visit: the remembered control is found and checked again.
    site.forget()
    open_and_read(browser_page, site.url("/index.html"))
    again = run(browser_page, memory)
    assert (again.kind, again.clicks) == ("rejected", 1), again
    assert presses_become(browser_page, site, ["reject"])


def test_an_inline_strip_that_only_acknowledges_is_left_as_it_is(fixture_web: FixtureWeb, browser_page: Any) -> None:
    # "Ho capito" offers nothing to reject and blocks nothing: the work goes on, nothing is pressed.
    site = open_notice(fixture_web, browser_page, "consent-banner", "/inline-ho-capito.html")
    outcome = run(browser_page)
    assert (outcome.kind, outcome.clicks, outcome.clear) == ("no_notice", 0, True), outcome
    assert nothing_pressed(browser_page, site)


def test_a_rejection_offered_outside_any_panel_pauses_and_nothing_is_pressed(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = open_notice(fixture_web, browser_page, "consent-banner", "/inline-reject.html")
    outcome = run(browser_page)
    assert (outcome.kind, outcome.reason, outcome.clicks) == ("paused", "notice_outside_panel", 0), outcome
    assert nothing_pressed(browser_page, site)


def test_a_close_control_that_says_it_refuses_is_the_rejection(fixture_web: FixtureWeb, browser_page: Any) -> None:
    # The Garante's rule: the banner's "×", titled "Chiudi e continua senza accettare", continues without
    # accepting. A close control saying nothing of the kind is never a rejection (above).
    site = open_notice(fixture_web, browser_page, "consent-banner", "/garante-close.html")
    outcome = run(browser_page)
    assert (outcome.kind, outcome.notices) == ("rejected", 1), outcome
    assert presses_become(browser_page, site, ["close-reject"])


def test_a_notice_that_redraws_itself_as_its_settings_is_rejected_there(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = open_notice(fixture_web, browser_page, "consent-layers", "/redrawn.html")
    outcome = run(browser_page)
    assert (outcome.kind, outcome.clicks) == ("rejected", 2), outcome
    assert presses_become(browser_page, site, ["settings", "reject"])
