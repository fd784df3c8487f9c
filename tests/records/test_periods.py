"""Periods and the period filter (apps.records.dates.periods)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apps.records.dates.periods import (
    Period,
    date_value_from_cell,
    filter_rows_by_period,
    period_inclusion,
)
from apps.records.dates.reading import UnreadableDate, parse_date
from apps.records.rows import CellValue, Row

D = dt.date
JULY_AUGUST = Period.from_text("July\u2013August 2026")


# --- Period ---------------------------------------------------------------------


def test_year_period_covers_the_calendar_year() -> None:
    period = Period.year(2026)
    assert (period.start, period.end, period.label) == (D(2026, 1, 1), D(2026, 12, 31), "2026")


def test_period_from_a_date_value_keeps_its_extent_and_source_text() -> None:
    period = Period.from_date_value(parse_date("luglio-agosto 2026"))
    assert (period.start, period.end, period.label) == (D(2026, 7, 1), D(2026, 8, 31), "luglio-agosto 2026")


def test_period_from_unreadable_text_raises() -> None:
    with pytest.raises(UnreadableDate):
        Period.from_text("luglio-agosto")


def test_period_cannot_end_before_it_starts() -> None:
    with pytest.raises(ValueError, match="end before it starts"):
        Period(D(2026, 8, 31), D(2026, 7, 1), "backwards")


# --- period_inclusion -------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "08/2026",
        "agosto 2026",
        "15/08/2026",
        "01/07/2026",
        "31/08/2026",
        "July\u2013August 2026",
        "dal 3 al 9 luglio 2026",
    ],
)
def test_value_wholly_inside_the_period_is_inside(text: str) -> None:
    assert period_inclusion(parse_date(text), JULY_AUGUST) == "inside"


@pytest.mark.parametrize("text", ["30/06/2026", "01/09/2026", "09/2026", "giugno 2026", "2025", "agosto 2025"])
def test_value_wholly_outside_the_period_is_outside(text: str) -> None:
    assert period_inclusion(parse_date(text), JULY_AUGUST) == "outside"


@pytest.mark.parametrize("text", ["2026", "giugno-luglio 2026", "dal 15 agosto al 15 settembre 2026", "Q3 2026"])
def test_value_straddling_the_period_edge_is_uncertain(text: str) -> None:
    assert period_inclusion(parse_date(text), JULY_AUGUST) == "uncertain"


def test_month_is_uncertain_against_part_of_that_month() -> None:
    # "08/2026" may be any day of August: only half of them are in 1-15 August.
    assert period_inclusion(parse_date("08/2026"), Period.from_text("1-15 agosto 2026")) == "uncertain"


# --- Cells ----------------------------------------------------------------------------


def test_date_and_datetime_cells_are_days() -> None:
    assert date_value_from_cell(D(2026, 8, 3)).precision == "day"
    # An aware datetime counts on the calendar day it carries, without conversion.
    late = dt.datetime(2026, 8, 31, 23, 30, tzinfo=dt.UTC)
    value = date_value_from_cell(late)
    assert (value.precision, value.start, value.end) == ("day", D(2026, 8, 31), D(2026, 8, 31))


def test_text_cells_are_read_with_parse_date() -> None:
    assert date_value_from_cell("08/2026") == parse_date("08/2026")


@pytest.mark.parametrize("cell", [2026, 15.09, Decimal("1234.56"), True])
def test_number_cells_are_unreadable(cell: CellValue) -> None:
    with pytest.raises(UnreadableDate) as caught:
        date_value_from_cell(cell)
    assert caught.value.reason == "unrecognised"


def test_empty_cells_are_unreadable_as_empty() -> None:
    for cell in (None, "", "  "):
        with pytest.raises(UnreadableDate) as caught:
            date_value_from_cell(cell)
        assert caught.value.reason == "empty"


# --- filter_rows_by_period ---------------------------------------------------------------


def invoice(number: str, issue_date: CellValue) -> dict[str, CellValue]:
    return {"number": number, "issue_date": issue_date}


def test_filter_sorts_rows_and_keeps_their_order() -> None:
    rows = [
        invoice("A1", "15/07/2026"),
        invoice("A2", "09/2026"),
        invoice("A3", "08/2026"),
        invoice("A4", D(2026, 7, 1)),
        invoice("A5", "2026"),
        invoice("A6", dt.datetime(2026, 6, 30, 12, 0, tzinfo=dt.UTC)),
        invoice("A7", "luglio-agosto 2026"),
    ]
    result = filter_rows_by_period(rows, field="issue_date", period=JULY_AUGUST)
    assert [r["number"] for r in result.kept] == ["A1", "A3", "A4", "A7"]
    assert [r["number"] for r in result.uncertain] == ["A5"]
    assert [r["number"] for r in result.outside] == ["A2", "A6"]
    assert (result.unreadable_rows, result.missing_rows, result.excluded_rows) == (0, 0, 0)
    assert result.field == "issue_date"


def test_unreadable_dates_are_counted_with_their_field_and_reasons() -> None:
    rows = [
        invoice("B1", "15 settembre"),
        invoice("B2", "31/02/2026"),
        invoice("B3", "15/08/2026"),
        invoice("B4", 2026),
    ]
    result = filter_rows_by_period(rows, field="issue_date", period=JULY_AUGUST)
    assert [r["number"] for r in result.kept] == ["B3"]
    assert result.unreadable_rows == 3
    assert result.unreadable_reasons == {"no_year": 1, "invalid_day": 1, "unrecognised": 1}
    assert result.notices() == ["3 rows excluded: the date in field 'issue_date' could not be read."]


def test_missing_dates_are_counted_separately_from_unreadable_ones() -> None:
    rows: list[Row] = [{"number": "C1"}, invoice("C2", None), invoice("C3", "  "), invoice("C4", "ieri")]
    result = filter_rows_by_period(rows, field="issue_date", period=JULY_AUGUST)
    assert (result.missing_rows, result.unreadable_rows, result.excluded_rows) == (3, 1, 4)
    assert result.notices() == [
        "1 row excluded: the date in field 'issue_date' could not be read.",
        "3 rows excluded: the field 'issue_date' is missing or empty.",
    ]


def test_straddling_rows_are_reported_as_uncertain_never_dropped() -> None:
    rows = [invoice("D1", "2026"), invoice("D2", "15/08/2026")]
    result = filter_rows_by_period(rows, field="issue_date", period=JULY_AUGUST)
    assert [r["number"] for r in result.uncertain] == ["D1"]
    assert result.notices() == ["1 row straddles the period July\u2013August 2026 and is reported as uncertain."]

    two = filter_rows_by_period([*rows, invoice("D3", "Q3 2026")], field="issue_date", period=JULY_AUGUST)
    assert two.notices() == ["2 rows straddle the period July\u2013August 2026 and are reported as uncertain."]


def test_clean_filter_has_no_notices() -> None:
    result = filter_rows_by_period([invoice("E1", "01/07/2026")], field="issue_date", period=JULY_AUGUST)
    assert result.notices() == []


def test_issue_and_due_dates_are_filtered_by_the_named_field_only() -> None:
    row = {"issue_date": "15/07/2026", "due_date": "15/09/2026"}
    assert filter_rows_by_period([row], field="issue_date", period=JULY_AUGUST).kept == [row]
    assert filter_rows_by_period([row], field="due_date", period=JULY_AUGUST).outside == [row]


CELLS = st.one_of(
    st.none(),
    st.dates(min_value=D(2020, 1, 1), max_value=D(2030, 12, 31)),
    st.sampled_from(["08/2026", "luglio-agosto 2026", "2026", "15 settembre", "31/02/2026", "", "Q3 2026", "x"]),
    st.text(max_size=30),
    st.integers(),
)


@given(st.lists(st.dictionaries(st.sampled_from(["issue_date", "other"]), CELLS), max_size=30))
def test_every_row_is_kept_reported_or_counted(rows: list[dict[str, CellValue]]) -> None:
    result = filter_rows_by_period(rows, field="issue_date", period=JULY_AUGUST)
    accounted = len(result.kept) + len(result.uncertain) + len(result.outside) + result.excluded_rows
    assert accounted == len(rows)
    assert sum(result.unreadable_reasons.values()) == result.unreadable_rows
