"""Routes a collection takes when signals do not say, what blocks it, and the one recovery read."""

from __future__ import annotations

import time
from typing import Any

import pytest

from apps.sites.acting.route_choice import ModelRouteChooser, NoRouteChooser, route_chooser_from_settings
from apps.sites.collection.budget import CollectionBudget, CollectionLedger
from apps.sites.collection.findings import CollectionStop
from apps.sites.collection.pages import PreparedPage
from apps.sites.collection.preparation import SitePreparation
from apps.sites.observation.reader import observe
from apps.sites.observation.snapshot import ObservationFailed, Snapshot
from tests.model_server import ScriptedModelServer
from tests.sites.collect_support import collect, pages_requested
from tests.sites.fixture_web import FixtureWeb
from tests.sites.test_observation_support import presses_become

pytestmark = pytest.mark.browser


def test_without_signals_and_without_a_model_the_collection_ends_incomplete_saying_why(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-archive")
    collected = collect(browser_page, site, "/maze.html", "all invoices")
    assert collected.result.outcome == "failed" and collected.result.error is not None
    assert collected.result.error.code == "collection_no_route"
    assert "no model is configured to choose one" in collected.result.error.message
    assert pages_requested(site) == ["/maze.html"]


def test_a_model_chooses_only_among_observed_controls_and_sees_no_page_text(
    fixture_web: FixtureWeb, browser_page: Any, scripted_model_server: ScriptedModelServer
) -> None:
    site = fixture_web.fresh("collect-archive")
    scripted_model_server.script({"choice": 2})
    chooser = ModelRouteChooser(scripted_model_server.tier("route_choice"))
    collected = collect(browser_page, site, "/maze.html", "all invoices", chooser=chooser)
    assert collected.identifiers() == ["MZ-2026-001"]
    (request,) = scripted_model_server.chat_requests
    assert "Amministrazione" in request.text and "I miei servizi" in request.text
    assert "MAZE-SECRET-TEXT" not in request.text


@pytest.mark.parametrize(
    ("reply", "status", "reason"),
    [({"choice": 7}, 200, "model_invalid_choice"), (None, 500, "model_")],
)
def test_a_failed_or_invented_decision_ends_the_collection_without_another_model(
    fixture_web: FixtureWeb,
    browser_page: Any,
    scripted_model_server: ScriptedModelServer,
    reply: Any,
    status: int,
    reason: str,
) -> None:
    site = fixture_web.fresh("collect-archive")
    if status == 200:
        scripted_model_server.script(reply)
    else:
        scripted_model_server.script(status=status)
    chooser = ModelRouteChooser(scripted_model_server.tier("route_choice"))
    collected = collect(browser_page, site, "/maze.html", "all invoices", chooser=chooser)
    assert collected.result.outcome == "failed" and collected.result.error is not None
    assert collected.result.error.code == "collection_route_choice_failed"
    assert collected.findings.stop is not None and collected.findings.stop.detail.startswith(reason)
    assert len(scripted_model_server.chat_requests) == 1
    assert pages_requested(site) == ["/maze.html"]


class _ChangingObserver:
    """Observes for real, except that the first ``failures`` reads find the document changing."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls = 0

    def __call__(self, page: Any, *, deadline: float | None = None) -> Snapshot:
        self.calls += 1
        if self.calls <= self.failures:
            raise ObservationFailed("changed")
        return observe(page, deadline=deadline)


def test_a_document_change_during_the_check_allows_one_fresh_read(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-archive")
    observer = _ChangingObserver(failures=2)  # the read and its own second read both see a change
    collected = collect(browser_page, site, "/?page=1&of=1", "all bills", observer=observer)
    assert collected.findings.diagnostics["recovery_read.recovered"] == 1
    assert len(collected.identifiers()) == 10
    assert observer.calls == 3


def test_a_page_still_changing_after_the_recovery_read_stops_without_repeating_anything(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-archive")
    observer = _ChangingObserver(failures=4)
    collected = collect(browser_page, site, "/?page=1&of=1", "all bills", observer=observer)
    assert collected.findings.stop is not None and collected.findings.stop.reason == "unreadable"
    assert observer.calls == 4  # two reads, then the one recovery read (two attempts); nothing more
    assert collected.result.outcome == "failed"
    assert pages_requested(site) == ["/"]


def test_a_challenge_blocks_the_collection_and_what_was_read_is_delivered(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-archive")
    collected = collect(browser_page, site, "/to-challenge.html", "all bills")
    assert collected.findings.stop is not None and collected.findings.stop.reason == "challenge"
    assert collected.result.outcome == "partial"
    assert collected.identifiers() == ["CH-2026-01"]
    assert "asks to verify that you are human" in collected.notices()
    assert site.presses() == []  # the checkbox is never clicked


def test_a_page_whose_preparation_needs_the_user_stops_the_collection(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-archive")
    prepared: list[str] = []

    def consent_pending(page: Any, snapshot: Snapshot, deadline: float) -> PreparedPage:
        prepared.append(page.url)
        return PreparedPage(blocked="consent_pending")

    collected = collect(browser_page, site, "/?page=1&of=2", "all bills", prepare_page=consent_pending)
    assert collected.findings.stop == CollectionStop("page_blocked", "consent_pending")
    assert collected.result.outcome == "failed" and len(prepared) == 1
    assert pages_requested(site) == ["/"]


def test_waiting_for_the_user_consumes_no_active_time_and_resets_nothing() -> None:
    ledger = CollectionLedger(CollectionBudget(max_active_seconds=0.5))
    assert ledger.spend("forward")
    with ledger.waiting_for_user():
        time.sleep(0.6)
    assert ledger.exhausted() is None and ledger.spent_actions == 1
    time.sleep(0.6)
    assert ledger.exhausted() == "active_time" and not ledger.spend("forward")


def test_the_chooser_is_frontier_when_configured_and_allowed_else_local_else_none(
    settings: Any, scripted_model_server: ScriptedModelServer
) -> None:
    entry = scripted_model_server.settings_entry()
    settings.METNOS_MODEL_TIERS = {"frontier": {**entry, "cloud": True}, "route_choice": entry}
    chooser = route_chooser_from_settings()
    assert isinstance(chooser, ModelRouteChooser) and chooser.tier.name == "frontier"
    settings.METNOS_SITES_FRONTIER_ROUTES = "0"
    chooser = route_chooser_from_settings()
    assert isinstance(chooser, ModelRouteChooser) and chooser.tier.name == "route_choice"
    settings.METNOS_MODEL_TIERS = {"frontier": {**entry, "cloud": True}}
    assert isinstance(route_chooser_from_settings(), NoRouteChooser)


def test_a_cookie_notice_is_rejected_before_reading_and_never_accepted(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-archive")
    preparation = SitePreparation(owner_id=1)
    collected = collect(browser_page, site, "/cookies-reject.html", "all bills", prepare_page=preparation)
    assert collected.identifiers() == ["CK-2026-01"]
    assert presses_become(browser_page, site, ["reject"])


def test_a_notice_that_only_accepts_pauses_the_collection_and_nothing_is_pressed(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-archive")
    collected = collect(
        browser_page, site, "/cookies-accept-only.html", "all bills", prepare_page=SitePreparation(owner_id=1)
    )
    assert collected.findings.stop is not None and collected.findings.stop.reason == "page_blocked"
    assert collected.findings.stop.detail == "cookies_only_accept"
    assert collected.result.outcome == "failed"
    browser_page.wait_for_timeout(300)
    assert site.presses() == []
