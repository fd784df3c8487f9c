"""Which rows get no document: only those whose own date is readable and wholly outside the request."""

from __future__ import annotations

import datetime as dt

from apps.records.dates.periods import Period
from apps.records.scope import PeriodConstraint
from apps.sites.collection.delivery import outside_request, outside_requested_periods
from apps.sites.collection.scope import collection_plan

YEAR_2026 = (PeriodConstraint(Period.year(2026), None, "2026"),)


def test_a_row_dated_before_the_requested_year_is_outside() -> None:
    assert outside_requested_periods({"issue_date": "15/11/2025"}, YEAR_2026)


def test_a_row_inside_the_year_or_with_an_unreadable_date_is_not_excluded() -> None:
    assert not outside_requested_periods({"issue_date": "15/03/2026"}, YEAR_2026)
    assert not outside_requested_periods({"issue_date": "soon"}, YEAR_2026)
    assert not outside_requested_periods({"amount": "48,20 €"}, YEAR_2026)


def test_a_period_straddling_the_edge_is_uncertain_not_outside() -> None:
    assert not outside_requested_periods({"period": "dicembre 2025 - gennaio 2026"}, YEAR_2026)


def test_a_named_field_decides_when_the_request_names_one() -> None:
    due_in_2026 = (PeriodConstraint(Period(dt.date(2026, 1, 1), dt.date(2026, 12, 31), "2026"), "due_date", "2026"),)
    row = {"issue_date": "20/12/2025", "due_date": "10/01/2026"}
    assert not outside_requested_periods(row, due_in_2026)
    assert outside_requested_periods(row, YEAR_2026)


def test_a_row_whose_own_fields_say_another_category_or_status_gets_no_document() -> None:
    gas = collection_plan("collect all gas bills from 2026")
    assert outside_request({"issue_date": "15/03/2026", "service": "Electricity"}, gas) == "constraint"
    assert outside_request({"issue_date": "15/03/2026", "service": "Gas"}, gas) == ""
    assert outside_request({"issue_date": "15/03/2026"}, gas) == ""  # silence decides nothing
    assert outside_request({"issue_date": "15/11/2025", "service": "Gas"}, gas) == "period"
    unpaid = collection_plan("collect all unpaid invoices")
    assert outside_request({"status": "Paid"}, unpaid) == "constraint"
    assert outside_request({"status": "Unpaid"}, unpaid) == ""
