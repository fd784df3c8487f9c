"""Collecting records across pages, in real Chromium against the fixture web: exploration and its bounds."""

from __future__ import annotations

from typing import Any

import pytest

from apps.sites.collection.budget import CollectionBudget
from apps.sites.collection.scope import collection_plan
from apps.sites.limits import (
    COLLECTION_MAX_ACTIONS,
    COLLECTION_MAX_ACTIVE_TIME,
    COLLECTION_MAX_LEVELS,
    COLLECTION_MODEL_DECISION_TIMEOUT,
)
from tests.sites.collect_support import TODAY, collect, pages_requested
from tests.sites.fixture_web import FixtureWeb

pytestmark = pytest.mark.browser


def test_the_request_is_read_with_the_records_layer_and_proves_nothing_found() -> None:
    plan = collection_plan("all invoices from 2026 with number, due date and amount", today=TODAY)
    assert plan.scope.object == "invoice" and plan.complete
    assert [constraint.period.label for constraint in plan.scope.period_filters] == ["2026"]
    assert plan.item_fields == (("identifier_number",), ("due_date",), ("amount",))
    assert "bills" in plan.object_words and "bollette" in plan.object_words
    # The adjective "complete" alone does not make a complete collection.
    assert not collection_plan("the complete invoices from 2026", today=TODAY).complete


def test_the_default_bounds_are_the_specs() -> None:
    budget = CollectionBudget()
    assert budget.max_levels == COLLECTION_MAX_LEVELS == 8
    assert budget.max_actions == COLLECTION_MAX_ACTIONS == 256
    assert budget.max_active_seconds == COLLECTION_MAX_ACTIVE_TIME.total_seconds() == 600
    assert budget.model_decision_seconds == COLLECTION_MODEL_DECISION_TIMEOUT.total_seconds() == 20


def test_next_pages_are_followed_and_a_dead_end_section_is_left_behind(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-telco")
    collected = collect(browser_page, site, "/", "all invoices from 2026")
    assert collected.result.outcome == "success", collected.notices()
    assert collected.identifiers() == [
        "INV-2026-005", "INV-2026-004", "INV-2026-003", "INV-2026-002", "INV-2026-001",
        "INV-20-005", "INV-200-05",
    ]  # fmt: skip
    pages = pages_requested(site)
    assert pages.index("/bills/all-1.html") < pages.index("/bills/all-2.html") < pages.index("/bills/all-3.html")
    assert "/billing-settings.html" in pages  # explored, found empty, left
    assert "/signout.html" not in pages and site.presses() == []
    assert "The website states 9 items and all of them were read." in collected.notices()
    assert "1 item(s) outside 2026 were left out." in collected.notices()


def test_a_complete_collection_opens_the_full_list_before_the_details(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-telco")
    collected = collect(browser_page, site, "/bills/", "all invoices from 2026 with number, due date and amount")
    pages = pages_requested(site)
    first_detail = next(index for index, page in enumerate(pages) if "/detail/" in page)
    assert pages.index("/bills/all-1.html") < first_detail
    # The summary's own "View bill" links were not followed: the full list's rows had the same bills.
    assert pages.count("/bills/detail/INV-2026-005.html") == 1
    assert collected.item("INV-2026-003")["due_date"] == "05/04/2026"
    # The detail keeps the list's values and adds its own.
    assert collected.item("INV-20-005")["period"] == "January 2026"
    assert collected.result.outcome == "success", collected.notices()


def test_expansions_and_the_full_list_stay_at_the_lists_level_and_deeper_details_are_not_opened(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-telco")
    budget = CollectionBudget(max_levels=2)
    collected = collect(browser_page, site, "/", "all invoices from 2026 with due date", budget=budget)
    pages = pages_requested(site)
    # "My bills" is level 2; "All bills" and its next pages stay there: had the full list counted
    # as a level, it would have lain beyond the limit and only the summary's two bills been read.
    assert {"/bills/", "/bills/all-1.html", "/bills/all-2.html", "/bills/all-3.html"} <= set(pages)
    assert len(collected.identifiers()) == 7  # the credit note among them is not an invoice: left out
    # Every detail (the summary's and the list pages') would be level 3.
    assert [page for page in pages if "/detail/" in page] == []
    assert all(item.get("due_date") is None for item in collected.result.items)
    assert collected.ledger.deepest_level == 2
    assert collected.result.outcome == "partial"
    assert "some routes lay beyond the depth limit of 2 levels" in collected.notices()


def test_load_more_and_a_period_selector_change_the_page_in_place(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-energia")
    collected = collect(browser_page, site, "/bollette.html", "tutte le bollette")
    identifiers = set(collected.identifiers())
    # Six bills of 2026 (three after "Mostra altre"), three of 2025 behind the selector's 2025 tab.
    assert {f"B-2026-000{n}" for n in range(1, 7)} <= identifiers
    assert {"B-2025-0010", "B-2025-0011", "B-2025-0012"} <= identifiers
    assert collected.findings.stop is None
    # "Mostra altre", the 2025 and 2024 tabs (never the 2026 tab already shown) and the menu once:
    # the same menu on "Le mie bollette" revealed nothing new on the archive, so no return for it.
    assert collected.ledger.actions == {"forward": 2, "in_place": 4}


def test_bills_loaded_after_the_page_opens_are_read_past_a_veil_and_a_long_poll(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-energia")
    collected = collect(
        browser_page, site, "/bollette.html", "tutte le bollette", budget=CollectionBudget(max_actions=1)
    )
    # Only the first read: the page's own request delivered the bills behind the veil.
    assert collected.identifiers() == ["B-2026-0006", "B-2026-0005", "B-2026-0004"]


def test_a_menu_opened_in_place_is_prepared_again_once_after_a_return(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-archive")
    collected = collect(browser_page, site, "/menu.html", "all bills")
    assert {"OLD-2025-01", "AR-00001", "AR-00010"} <= set(collected.identifiers())
    # Pressed to open the menu, and once more after returning: never for the sections themselves.
    assert site.presses() == ["menu", "menu"]
    assert collected.findings.diagnostics["route_prepared_again"] == 1


def test_the_action_budget_stops_the_search_and_what_was_read_is_delivered(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-archive")
    collected = collect(browser_page, site, "/?page=1&of=300", "all bills", budget=CollectionBudget(max_actions=6))
    assert collected.result.outcome == "partial"
    assert len(collected.identifiers()) == 60  # six pages of ten, every one kept
    assert "Completeness is unverified: the collection stopped at the action budget of 6." in collected.notices()
    assert collected.ledger.spent_actions == 6


def test_identical_controls_in_rows_that_read_the_same_stay_ambiguous_and_are_never_clicked(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-archive")
    collected = collect(browser_page, site, "/twins.html", "all bills with due date")
    assert site.presses() == []
    assert "could not be told apart" in collected.notices()
    # The distinguishable row's detail was read, and its due date kept.
    assert collected.item("TW-0002")["due_date"] == "30/04/2026"
    assert collected.identifiers().count("TW-0001") == 2
    assert collected.result.outcome == "partial"


def test_unreadable_dates_are_reported_when_a_period_filter_applies(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-archive")
    collected = collect(browser_page, site, "/twins.html", "all bills from 2026")
    assert "TW-0003" not in collected.identifiers()
    assert "1 row excluded: the date in field 'issue_date' could not be read." in collected.notices()


def test_a_long_page_hides_none_of_its_controls_from_the_search(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-archive")
    collected = collect(browser_page, site, "/long.html", "all bills")
    # "All bills" comes after 150 other controls, in the third group examined.
    assert len(collected.identifiers()) == 10
    assert pages_requested(site) == ["/long.html", "/"]


def test_filters_apply_to_collected_items_never_to_routes(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-energia")
    collected = collect(browser_page, site, "/archivio.html", "tutte le bollette del 2026")
    # The 2025 tab was still opened and read; its bills are left out afterwards, and said so.
    assert any(source.rows[0].get("identifier_number") == "B-2025-0010" for source in collected.findings.sources)
    assert sorted(collected.identifiers()) == [f"B-2026-000{n}" for n in range(1, 7)]
    assert "3 item(s) outside 2026 were left out." in collected.notices()


def test_a_detail_opened_in_a_new_tab_is_read_there_and_the_tab_closed(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-archive")
    collected = collect(browser_page, site, "/tabs.html", "all bills with due date")
    assert collected.item("TW-0002")["due_date"] == "30/04/2026"
    assert collected.ledger.actions["return"] == 0  # the list never left its tab
    assert browser_page.context.pages == [browser_page]
    assert collected.result.outcome == "success", collected.notices()


def test_records_in_an_aria_grid_and_in_cards_of_labelled_elements_are_read(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-archive")
    collected = collect(browser_page, site, "/grid.html", "all bills")
    assert collected.identifiers() == ["GR-2026-01", "GR-2026-02", "CD-2025-11", "CD-2025-12"]
    assert collected.item("CD-2025-12")["issue_date"] == "03/12/2025"
    assert collected.item("GR-2026-02")["amount"] == "18.50 EUR"


def test_a_list_that_loads_as_it_is_scrolled_is_read_to_its_end(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-archive")
    collected = collect(browser_page, site, "/scroll.html", "all bills")
    assert collected.identifiers() == [f"SC-{n:04d}" for n in range(1, 51)]
    # Two scrolls brought forty rows; scrolling stops once the bottom is reached.
    assert 2 <= collected.ledger.actions["scroll"] <= 3
    assert collected.result.outcome == "success"


def test_identical_next_links_above_and_below_a_list_are_followed_by_their_one_address(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-archive")
    collected = collect(browser_page, site, "/?page=1&of=3&twice=1", "all bills")
    assert len(collected.identifiers()) == 30
    assert collected.result.outcome == "success", collected.notices()
    assert collected.ledger.spent_actions == 3
