"""Cell rules every sheet writer shares: conversion, cleaning, limits and column planning.

Contract:

* :func:`normalize_value` turns a row's value into one of the exact types of
  :data:`~apps.records.rows.CellValue` (subclasses become their base type)
  and rejects, with ``unsupported_value``, any other type and NaN or infinite
  numbers.
* :func:`clean_cell_text` removes or replaces the characters a format cannot
  hold; writers count the cells it changed in :class:`CellTally`
  (``cleaned``); file writers get both, with the length check, from
  :func:`storable_text`. Cleaning is never fatal: one unreadable character
  should not cost the user the whole sheet. XLSX (XML) cannot hold C0 control
  characters other than tab and line feed, ``U+FFFE``/``U+FFFF`` or lone
  surrogates: controls are removed, CR and CRLF become LF (Excel's own line
  break; XML readers turn CR into LF anyway), and lone surrogates become
  U+FFFD. Google Sheets drops the same controls but keeps CR. CSV keeps every
  character that UTF-8 can encode; only lone surrogates become U+FFFD.
* :func:`check_text_length` measures text as spreadsheets do (UTF-16 code
  units) and raises ``cell_too_long`` over a cell's limit.
* :func:`plan_sheet_columns` is :func:`apps.records.headings.resolve_columns`
  with its heading errors as :class:`~apps.records.sheets.receipts.SheetWriteError`.

Errors name the row and the heading, never the cell's content.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Final

from apps.records.headings import AmbiguousHeading, ColumnPlan, InvalidHeadings, resolve_columns
from apps.records.rows import CellValue, Row
from apps.records.sheets.receipts import SheetFormat, SheetWriteError, count_noun, was_or_were

# Excel's limit for one cell, counted in UTF-16 code units as Excel counts.
CELL_TEXT_LIMIT: Final = 32_767
# Integers beyond 2**53 lose digits in a spreadsheet's floating-point numbers.
LARGEST_EXACT_INTEGER: Final = 2**53
# Excel cannot show dates before 1900 as dates.
EARLIEST_SHEET_DATE: Final = dt.date(1900, 1, 1)


class CellTally:
    """Counts kept while cells are converted; the writer's notices come from here."""

    __slots__ = ("cleaned", "early_dates", "long_integers", "protected")

    def __init__(self) -> None:
        self.protected = 0
        self.cleaned = 0
        self.long_integers = 0
        self.early_dates = 0

    def notices(self) -> list[str]:
        notices = []
        if self.long_integers:
            notices.append(
                f"{count_noun(self.long_integers, 'whole number')} too long for a spreadsheet's number precision "
                f"{was_or_were(self.long_integers)} written as text, so no digit is lost."
            )
        if self.early_dates:
            notices.append(
                f"{count_noun(self.early_dates, 'date')} before 1900 {was_or_were(self.early_dates)} "
                "written as ISO 8601 text: spreadsheets cannot show them as dates."
            )
        return notices


# What each format cannot hold. CR/CRLF is listed first so it matches as a unit.
_XLSX_UNSAFE: Final = re.compile("\r\n?|[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udfff]")
_GOOGLE_UNSAFE: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udfff]")
_CSV_UNSAFE: Final = re.compile("[\ud800-\udfff]")
_UNSAFE_TEXT: Final[Mapping[SheetFormat, re.Pattern[str]]] = {
    "xlsx": _XLSX_UNSAFE,
    "csv": _CSV_UNSAFE,
    "google_sheets": _GOOGLE_UNSAFE,
}


def _replacement(match: re.Match[str]) -> str:
    found = match.group()
    if found[0] == "\r":
        return "\n"
    if "\ud800" <= found <= "\udfff":
        return "\ufffd"
    return ""


def clean_cell_text(value: str, sheet_format: SheetFormat) -> str:
    """``value`` without the characters ``sheet_format`` cannot hold (see module docstring)."""
    return _UNSAFE_TEXT[sheet_format].sub(_replacement, value)


def storable_text(value: str, sheet_format: SheetFormat, tally: CellTally, row_number: int, heading: str) -> str:
    """``value`` as a file cell of ``sheet_format`` stores it: cleaned, and within :data:`CELL_TEXT_LIMIT`.

    A cleaned cell is counted in ``tally``; text over the limit raises ``cell_too_long``.
    """
    if _UNSAFE_TEXT[sheet_format].search(value) is not None:
        value = clean_cell_text(value, sheet_format)
        tally.cleaned += 1
    check_text_length(value, CELL_TEXT_LIMIT, row_number, heading)
    return value


def text_length(value: str) -> int:
    """Length as spreadsheets count it: UTF-16 code units."""
    if value.isascii():
        return len(value)
    return len(value.encode("utf-16-le", "surrogatepass")) // 2


def check_text_length(value: str, limit: int, row_number: int, heading: str) -> None:
    """Raise ``cell_too_long`` when ``value`` does not fit one cell."""
    # A str of n code points has between n and 2n UTF-16 units.
    if len(value) * 2 > limit and text_length(value) > limit:
        raise SheetWriteError(
            "cell_too_long", f"{_where(row_number, heading)} holds more than {limit:,} characters, a cell's limit"
        )


def _where(row_number: int, heading: str) -> str:
    place = "the heading" if row_number == 0 else f"row {row_number}"
    return f"{place}, column {heading!r}"


def unsupported_value(value: object, row_number: int, heading: str) -> SheetWriteError:
    """The error for a value a sheet cannot hold (its type is named, never its content)."""
    if isinstance(value, float | Decimal):
        what = "a number that is not finite (NaN or infinity)"
    else:
        what = f"a value of type {type(value).__name__}"
    return SheetWriteError(
        "unsupported_value", f"{_where(row_number, heading)} holds {what}, which a sheet cannot hold"
    )


_EXACT_TYPES: Final = frozenset({str, int, float, Decimal, dt.date, dt.datetime, bool})


def normalize_value(value: object, row_number: int, heading: str) -> CellValue:
    """``value`` as one of the exact types of ``CellValue`` (subclasses become their base type).

    Rejects (``unsupported_value``) other types and NaN or infinite numbers.
    """
    if value is None or type(value) in _EXACT_TYPES:
        result = value
    elif isinstance(value, bool):
        result = bool(value)
    elif isinstance(value, str):
        result = str.__str__(value)
    elif isinstance(value, int):
        result = int(value)
    elif isinstance(value, float):
        result = float(value)
    elif isinstance(value, Decimal):
        result = Decimal(value)
    elif isinstance(value, dt.datetime):
        result = dt.datetime.combine(value.date(), value.timetz())
    elif isinstance(value, dt.date):
        result = dt.date(value.year, value.month, value.day)
    else:
        raise unsupported_value(value, row_number, heading)
    if (type(result) is float and not math.isfinite(result)) or (type(result) is Decimal and not result.is_finite()):
        raise unsupported_value(value, row_number, heading)
    return result  # type: ignore[return-value]


def plan_sheet_columns(
    rows: Sequence[Row],
    headings: Sequence[str] | None,
    *,
    schema: Sequence[str] | None,
    bindings: Mapping[str, str] | None,
) -> ColumnPlan:
    """``resolve_columns``, with its heading errors as :class:`SheetWriteError`."""
    try:
        return resolve_columns(rows, headings, schema=schema, bindings=bindings)
    except AmbiguousHeading as exc:
        raise SheetWriteError("ambiguous_heading", str(exc)) from exc
    except InvalidHeadings as exc:
        raise SheetWriteError("invalid_headings", str(exc)) from exc


def merge_notices(*groups: Sequence[str]) -> tuple[str, ...]:
    """All notices in order, each once."""
    return tuple(dict.fromkeys(notice for group in groups for notice in group))
