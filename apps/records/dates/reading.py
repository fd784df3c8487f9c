"""Dates that keep the precision of their source.

Contract
--------
``parse_date(text)`` reads **one date expression**: the whole text is the
expression, as in a table cell or a form field ("15/09/2026", "agosto 2026",
"dal 1 luglio al 31 agosto 2026"). It returns a ``DateValue`` whose
``precision`` is what the source states and whose ``start``/``end`` are the
inclusive extent of that statement:

- ``day``: "15/09/2026", "2026-09-15", "15 settembre 2026", "September 15, 2026"
  (``start == end``; a trailing time of day such as "10:30" is accepted and
  ignored: the value is the calendar day as written, never shifted by zone);
- ``month``: "08/2026", "2026-08", "agosto 2026", "Aug 2026";
- ``interval``: "July-August 2026" (hyphen, en or em dash), "luglio/agosto
  2026", "from 1 July to 31 August 2026", "dal 01/07/2026 al 31/08/2026",
  "tra il 1 e il 15 luglio 2026", "1-15 luglio 2026", "Q3 2026",
  "2° bimestre 2026";
- ``year``: "2026", "anno 2026", "year 2026" (only when the year is the whole
  expression).

Anything else raises ``UnreadableDate`` whose ``reason`` comes from the closed
set ``UNREADABLE_REASONS``. The rules:

- The year must appear in the source ("15 settembre" is ``no_year``); an
  interval may write it once, at its end ("luglio-agosto 2026"), and the start
  inherits it. Two-digit years ("15/09/26") are ``two_digit_year``: the century
  is a guess we do not make. Years outside ``MIN_YEAR``..``MAX_YEAR`` are
  ``year_out_of_range`` (a four-digit number is otherwise too easily an amount).
- Numeric dates are always day/month/year (ISO ``YYYY-MM-DD`` excepted, whose
  order is fixed by its year-first shape), whatever the interface language:
  "09/15/2026" is ``invalid_month``, never silently swapped. The separators of
  one numeric date must agree ("15/09-2026" is ``unrecognised``).
- Impossible days ("31/02/2026") are ``invalid_day``; an interval ending
  before it starts is ``reversed_interval``; an interval whose only written
  year makes it run backwards ("dicembre-gennaio 2026") or two bare years
  joined by a dash ("2025-2026", a season or a fiscal year as often as two
  calendar years) are ``ambiguous``; a weekday that contradicts the date is
  ``weekday_mismatch``.
- Amounts and ratios ("1.234,56", "12/5") never become dates.
- Month names are Italian, English, French, German and Dutch, full or
  abbreviated, with or without a trailing dot ("sett.", "Sept.", "févr.", "14.
  Jänner 2026", "2 april 2026"); matching is case-insensitive; hyphens, en
  and em dashes and "/" all join intervals.
- Texts longer than ``MAX_DATE_TEXT_LENGTH`` characters are ``too_long``:
  a date expression is short, and the bound keeps every regular expression here
  on a short input.

Surrounding words are not guessed away: "Fattura del 15/09/2026" is
``unrecognised`` for ``parse_date``. ``find_dates(text)`` scans longer text
(in linear time, any length) and returns every complete, readable date
expression it finds, each carrying its own source text. It is deliberately
more cautious than ``parse_date``: it skips bare years ("2026" inside prose is
as often an amount; "anno 2026" is found), values right after a number marker
("Fattura n. 12/2026" is an invoice number), and expressions that do not read.

The words and patterns matched are in :mod:`apps.records.dates.grammar`;
this module decides what a match means. Standard library only, nothing from
Django.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Final, Literal, get_args

from apps.records.dates.grammar import (
    BETWEEN_RE,
    CLOSING_PUNCTUATION,
    DASH_CONNECTOR_RE,
    FIND_RE,
    FIND_SINGLE_RE,
    FOLD,
    INTERVAL_RE,
    MONTHS,
    NUMBER_MARKER_RE,
    NUMBER_MARKER_WINDOW,
    OPENING_PUNCTUATION,
    ORDINAL_WORDS,
    PART_MONTHS,
    SINGLE_RE,
    WEEKDAYS,
)

__all__ = [
    "MAX_DATE_TEXT_LENGTH",
    "MAX_YEAR",
    "MIN_YEAR",
    "UNREADABLE_REASONS",
    "DateValue",
    "Precision",
    "UnreadableDate",
    "UnreadableReason",
    "find_dates",
    "parse_date",
]

Precision = Literal["day", "month", "interval", "year"]
UnreadableReason = Literal[
    "empty",
    "too_long",
    "unrecognised",
    "no_year",
    "two_digit_year",
    "year_out_of_range",
    "invalid_day",
    "invalid_month",
    "weekday_mismatch",
    "reversed_interval",
    "ambiguous",
]
UNREADABLE_REASONS: Final[frozenset[str]] = frozenset(get_args(UnreadableReason))

# Bounds of this domain, cited by the tests.
MAX_DATE_TEXT_LENGTH: Final = 200
MIN_YEAR: Final = 1900
MAX_YEAR: Final = 2199

_PRECISIONS: Final[frozenset[str]] = frozenset(get_args(Precision))


@dataclass(frozen=True, slots=True)
class DateValue:
    """A date as its source states it: a day, a month, an interval or a year.

    ``start`` and ``end`` are inclusive; ``text`` is the source expression
    (surrounding whitespace removed).
    """

    precision: Precision
    start: dt.date
    end: dt.date
    text: str

    def __post_init__(self) -> None:
        if self.precision not in _PRECISIONS:
            raise ValueError(f"unknown precision {self.precision!r}")
        if self.start > self.end:
            raise ValueError("a DateValue cannot end before it starts")


_DEFAULT_DETAILS: Final[dict[str, str]] = {
    "empty": "the text is empty",
    "too_long": (
        f"the text is longer than {MAX_DATE_TEXT_LENGTH} characters; find_dates looks for dates inside longer text"
    ),
    "unrecognised": "no date expression was recognised",
    "no_year": "the year is missing",
    "two_digit_year": "the year has only two digits",
    "year_out_of_range": f"the year is outside {MIN_YEAR}-{MAX_YEAR}",
    "invalid_day": "the day does not exist in that month",
    "invalid_month": "the month is not between 1 and 12 (numeric dates are read day/month/year)",
    "weekday_mismatch": "the weekday does not match the date",
    "reversed_interval": "the interval ends before it starts",
    "ambiguous": "the expression can be read in more than one way",
}
_SHOWN_TEXT_LENGTH: Final = 60


class UnreadableDate(ValueError):
    """A text that is not a readable date; ``reason`` is in ``UNREADABLE_REASONS``."""

    def __init__(self, reason: UnreadableReason, text: str, detail: str | None = None) -> None:
        self.reason: UnreadableReason = reason
        self.text = text
        self.detail = detail or _DEFAULT_DETAILS[reason]
        shown = text if len(text) <= _SHOWN_TEXT_LENGTH else text[:_SHOWN_TEXT_LENGTH] + "…"
        super().__init__(f"Unreadable date {shown!r}: {self.detail}.")

    def __reduce__(self) -> tuple[type[UnreadableDate], tuple[str, str, str]]:
        return (type(self), (self.reason, self.text, self.detail))


# --- Reading ----------------------------------------------------------------

_DAYS_IN_MONTH: Final = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)

# Reasons that say the matched span was not really one expression, so a
# shorter date may still start inside it.
_RESCAN_REASONS: Final = frozenset({"no_year", "unrecognised"})


@dataclass(slots=True)
class _Endpoint:
    """One side of an expression, possibly still missing its year or month."""

    precision: Precision
    year: int | None
    first_month: int | None
    last_month: int | None
    day: int | None = None
    weekday: int | None = None


def _year(digits: str, source: str) -> int:
    if len(digits) == 2 or digits.startswith("'"):
        raise UnreadableDate("two_digit_year", source)
    if len(digits) != 4:
        raise UnreadableDate("unrecognised", source)
    return int(digits)


def _optional_year(digits: str | None, source: str) -> int | None:
    return None if digits is None else _year(digits, source)


def _month_number(digits: str, source: str) -> int:
    month = int(digits)
    if not 1 <= month <= 12:
        raise UnreadableDate("invalid_month", source)
    return month


def _weekday(name: str | None) -> int | None:
    return None if name is None else WEEKDAYS[name]


def _endpoint(m: re.Match[str], source: str) -> _Endpoint:
    kind = m.lastgroup
    if kind == "nd":
        separators = m["nd_s"]
        if separators[0] != separators[-1]:
            raise UnreadableDate("unrecognised", source, "the separators of the numeric date differ")
        month = _month_number(separators[1:-1], source)
        return _Endpoint("day", _year(m["nd_y"], source), month, month, int(m["nd_d"]), _weekday(m["nd_wd"]))
    if kind == "iso":
        separators = m["iso_s"]
        if separators[0] != separators[-1]:
            raise UnreadableDate("unrecognised", source, "the separators of the numeric date differ")
        month = _month_number(separators[1:-1], source)
        return _Endpoint("day", int(m["iso_y"]), month, month, int(m["iso_d"]), _weekday(m["iso_wd"]))
    if kind == "im":
        month = _month_number(m["im_m"], source)
        return _Endpoint("month", int(m["im_y"]), month, month)
    if kind == "nm":
        month = _month_number(m["nm_m"], source)
        return _Endpoint("month", int(m["nm_y"]), month, month)
    if kind == "ndm":
        month = _month_number(m["ndm_m"], source)
        return _Endpoint("day", None, month, month, int(m["ndm_d"]))
    if kind == "td":
        month = MONTHS[m["td_m"]]
        return _Endpoint("day", _optional_year(m["td_y"], source), month, month, int(m["td_d"]), _weekday(m["td_wd"]))
    if kind == "tmd":
        month = MONTHS[m["tmd_m"]]
        return _Endpoint(
            "day", _optional_year(m["tmd_y"], source), month, month, int(m["tmd_d"]), _weekday(m["tmd_wd"])
        )
    if kind == "tm":
        month = MONTHS[m["tm_m"]]
        return _Endpoint("month", _optional_year(m["tm_y"], source), month, month)
    if kind == "qp":
        return _part_of_year(m, source)
    if kind == "y":
        return _Endpoint("year", int(m["y_y"]), 1, 12)
    if kind == "dy":
        return _Endpoint("day", int(m["dy_y"]), None, None, int(m["dy_d"]))
    if kind == "dd":
        return _Endpoint("day", None, None, None, int(m["dd_d"]))
    raise AssertionError(f"unhandled date form {kind!r}")  # pragma: no cover - the grammar has no other form


def _part_of_year(m: re.Match[str], source: str) -> _Endpoint:
    if m["qp_q"] is not None:
        size, number = PART_MONTHS[m["qp_q"][0]], int(m["qp_q"][1])
    else:
        size = PART_MONTHS[m["qp_u"]]
        ordinal = m["qp_o"]
        number = ORDINAL_WORDS[ordinal] if ordinal in ORDINAL_WORDS else int(ordinal[0])
    if number * size > 12:
        raise UnreadableDate("unrecognised", source, "the year has no such part")
    year = None if m["qp_y"] is None else int(m["qp_y"])
    return _Endpoint("interval", year, (number - 1) * size + 1, number * size)


def _days_in_month(year: int, month: int) -> int:
    if month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0):
        return 29
    return _DAYS_IN_MONTH[month - 1]


def _extent(ep: _Endpoint, source: str) -> tuple[dt.date, dt.date]:
    """The inclusive extent of a complete endpoint."""
    year, first, last = ep.year, ep.first_month, ep.last_month
    if year is None or first is None or last is None:  # pragma: no cover - callers complete it first
        raise UnreadableDate("unrecognised", source)
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise UnreadableDate("year_out_of_range", source)
    if ep.day is not None:
        if not 1 <= ep.day <= _days_in_month(year, first):
            raise UnreadableDate("invalid_day", source)
        day = dt.date(year, first, ep.day)
        if ep.weekday is not None and day.weekday() != ep.weekday:
            raise UnreadableDate("weekday_mismatch", source)
        return day, day
    return dt.date(year, first, 1), dt.date(year, last, _days_in_month(year, last))


def _read_single(m: re.Match[str], source: str) -> DateValue:
    ep = _endpoint(m, source)
    if ep.first_month is None:
        # A bare day ("15") or a day with only a year ("15, 2026").
        raise UnreadableDate("unrecognised", source, "a day without its month is not a date")
    if ep.year is None:
        raise UnreadableDate("no_year", source)
    start, end = _extent(ep, source)
    return DateValue(ep.precision, start, end, source)


def _read_interval(m: re.Match[str], source: str, *, explicit: bool) -> DateValue:
    """Join two endpoints; the start inherits what only the end writes."""
    first = SINGLE_RE.fullmatch(m["a"])
    last = SINGLE_RE.fullmatch(m["b"])
    if first is None or last is None:  # pragma: no cover - the interval pattern embeds the same forms
        raise UnreadableDate("unrecognised", source)
    a, b = _endpoint(first, source), _endpoint(last, source)

    if b.first_month is None:
        # "July 1-15, 2026": the end borrows the month of a day-precise start.
        if a.day is None or a.first_month is None:
            raise UnreadableDate("unrecognised", source)
        b.first_month = b.last_month = a.first_month
    if b.year is None:
        raise UnreadableDate("no_year", source, "the end of the interval has no year")
    inherited_year = a.year is None
    if inherited_year:
        a.year = b.year
    if a.first_month is None:
        # "15-20 agosto 2026": a bare day takes the month of a day-precise end.
        if b.day is None:
            raise UnreadableDate("unrecognised", source)
        a.first_month = a.last_month = b.first_month
    elif inherited_year and b.first_month is not None and a.first_month > b.first_month:
        raise UnreadableDate("ambiguous", source, "the interval crosses a year boundary but gives only one year")
    if not explicit and a.precision == "year" and b.precision == "year":
        raise UnreadableDate(
            "ambiguous", source, "two years joined by a dash may be a season or a fiscal year; write 'dal … al …'"
        )

    a_start, a_end = _extent(a, source)
    b_start, b_end = _extent(b, source)
    if a_start > b_start or a_end > b_end:
        raise UnreadableDate("reversed_interval", source)
    return DateValue("interval", a_start, b_end, source)


def _normalise(text: str) -> str:
    folded = text.lower().translate(FOLD)
    return " ".join(folded.split()).lstrip(OPENING_PUNCTUATION).rstrip(CLOSING_PUNCTUATION)


def _read(normalised: str, source: str) -> DateValue:
    single = SINGLE_RE.fullmatch(normalised)
    if single is not None:
        return _read_single(single, source)
    interval = INTERVAL_RE.fullmatch(normalised)
    if interval is not None:
        explicit = interval["prefix"] is not None or DASH_CONNECTOR_RE.fullmatch(interval["conn"]) is None
        return _read_interval(interval, source, explicit=explicit)
    between = BETWEEN_RE.fullmatch(normalised)
    if between is not None:
        return _read_interval(between, source, explicit=True)
    raise UnreadableDate("unrecognised", source)


def parse_date(text: str) -> DateValue:
    """Read one date expression, keeping the precision its source states.

    The whole text must be the expression (see the module docstring for the
    accepted forms and rules); anything else raises ``UnreadableDate``.
    """
    source = text.strip()
    if len(source) > MAX_DATE_TEXT_LENGTH:
        raise UnreadableDate("too_long", source)
    normalised = _normalise(source)
    if not normalised:
        raise UnreadableDate("empty", source)
    return _read(normalised, source)


def _after_number_marker(folded: str, start: int) -> bool:
    return NUMBER_MARKER_RE.search(folded[max(0, start - NUMBER_MARKER_WINDOW) : start]) is not None


def find_dates(text: str) -> list[DateValue]:
    """Every complete, readable date expression inside a longer text, in order.

    Each value's ``text`` is the expression as it appears in ``text``. Runs in
    time linear in ``len(text)``. Expressions that do not read, bare years and
    values right after a number marker ("n.", "No.", "#") are skipped.
    """
    folded = text.translate(FOLD)  # one-to-one: positions stay valid in ``text``
    found: list[DateValue] = []
    pos = 0
    while (m := FIND_RE.search(folded, pos)) is not None:
        value, pos = _accept(m, text, folded)
        if value is not None:
            found.append(value)
    return found


def _accept(m: re.Match[str], text: str, folded: str) -> tuple[DateValue | None, int]:
    """The value read at a match, and where scanning resumes."""
    start, end = m.span()
    if _after_number_marker(folded, start):
        return None, end
    candidate = text[start:end]
    try:
        return _read(_normalise(candidate), candidate.strip()), end
    except UnreadableDate as unreadable:
        if unreadable.reason not in _RESCAN_REASONS:
            return None, end
    # The span was not one expression (an interval whose end is not a date,
    # say): a complete single date may still start here, or further on.
    single = FIND_SINGLE_RE.match(folded, start)
    if single is not None and single.end() < end:
        candidate = text[start : single.end()]
        try:
            return _read(_normalise(candidate), candidate.strip()), single.end()
        except UnreadableDate:
            pass
    return None, start + 1
