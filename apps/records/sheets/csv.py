"""The CSV writer: :func:`write_csv`, text that a spreadsheet would evaluate made inert.

Every field is written in double quotes, and text gets an apostrophe before
each formula trigger where a reader could start a cell — at the start of the
text, and after every comma, semicolon, tab, ``|`` or line break inside it
(:func:`~apps.records.sheets.formula_safety.protect_csv_text`) — so that the
file stays inert whichever of those separators a spreadsheet splits it on:
Excel in Italian, German or French splits on semicolons whatever the file
was written with. The apostrophe is part of the value and may be visible;
:func:`~apps.records.sheets.formula_safety.restore_csv_text` takes it away
exactly, and the receipt says how the file was written. No ``sep=`` line is
written: Excel honours it but then ignores the byte order mark (accented
text comes out garbled), and other programs read it as a row of data.

Like the XLSX writer (:mod:`apps.records.sheets.xlsx`), it takes the sheet's
columns from :func:`apps.records.headings.resolve_columns` and follows the
cell rules of :mod:`apps.records.sheets.cells`: characters a format cannot
hold are cleaned, not fatal, and counted in ``cleaned_cells``. It writes to a
temporary file in the target folder and moves it into place
(:mod:`apps.records.sheets.files`): a failure never leaves a half-written
file, and an existing file stays untouched. Bad input raises
:class:`~apps.records.sheets.receipts.SheetWriteError` with a code from a
closed set, before anything is written. Every write returns a
:class:`~apps.records.sheets.receipts.SheetReceipt` whose ``message()`` is
ready for the chat.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Final

from apps.records.rows import Row
from apps.records.sheets.cells import (
    CellTally,
    merge_notices,
    normalize_value,
    plan_sheet_columns,
    storable_text,
)
from apps.records.sheets.files import atomic_replace, checked_target
from apps.records.sheets.formula_safety import protect_csv_text
from apps.records.sheets.receipts import CsvDelimiter, SheetReceipt

# UTF-8 with a byte order mark: Excel reads accented text correctly only then.
CSV_ENCODING: Final = "utf-8-sig"


def _plain_number(value: Decimal) -> str:
    # "f" never uses an exponent: 1E+3 → "1000", 1E-7 → "0.0000001".
    return format(value, "f")


def _csv_cell(value: object, tally: CellTally, row_number: int, heading: str) -> str:
    value = normalize_value(value, row_number, heading)
    if value is None:
        return ""
    if isinstance(value, str):
        value = storable_text(value, "csv", tally, row_number, heading)
        protected = protect_csv_text(value)
        if protected != value:
            tally.protected += 1
        return protected
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
    """Write ``rows`` to a CSV file at ``path``; no reading of it evaluates a value.

    UTF-8 with a byte order mark (Excel reads accented text correctly only
    then), every field in double quotes (``csv.QUOTE_ALL``), CRLF line ends,
    a header row of headings. Text (headings included) is written as
    ``protect_csv_text(value)``: an apostrophe before each formula trigger at
    its start or after a comma, semicolon, tab, ``|`` or line break inside
    it, so that no cell is active whichever of those separators the file is
    read with. The apostrophe is part of the value and may be visible;
    ``restore_csv_text`` removes it exactly; the receipt counts the cells and
    says how the file was written. Numbers are written without exponent
    (Decimal keeps its digits, a float its shortest exact form), dates and
    datetimes as ISO 8601 (aware datetimes with their offset), booleans as
    ``TRUE``/``FALSE``, ``None`` as an empty field. ``delimiter=";"`` suits
    spreadsheets set to Italian, whose list separator is the semicolon.

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
        csv.writer(handle, delimiter=delimiter, quoting=csv.QUOTE_ALL).writerows(lines)
    return SheetReceipt(
        path=str(target),
        format="csv",
        rows_written=len(rows),
        protected_cells=tally.protected,
        columns=tuple(labels),
        notices=merge_notices(plan.notices, notices),
        cleaned_cells=tally.cleaned,
        delimiter=delimiter,
    )
