"""The XLSX writer: :func:`write_xlsx`, a new workbook or rows appended to an existing one.

Values supplied as data never become formulas. Text is stored as text
cells, whatever it looks like; text that a spreadsheet would evaluate
(:func:`~apps.records.sheets.formula_safety.is_active_text`) is stored unchanged and
additionally marked with Excel's own "quote prefix" style, so that editing the
cell later keeps it text. Numbers, dates and booleans are typed cells; dates
carry a date number format. Appending keeps everything openpyxl can
round-trip, including existing formulas, and refuses a workbook whose content
it would lose.

Cells follow :mod:`apps.records.sheets.cells`; the file is written through
:func:`apps.records.sheets.files.atomic_replace`. Every check runs before
openpyxl writes anything.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import warnings
import zipfile
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any, Final, NamedTuple

from openpyxl import Workbook, load_workbook
from openpyxl.cell import WriteOnlyCell

from apps.records.headings import AmbiguousHeading, ColumnPlan, match_heading
from apps.records.rows import Row
from apps.records.sheets.cells import (
    CELL_TEXT_LIMIT,
    EARLIEST_SHEET_DATE,
    LARGEST_EXACT_INTEGER,
    CellTally,
    merge_notices,
    normalize_value,
    plan_sheet_columns,
    storable_text,
)
from apps.records.sheets.files import atomic_replace, checked_target
from apps.records.sheets.formula_safety import is_active_text
from apps.records.sheets.receipts import SheetReceipt, SheetWriteError, count_noun

XLSX_SUFFIX: Final = ".xlsx"
XLSX_SHEET_TITLE: Final = "Sheet1"
# openpyxl turns these strings into error cells unless told they are text.
_ERROR_CODES: Final = frozenset({"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A"})


class _Text(NamedTuple):
    """Text openpyxl must store as a string cell, whatever it looks like."""

    text: str
    quote_prefix: bool


TextCellFactory = Callable[[str, bool], object]


def _xlsx_cell(value: object, tally: CellTally, row_number: int, heading: str, text_cell: TextCellFactory) -> object:
    """One value as openpyxl should receive it (the complete rule; see _xlsx_rows for the fast path)."""
    value = normalize_value(value, row_number, heading)
    if isinstance(value, str):
        value = storable_text(value, "xlsx", tally, row_number, heading)
        if not value:
            return None
        if is_active_text(value):
            tally.protected += 1
            return text_cell(value, True)
        if value in _ERROR_CODES:
            return text_cell(value, False)
        return value
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and not -LARGEST_EXACT_INTEGER <= value <= LARGEST_EXACT_INTEGER:
        tally.long_integers += 1
        return str(value)
    if isinstance(value, dt.date):
        day = value.date() if isinstance(value, dt.datetime) else value
        if day < EARLIEST_SHEET_DATE:
            tally.early_dates += 1
            return value.isoformat()
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        # Excel cells have no time zone: keep the wall-clock time the source showed.
        return value.replace(tzinfo=None)
    return value


def _xlsx_rows(
    rows: Sequence[Row],
    keys: Sequence[str | None],
    headings: Sequence[str],
    tally: CellTally,
    text_cell: TextCellFactory,
) -> list[list[object]]:
    """Every row as openpyxl values. The hot loop of the writer: the common
    cases (printable text starting with a letter or digit, exact ints and
    floats, dates, booleans, empties) pass straight through; everything else
    goes through :func:`_xlsx_cell`."""
    prepared: list[list[object]] = []
    short_text = CELL_TEXT_LIMIT // 2
    exact = LARGEST_EXACT_INTEGER
    earliest = EARLIEST_SHEET_DATE
    columns = list(zip(keys, headings, strict=True))
    for row_number, row in enumerate(rows, 1):
        get = row.get
        cells: list[object] = []
        append = cells.append
        for key, heading in columns:
            value: Any = None if key is None else get(key)
            kind = type(value)
            if kind is str:
                if value[:1].isalnum() and value.isprintable() and len(value) <= short_text:
                    append(value)
                    continue
            elif value is None or kind is bool:
                append(value)
                continue
            elif kind is int:
                if -exact <= value <= exact:
                    append(value)
                    continue
            elif kind is float:
                if value - value == 0.0:  # finite: inf - inf and nan - nan are nan
                    append(value)
                    continue
            elif kind is Decimal:
                if value.is_finite():
                    append(value)
                    continue
            elif kind is dt.date and value >= earliest:
                append(value)
                continue
            append(_xlsx_cell(value, tally, row_number, heading, text_cell))
        prepared.append(cells)
    return prepared


# Package parts openpyxl drops when it rewrites a workbook.
_LOSSY_PARTS: Final = re.compile(
    r"xl/(drawings/drawing\d+\.xml|charts/|media/|embeddings/|activeX/|ctrlProps/|vbaProject\.bin"
    r"|slicers/|slicerCaches/|timelines/|timelineCaches/)",
    re.IGNORECASE,
)
# openpyxl's own warnings when it is about to drop content.
_LOSS_WARNING: Final = re.compile(r"remov|discard|dropp|lost", re.IGNORECASE)


def _open_for_append(target: Path) -> Any:
    try:
        with zipfile.ZipFile(target) as package:
            lossy = sorted({match.group(1) for name in package.namelist() if (match := _LOSSY_PARTS.match(name))})
    except (zipfile.BadZipFile, OSError) as exc:
        raise SheetWriteError("unreadable_workbook", f"{target.name!r} is not a readable .xlsx workbook") from exc
    if lossy:
        raise SheetWriteError(
            "unsupported_workbook",
            f"{target.name!r} has charts, images, controls or macros that appending would lose; "
            "write the rows to a new file instead",
        )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            workbook = load_workbook(target)
        # openpyxl raises an open set of exception types for a damaged package.
        except Exception as exc:
            raise SheetWriteError("unreadable_workbook", f"{target.name!r} is not a readable .xlsx workbook") from exc
    if any(_LOSS_WARNING.search(str(warning.message)) for warning in caught):
        raise SheetWriteError(
            "unsupported_workbook",
            f"{target.name!r} has content that appending would lose; write the rows to a new file instead",
        )
    return workbook


def _last_used_row(worksheet: Any) -> int:
    for row_index in range(worksheet.max_row, 0, -1):
        values = next(worksheet.iter_rows(min_row=row_index, max_row=row_index, values_only=True))
        if any(value is not None for value in values):
            return int(row_index)
    return 0


def _quoted(labels: Sequence[str]) -> str:
    return ", ".join(repr(label) for label in labels)


def _place_columns(plan: ColumnPlan, worksheet: Any, has_header: bool) -> tuple[list[int], list[str], list[str]]:
    """Sheet column of each plan column, headings to add, existing headings left empty.

    Each plan heading is matched to the existing header with the same rules as
    headings to fields (exact, case and spaces, punctuation and accents,
    vocabulary kind); a match that is not unique is an error, never a guess.
    """
    labels = [column.heading for column in plan.columns]
    if not has_header:
        return list(range(1, len(labels) + 1)), labels, []
    existing: dict[str, list[int]] = {}
    header = next(worksheet.iter_rows(min_row=1, max_row=1, values_only=True))
    for index, value in enumerate(header, 1):
        label = "" if value is None else str(value).strip()
        if label:
            existing.setdefault(label, []).append(index)
    positions: list[int] = []
    added: list[str] = []
    claimed: dict[str, str] = {}
    next_free = int(worksheet.max_column) + 1
    for label in labels:
        try:
            found = match_heading(label, list(existing))
        except AmbiguousHeading as exc:
            raise SheetWriteError(
                "ambiguous_heading", f"heading {label!r} matches several existing columns: {_quoted(exc.candidates)}"
            ) from exc
        if found is None:
            positions.append(next_free)
            added.append(label)
            next_free += 1
            continue
        if len(existing[found]) > 1:
            raise SheetWriteError("ambiguous_heading", f"the existing header has {found!r} more than once")
        if found in claimed:
            raise SheetWriteError(
                "ambiguous_heading", f"headings {claimed[found]!r} and {label!r} both match the existing {found!r}"
            )
        claimed[found] = label
        positions.append(existing[found][0])
    idle = [label for label in existing if label not in claimed]
    return positions, added, idle


def _append_xlsx(
    target: Path, plan: ColumnPlan, rows: Sequence[Row], tally: CellTally
) -> tuple[list[str], str, list[str]]:
    """Append to the first worksheet of an existing workbook; return columns, location, notices."""
    workbook = _open_for_append(target)
    worksheet = workbook.worksheets[0]
    last_used = _last_used_row(worksheet)
    header_values = next(worksheet.iter_rows(min_row=1, max_row=1, values_only=True)) if last_used else ()
    has_header = any(value is not None and str(value).strip() for value in header_values)
    positions, added, idle = _place_columns(plan, worksheet, has_header)
    labels = [column.heading for column in plan.columns]
    prepared = _xlsx_rows(rows, [column.key for column in plan.columns], labels, tally, _Text)
    header_cells = {positions[labels.index(label)]: _xlsx_cell(label, tally, 0, label, _Text) for label in added}

    def put(row_index: int, column_index: int, value: object) -> None:
        if value is None:
            return
        cell = worksheet.cell(row=row_index, column=column_index)
        if type(value) is _Text:
            cell.value = value.text
            cell.data_type = "s"  # never "f", whatever the text starts with
            if value.quote_prefix:
                cell.quotePrefix = True
        else:
            cell.value = value

    for column_index, value in header_cells.items():
        put(1, column_index, value)
    first = max(last_used, 1) + 1
    for offset, values in enumerate(prepared):
        for column_index, value in zip(positions, values, strict=True):
            put(first + offset, column_index, value)

    title = worksheet.title
    notices: list[str] = []
    if added and has_header:
        notices.append(f"Added {count_noun(len(added), 'column')} to the header of sheet {title!r}: {_quoted(added)}.")
    if idle and rows:
        notices.append(f"Existing columns of sheet {title!r} left empty in the new rows: {_quoted(idle)}.")
    location = f"sheet {title!r}, rows {first}-{first + len(prepared) - 1}" if prepared else f"sheet {title!r}"
    with atomic_replace(target) as temporary:
        workbook.save(temporary)
    columns = [
        str(value).strip()
        for value in next(worksheet.iter_rows(min_row=1, max_row=1, values_only=True))
        if value is not None and str(value).strip()
    ]
    return columns, location, notices


def _write_new_xlsx(target: Path, plan: ColumnPlan, rows: Sequence[Row], tally: CellTally) -> None:
    workbook = Workbook(write_only=True)
    worksheet = workbook.create_sheet(XLSX_SHEET_TITLE)

    def text_cell(text: str, quote_prefix: bool) -> object:
        cell = WriteOnlyCell(worksheet, text)
        cell.data_type = "s"  # never "f", whatever the text starts with
        if quote_prefix:
            cell.quotePrefix = True
        return cell

    labels = [column.heading for column in plan.columns]
    header = [_xlsx_cell(label, tally, 0, label, text_cell) for label in labels]
    prepared = _xlsx_rows(rows, [column.key for column in plan.columns], labels, tally, text_cell)
    # Everything is validated; only now does openpyxl start writing.
    with atomic_replace(target) as temporary:
        worksheet.append(header)
        for values in prepared:
            worksheet.append(values)
        workbook.save(temporary)


def write_xlsx(
    rows: Sequence[Row],
    path: str | os.PathLike[str],
    headings: Sequence[str] | None = None,
    append: bool = False,
    *,
    schema: Sequence[str] | None = None,
    bindings: Mapping[str, str] | None = None,
    notices: Sequence[str] = (),
) -> SheetReceipt:
    """Write ``rows`` to the ``.xlsx`` file at ``path``; never a formula from data.

    Columns come from :func:`~apps.records.headings.resolve_columns`
    (``headings``, ``schema``, ``bindings``). Text is stored as text cells —
    active text unchanged, with Excel's quote-prefix style — numbers, dates
    (with a date format) and booleans as typed cells, ``None`` as an empty
    cell. Aware datetimes keep the wall-clock time of their own zone (cells
    have no zone); integers beyond 2**53 and dates before 1900 are written as
    text, with a notice.

    ``append=True`` on an existing file adds the rows after the last used row
    of its first worksheet. Row 1 is the header: each heading is matched to it
    with the heading rules, the existing order wins, existing headings without
    a column get empty cells, and new headings are added at the end of the
    header (with a notice). Everything else in the workbook that openpyxl can
    keep survives, existing formulas included; a workbook with charts, images,
    controls or macros is refused (``unsupported_workbook``) rather than
    damaged. ``append=True`` on a missing file creates it.

    Raises :class:`SheetWriteError` before writing anything; the file is
    replaced atomically, so it is either the old file or the complete new one.
    """
    target = checked_target(path, XLSX_SUFFIX)
    plan = plan_sheet_columns(rows, headings, schema=schema, bindings=bindings)
    tally = CellTally()
    writer_notices: list[str] = []
    location = ""
    if append and target.exists():
        columns, location, writer_notices = _append_xlsx(target, plan, rows, tally)
    else:
        _write_new_xlsx(target, plan, rows, tally)
        columns = [column.heading for column in plan.columns]
    return SheetReceipt(
        path=str(target),
        format="xlsx",
        rows_written=len(rows),
        protected_cells=tally.protected,
        columns=tuple(columns),
        notices=merge_notices(plan.notices, notices, writer_notices, tally.notices()),
        cleaned_cells=tally.cleaned,
        location=location,
    )
