"""Dates keep the precision of their source (apps.records.dates.reading)."""

from __future__ import annotations

import datetime as dt
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.records.dates.reading import (
    MAX_DATE_TEXT_LENGTH,
    MAX_YEAR,
    MIN_YEAR,
    UNREADABLE_REASONS,
    DateValue,
    UnreadableDate,
    find_dates,
    parse_date,
)

D = dt.date


def reason_of(text: str) -> str:
    with pytest.raises(UnreadableDate) as caught:
        parse_date(text)
    return caught.value.reason


# --- The spec's own examples ---------------------------------------------------


def test_month_keeps_month_precision() -> None:
    value = parse_date("08/2026")
    assert (value.precision, value.start, value.end) == ("month", D(2026, 8, 1), D(2026, 8, 31))


def test_interval_keeps_interval_precision() -> None:
    for text in ("July\u2013August 2026", "luglio-agosto 2026"):
        value = parse_date(text)
        assert (value.precision, value.start, value.end) == ("interval", D(2026, 7, 1), D(2026, 8, 31)), text


def test_day_keeps_day_precision() -> None:
    value = parse_date("15/09/2026")
    assert (value.precision, value.start, value.end) == ("day", D(2026, 9, 15), D(2026, 9, 15))


def test_value_keeps_its_source_text() -> None:
    assert parse_date("  luglio\u2013agosto 2026 ").text == "luglio\u2013agosto 2026"


# --- Accepted forms ------------------------------------------------------------------

DAY_15_SEP = ("day", D(2026, 9, 15), D(2026, 9, 15))
AUGUST = ("month", D(2026, 8, 1), D(2026, 8, 31))
JULY_AUGUST = ("interval", D(2026, 7, 1), D(2026, 8, 31))
YEAR_2026 = ("year", D(2026, 1, 1), D(2026, 12, 31))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # days, numeric
        ("15/09/2026", DAY_15_SEP),
        ("15.09.2026", DAY_15_SEP),
        ("15-09-2026", DAY_15_SEP),
        ("2026-09-15", DAY_15_SEP),
        ("2026/09/15", DAY_15_SEP),
        ("2026-09-15T10:30:00Z", DAY_15_SEP),
        ("2026-09-15T23:59:59+02:00", DAY_15_SEP),
        ("15/09/2026 10:30", DAY_15_SEP),
        ("15/09/2026 ore 10:30", DAY_15_SEP),
        ("5/9/2026", ("day", D(2026, 9, 5), D(2026, 9, 5))),
        # days, named months
        ("15 settembre 2026", DAY_15_SEP),
        ("15 September 2026", DAY_15_SEP),
        ("September 15, 2026", DAY_15_SEP),
        ("Sept. 15th, 2026", DAY_15_SEP),
        ("15 sett. 2026", DAY_15_SEP),
        ("15-Sep-2026", DAY_15_SEP),
        ("15 SET 2026", DAY_15_SEP),
        ("martedì 15 settembre 2026", DAY_15_SEP),
        ("Tuesday, 15 September 2026", DAY_15_SEP),
        ("Tue, 15 Sep 2026 10:00:00 +0000", DAY_15_SEP),
        ("il 15 settembre 2026", DAY_15_SEP),
        ("the 15th of September, 2026", DAY_15_SEP),
        ("1° luglio 2026", ("day", D(2026, 7, 1), D(2026, 7, 1))),
        ("1º luglio 2026", ("day", D(2026, 7, 1), D(2026, 7, 1))),
        # months
        ("08/2026", AUGUST),
        ("8/2026", AUGUST),
        ("08.2026", AUGUST),
        ("2026-08", AUGUST),
        ("agosto 2026", AUGUST),
        ("Agosto 2026", AUGUST),
        ("August 2026", AUGUST),
        ("Aug 2026", AUGUST),
        ("Aug. 2026", AUGUST),
        ("ago 2026", AUGUST),
        ("ago. 2026", AUGUST),
        ("agosto del 2026", AUGUST),
        ("AUG-2026", AUGUST),
        ("Sett. 2026", ("month", D(2026, 9, 1), D(2026, 9, 30))),
        ("febbraio 2028", ("month", D(2028, 2, 1), D(2028, 2, 29))),
        # intervals
        ("July\u2013August 2026", JULY_AUGUST),
        ("July\u2014August 2026", JULY_AUGUST),
        ("July-August 2026", JULY_AUGUST),
        ("luglio-agosto 2026", JULY_AUGUST),
        ("luglio/agosto 2026", JULY_AUGUST),
        ("Jul - Aug 2026", JULY_AUGUST),
        ("lug.\u2013ago. 2026", JULY_AUGUST),
        ("July 2026 \u2013 August 2026", JULY_AUGUST),
        ("luglio 2026 - agosto 2026", JULY_AUGUST),
        ("dal 1 luglio al 31 agosto 2026", JULY_AUGUST),
        ("dal 1° luglio al 31 agosto 2026", JULY_AUGUST),
        ("from 1 July to 31 August 2026", JULY_AUGUST),
        ("from July to August 2026", JULY_AUGUST),
        ("da luglio ad agosto 2026", JULY_AUGUST),
        ("dal 01/07/2026 al 31/08/2026", JULY_AUGUST),
        ("01/07/2026 - 31/08/2026", JULY_AUGUST),
        ("dal 01/07 al 31/08/2026", JULY_AUGUST),
        ("07/2026 - 08/2026", JULY_AUGUST),
        ("2026-07-01/2026-08-31", JULY_AUGUST),
        ("July 1 \u2013 August 31, 2026", JULY_AUGUST),
        ("between July and August 2026", JULY_AUGUST),
        ("tra luglio e agosto 2026", JULY_AUGUST),
        ("dall'1 luglio all'11 agosto 2026", ("interval", D(2026, 7, 1), D(2026, 8, 11))),
        ("1-15 luglio 2026", ("interval", D(2026, 7, 1), D(2026, 7, 15))),
        ("dal 1 al 15 luglio 2026", ("interval", D(2026, 7, 1), D(2026, 7, 15))),
        ("tra il 1 e il 15 luglio 2026", ("interval", D(2026, 7, 1), D(2026, 7, 15))),
        ("July 1-15, 2026", ("interval", D(2026, 7, 1), D(2026, 7, 15))),
        ("dicembre 2025 - gennaio 2026", ("interval", D(2025, 12, 1), D(2026, 1, 31))),
        ("dal 2025 al 2026", ("interval", D(2025, 1, 1), D(2026, 12, 31))),
        # parts of a year
        ("Q3 2026", ("interval", D(2026, 7, 1), D(2026, 9, 30))),
        ("H2 2026", ("interval", D(2026, 7, 1), D(2026, 12, 31))),
        ("2° bimestre 2026", ("interval", D(2026, 3, 1), D(2026, 4, 30))),
        ("terzo trimestre del 2026", ("interval", D(2026, 7, 1), D(2026, 9, 30))),
        ("first quarter of 2026", ("interval", D(2026, 1, 1), D(2026, 3, 31))),
        ("primo semestre 2026", ("interval", D(2026, 1, 1), D(2026, 6, 30))),
        ("Q1-Q2 2026", ("interval", D(2026, 1, 1), D(2026, 6, 30))),
        # years
        ("2026", YEAR_2026),
        ("anno 2026", YEAR_2026),
        ("year 2026", YEAR_2026),
        ("l'anno 2026", YEAR_2026),
        # wrapping a cell may carry
        ("(15/09/2026)", DAY_15_SEP),
        ('"15/09/2026"', DAY_15_SEP),
        ("15 settembre 2026.", DAY_15_SEP),
        ("15\u00a0settembre\u00a02026", DAY_15_SEP),
        ("'15/09/2026", DAY_15_SEP),
    ],
)
def test_accepted_forms_keep_their_precision(text: str, expected: tuple[str, dt.date, dt.date]) -> None:
    value = parse_date(text)
    assert (value.precision, value.start, value.end) == expected


MONTH_NAMES = [
    (1, ["gennaio", "gen", "january", "jan"]),
    (2, ["febbraio", "feb", "february"]),
    (3, ["marzo", "mar", "march"]),
    (4, ["aprile", "apr", "april"]),
    (5, ["maggio", "mag", "may"]),
    (6, ["giugno", "giu", "june", "jun"]),
    (7, ["luglio", "lug", "july", "jul"]),
    (8, ["agosto", "ago", "august", "aug"]),
    (9, ["settembre", "set", "sett", "september", "sep", "sept"]),
    (10, ["ottobre", "ott", "october", "oct"]),
    (11, ["novembre", "nov", "november"]),
    (12, ["dicembre", "dic", "december", "dec"]),
]


@pytest.mark.parametrize(("month", "names"), MONTH_NAMES)
def test_italian_and_english_month_names_full_and_abbreviated(month: int, names: list[str]) -> None:
    for name in names:
        for written in (name, name.upper(), name.capitalize(), name + "."):
            assert parse_date(f"{written} 2026").start == D(2026, month, 1), written
            assert parse_date(f"3 {written} 2026").start == D(2026, month, 3), written
            assert parse_date(f"{written} 3, 2026").start == D(2026, month, 3), written


@pytest.mark.parametrize(
    "dash", ["-", "\u2010", "\u2011", "\u2013", "\u2014", "\u2212", "/", " - ", " \u2013 ", " \u2014 "]
)
def test_hyphens_dashes_and_slashes_join_intervals(dash: str) -> None:
    assert parse_date(f"luglio{dash}agosto 2026").precision == "interval"
    assert parse_date(f"Jul{dash}Aug 2026").end == D(2026, 8, 31)


# --- Rules ---------------------------------------------------------------------


def test_numeric_dates_are_day_first_whatever_the_language() -> None:
    assert parse_date("05/09/2026").start == D(2026, 9, 5)
    assert parse_date("01/02/2026").start == D(2026, 2, 1)
    assert parse_date("12.11.2026").start == D(2026, 11, 12)


def test_month_first_numeric_date_is_unreadable_never_swapped() -> None:
    assert reason_of("09/15/2026") == "invalid_month"
    assert reason_of("12/31/2026") == "invalid_month"


@pytest.mark.parametrize(
    "text",
    ["15 settembre", "settembre", "September 15", "15/09", "1/7", "luglio-agosto", "dal 1 luglio al 31 agosto"],
)
def test_year_must_appear_in_the_source(text: str) -> None:
    assert reason_of(text) == "no_year"


def test_interval_may_write_its_year_once_at_the_end_but_not_only_at_the_start() -> None:
    assert parse_date("luglio-agosto 2026").start == D(2026, 7, 1)
    assert reason_of("July 2026 - August") == "no_year"


@pytest.mark.parametrize("text", ["15/09/26", "15.09.26", "15 set 26", "Aug-26", "ago '26"])
def test_two_digit_years_are_unreadable(text: str) -> None:
    assert reason_of(text) == "two_digit_year"


@pytest.mark.parametrize(
    "text", ["31/02/2026", "29/02/2026", "31 aprile 2026", "0/01/2026", "2026-06-31", "32/01/2026"]
)
def test_impossible_days_are_unreadable(text: str) -> None:
    assert reason_of(text) == "invalid_day"


def test_leap_day_exists_in_leap_years() -> None:
    assert parse_date("29/02/2024").start == D(2024, 2, 29)
    assert parse_date("29 febbraio 2000").start == D(2000, 2, 29)
    assert reason_of("29/02/2100") == "invalid_day"


@pytest.mark.parametrize("text", ["13/2026", "15/13/2026", "2026-13", "00/2026"])
def test_impossible_months_are_unreadable(text: str) -> None:
    assert reason_of(text) == "invalid_month"


@pytest.mark.parametrize(
    "text",
    [
        "dal 31/08/2026 al 01/07/2026",
        "August 2026 - July 2026",
        "20-10 agosto 2026",
        "from 31 August 2026 to 1 July 2026",
        "2026-08-31/2026-07-01",
    ],
)
def test_interval_ending_before_it_starts_is_unreadable(text: str) -> None:
    assert reason_of(text) == "reversed_interval"


def test_interval_running_backwards_on_its_only_year_is_ambiguous() -> None:
    # December 2025 to January 2026, or a reversed interval: the source does not say.
    assert reason_of("dicembre-gennaio 2026") == "ambiguous"
    assert reason_of("dal 31 agosto al 1 luglio 2026") == "ambiguous"


def test_two_bare_years_joined_by_a_dash_are_ambiguous() -> None:
    # "2025-2026" names a season or a fiscal year as often as two calendar years.
    assert reason_of("2025-2026") == "ambiguous"
    assert reason_of("2025/2026") == "ambiguous"
    assert parse_date("from 2025 to 2026").precision == "interval"


@pytest.mark.parametrize(
    "text",
    [
        "1.234,56",
        "1.234",
        "12/5",
        "3/4",
        "12,50",
        "€ 15,00",
        "100",
        "0,5",
        "1.000.000",
        "12.5",
        "-12/5",
        ".2026",
        ",2026",
    ],
)
def test_amounts_and_ratios_never_become_dates(text: str) -> None:
    with pytest.raises(UnreadableDate):
        parse_date(text)


def test_separators_of_one_numeric_date_must_agree() -> None:
    assert reason_of("15/09-2026") == "unrecognised"
    assert reason_of("15.09/2026") == "unrecognised"


def test_surrounding_words_are_not_guessed_away() -> None:
    assert reason_of("Fattura del 15/09/2026") == "unrecognised"
    assert reason_of("Invoice date: 15/09/2026") == "unrecognised"
    assert [v.start for v in find_dates("Fattura del 15/09/2026")] == [D(2026, 9, 15)]


def test_weekday_that_contradicts_the_date_is_unreadable() -> None:
    assert parse_date("lunedì 14 settembre 2026").start == D(2026, 9, 14)
    assert reason_of("lunedì 15 settembre 2026") == "weekday_mismatch"
    assert reason_of("Friday, September 15, 2026") == "weekday_mismatch"


def test_years_outside_the_bounds_are_unreadable() -> None:
    assert reason_of(f"15/09/{MIN_YEAR - 1}") == "year_out_of_range"
    assert reason_of(f"{MAX_YEAR + 1}") == "year_out_of_range"
    assert reason_of("1234") == "year_out_of_range"
    assert parse_date(f"01/01/{MIN_YEAR}").start == D(MIN_YEAR, 1, 1)


@pytest.mark.parametrize("text", ["", "   ", "\t\n", "()", '""'])
def test_empty_text_is_unreadable_as_empty(text: str) -> None:
    assert reason_of(text) == "empty"


@pytest.mark.parametrize("text", ["-", "15", "ieri", "next week", "luglio e settembre 2026", "5° trimestre 2026"])
def test_unrecognised_text_is_unreadable(text: str) -> None:
    assert reason_of(text) == "unrecognised"


def test_text_longer_than_the_limit_is_refused_as_too_long() -> None:
    padded = "15/09/2026" + " x" * MAX_DATE_TEXT_LENGTH
    assert reason_of(padded) == "too_long"
    assert reason_of("1" * 10_000_000) == "too_long"
    # Surrounding whitespace does not count toward the limit.
    assert parse_date(" " * 1000 + "15/09/2026" + " " * 1000).start == D(2026, 9, 15)
    # At the limit the text is still read.
    assert reason_of("a" * MAX_DATE_TEXT_LENGTH) == "unrecognised"


def test_unreadable_date_is_a_value_error_with_reason_and_message() -> None:
    with pytest.raises(ValueError, match="year is missing") as caught:
        parse_date("15 settembre")
    error = caught.value
    assert isinstance(error, UnreadableDate)
    assert error.reason == "no_year"
    assert error.text == "15 settembre"
    copy = pickle.loads(pickle.dumps(error))  # noqa: S301 - our own object, round-tripped
    assert (copy.reason, copy.text, str(copy)) == (error.reason, error.text, str(error))


def test_unreadable_message_shortens_long_text() -> None:
    with pytest.raises(UnreadableDate) as caught:
        parse_date("x" * 150)
    assert len(str(caught.value)) < 150


def test_date_value_cannot_end_before_it_starts() -> None:
    with pytest.raises(ValueError, match="end before it starts"):
        DateValue("interval", D(2026, 8, 31), D(2026, 7, 1), "x")


# --- find_dates --------------------------------------------------------------------


def test_find_dates_reads_dates_inside_invoice_text() -> None:
    text = (
        "Fattura n. 123 del 15/09/2026 \u2014 periodo di fatturazione luglio\u2013agosto 2026, "
        "scadenza:30.09.2026. Invoice issued on September 15, 2026."
    )
    found = find_dates(text)
    assert [(v.precision, v.start, v.end) for v in found] == [
        DAY_15_SEP,
        JULY_AUGUST,
        ("day", D(2026, 9, 30), D(2026, 9, 30)),
        DAY_15_SEP,
    ]
    assert [v.text for v in found] == ["15/09/2026", "luglio\u2013agosto 2026", "30.09.2026", "September 15, 2026"]


def test_find_dates_skips_values_after_a_number_marker() -> None:
    assert find_dates("Fattura n. 12/2026") == []
    assert find_dates("Invoice No. 08/2026, #11/2026") == []
    assert [v.text for v in find_dates("Fattura n. 12/2026 del 03/02/2026")] == ["03/02/2026"]


def test_find_dates_skips_bare_years_but_reads_named_years() -> None:
    assert find_dates("Importo 2026 euro") == []
    assert [v.precision for v in find_dates("tutte le fatture dell'anno 2026")] == ["year"]


def test_find_dates_does_not_read_codes_as_dates() -> None:
    assert find_dates("INV-2026-08-001 e codice 2026-08/A, totale 1.234,56") == []


def test_find_dates_does_not_turn_a_page_number_into_an_interval() -> None:
    found = find_dates("pagina 3 - 15 settembre 2026")
    assert [(v.precision, v.text) for v in found] == [("day", "15 settembre 2026")]


def test_find_dates_does_not_start_an_interval_with_a_bare_number() -> None:
    assert [v.text for v in find_dates("Totale 2026 - 15 settembre 2026")] == ["15 settembre 2026"]


def test_find_dates_keeps_a_date_whose_neighbour_is_not_an_interval_end() -> None:
    found = find_dates("emessa il 15/09/2026 al 16 piano, tra 3 e 5 giorni")
    assert [v.text for v in found] == ["15/09/2026"]


def test_find_dates_skips_unreadable_expressions_whole() -> None:
    assert find_dates("scadenza 31/02/2026 e 15/09/26") == []
    # A reversed interval is not reported as its readable half.
    assert find_dates("dal 31/08/2026 al 01/07/2026") == []


def test_find_dates_scans_long_text_in_one_pass() -> None:
    # Inputs that make a backtracking pattern re-scan what it has seen; the
    # grammar's bounded quantifiers keep each position's work constant.
    for text in ("15 " * 20_000, "1/" * 30_000, "dal 1 " * 10_000, "luglio-" * 10_000, "a" * 100_000):
        assert find_dates(text) == []
    many = "15/09/2026 - " * 5_000
    assert len(find_dates(many)) == 2_500


# --- Properties --------------------------------------------------------------------

FRAGMENTS = [
    "15", "1", "09", "2026", "26", "0", "31", "/", ".", "-", "\u2013", "\u2014", " ", ",", "'", "°", "st",
    "agosto", "Aug", "sett.", "luglio", "July", "dal", "al", "from", "to", "tra", "e", "anno", "Q3", "trimestre",
    "lunedì", "T", "10:30", "Z", "+02:00", "(", ")", "\x00", "\u202f",
]  # fmt: skip


def check_parse_contract(text: str) -> None:
    try:
        value = parse_date(text)
    except UnreadableDate as unreadable:
        assert unreadable.reason in UNREADABLE_REASONS
        return
    assert value.precision in {"day", "month", "interval", "year"}
    assert value.start <= value.end
    if value.precision == "day":
        assert value.start == value.end


@settings(max_examples=300)
@given(st.text(max_size=300))
def test_parse_date_never_crashes_on_arbitrary_text(text: str) -> None:
    check_parse_contract(text)


@settings(max_examples=30)
@given(st.text(min_size=MAX_DATE_TEXT_LENGTH, max_size=10_000))
def test_parse_date_never_crashes_on_huge_text(text: str) -> None:
    check_parse_contract(text)


@settings(max_examples=500)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=14).map("".join))
def test_parse_date_never_crashes_on_date_like_text(text: str) -> None:
    check_parse_contract(text)


@settings(max_examples=200)
@given(
    st.one_of(
        st.lists(st.sampled_from([*FRAGMENTS, "Fattura n. ", " del ", "x"]), max_size=60).map("".join),
        st.text(max_size=10_000),
    )
)
def test_find_dates_values_are_substrings_that_parse_to_themselves(text: str) -> None:
    for value in find_dates(text):
        assert value.text in text
        assert parse_date(value.text) == value


ITALIAN_MONTHS = [names[0] for _, names in MONTH_NAMES]
ENGLISH_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                  "November", "December"]  # fmt: skip


@given(st.dates(min_value=D(MIN_YEAR, 1, 1), max_value=D(MAX_YEAR, 12, 31)))
def test_any_day_written_in_any_supported_shape_reads_back(day: dt.date) -> None:
    italian = ITALIAN_MONTHS[day.month - 1]
    english = ENGLISH_MONTHS[day.month - 1]
    for text in (
        f"{day.day:02d}/{day.month:02d}/{day.year}",
        f"{day.day}.{day.month}.{day.year}",
        day.isoformat(),
        f"{day.day} {italian} {day.year}",
        f"{english} {day.day}, {day.year}",
        f"{day.day} {english[:3]} {day.year}",
    ):
        value = parse_date(text)
        assert (value.precision, value.start, value.end) == ("day", day, day), text


@given(st.integers(MIN_YEAR, MAX_YEAR), st.integers(1, 12))
def test_any_month_reads_as_its_whole_extent(year: int, month: int) -> None:
    first = D(year, month, 1)
    last = (D(year + 1, 1, 1) if month == 12 else D(year, month + 1, 1)) - dt.timedelta(days=1)
    for text in (
        f"{month:02d}/{year}",
        f"{month}/{year}",
        f"{year}-{month:02d}",
        f"{ENGLISH_MONTHS[month - 1]} {year}",
        f"{ITALIAN_MONTHS[month - 1]} {year}",
    ):
        value = parse_date(text)
        assert (value.precision, value.start, value.end) == ("month", first, last), text
