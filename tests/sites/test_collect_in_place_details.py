"""Details a list shows in place (accordions, ``<details>``): revealed fields enrich the item of their own row."""

from __future__ import annotations

from typing import Any

import pytest

from apps.sites.collection.budget import CollectionBudget
from tests.sites.collect_support import collect, pages_requested
from tests.sites.fixture_web import FixtureWeb
from tests.sites.test_observation_support import presses_become

pytestmark = pytest.mark.browser

WHAT = "tutte le fatture con numero, scadenza e importo"


def test_fields_revealed_by_expanding_a_row_are_merged_into_that_rows_item(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-accordion")
    collected = collect(browser_page, site, "/fatture.html", WHAT)
    assert collected.identifiers() == ["AT-2026-0101", "AT-2026-0102", "AT-2026-0103", "AT-2026-0104"]
    assert collected.item("AT-2026-0101")["due_date"] == "31/03/2026"
    assert collected.item("AT-2026-0102")["amount"] == "47,10 €"
    assert collected.item("AT-2026-0104")["due_date"] == "30/06/2026"
    assert collected.item("AT-2026-0104")["issue_date"] == "01/06/2026"  # the list's own value is kept
    # Each identical "Dettagli" button was told apart by its own row's text, pressed once, with no navigation.
    assert presses_become(browser_page, site, [f"d-AT-2026-010{n}" for n in range(1, 5)])
    assert pages_requested(site) == ["/fatture.html"]
    assert collected.findings.diagnostics["detail_in_place"] == 4
    assert collected.ledger.deepest_level == 1
    assert collected.result.outcome == "success", collected.notices()


def test_expansions_are_actions_within_the_budget(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-accordion")
    # One action opens the page, two expand rows; the third expansion finds the budget spent.
    collected = collect(browser_page, site, "/fatture.html", WHAT, budget=CollectionBudget(max_actions=3))
    assert collected.ledger.actions["in_place"] == 2 and collected.ledger.spent_actions == 3
    assert collected.item("AT-2026-0102")["due_date"] == "30/04/2026"
    assert collected.item("AT-2026-0103").get("due_date") is None
    assert collected.result.outcome == "partial"
    assert "the collection stopped at the action budget of 3" in collected.notices()


def test_a_details_element_opened_in_place_enriches_its_row(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-accordion")
    collected = collect(browser_page, site, "/riepilogo.html", WHAT)
    assert collected.item("AT-2026-0201")["due_date"] == "31/07/2026"
    assert collected.item("AT-2026-0202")["amount"] == "41,20 €"
    assert pages_requested(site) == ["/riepilogo.html"]
    assert collected.result.outcome == "success", collected.notices()


def test_an_ambiguous_expansion_is_not_guessed(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-accordion")
    collected = collect(browser_page, site, "/simili.html", WHAT)
    # Rows that read the same: their buttons cannot be told apart and are never pressed.
    assert "could not be told apart" in collected.notices()
    # A button whose panel opens outside its row: the fields shown there are bound to no item.
    assert presses_become(browser_page, site, ["pannello"])
    assert collected.item("AT-2026-0302").get("due_date") is None
    assert "revealed no field in its own row; the item is kept as its list shows it." in collected.notices()
    assert all(item.get("due_date") is None for item in collected.result.items)
    assert collected.result.outcome == "partial"


def test_a_table_rows_detail_row_opened_in_place_enriches_that_row(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-accordion")
    collected = collect(browser_page, site, "/tabella.html", WHAT)
    assert collected.identifiers() == ["AT-2026-0401", "AT-2026-0402"]
    assert collected.item("AT-2026-0401")["due_date"] == "30/11/2026"
    assert collected.item("AT-2026-0402")["amount"] == "47,50 €"
    assert presses_become(browser_page, site, ["t-AT-2026-0401", "t-AT-2026-0402"])
    assert collected.result.outcome == "success", collected.notices()


def test_a_detail_drawn_with_placeholders_is_read_once_its_values_arrive(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    # Each panel opens at once showing "…" and gets its values from an answer 400 ms later: the first
    # look sees placeholders (the panel says "Caricamento…"), so the page is read again once its data is in.
    site = fixture_web.fresh("collect-accordion")
    collected = collect(browser_page, site, "/caricamento.html", WHAT)
    assert collected.item("AT-2026-0501")["due_date"] == "31/03/2026"
    assert collected.item("AT-2026-0502")["amount"] == "47,10 €"
    diagnostics = collected.findings.diagnostics
    # Each panel was read again once: its words said it was loading, or its placeholders did.
    assert diagnostics["read_again.loading_text"] + diagnostics["detail_in_place_waited"] == 2
    assert collected.result.outcome == "success", collected.notices()


def test_a_detail_shown_at_once_is_read_without_waiting_for_the_pages_other_requests(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    # fatture.html reveals each row's values in place and sends a beacon it never reads the answer of.
    site = fixture_web.fresh("collect-accordion")
    collected = collect(browser_page, site, "/fatture.html", WHAT)
    assert collected.findings.diagnostics["detail_in_place"] == 4
    assert collected.findings.diagnostics["detail_in_place_waited"] == 0
