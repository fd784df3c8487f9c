"""A complete collection whose signals stop short of the full list asks the route model, even with rows found.

The collect-hub fixture is a customer area whose home shows only the latest
three bills; the full list sits behind "Documenti", a link no signal names.
"""

from __future__ import annotations

from typing import Any

import pytest

from apps.sites.acting.route_choice import ModelRouteChooser
from apps.sites.collection.findings import CollectionStop
from tests.model_server import ScriptedModelServer
from tests.sites.collect_support import collect, pages_requested
from tests.sites.fixture_web import FixtureWeb

pytestmark = pytest.mark.browser

LATEST = ["AC-2026-0007", "AC-2026-0006", "AC-2026-0005"]
EVERY_BILL = [f"AC-2026-000{n}" for n in range(7, 0, -1)]


def _chooser(server: ScriptedModelServer) -> ModelRouteChooser:
    return ModelRouteChooser(server.tier("route_choice"))


def test_a_hub_showing_the_latest_bills_asks_the_model_for_the_route_to_the_rest(
    fixture_web: FixtureWeb, browser_page: Any, scripted_model_server: ScriptedModelServer
) -> None:
    site = fixture_web.fresh("collect-hub")
    scripted_model_server.script({"choice": 2})  # "Documenti"
    collected = collect(browser_page, site, "/", "tutte le bollette", chooser=_chooser(scripted_model_server))
    assert sorted(collected.identifiers(), reverse=True) == EVERY_BILL
    assert pages_requested(site) == ["/", "/documenti.html"]
    # One question, about the controls no signal named, with their section; never the page's rows.
    (request,) = scripted_model_server.chat_requests
    assert "Profilo" in request.text and "Documenti" in request.text and "Area clienti" in request.text
    assert "AC-2026" not in request.text and "Giulia" not in request.text
    assert collected.findings.diagnostics["route_choice.chosen"] == 1
    assert collected.findings.stop is None


def test_without_a_model_the_hubs_bills_are_delivered_and_the_collection_says_it_is_incomplete(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-hub")
    collected = collect(browser_page, site, "/", "tutte le bollette")
    assert collected.identifiers() == LATEST
    assert collected.findings.stop == CollectionStop("no_route", "no_model_configured")
    assert collected.result.outcome == "partial"
    assert "no model is configured to choose one" in collected.notices()
    assert pages_requested(site) == ["/"]


def test_a_model_that_sees_no_route_to_the_rest_leaves_the_hubs_bills(
    fixture_web: FixtureWeb, browser_page: Any, scripted_model_server: ScriptedModelServer
) -> None:
    site = fixture_web.fresh("collect-hub")
    scripted_model_server.script({"choice": -1})
    collected = collect(browser_page, site, "/", "all bills", chooser=_chooser(scripted_model_server))
    assert collected.identifiers() == LATEST
    assert len(scripted_model_server.chat_requests) == 1  # asked once, not again for the same page
    assert pages_requested(site) == ["/"]


def test_a_failed_decision_with_rows_found_ends_incomplete_without_another_model(
    fixture_web: FixtureWeb, browser_page: Any, scripted_model_server: ScriptedModelServer
) -> None:
    site = fixture_web.fresh("collect-hub")
    scripted_model_server.script(status=500)
    collected = collect(browser_page, site, "/", "tutte le bollette", chooser=_chooser(scripted_model_server))
    assert collected.identifiers() == LATEST
    assert collected.findings.stop is not None and collected.findings.stop.reason == "route_choice_failed"
    assert collected.result.outcome == "partial"
    assert len(scripted_model_server.chat_requests) == 1


def test_a_collection_not_asked_to_be_complete_keeps_the_hubs_bills_without_asking(
    fixture_web: FixtureWeb, browser_page: Any, scripted_model_server: ScriptedModelServer
) -> None:
    site = fixture_web.fresh("collect-hub")
    collected = collect(browser_page, site, "/", "le bollette", chooser=_chooser(scripted_model_server))
    assert collected.identifiers() == LATEST
    assert scripted_model_server.chat_requests == []
    assert collected.findings.stop is None


def test_signals_that_lead_to_the_full_list_leave_the_model_unasked(
    fixture_web: FixtureWeb, browser_page: Any, scripted_model_server: ScriptedModelServer
) -> None:
    site = fixture_web.fresh("collect-telco")
    collected = collect(browser_page, site, "/", "all invoices from 2026", chooser=_chooser(scripted_model_server))
    # Eight rows, one of them a credit note: not the invoice it cites, so left out (and said so).
    assert len(collected.identifiers()) == 7 and "CN-2026-001" not in collected.identifiers()
    assert scripted_model_server.chat_requests == []
    assert collected.result.outcome == "success", collected.notices()
