"""Period choosers: a <select> of years or ranges is a way to the list's other periods (real Chromium)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.sites.collect_support import collect, pages_requested
from tests.sites.fixture_web import FixtureWeb

pytestmark = pytest.mark.browser

EVERY_BILL = sorted(
    ["PB-2026-03", "PB-2026-02", "PB-2026-01", "PB-2025-12", "PB-2025-11", "PB-2025-10", "PB-2024-12", "PB-2024-11"]
)


def test_a_year_chooser_with_a_button_shows_every_year_once_and_the_type_chooser_is_left_alone(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-periods")
    collected = collect(browser_page, site, "/", "tutte le bollette")
    assert sorted(collected.identifiers()) == EVERY_BILL
    # The list as first shown (2026), then 2025 and 2024: each chosen, then "Mostra" pressed (the type
    # chooser is never touched); back on the first list once, where the 2024 choice was met.
    assert collected.ledger.actions["in_place"] == 4
    assert pages_requested(site) == ["/", "/bills.html", "/bills.html", "/bills.html", "/bills.html"]
    assert collected.findings.stop is None


def test_a_chooser_that_redraws_in_place_is_read_after_each_choice(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-periods")
    collected = collect(browser_page, site, "/in-place.html", "all bills")
    assert sorted(collected.identifiers()) == EVERY_BILL
    assert collected.ledger.actions["in_place"] == 2  # "2025" and "2024"; "Last 12 months" was shown


def test_a_period_chosen_in_place_is_chosen_again_to_open_its_items_details(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-periods")
    collected = collect(browser_page, site, "/in-place-details.html", "all bills with number, date and amount")
    assert sorted(collected.identifiers()) == EVERY_BILL
    assert all(collected.item(number).get("amount") for number in EVERY_BILL)  # from each bill's own page
    assert collected.findings.left_unread == []
    assert collected.findings.diagnostics["route_prepared_again"] >= 1


def test_a_chooser_that_submits_on_change_needs_no_button(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-periods")
    collected = collect(browser_page, site, "/on-change.html", "all bills")
    assert sorted(collected.identifiers()) == EVERY_BILL
    assert pages_requested(site) == ["/on-change.html"] * 4  # back on the first once, where 2024 was met


def test_the_requested_period_filters_the_rows_not_the_routes(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-periods")
    collected = collect(browser_page, site, "/bills.html", "tutte le bollette del 2025")
    assert sorted(collected.identifiers()) == ["PB-2025-10", "PB-2025-11", "PB-2025-12"]


def test_only_a_chooser_of_periods_shows_its_options_in_a_snapshot(fixture_web: FixtureWeb, browser_page: Any) -> None:
    from apps.sites.observation.reader import observe

    browser_page.goto(fixture_web.site("collect-periods").url("/bills.html?anno=2025"))
    fields = {field.name: field for form in observe(browser_page).forms for field in form.fields}
    assert fields["anno"].options == ("2026", "2025", "2024") and fields["anno"].chosen == "2025"
    # A chooser of anything else holds a value: none of its options is read (see test_observation's canary).
    assert fields["tipo"].options == () and fields["tipo"].chosen == ""


def test_a_list_the_page_says_is_still_loading_is_read_once_it_is_drawn(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-periods")
    collected = collect(browser_page, site, "/late.html", "all bills")
    assert sorted(collected.identifiers()) == ["PB-2026-01", "PB-2026-02", "PB-2026-03"]
    assert collected.findings.diagnostics["read_again.loading_text"] >= 1
