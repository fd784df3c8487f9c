"""Dates as one document writes them: the order of its numeric dates, and calendar days read to ISO.

A numeric date such as "03/04/2026" is the 3rd of April in Italy, France,
Germany, the Netherlands, Britain, Ireland and India, and the 4th of March in
the United States. :func:`document_date_order` decides from the document's
own evidence, never from the interface language:

- a numeric date whose middle number is above 12 ("03/17/2026") says
  month-first; one whose first number is above 12 ("17/03/2026") says
  day-first;
- an American address (a state code and a ZIP code, "Portland, OR 97210") or
  an amount in US dollars ("$", "USD") says month-first;
- day-first otherwise. Evidence both ways leaves the order unknown (``None``,
  with the reason), and every numeric date whose two readings are both
  possible is then unreadable (``ambiguous``) rather than guessed.

:func:`read_leading_date` reads the calendar day a value starts with ("15/06/2026",
"03.02.26 18:42", "14. Jänner 2026", "2nd April 2026", "07-Nov-2026",
"2026-02-03T18:41:57"); :func:`find_document_days` finds every day a text
states. A two-digit year is read as 20yy: documents Metnos reads are this
century's. Other forms are read by :func:`apps.records.dates.reading.find_dates`
and :func:`~apps.records.dates.reading.parse_date` (month names in five
languages).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Final, Literal

from apps.records.dates.reading import UnreadableDate, find_dates

__all__ = [
    "DateOrder",
    "DocumentDay",
    "OrderEvidence",
    "document_date_order",
    "find_document_days",
    "read_leading_date",
]

DateOrder = Literal["day_first", "month_first"]

_NUMERIC: Final = re.compile(r"(?<![\w./\-])([0-9]{1,2})([./\-])([0-9]{1,2})\2([0-9]{4}|[0-9]{2})(?![0-9]|[./\-][0-9])")
_LEADING_NUMERIC: Final = re.compile(
    r"([0-9]{1,2})([./\-])([0-9]{1,2})\2([0-9]{4}|[0-9]{2})(?![0-9]|[./\-]?[0-9A-Za-z])"
)
_US_STATES: Final = (
    "AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK"
    "|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY"
)
_US_ADDRESS: Final = re.compile(rf"(?:,|\s)\s?(?:{_US_STATES})\s[0-9]{{5}}(?:-[0-9]{{4}})?\b")
_US_DOLLAR: Final = re.compile(r"(?<![A-Za-z])(?:US)?\$|\bUSD\b")
_CENTURY: Final = 2000
# A leading date is read within the first characters of a value.
_LEADING_WINDOW: Final = 60


@dataclass(frozen=True)
class OrderEvidence:
    """The order a document's numeric dates follow (None when its evidence disagrees), and why."""

    order: DateOrder | None
    reason: str


@dataclass(frozen=True)
class DocumentDay:
    """A calendar day stated in a text: the day, the text that states it, and where (character offsets)."""

    day: dt.date
    text: str
    start: int
    end: int


def document_date_order(text: str) -> OrderEvidence:
    """How ``text`` writes its numeric dates (see the module docstring)."""
    day_first = month_first = False
    for match in _NUMERIC.finditer(text):
        first, middle = int(match[1]), int(match[3])
        day_first = day_first or (first > 12 and 1 <= middle <= 12)
        month_first = month_first or (middle > 12 and 1 <= first <= 12)
    american = _US_ADDRESS.search(text) is not None or _US_DOLLAR.search(text) is not None
    if day_first and (month_first or american):
        return OrderEvidence(None, "the document writes numeric dates both day-first and month-first")
    if month_first:
        return OrderEvidence("month_first", "a numeric date of the document has a day above 12 in the middle")
    if american:
        return OrderEvidence("month_first", "the document is American (a US address or US dollars)")
    return OrderEvidence("day_first", "numeric dates are day-first unless the document shows otherwise")


def _year(digits: str) -> int:
    return _CENTURY + int(digits) if len(digits) == 2 else int(digits)


def _numeric_day(match: re.Match[str], order: DateOrder | None, source: str) -> dt.date:
    first, middle, year = int(match[1]), int(match[3]), _year(match[4])
    readings: set[dt.date] = set()
    for day, month in ((first, middle), (middle, first)):
        try:
            readings.add(dt.date(year, month, day))
        except ValueError:
            continue
    distinct = sorted(readings)
    if not distinct:
        raise UnreadableDate("invalid_day", source, "no calendar day has that day and month")
    if len(distinct) == 1:
        return distinct[0]
    if order is None:
        raise UnreadableDate(
            "ambiguous", source, "the day and the month could be either way round and the document does not say"
        )
    return dt.date(year, middle, first) if order == "day_first" else dt.date(year, first, middle)


def _named_days(text: str) -> list[DocumentDay]:
    """The days ``text`` names in words or in ISO form ("14. Jänner 2026", "2026-02-03"), with their place."""
    found: list[DocumentDay] = []
    position = 0
    for stated in find_dates(text):
        start = text.find(stated.text, position)
        if start < 0:
            continue
        position = start + len(stated.text)
        if stated.precision == "day" and _NUMERIC.fullmatch(stated.text) is None:
            found.append(DocumentDay(stated.start, stated.text, start, position))
    return found


def read_leading_date(value: str, order: DateOrder | None) -> DocumentDay | None:
    """The calendar day ``value`` starts with, or None when it starts with no date.

    Raises :class:`~apps.records.dates.reading.UnreadableDate` when it starts with
    a numeric date whose day cannot be known (two readings and no order).
    """
    stripped = value.lstrip()
    offset = len(value) - len(stripped)
    numeric = _LEADING_NUMERIC.match(stripped)
    if numeric is not None:
        day = _numeric_day(numeric, order, numeric.group())
        return DocumentDay(day, numeric.group(), offset, offset + numeric.end())
    named = _named_days(stripped[:_LEADING_WINDOW])
    if not named or named[0].start != 0:
        return None
    first = named[0]
    return DocumentDay(first.day, first.text, offset, offset + first.end)


def find_document_days(text: str, order: DateOrder | None) -> list[DocumentDay]:
    """Every calendar day ``text`` states, in order; dates that do not read as one day are left out."""
    found: list[DocumentDay] = []
    taken: list[tuple[int, int]] = []
    for match in _NUMERIC.finditer(text):
        taken.append(match.span())
        try:
            found.append(DocumentDay(_numeric_day(match, order, match.group()), match.group(), *match.span()))
        except UnreadableDate:
            continue
    for day in _named_days(text):
        if not any(day.start < right and left < day.end for left, right in taken):
            found.append(day)
    return sorted(found, key=lambda day: day.start)
