"""Periods and the period filter over collected rows.

Contract
--------
A ``Period`` is an inclusive calendar range with a label for messages.
``period_inclusion(value, period)`` compares the whole extent of a
``DateValue`` with the period:

- ``inside``: the value lies entirely within the period ("08/2026" in
  "July-August 2026");
- ``outside``: no part of it does;
- ``uncertain``: it straddles an edge ("August 2026" against the period
  "1-15 August 2026"): such a value is neither kept nor silently dropped.

``filter_rows_by_period(rows, field=…, period=…)`` applies that to the value
each row holds under ``field`` and returns a ``PeriodFilterResult`` that sorts
rows into ``kept``, ``uncertain`` and ``outside`` (input order preserved) and
counts the rows it had to exclude:

- ``missing_rows``: the field is absent, ``None`` or blank text. Counted and
  reported separately from unreadable values: "no date given" and "a date we
  could not read" call for different fixes.
- ``unreadable_rows``: any other value that is not a readable date (see
  ``apps.records.dates.reading.parse_date``), with the reasons tallied in
  ``unreadable_reasons``.

Cell values that are ``datetime.date`` or ``datetime.datetime`` are days (a
datetime counts on the calendar day it carries; no time-zone conversion).
Text is read with ``parse_date``. Numbers and booleans are unreadable: a
number in a date field is not a date we can vouch for.

``PeriodFilterResult.notices()`` gives the chat-ready sentences that report
the exclusions and the uncertain rows; the spreadsheet result reuses them.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from apps.records.dates.reading import DateValue, UnreadableDate, parse_date
from apps.records.rows import CellValue, Row

__all__ = [
    "Inclusion",
    "Period",
    "PeriodFilterResult",
    "date_value_from_cell",
    "filter_rows_by_period",
    "period_inclusion",
]

Inclusion = Literal["inside", "outside", "uncertain"]


@dataclass(frozen=True, slots=True)
class Period:
    """An inclusive range of days; ``label`` names it in messages."""

    start: dt.date
    end: dt.date
    label: str

    def __post_init__(self) -> None:
        if self.start > self.end:
            raise ValueError("a period cannot end before it starts")

    @classmethod
    def from_date_value(cls, value: DateValue) -> Period:
        """The period a date expression covers, labelled with its source text."""
        return cls(value.start, value.end, value.text)

    @classmethod
    def from_text(cls, text: str) -> Period:
        """Read a period such as "July-August 2026"; raises ``UnreadableDate``."""
        return cls.from_date_value(parse_date(text))

    @classmethod
    def year(cls, year: int) -> Period:
        """The calendar year, 1 January to 31 December."""
        return cls(dt.date(year, 1, 1), dt.date(year, 12, 31), str(year))


def period_inclusion(value: DateValue, period: Period) -> Inclusion:
    """Whether the whole extent of ``value`` lies inside, outside or across ``period``."""
    if value.end < period.start or value.start > period.end:
        return "outside"
    if period.start <= value.start and value.end <= period.end:
        return "inside"
    return "uncertain"


def date_value_from_cell(value: CellValue) -> DateValue:
    """The date a cell holds; raises ``UnreadableDate`` when it holds none.

    ``None`` and blank text raise with reason ``empty``.
    """
    # datetime first: it is a subclass of date.
    if isinstance(value, dt.datetime):
        day = value.date()
        return DateValue("day", day, day, value.isoformat())
    if isinstance(value, dt.date):
        return DateValue("day", value, value, value.isoformat())
    if value is None:
        raise UnreadableDate("empty", "")
    if isinstance(value, str):
        return parse_date(value)
    raise UnreadableDate("unrecognised", str(value), "a number is not a date")


@dataclass(frozen=True)
class PeriodFilterResult:
    """Rows sorted by a period filter, with what was excluded and why."""

    field: str
    period: Period
    kept: list[Row]
    uncertain: list[Row]
    outside: list[Row]
    unreadable_rows: int
    missing_rows: int
    unreadable_reasons: Mapping[str, int]

    @property
    def excluded_rows(self) -> int:
        """Rows left out because their date is missing or unreadable."""
        return self.unreadable_rows + self.missing_rows

    def notices(self) -> list[str]:
        """Chat-ready sentences reporting exclusions and uncertain rows (none when all is clear)."""
        sentences = []
        if self.unreadable_rows:
            sentences.append(
                f"{_rows(self.unreadable_rows)} excluded: the date in field '{self.field}' could not be read."
            )
        if self.missing_rows:
            sentences.append(f"{_rows(self.missing_rows)} excluded: the field '{self.field}' is missing or empty.")
        if self.uncertain:
            count = len(self.uncertain)
            verb, tail = ("straddles", "is") if count == 1 else ("straddle", "are")
            sentences.append(f"{_rows(count)} {verb} the period {self.period.label} and {tail} reported as uncertain.")
        return sentences


def _rows(count: int) -> str:
    return f"{count} row" if count == 1 else f"{count} rows"


def _is_missing(value: CellValue) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def filter_rows_by_period(rows: Iterable[Row], *, field: str, period: Period) -> PeriodFilterResult:
    """Sort ``rows`` by whether the date under ``field`` lies in ``period``.

    Never drops a row silently: every row lands in ``kept``, ``uncertain`` or
    ``outside``, or is counted as missing or unreadable.
    """
    kept: list[Row] = []
    uncertain: list[Row] = []
    outside: list[Row] = []
    missing = 0
    reasons: Counter[str] = Counter()
    for row in rows:
        raw = row.get(field)
        if _is_missing(raw):
            missing += 1
            continue
        try:
            value = date_value_from_cell(raw)
        except UnreadableDate as unreadable:
            reasons[unreadable.reason] += 1
            continue
        inclusion = period_inclusion(value, period)
        if inclusion == "inside":
            kept.append(row)
        elif inclusion == "uncertain":
            uncertain.append(row)
        else:
            outside.append(row)
    return PeriodFilterResult(
        field=field,
        period=period,
        kept=kept,
        uncertain=uncertain,
        outside=outside,
        unreadable_rows=sum(reasons.values()),
        missing_rows=missing,
        unreadable_reasons=dict(reasons),
    )
