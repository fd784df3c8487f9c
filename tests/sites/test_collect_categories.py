"""Category and payment-status constraints, in real Chromium against the fixture web.

They apply to every collected item together with the period, where an
observed field decides them; where no field can, the items are kept and a
notice says that the constraint was not applied.
"""

from __future__ import annotations

from typing import Any

import pytest

from apps.sites.collection.scope import collection_plan
from tests.sites.collect_support import TODAY, collect
from tests.sites.fixture_web import FixtureWeb

pytestmark = pytest.mark.browser


def test_a_category_constraint_is_applied_through_the_service_column(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-lumen")
    collected = collect(browser_page, site, "/bollette.html", "tutte le bollette del gas")
    # "Servizio: Energia elettrica" is another category; the archive's gas bill is kept with the list's.
    assert sorted(collected.identifiers()) == ["B-2025-0090", "B-2026-0102"]
    assert "1 item(s) whose category is electricity were left out." in collected.notices()
    assert "Every item kept shows gas as its category." in collected.notices()


def test_period_category_and_payment_status_apply_together_to_every_item(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-lumen")
    collected = collect(browser_page, site, "/bollette.html", "tutte le bollette del gas da pagare del 2026")
    assert collected.identifiers() == ["B-2026-0102"]
    assert "1 item(s) outside 2026 were left out." in collected.notices()
    assert "1 item(s) whose category is electricity were left out." in collected.notices()
    assert "Every item kept shows unpaid as its payment status." in collected.notices()


def test_a_category_no_field_can_decide_keeps_the_items_and_says_it_was_not_applied(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-brightwater")
    collected = collect(browser_page, site, "/statements-1.html", "all gas bills")
    # The statements show number, date, amount and status: nothing says which bill is for gas.
    assert len(collected.identifiers()) == 5
    assert (
        "The request asks for gas items, but no field read on the website says an item's category: that "
        "constraint was not applied, and the 5 item(s) are kept unchecked."
    ) in collected.notices()
    assert "left out" not in collected.notices()


def test_unpaid_is_applied_through_the_status_column(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-brightwater")
    collected = collect(browser_page, site, "/statements-1.html", "all unpaid bills")
    # "Unpaid" and "Overdue" are unpaid; the three "Paid" statements are left out, and counted.
    assert collected.identifiers() == ["ST-5512", "ST-5471"]
    assert "3 item(s) whose payment status is paid were left out." in collected.notices()


@pytest.mark.parametrize(
    ("request_text", "statuses", "notice"),
    [
        ("all unpaid invoices", ("unpaid",), ""),
        ("tutte le bollette non pagate", ("unpaid",), ""),
        ("le bollette pagate del 2026", ("paid",), ""),
        ("all invoices except paid ones", (), "The status 'paid' is negated in the request"),
        ("all paid and unpaid bills", (), "both paid and unpaid"),
        ("all invoices with number and status", (), ""),
    ],
)
def test_the_payment_status_a_request_asks_for_is_read_with_reserve(
    request_text: str, statuses: tuple[str, ...], notice: str
) -> None:
    plan = collection_plan(request_text, today=TODAY)
    assert plan.statuses == statuses
    assert notice in " ".join(plan.status_notices)
    assert bool(plan.status_notices) == bool(notice)
