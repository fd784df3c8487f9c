"""Finding a row's control again, in real Chromium against the fixture web: identifiers match whole."""

from __future__ import annotations

from typing import Any

import pytest

from apps.sites.collection.reading import ReadRow
from apps.sites.collection.reading import row_matches as row_shows
from tests.sites.collect_support import collect
from tests.sites.fixture_web import FixtureWeb

pytestmark = pytest.mark.browser


def _row(*cells: str) -> ReadRow:
    return ReadRow({}, cells)


def test_a_row_is_shown_only_by_its_whole_cells() -> None:
    assert row_shows(_row("INV-2026-001", "40.00 EUR"), "INV-2026-001 10/01/2026 40.00 EUR Download Details")
    assert not row_shows(_row("INV-2026-001", "40.00 EUR"), "INV-2026-0011 10/02/2026 40.00 EUR Download")
    assert not row_shows(_row("001"), "INV-2026-001 Download")
    assert not row_shows(_row("INV-20-005"), "INV-20-005-B Download")
    # A sentence's own full stop or comma still ends the cell.
    assert row_shows(_row("INV-2026-001", "40.00 EUR"), "Invoice INV-2026-001, 40.00 EUR.")


def test_a_longer_identifier_does_not_make_a_shorter_ones_controls_ambiguous(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-revisit")
    collected = collect(browser_page, site, "/rows.html", "all invoices with due date")
    # Each "Details" button belongs to its own row alone: both were pressed, once each.
    assert sorted(site.presses()) == ["details-INV-2026-001", "details-INV-2026-0011"]
    assert collected.item("INV-2026-001")["due_date"] == "15/02/2026"
    assert collected.item("INV-2026-0011")["due_date"] == "15/03/2026"
    assert collected.findings.diagnostics["control_row_ambiguous"] == 0
    assert collected.result.outcome == "success", collected.notices()


def test_a_control_whose_row_shows_several_items_is_reported_and_never_clicked(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-revisit")
    collected = collect(browser_page, site, "/grouped.html", "all invoices with due date")
    assert site.presses() == []
    assert collected.findings.diagnostics["control_row_ambiguous"] == 1
    assert "The detail control in the row 'March 2026: INV-2026-021" in collected.notices()
    assert "could not be tied to one item" in collected.notices()
    assert collected.result.outcome == "partial"


@pytest.mark.parametrize("path", ["/menu.html", "/menu.html?plain"], ids=["aria-expanded", "revealed-shown"])
def test_a_menu_the_site_keeps_open_across_a_return_is_not_pressed_again(
    fixture_web: FixtureWeb, browser_page: Any, path: str
) -> None:
    site = fixture_web.fresh("collect-revisit")
    collected = collect(browser_page, site, path, "all bills")
    assert set(collected.identifiers()) == {"MB-2025-01", "MB-2025-02", "MB-2024-01", "MB-2024-02"}
    # Back on the page the menu is still open: only the archive under it, closed again, is pressed.
    assert site.presses() == ["menu", "archive", "archive"]
    assert collected.findings.diagnostics["route_prepared_again"] == 1
    assert collected.findings.diagnostics["route_toggle_already_open"] == 1
