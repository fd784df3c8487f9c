"""Amounts and month names as French, German, Dutch, Swiss and Indian documents write them."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from apps.records.amounts import UnreadableAmount, parse_amount
from apps.records.dates.reading import find_dates, parse_date


@pytest.mark.parametrize(
    ("text", "value", "currency"),
    [
        ("EUR 1 234,56", "1234.56", "EUR"),  # a plain space groups once the currency is named
        ("1 500,00 €", "1500.00", "EUR"),
        ("CHF 1'513.40", "1513.40", "CHF"),
        ("₹ 14,750.00", "14750.00", "INR"),
        ("INR 2,250.00", "2250.00", "INR"),
        ("Rs. 1,47,500.00", "147500.00", "INR"),  # lakhs
        ("1,47,500.00", "147500.00", None),
        ("12,34,567.00", "1234567.00", None),
        ("– 600,00 €", "-600.00", "EUR"),  # an en dash before the number is a minus
        ("1,00-", "-1.00", None),  # a German receipt's discount
        ("-£45.00", "-45.00", "GBP"),
    ],
)
def test_more_amount_forms(text: str, value: str, currency: str | None) -> None:
    amount = parse_amount(text)
    assert amount.value == Decimal(value)
    assert amount.currency == currency


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("10 120,00", "unrecognised"),  # no currency: a quantity and a price, never ten thousand
        ("12,34,56", "bad_grouping"),
        ("-1,00-", "unrecognised"),
    ],
)
def test_forms_that_stay_unreadable(text: str, reason: str) -> None:
    with pytest.raises(UnreadableAmount) as caught:
        parse_amount(text)
    assert caught.value.reason == reason


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("12 mai 2026", dt.date(2026, 5, 12)),
        ("1er avril 2026", dt.date(2026, 4, 1)),
        ("15 février 2026", dt.date(2026, 2, 15)),
        ("3 août 2026", dt.date(2026, 8, 3)),
        ("3. Februar 2026", dt.date(2026, 2, 3)),
        ("14. Jänner 2026", dt.date(2026, 1, 14)),
        ("1. März 2026", dt.date(2026, 3, 1)),
        ("24. Dezember 2026", dt.date(2026, 12, 24)),
        ("2 april 2026", dt.date(2026, 4, 2)),
        ("18 maart 2026", dt.date(2026, 3, 18)),
        ("15 juli 2026", dt.date(2026, 7, 15)),
        ("3 mei 2026", dt.date(2026, 5, 3)),
        ("7 okt. 2026", dt.date(2026, 10, 7)),
    ],
)
def test_month_names_in_french_german_and_dutch(text: str, day: dt.date) -> None:
    stated = parse_date(text)
    assert (stated.precision, stated.start) == ("day", day)


def test_find_dates_reads_them_in_prose() -> None:
    found = find_dates("Zürich, 3. Februar 2026 — Ihr Auftrag vom 12. Dezember 2025")
    assert [value.start for value in found] == [dt.date(2026, 2, 3), dt.date(2025, 12, 12)]
