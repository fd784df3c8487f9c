"""parse_amount, find_amounts and infer_decimal_separator: exact money, never a guess."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apps.records.amounts import (
    MAX_AMOUNT_CHARS,
    MAX_INTEGER_DIGITS,
    UNREADABLE_AMOUNT_REASONS,
    UnreadableAmount,
    find_amounts,
    infer_decimal_separator,
    parse_amount,
)


@pytest.mark.parametrize(
    ("text", "value", "currency"),
    [
        ("1.234,56", "1234.56", None),  # Italian
        ("1,234.56", "1234.56", None),  # English
        ("1234,56", "1234.56", None),
        ("1234.56", "1234.56", None),
        ("€ 12,50", "12.50", "EUR"),
        ("12,50 €", "12.50", "EUR"),
        ("€12,50", "12.50", "EUR"),
        ("EUR 12.50", "12.50", "EUR"),
        ("12.50 EUR", "12.50", "EUR"),
        ("1.234,56 euro", "1234.56", "EUR"),
        ("$1,439.60", "1439.60", "USD"),
        ("GBP 1,439.60", "1439.60", "GBP"),
        ("CHF 1'234.50", "1234.50", "CHF"),
        ("1.234.567,89", "1234567.89", None),
        ("1,234,567.89", "1234567.89", None),
        ("1.234.567", "1234567", None),  # a repeated separator groups thousands
        ("12,5", "12.5", None),
        ("0,125", "0.125", None),  # a leading zero group cannot be thousands
        ("1234,567", "1234.567", None),  # nor a first group of four digits
        ("1\u00a0234,56", "1234.56", None),  # no-break space grouping
        ("  42  ", "42", None),
        ("+12", "12", None),
    ],
)
def test_reads_italian_english_and_currency_forms(text: str, value: str, currency: str | None) -> None:
    amount = parse_amount(text)
    assert amount.value == Decimal(value)
    assert amount.as_text() == value
    assert amount.currency == currency
    assert amount.text == text.strip()


@pytest.mark.parametrize(
    ("text", "value"),
    [("-1.234,56", "-1234.56"), ("€ -12,50", "-12.50"), ("-€ 12,50", "-12.50"), ("\u221245,00", "-45.00")],
)
def test_reads_negative_amounts(text: str, value: str) -> None:
    assert parse_amount(text).value == Decimal(value)


def test_negative_zero_is_zero() -> None:
    assert parse_amount("-0,00").as_text() == "0.00"


@pytest.mark.parametrize("text", ["1.234", "1,234", "€ 1.200"])
def test_one_separator_before_three_digits_is_ambiguous_without_a_hint(text: str) -> None:
    with pytest.raises(UnreadableAmount) as caught:
        parse_amount(text)
    assert caught.value.reason == "ambiguous"


def test_the_decimal_separator_hint_settles_ambiguity_both_ways() -> None:
    assert parse_amount("1.234", decimal_separator=",").value == Decimal("1234")
    assert parse_amount("1.234", decimal_separator=".").value == Decimal("1.234")
    assert parse_amount("1,234", decimal_separator=",").value == Decimal("1.234")
    # An unambiguous form is read as written, whatever the hint says.
    assert parse_amount("12.50", decimal_separator=",").value == Decimal("12.50")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("1e5", "unrecognised"),
        ("1E+3", "unrecognised"),
        ("NaN", "unrecognised"),
        ("Infinity", "unrecognised"),
        ("inf", "unrecognised"),
        ("0x1F", "unrecognised"),
        ("1_000", "unrecognised"),
        ("\u0661\u0662\u0663", "unrecognised"),  # Arabic-Indic digits
        ("\uff11\uff12", "unrecognised"),  # fullwidth digits
        ("dodici euro", "unrecognised"),
        ("10 120,00", "unrecognised"),  # a plain space never groups digits
        ("12,-", "unrecognised"),
        ("€ 12 USD", "conflicting_currencies"),
        ("1.23.456", "bad_grouping"),
        ("1,234.567,89", "bad_grouping"),
        ("12.34.567,00", "bad_grouping"),
        ("1" * (MAX_INTEGER_DIGITS + 1), "too_many_digits"),
        ("1" * (MAX_AMOUNT_CHARS + 1), "too_long"),
    ],
)
def test_unreadable_text_raises_a_typed_error(text: str, reason: str) -> None:
    with pytest.raises(UnreadableAmount) as caught:
        parse_amount(text)
    assert caught.value.reason == reason
    assert caught.value.reason in UNREADABLE_AMOUNT_REASONS


def test_plain_text_never_has_an_exponent() -> None:
    assert parse_amount("0,000001").as_text() == "0.000001"
    assert parse_amount("1.000.000.000,00").as_text() == "1000000000.00"


def test_find_amounts_skips_dates_codes_percentages_and_times() -> None:
    text = "Preventivo Q-2026-044 del 12/03/2026 (12.03.2026, 2026-03-12) alle 10:30: IVA 22% e totale € 1.234,56"
    found = find_amounts(text)
    assert [(amount.value, amount.currency) for amount in found.amounts] == [(Decimal("1234.56"), "EUR")]


def test_find_amounts_reports_unreadable_expressions_separately() -> None:
    found = find_amounts("Totale 1.200 oppure 12,50")
    assert [amount.value for amount in found.amounts] == [Decimal("12.50")]
    assert [problem.reason for problem in found.unreadable] == ["ambiguous"]


@pytest.mark.parametrize(
    ("text", "separator"),
    [
        ("Prezzo 120,00 il 12.03.2026", ","),
        ("Totale 1.234,56", ","),
        ("Price 1,180.00", "."),
        ("Unit 12.50", "."),
        ("Totale 1.200", None),  # nothing settles it
        ("12,50 and 12.50", None),  # contradictory
        ("version v1.2.3 on 12.03.2026", None),
    ],
)
def test_infer_decimal_separator(text: str, separator: str | None) -> None:
    assert infer_decimal_separator(text) == separator


@given(st.text(max_size=80))
def test_arbitrary_text_is_an_amount_or_a_typed_error(text: str) -> None:
    try:
        amount = parse_amount(text)
    except UnreadableAmount as exc:
        assert exc.reason in UNREADABLE_AMOUNT_REASONS
    else:
        assert amount.value.is_finite()
        assert "E" not in amount.as_text()


@given(st.decimals(min_value=-(10**12), max_value=10**12, places=2))
def test_italian_and_english_renderings_read_back_exactly(value: Decimal) -> None:
    english = f"{value:,.2f}"
    italian = english.replace(",", "_").replace(".", ",").replace("_", ".")
    assert parse_amount(english).value == value
    assert parse_amount(f"€ {italian}").value == value
