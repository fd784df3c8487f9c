"""Clicking safely in real Chromium: re-checks before, spent approvals, and what follows a click."""

from __future__ import annotations

from typing import Any

import pytest

from apps.sites.acting.click import ClickApproval, click, deadline_in
from apps.sites.observation.limits import NAVIGATION_START_GRACE
from apps.sites.observation.reader import observe
from apps.sites.observation.snapshot import Control, Snapshot
from tests.sites.fixture_web import FixtureSite, FixtureWeb
from tests.sites.test_observation_support import (
    nothing_pressed,
    only,
    open_and_read,
    presses_become,
    read,
)

pytestmark = pytest.mark.browser
CLICK_SECONDS = 15.0


def _open_clicks(fixture_web: FixtureWeb, page: Any) -> tuple[FixtureSite, Snapshot]:
    """The act-clicks site read in ``page``, with the site's logs cleared."""
    site = fixture_web.site("act-clicks")
    snapshot = open_and_read(page, site.url("/"))
    site.forget()
    return site, snapshot


def _click(page: Any, control: Control) -> Any:
    return click(page, control, approval=ClickApproval(control), deadline=deadline_in(CLICK_SECONDS))


def test_a_link_to_another_page_waits_for_the_navigation(fixture_web: FixtureWeb, browser_page: Any) -> None:
    _, snapshot = _open_clicks(fixture_web, browser_page)
    outcome = _click(browser_page, only(snapshot, role="link", name="Next page"))
    assert (outcome.kind, outcome.effect) == ("dispatched", "navigated")
    assert outcome.readiness.ready and outcome.invoked
    assert observe(browser_page).title == "Page two"


def test_a_navigation_that_starts_late_is_still_waited_for(fixture_web: FixtureWeb, browser_page: Any) -> None:
    _, snapshot = _open_clicks(fixture_web, browser_page)
    outcome = _click(browser_page, only(snapshot, name="Continue later"))
    assert (outcome.kind, outcome.effect) == ("dispatched", "navigated")
    assert observe(browser_page).title == "Page two"


def test_an_address_change_drawn_later_is_read_once_drawn(fixture_web: FixtureWeb, browser_page: Any) -> None:
    _, snapshot = _open_clicks(fixture_web, browser_page)
    outcome = _click(browser_page, only(snapshot, name="Details of B-001"))
    assert (outcome.kind, outcome.effect) == ("dispatched", "navigated")
    assert browser_page.url.endswith("/route/detail")
    assert "Amount 30.00, due 31/01/2026." in observe(browser_page).text


def test_an_answer_in_place_with_data_ends_the_wait_at_once(fixture_web: FixtureWeb, browser_page: Any) -> None:
    _, snapshot = _open_clicks(fixture_web, browser_page)
    with_data = _click(browser_page, only(snapshot, name="Load more"))
    assert (with_data.kind, with_data.effect, with_data.evidence) == (
        "dispatched",
        "updated_in_place",
        "answer_in_place",
    )
    after = observe(browser_page)
    assert [control.row for control in after.matching(name="Download")][-1] == "B-004 40.00 Download"

    without_evidence = _click(browser_page, only(after, name="Filters"))
    assert (without_evidence.effect, without_evidence.evidence) == ("updated_in_place", "grace_elapsed")
    # Without a data request the wait gives a navigation its grace; with one it does not.
    assert without_evidence.settle_seconds >= NAVIGATION_START_GRACE.total_seconds()
    assert only(observe(browser_page), name="Filters").expanded is True


def test_a_click_that_changes_nothing_says_so_and_writes_nothing_into_the_page(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    _, snapshot = _open_clicks(fixture_web, browser_page)
    browser_page.evaluate(
        """() => {
            window.seenMutations = [];
            new MutationObserver((records) => window.seenMutations.push(...records.map((r) => r.type)))
                .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
        }"""
    )
    outcome = _click(browser_page, only(snapshot, name="Nothing happens"))
    assert (outcome.kind, outcome.effect) == ("dispatched", "no_change")
    assert browser_page.evaluate("() => window.seenMutations") == []


def test_identical_buttons_are_clicked_by_their_row(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site, snapshot = _open_clicks(fixture_web, browser_page)
    (second,) = [control for control in snapshot.matching(name="Download") if control.row.startswith("B-002")]
    outcome = _click(browser_page, second)
    assert outcome.kind == "dispatched"
    assert presses_become(browser_page, site, ["download-B-002"]), site.presses()


def test_an_ambiguous_control_is_never_clicked(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.site("observe-rows")
    snapshot = open_and_read(browser_page, site.url("/"))
    site.forget()
    archive = snapshot.matching(name="Archive")[0]
    approval = ClickApproval(archive)
    outcome = click(browser_page, archive, approval=approval, deadline=deadline_in(CLICK_SECONDS))
    assert (outcome.kind, outcome.reason, outcome.invoked) == ("ambiguous", "ambiguous_when_observed", False)
    assert not approval.spent and nothing_pressed(browser_page, site)


def test_a_control_whose_row_changed_is_not_found_and_nothing_is_sent(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site, snapshot = _open_clicks(fixture_web, browser_page)
    (second,) = [control for control in snapshot.matching(name="Download") if control.row.startswith("B-002")]
    browser_page.evaluate("() => { document.querySelectorAll('#bills td')[3].textContent = 'B-009'; }")
    approval = ClickApproval(second)
    outcome = click(browser_page, second, approval=approval, deadline=deadline_in(CLICK_SECONDS))
    assert (outcome.kind, outcome.reason) == ("not_found", "no_match")
    assert not approval.spent and nothing_pressed(browser_page, site)


def test_a_control_from_a_replaced_document_is_refused_and_found_again_by_identity(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site, snapshot = _open_clicks(fixture_web, browser_page)
    first = snapshot.matching(name="Download")[0]
    browser_page.reload()
    again = read(browser_page)
    outcome = _click(browser_page, first)
    assert (outcome.kind, outcome.reason) == ("changed", "document_replaced")
    assert nothing_pressed(browser_page, site)
    (same,) = again.with_identity(first.identity)
    assert _click(browser_page, same).kind == "dispatched"
    assert presses_become(browser_page, site, ["download-B-001"]), site.presses()


def test_a_covered_control_is_not_clicked(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site, snapshot = _open_clicks(fixture_web, browser_page)
    browser_page.evaluate(
        """() => {
            const cover = document.createElement('div');
            cover.style.cssText = 'position:fixed; inset:0; background:#fff';
            cover.textContent = 'Please wait while we check your account.';
            document.body.appendChild(cover);
        }"""
    )
    outcome = _click(browser_page, snapshot.matching(name="Download")[0])
    assert (outcome.kind, outcome.reason) == ("not_found", "covered")
    assert nothing_pressed(browser_page, site)


def test_a_control_that_never_holds_still_is_refused_unsent_and_its_approval_kept(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site, _ = _open_clicks(fixture_web, browser_page)
    browser_page.evaluate(
        """() => {
            const moving = document.createElement('button');
            moving.textContent = 'Moving';
            // Moved by a CSS animation (no DOM change to wait out): Playwright never finds it stable.
            const style = document.createElement('style');
            style.textContent = '@keyframes sway { from { transform: none } to { transform: translateX(40px) } }';
            document.head.appendChild(style);
            moving.style.cssText = 'position:absolute; left:300px; top:300px';
            moving.style.animation = 'sway 0.3s linear infinite alternate';
            moving.addEventListener('click', () => fetch('/_/press?control=moving'));
            document.body.appendChild(moving);
        }"""
    )
    moving = only(read(browser_page), name="Moving")
    approval = ClickApproval(moving)
    outcome = click(browser_page, moving, approval=approval, deadline=deadline_in(3.0))
    assert (outcome.kind, outcome.reason) == ("not_found", "not_actionable")
    assert not outcome.invoked and not approval.spent
    assert nothing_pressed(browser_page, site)


def test_an_answer_whose_body_the_page_never_reads_still_ends_the_wait_as_an_answer_in_place(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site, _ = _open_clicks(fixture_web, browser_page)
    browser_page.evaluate(
        """() => {
            const toggle = document.createElement('button');
            toggle.textContent = 'Show more';
            toggle.addEventListener('click', () => {
                const extra = document.createElement('p');
                extra.textContent = 'Due 31/03/2026';
                document.body.appendChild(extra);
                fetch('/_/press?control=more');  // fired and forgotten: its body is never read
            });
            document.body.appendChild(toggle);
        }"""
    )
    outcome = _click(browser_page, only(read(browser_page), name="Show more"))
    # Without the answer counting once it arrived, the wait outlasts the request's patience and
    # ends on the navigation grace instead.
    assert (outcome.kind, outcome.effect, outcome.evidence) == ("dispatched", "updated_in_place", "answer_in_place")
    assert presses_become(browser_page, site, ["more"])


def test_a_click_that_errors_spends_its_approval_and_is_never_resent(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site, snapshot = _open_clicks(fixture_web, browser_page)
    busy = only(snapshot, name="Busy")
    approval = ClickApproval(busy)
    outcome = click(browser_page, busy, approval=approval, deadline=deadline_in(CLICK_SECONDS))
    assert (outcome.kind, outcome.reason) == ("dispatch_error_effect_unknown", "timeout")
    assert outcome.invoked and approval.spent
    again = click(browser_page, busy, approval=approval, deadline=deadline_in(CLICK_SECONDS))
    assert again.kind == "approval_spent"
    # The error proved nothing: the click did act. A fresh observation clarifies the state.
    assert presses_become(browser_page, site, ["busy"]), site.presses()
    assert only(read(browser_page), name="Busy").enabled
    assert site.presses() == ["busy"]


def test_a_link_opening_a_new_tab_ends_the_wait_as_soon_as_the_tab_opens(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    _, snapshot = _open_clicks(fixture_web, browser_page)
    outcome = _click(browser_page, only(snapshot, name="Older bills in a new tab"))
    assert (outcome.kind, outcome.effect, outcome.evidence) == ("dispatched", "no_change", "new_page")
    # The tab is the evidence: no navigation grace is spent waiting on the page that opened it.
    assert outcome.settle_seconds < NAVIGATION_START_GRACE.total_seconds()
    assert outcome.readiness is not None and not outcome.readiness.ready
    (tab,) = outcome.new_pages
    tab.wait_for_load_state()
    assert tab.title() == "Page two" and browser_page.title() == "Bills to act on"


def test_a_click_on_a_page_with_a_long_polling_connection_does_not_wait_for_it(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("act-longpoll")
    snapshot = open_and_read(browser_page, site.url("/"))
    # The channel answered once and asked again at the same address: a young request, but a known
    # permanent connection, so neither the answer in place nor the readiness wait waits for it.
    for _ in range(100):  # waiting inside Playwright, which routes the page's requests
        if site.requests().count(("GET", "/_/hold")) >= 2:
            break
        browser_page.wait_for_timeout(100)
    assert site.requests().count(("GET", "/_/hold")) == 2
    outcome = _click(browser_page, only(snapshot, name="Load more"))
    assert (outcome.kind, outcome.effect, outcome.evidence) == ("dispatched", "updated_in_place", "answer_in_place")
    assert outcome.settle_seconds < NAVIGATION_START_GRACE.total_seconds()
    assert outcome.readiness.ready and outcome.readiness.long_requests >= 1
    assert "Bill B-202" in observe(browser_page).text


@pytest.mark.parametrize(
    ("site_name", "path", "name", "press"),
    [("observe-frames", "/", "Pay", "pay"), ("observe-panels", "/shadow.html", "Reject all", "reject")],
    ids=["inside a frame", "inside a shadow root"],
)
def test_a_control_inside_a_frame_or_a_shadow_root_is_found_and_clicked_there(
    fixture_web: FixtureWeb, browser_page: Any, site_name: str, path: str, name: str, press: str
) -> None:
    site = fixture_web.site(site_name)
    snapshot = open_and_read(browser_page, site.url(path))
    site.forget()
    outcome = _click(browser_page, only(snapshot, name=name))
    assert outcome.kind == "dispatched"
    assert presses_become(browser_page, site, [press]), site.presses()


def test_an_answer_in_place_that_sends_the_page_elsewhere_waits_for_the_new_page(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("act-longpoll")
    snapshot = open_and_read(browser_page, site.url("/"))
    outcome = _click(browser_page, only(snapshot, name="Continue"))
    assert (outcome.kind, outcome.effect, outcome.evidence) == ("dispatched", "navigated", "navigation")
    # The wait that followed the answer went on to the new document and found it readable.
    assert outcome.readiness.ready
    assert observe(browser_page).title == "Your bills"
