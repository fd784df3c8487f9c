"""Completeness told honestly, in real Chromium against the fixture web.

Whatever was found but not read, a stated total that only one list states,
and a website that states no total all leave completeness unverified, and
the notice names why; checking the rows written later proves nothing more.
"""

from __future__ import annotations

from typing import Any

import pytest

from apps.sites.collection.completeness import WRITTEN_ROWS_PROVE_NOTHING, list_address
from tests.sites.collect_support import collect, pages_requested
from tests.sites.fixture_web import FixtureWeb

pytestmark = pytest.mark.browser


def test_an_unread_next_page_leaves_completeness_unverified_and_is_named(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-brightwater")
    collected = collect(browser_page, site, "/bills.html", "all bills")
    # The two identical "Next page" buttons above and below the list cannot be told apart: neither is pressed.
    assert "/bills-2.html" not in pages_requested(site)
    assert collected.identifiers() == ["BW-880312", "BW-880207", "BW-880115"]
    [completeness] = [notice for notice in collected.result.notices if notice.startswith("Completeness")]
    assert completeness.startswith("Completeness is unverified: 1 route(s) or item(s) found were not read")
    assert "'Next page'" in completeness
    assert "every list page" not in collected.notices() and "all of them were read" not in collected.notices()
    assert WRITTEN_ROWS_PROVE_NOTHING in completeness
    assert collected.result.outcome == "partial"


def test_a_total_stated_by_one_list_is_not_met_by_rows_from_an_archive(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-lumen")
    collected = collect(browser_page, site, "/bollette.html", "tutte le bollette")
    # "Bollette 1-2 di 3": the list shows two, the archive one more; together they are three rows,
    # but the list that states three was not read in full.
    assert sorted(collected.identifiers()) == ["B-2025-0090", "B-2026-0101", "B-2026-0102"]
    assert "/archivio.html" in pages_requested(site)
    assert "all of them were read" not in collected.notices()
    assert (
        "Completeness is unverified: the website states 3 items, but no list read shows that many "
        "(at most 2 from the pages of one list)."
    ) in collected.notices()
    assert collected.result.outcome == "partial"


def test_without_a_stated_total_completeness_is_unverified_and_the_limit_is_named(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-brightwater")
    collected = collect(browser_page, site, "/statements-1.html", "all bills")
    assert len(collected.identifiers()) == 5  # both pages read: nothing was left unread
    assert collected.findings.left_unread == [] and collected.findings.stop is None
    assert (
        "Completeness is unverified: the website states no total; the search ended because the pages read "
        "offered no further list page, expansion or archive (the last list page read was /statements-2.html), "
        "after 2 page(s) read."
    ) in collected.notices()
    assert WRITTEN_ROWS_PROVE_NOTHING in collected.notices()
    assert "every list page, expansion and archive found was read" not in collected.notices()


def test_a_list_total_is_met_by_the_rows_of_that_lists_own_pages(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-telco")
    collected = collect(browser_page, site, "/bills/", "all invoices")
    # The summary's two bills and the full list's nine pages merge; the full list alone shows its nine.
    assert "The website states 9 items and all of them were read." in collected.notices()
    assert collected.result.outcome == "success", collected.notices()


def test_pages_of_one_list_share_its_address_and_a_year_makes_another_list() -> None:
    assert list_address("http://a.test/bills/all-1.html") == list_address("http://a.test/bills/all-3.html")
    assert list_address("http://a.test/bills?page=2&sort=date") == list_address("http://a.test/bills?sort=date")
    assert list_address("http://a.test/bills/page/2") == list_address("http://a.test/bills/")
    assert list_address("http://a.test/archive-2025.html") != list_address("http://a.test/archive-2026.html")
    assert list_address("http://a.test/bills?year=2025") != list_address("http://a.test/bills?year=2026")
    assert list_address("http://a.test/bills/") != list_address("http://a.test/archive.html")


def test_a_total_counts_only_for_the_list_whose_pages_stated_it() -> None:
    from apps.records.rows import Source
    from apps.sites.collection.budget import CollectionBudget
    from apps.sites.collection.completeness import collection_completeness
    from apps.sites.collection.findings import Findings
    from apps.sites.collection.scope import collection_plan

    def rows(*numbers: str) -> list[dict[str, Any]]:
        return [{"identifier_number": number, "amount": "10,00"} for number in numbers]

    findings = Findings()
    findings.note_expected_total(3, page="http://a.test/bills/all-1.html")  # "1-2 of 3" on the bills list
    sources = [
        Source("read 1", rows("B-1", "B-2"), page="http://a.test/bills/all-1.html"),
        Source("read 2", rows("A-1", "A-2", "A-3"), page="http://a.test/archive-2026.html"),  # three, elsewhere
    ]
    verdict = collection_completeness(findings, collection_plan("all bills"), CollectionBudget(), sources)
    assert verdict.total_short and verdict.notice.startswith("Completeness is unverified")
    findings.note_expected_total(2, page="http://a.test/summary.html")  # a smaller total changes nothing
    assert findings.total_pages == ["http://a.test/bills/all-1.html"]
