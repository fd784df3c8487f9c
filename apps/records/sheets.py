"""Spreadsheets that never run data: XLSX and CSV writers with receipts.

Values supplied as data never become formulas:

* **XLSX** (:func:`write_xlsx`, in :mod:`apps.records.sheet_xlsx`) — text is
  stored as text cells, whatever it looks like; active text
  (:func:`~apps.records.formula_safety.is_active_text`) also gets Excel's
  quote-prefix style. Numbers, dates and booleans are typed cells. Appending
  keeps everything openpyxl can round-trip, including existing formulas.
* **CSV** (:func:`write_csv`, here) — active text gets a protective leading
  apostrophe. In a CSV file the apostrophe is part of the value and may be
  visible; the receipt says so.

Both writers take the sheet's columns from
:func:`apps.records.headings.resolve_columns` and follow the cell rules of
:mod:`apps.records.sheet_cells`: characters a format cannot hold are cleaned,
not fatal, and counted in ``cleaned_cells``. They write to a temporary file in
the target folder and move it into place (:mod:`apps.records.sheet_files`): a
failure never leaves a half-written file, and an existing file stays
untouched. Bad input raises :class:`SheetWriteError` with a code from a closed
set, before anything is written. Every write returns a :class:`SheetReceipt`
(:mod:`apps.records.sheet_receipts`) whose :meth:`~SheetReceipt.message` is
ready for the chat.

This module is the door callers use: everything above is importable from it.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Final, Literal

from apps.records.formula_safety import is_active_text, protect_text
from apps.records.rows import Row
from apps.records.sheet_cells import (
    CELL_TEXT_LIMIT,
    EARLIEST_SHEET_DATE,
    LARGEST_EXACT_INTEGER,
    CellTally,
    check_text_length,
    clean_cell_text,
    merge_notices,
    normalize_value,
    plan_sheet_columns,
    storable_text,
    text_length,
    unsupported_value,
)
from apps.records.sheet_files import atomic_replace, checked_target
from apps.records.sheet_receipts import (
    SHEET_WRITE_ERROR_CODES,
    SheetFormat,
    SheetReceipt,
    SheetWriteError,
    SheetWriteErrorCode,
)
from apps.records.sheet_xlsx import XLSX_SHEET_TITLE, XLSX_SUFFIX, TextCellFactory, write_xlsx

# UTF-8 with a byte order mark: Excel reads accented text correctly only then.
CSV_ENCODING: Final = "utf-8-sig"
CsvDelimiter = Literal[",", ";", "\t"]


def _plain_number(value: Decimal) -> str:
    # "f" never uses an exponent: 1E+3 → "1000", 1E-7 → "0.0000001".
    return format(value, "f")


def _csv_cell(value: object, tally: CellTally, row_number: int, heading: str) -> str:
    value = normalize_value(value, row_number, heading)
    if value is None:
        return ""
    if isinstance(value, str):
        value = storable_text(value, "csv", tally, row_number, heading)
        if is_active_text(value):
            tally.protected += 1
            return protect_text(value)
        return value
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        # repr is the shortest text that reads back as the same float.
        return _plain_number(Decimal(repr(value)))
    if isinstance(value, Decimal):
        return _plain_number(value)
    return value.isoformat()


def write_csv(
    rows: Sequence[Row],
    path: str | os.PathLike[str],
    headings: Sequence[str] | None = None,
    *,
    schema: Sequence[str] | None = None,
    bindings: Mapping[str, str] | None = None,
    notices: Sequence[str] = (),
    delimiter: CsvDelimiter = ",",
) -> SheetReceipt:
    """Write ``rows`` to a CSV file at ``path``; active text gets a leading apostrophe.

    UTF-8 with a byte order mark (Excel reads accented text correctly only
    then), ``csv.QUOTE_MINIMAL``, CRLF line ends, a header row of headings.
    Active text (headings included) is written as ``protect_text(value)``: the
    apostrophe is part of the value and may be visible, and the receipt says
    so. Numbers are written without exponent (Decimal keeps its digits, a
    float its shortest exact form), dates and datetimes as ISO 8601 (aware
    datetimes with their offset), booleans as ``TRUE``/``FALSE``, ``None``
    as an empty field. ``delimiter=";"`` suits spreadsheets set to Italian,
    whose list separator is the semicolon.

    Raises :class:`SheetWriteError` before writing anything; the file is
    replaced atomically.
    """
    target = checked_target(path, None)
    plan = plan_sheet_columns(rows, headings, schema=schema, bindings=bindings)
    tally = CellTally()
    labels = [column.heading for column in plan.columns]
    keys = [column.key for column in plan.columns]
    # No columns at all (no rows, no headings): no header line either.
    lines = [[_csv_cell(label, tally, 0, label) for label in labels]] if labels else []
    for row_number, row in enumerate(rows, 1):
        lines.append(
            [
                _csv_cell(None if key is None else row.get(key), tally, row_number, label)
                for key, label in zip(keys, labels, strict=True)
            ]
        )
    with atomic_replace(target) as temporary, open(temporary, "w", encoding=CSV_ENCODING, newline="") as handle:
        csv.writer(handle, delimiter=delimiter, quoting=csv.QUOTE_MINIMAL).writerows(lines)
    return SheetReceipt(
        path=str(target),
        format="csv",
        rows_written=len(rows),
        protected_cells=tally.protected,
        columns=tuple(labels),
        notices=merge_notices(plan.notices, notices),
        cleaned_cells=tally.cleaned,
    )


__all__ = [
    "CELL_TEXT_LIMIT",
    "CSV_ENCODING",
    "EARLIEST_SHEET_DATE",
    "LARGEST_EXACT_INTEGER",
    "SHEET_WRITE_ERROR_CODES",
    "XLSX_SHEET_TITLE",
    "XLSX_SUFFIX",
    "CellTally",
    "CsvDelimiter",
    "SheetFormat",
    "SheetReceipt",
    "SheetWriteError",
    "SheetWriteErrorCode",
    "TextCellFactory",
    "check_text_length",
    "clean_cell_text",
    "merge_notices",
    "normalize_value",
    "plan_sheet_columns",
    "text_length",
    "unsupported_value",
    "write_csv",
    "write_xlsx",
]
