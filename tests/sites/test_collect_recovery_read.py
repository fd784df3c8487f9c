"""The one fresh read after a document change during the check: same page and origin, four seconds, still checked.

The document changes for real in Chromium (the page reloads, goes elsewhere,
or stays veiled); which reads see the change is scripted, so each test
reaches the recovery read deterministically.
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from apps.sites.collection.budget import CollectionBudget
from apps.sites.collection.findings import CollectionStop
from apps.sites.collection.pages import PreparedPage
from apps.sites.limits import RECOVERY_READ_TIMEOUT
from apps.sites.observation.reader import observe
from apps.sites.observation.snapshot import ObservationFailed, Snapshot
from tests.sites.collect_support import collect, pages_requested
from tests.sites.fixture_web import FixtureWeb

pytestmark = pytest.mark.browser

# Changes the page keeps making: a line of text rewritten every 25 ms, so it never stays quiet.
# A textless layer over the whole window that never lifts: the page is waited for until the bound.
# (A page that merely keeps changing is read as it is after DOM_CHANGE_PATIENCE, within the bound.)
STAYS_VEILED = (
    "() => { const veil = document.body.appendChild(document.createElement('div'));"
    " veil.style.cssText = 'position:fixed; inset:0; z-index:99999; background:#fff'; }"
)


class _DocumentChanges:
    """Observes for real, except that the read and its own second read both find the document changing.

    ``change`` runs in the page during the first read, after a real observation
    (the earlier result, which is then discarded): the document really changes.
    ``then`` runs in the page during the second read.
    """

    def __init__(self, change: str, then: str = "") -> None:
        self.change = change
        self.then = then
        self.calls = 0
        self.earlier: Snapshot | None = None

    def __call__(self, page: Any, *, deadline: float | None = None) -> Snapshot:
        self.calls += 1
        if self.calls == 1:
            self.earlier = observe(page, deadline=deadline)
            with suppress(PlaywrightError):
                page.evaluate(f"() => setTimeout(() => {{ {self.change} }}, 0)")
            raise ObservationFailed("changed")
        if self.calls == 2:
            if self.then:
                page.evaluate(self.then)
            raise ObservationFailed("changed")
        return observe(page, deadline=deadline)


def test_a_fresh_read_is_not_accepted_once_the_change_led_to_another_page(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-recovery")
    observer = _DocumentChanges("location.assign('/elsewhere.html')")
    collected = collect(browser_page, site, "/bills.html", "all bills", observer=observer)
    assert pages_requested(site) == ["/bills.html", "/elsewhere.html"]
    # Same origin, another page: no fresh read there, and nothing of the other page is kept.
    assert collected.findings.stop == CollectionStop("unreadable", "left_page")
    assert observer.calls == 2
    assert collected.findings.diagnostics["recovery_read.recovered"] == 0
    assert collected.identifiers() == []
    assert collected.result.outcome == "failed"


def test_a_reload_of_the_same_page_allows_the_fresh_read(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-recovery")
    observer = _DocumentChanges("location.reload()")
    # The fragment does not make another page.
    collected = collect(browser_page, site, "/bills.html#latest", "all bills", observer=observer)
    assert pages_requested(site) == ["/bills.html", "/bills.html"]
    assert collected.findings.diagnostics["recovery_read.recovered"] == 1
    assert collected.identifiers() == ["RW-2026-01", "RW-2026-02", "RW-2026-03"]
    assert collected.findings.stop is None


def test_a_page_that_stays_veiled_ends_the_fresh_read_at_its_own_four_second_bound(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-recovery")
    observer = _DocumentChanges("location.reload()", then=STAYS_VEILED)
    budget = CollectionBudget(max_active_seconds=60)
    collected = collect(browser_page, site, "/bills.html", "all bills", budget=budget, observer=observer)
    # The fresh read waited for the veil to lift until its own bound, not the caller's minute.
    assert collected.findings.stop == CollectionStop("unreadable", "timeout")
    assert collected.ledger.exhausted() is None
    assert collected.ledger.active_seconds() < RECOVERY_READ_TIMEOUT.total_seconds() + 20  # generous margin
    assert observer.calls == 3  # one fresh read: no further observation, nothing clicked again
    assert collected.ledger.spent_actions == 1
    assert collected.identifiers() == []


def test_the_fresh_read_ends_within_the_callers_remaining_time(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-recovery")
    observer = _DocumentChanges("location.reload()", then=STAYS_VEILED)
    budget = CollectionBudget(max_active_seconds=2.5)
    collected = collect(browser_page, site, "/bills.html", "all bills", budget=budget, observer=observer)
    assert collected.findings.stop == CollectionStop("active_time")
    assert "active_time" in collected.findings.limits_met
    assert collected.identifiers() == []


def test_a_challenge_in_the_fresh_read_blocks_though_the_earlier_read_was_clear(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-recovery")
    observer = _DocumentChanges("location.reload()")
    collected = collect(browser_page, site, "/checked.html", "all bills", observer=observer)
    assert observer.earlier is not None and "RW-2026-01" in observer.earlier.text  # clear, and discarded
    assert collected.findings.stop == CollectionStop("challenge")
    assert collected.findings.diagnostics["recovery_read.recovered"] == 1
    assert collected.identifiers() == []
    assert site.presses() == []  # the checkbox is never clicked


def test_preparation_that_needs_the_user_after_the_fresh_read_blocks(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-recovery")
    observer = _DocumentChanges("location.reload()")
    prepared: list[int] = []

    def consent_pending(page: Any, snapshot: Snapshot, deadline: float) -> PreparedPage:
        prepared.append(observer.calls)
        return PreparedPage(blocked="consent_pending")

    collected = collect(browser_page, site, "/bills.html", "all bills", observer=observer, prepare_page=consent_pending)
    assert prepared == [3]  # prepared once, on the fresh read
    assert collected.findings.stop == CollectionStop("page_blocked", "consent_pending")
    assert collected.identifiers() == []
