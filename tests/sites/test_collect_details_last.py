"""Details come last, in real Chromium: a bill's own page is opened only for what the lists did not show.

Brightwater's customer area (``collect-signin``) lists every bill in "All
bills" without amounts, has a page per bill (with the due date), and an
archive by year with every amount. Asked for all bills, the collection reads
the full list, then the archive (by its observed address, without going back
to the hub), and needs no bill's page; asked for due dates too, it opens
every bill's page, after the lists.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from apps.records.identity.codes import comparable
from tests.sites.collect_support import collect, pages_requested
from tests.sites.fixture_web import WEB_ROOT, FixtureSite, FixtureWeb

pytestmark = pytest.mark.browser
DETAIL = "/private/bills/detail/"


def _signed_in(page: Any, fixture_web: FixtureWeb) -> FixtureSite:
    site = fixture_web.fresh("collect-signin")
    credential = json.loads((WEB_ROOT / "collect-signin" / "credentials.json").read_text(encoding="utf-8"))
    page.goto(site.url(credential["login_page"]))
    page.get_by_label("Email address").fill(credential["username"])
    page.get_by_label("Password").fill(credential["password"])
    with page.expect_navigation():
        page.get_by_role("button", name="Sign in").click()
    return site


def test_an_archive_showing_the_amounts_spares_every_bill_page(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = _signed_in(browser_page, fixture_web)
    collected = collect(browser_page, site, "/private/bills/", "all bills")
    pages = pages_requested(site)  # after the sign-in's own pages
    assert not [page for page in pages if page.startswith(DETAIL)], pages
    assert pages.index("/private/bills/all-3.html") < pages.index("/private/bills/archive.html")
    assert collected.ledger.actions["return"] == 0  # the archive's address was known: no way back to the hub
    amounts = {row["identifier_number"]: comparable(str(row["amount"])) for row in collected.result.items}
    assert len(amounts) == 9 and None not in amounts.values()
    assert collected.result.outcome == "success", collected.notices()


def test_a_field_only_the_bill_pages_show_opens_them_after_the_lists(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = _signed_in(browser_page, fixture_web)
    collected = collect(browser_page, site, "/private/bills/", "all bills with due date and amount")
    pages = pages_requested(site)
    details = [page for page in pages if page.startswith(DETAIL)]
    assert len(details) == 7  # the bills of the full list; the hub's two show their due date already
    assert pages.index("/private/bills/archive-2025.html") < pages.index(details[0])
    # Every bill whose page was opened has its due date; those only the archive shows have none to open.
    opened = {page.removeprefix(DETAIL).removesuffix(".html") for page in details}
    due = {row["identifier_number"]: row.get("due_date") for row in collected.result.items}
    assert opened <= set(due) and all(due[number] for number in opened), due


def test_the_same_rows_listed_under_two_periods_are_one_item_each_with_its_detail(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    # The rows show no number: "Last 12 months" and "2026" list the same statements, each linking to the
    # same page, where its number and balance are. One detail page per statement, one item per statement.
    site = fixture_web.fresh("collect-relink")
    collected = collect(
        browser_page, site, "/statements.html", "all statements from 2026 with number, date and balance"
    )
    assert sorted(collected.identifiers()) == ["CA2026-01", "CA2026-10", "CA2026-11"]
    assert collected.item("CA2026-11")["amount"] == "€4,237.37"
    assert pages_requested(site).count("/statement.html") == 3  # each statement's page once (the log has no query)
    assert collected.findings.diagnostics["detail_linked_again"] == 2  # November and October, listed twice


def test_rows_alike_in_two_periods_open_their_details_in_place_in_each(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    # Without a number, rows alike in "Last 12 months" and "2026" are not shown to be the same item by
    # their cells: each list's row opens its own detail, and the numbers they reveal merge the items.
    site = fixture_web.fresh("collect-relink")
    collected = collect(browser_page, site, "/in-place.html", "all statements from 2026 with number, date and balance")
    assert sorted(map(str, collected.identifiers())) == ["CA2026-01", "CA2026-10", "CA2026-11"]
    assert collected.item("CA2026-10")["amount"] == "€3,921.82"
    assert collected.findings.diagnostics["detail_in_place"] == 5  # December 2025 is outside the request


def test_an_orders_page_gives_the_invoice_it_shows_and_an_order_left_without_one_is_no_invoice(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    # The orders list shows no invoice; each order's page shows its products (no records) and, under
    # "Documenti", its invoice as values under their labels, or an invoice and a credit note.
    site = fixture_web.fresh("collect-orders")
    collected = collect(browser_page, site, "/orders.html", "tutte le fatture con numero, data e importo")
    assert sorted(map(str, collected.identifiers())) == ["FE-2026-000398", "FE-2026-000412"]
    assert collected.item("FE-2026-000412")["amount"] == "14,80 €"
    assert collected.item("FE-2026-000398")["date"] == "30/09/2026"
    assert collected.findings.diagnostics["detail_page_records"] == 1  # the returned order's two documents
    assert "credit note" in collected.notices() and "order" in collected.notices()  # both left out, said
