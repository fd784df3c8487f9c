"""Periods a request opens or closes at a date (apps/records/open_periods.py), through collection_scope."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.records.scope import collection_scope

TODAY = dt.date(2026, 12, 4)


def periods(request: str, today: dt.date | None = TODAY) -> list[tuple[str, str]]:
    scope = collection_scope(request, today=today)
    return [(c.period.start.isoformat(), c.period.end.isoformat()) for c in scope.period_filters]


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("collect my bills since March 2026 into bills.xlsx", ("2026-03-01", "2026-12-04")),
        ("raccogli le bollette da marzo 2026", ("2026-03-01", "2026-12-04")),
        ("le fatture a partire dal 2025", ("2025-01-01", "2026-12-04")),
        ("bills after June 2025", ("2025-07-01", "2026-12-04")),
        ("invoices from 2025 onwards", ("2025-01-01", "2026-12-04")),
        ("le bollette dal 2025 in poi", ("2025-01-01", "2026-12-04")),
        ("bills until 2025", ("1900-01-01", "2025-12-31")),
        ("bills before 2026", ("1900-01-01", "2025-12-31")),
        ("fatture fino a giugno 2026", ("1900-01-01", "2026-06-30")),
        ("invoices with due date since May 2026", ("2026-05-01", "2026-12-04")),
    ],
)
def test_a_bound_word_opens_or_closes_the_period_at_its_date(request_text: str, expected: tuple[str, str]) -> None:
    assert periods(request_text) == [expected]


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("bills from 2026", ("2026-01-01", "2026-12-31")),  # the bills of 2026
        ("invoices from March 2026 on example.com", ("2026-03-01", "2026-03-31")),  # "on" names the website
        ("le fatture dal 1 luglio al 31 agosto 2026", ("2026-07-01", "2026-08-31")),  # an interval stays one
        ("the invoices of March 2026", ("2026-03-01", "2026-03-31")),
    ],
)
def test_a_date_without_a_bound_word_keeps_its_own_precision(request_text: str, expected: tuple[str, str]) -> None:
    assert periods(request_text) == [expected]


def test_a_month_without_a_year_is_its_latest_occurrence_and_the_last_months_end_today() -> None:
    assert periods("statements since March") == [("2026-03-01", "2026-12-04")]
    assert periods("bollette da dicembre", today=dt.date(2026, 11, 20)) == [("2025-12-01", "2026-11-20")]
    assert periods("bills in the last 6 months") == [("2026-06-05", "2026-12-04")]
    assert periods("le fatture degli ultimi tre mesi") == [("2026-09-05", "2026-12-04")]
    assert periods("receipts of the past 2 weeks") == [("2026-11-21", "2026-12-04")]


def test_without_todays_date_a_relative_period_is_not_applied_and_says_so() -> None:
    scope = collection_scope("statements since March", today=None)
    assert scope.period_filters == ()
    assert any("since March" in notice and "today" in notice for notice in scope.notices)
