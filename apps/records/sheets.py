"""Spreadsheets that never run data: XLSX and CSV writers with receipts.

Values supplied as data never become formulas:

* **XLSX** — text is stored as text cells, whatever it looks like. Text that a
  spreadsheet would evaluate (:func:`~apps.records.formula_safety.is_active_text`)
  is stored unchanged and additionally marked with Excel's own "quote prefix"
  style, so that editing the cell later keeps it text. Numbers, dates and
  booleans are typed cells; dates carry a date number format. Appending keeps
  everything openpyxl can round-trip, including existing formulas.
* **CSV** — active text gets a protective leading apostrophe. In a CSV file
  the apostrophe is part of the value and may be visible; the receipt says so.

Both writers take the sheet's columns from
:func:`apps.records.headings.resolve_columns`, write to a temporary file in the
target folder and move it into place with ``os.replace``: a failure never
leaves a half-written file, and an existing file stays untouched. Bad input
raises :class:`SheetWriteError` with a code from a closed set, before anything
is written. Every write returns a :class:`SheetReceipt` whose
:meth:`~SheetReceipt.message` is ready for the chat.

Characters a spreadsheet cannot hold are cleaned, not fatal, and counted in
``cleaned_cells``: one unreadable character should not cost the user the whole
sheet. XLSX (XML) cannot hold C0 control characters other than tab and line
feed, ``U+FFFE``/``U+FFFF`` or lone surrogates: controls are removed, CR and
CRLF become LF (Excel's own line break; XML readers turn CR into LF anyway),
and lone surrogates become U+FFFD. CSV keeps every character that UTF-8 can
encode; only lone surrogates become U+FFFD.
"""

from __future__ import annotations

import csv
import datetime as dt
import math
import os
import re
import stat
import tempfile
import warnings
import zipfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, Final, Literal, NamedTuple, get_args

from openpyxl import Workbook, load_workbook
from openpyxl.cell import WriteOnlyCell

from apps.records.formula_safety import is_active_text, protect_text
from apps.records.headings import AmbiguousHeading, ColumnPlan, InvalidHeadings, match_heading, resolve_columns
from apps.records.rows import CellValue, Row

# Excel's limit for one cell, counted in UTF-16 code units as Excel counts.
CELL_TEXT_LIMIT: Final = 32_767
# Integers beyond 2**53 lose digits in a spreadsheet's floating-point numbers.
LARGEST_EXACT_INTEGER: Final = 2**53
# Excel cannot show dates before 1900 as dates.
EARLIEST_SHEET_DATE: Final = dt.date(1900, 1, 1)
# UTF-8 with a byte order mark: Excel reads accented text correctly only then.
CSV_ENCODING: Final = "utf-8-sig"
XLSX_SUFFIX: Final = ".xlsx"
XLSX_SHEET_TITLE: Final = "Sheet1"
# openpyxl turns these strings into error cells unless told they are text.
_ERROR_CODES: Final = frozenset({"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A"})

SheetFormat = Literal["xlsx", "csv", "google_sheets"]
CsvDelimiter = Literal[",", ";", "\t"]
SheetWriteErrorCode = Literal[
    "cell_too_long",  # a text cell over the format's limit
    "unsupported_value",  # a value of a type the sheet cannot hold, or a NaN/infinite number
    "invalid_headings",  # empty or repeated headings, bindings without headings
    "ambiguous_heading",  # a heading (or an existing header) could show several columns
    "invalid_target",  # an empty spreadsheet id or range
    "unsupported_extension",  # write_xlsx to a name not ending in .xlsx
    "folder_missing",  # the target's folder does not exist
    "path_is_directory",  # the target is a folder
    "unreadable_workbook",  # append to a file that is not a readable .xlsx workbook
    "unsupported_workbook",  # append would lose content openpyxl cannot keep
    "io_error",  # the operating system refused the write
    "google_api_error",  # Google Sheets answered with an HTTP error (see ``status``)
    "google_auth_error",  # the explicit credentials could not be used
    "google_unreachable",  # Google Sheets could not be reached
]
SHEET_WRITE_ERROR_CODES: Final = frozenset(get_args(SheetWriteErrorCode))


class SheetWriteError(Exception):
    """A sheet could not be written; nothing was written.

    ``code`` comes from the closed set :data:`SHEET_WRITE_ERROR_CODES`.
    ``message`` names rows, headings and file names, never cell contents or
    response bodies. ``status`` is the HTTP status for ``google_api_error``.
    """

    def __init__(self, code: SheetWriteErrorCode, message: str, *, status: int | None = None) -> None:
        if code not in SHEET_WRITE_ERROR_CODES:
            raise ValueError(f"unknown sheet error code {code!r}")
        self.code: SheetWriteErrorCode = code
        self.message = message
        self.status = status
        super().__init__(f"{code}: {message}")


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _were(number: int) -> str:
    return "was" if number == 1 else "were"


@dataclass(frozen=True)
class SheetReceipt:
    """What a sheet write did, for the chat and for the caller.

    ``protected_cells`` counts the active-text cells (headings included) that
    were protected: stored as text in XLSX, prefixed with an apostrophe in CSV
    and Google Sheets. ``cleaned_cells`` counts cells whose text lost or
    changed characters the format cannot hold. ``notices`` carries the column
    plan's notices, the caller's (unreadable dates, merges) and the writer's.
    ``location`` says where inside the file the rows went, when it matters.
    """

    path: str
    format: SheetFormat
    rows_written: int
    protected_cells: int
    columns: tuple[str, ...]
    notices: tuple[str, ...] = ()
    cleaned_cells: int = 0
    location: str = ""

    def message(self) -> str:
        """A chat-ready summary: rows written, protections, cleaning, notices."""
        # For files, the name only: the server's folders are nobody's business.
        where = f"the Google Sheet {self.path}" if self.format == "google_sheets" else Path(self.path).name
        if self.location:
            where += f" ({self.location})"
        sentences = [f"Wrote {_count(self.rows_written, 'row')} to {where}."]
        if self.protected_cells:
            were = _were(self.protected_cells)
            cells = _count(self.protected_cells, "cell")
            if self.format == "xlsx":
                how = "stored as plain text, never as a formula"
            elif self.format == "csv":
                how = "protected with a leading apostrophe, which is part of the value and may be visible"
            else:
                how = "protected with a leading apostrophe, which stays visible in the sheet"
            sentences.append(f"{cells} starting with =, +, - or @ {were} {how}.")
        if self.cleaned_cells:
            sentences.append(
                f"{_count(self.cleaned_cells, 'cell')} held characters a spreadsheet cannot store "
                "(control characters or damaged text); they were removed or replaced with \ufffd."
            )
        return "\n".join([" ".join(sentences), *self.notices])


# --- shared cell rules --------------------------------------------------------


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
                f"{_count(self.long_integers, 'whole number')} too long for a spreadsheet's number precision "
                f"{_were(self.long_integers)} written as text, so no digit is lost."
            )
        if self.early_dates:
            notices.append(
                f"{_count(self.early_dates, 'date')} before 1900 {_were(self.early_dates)} written as ISO 8601 text: "
                "spreadsheets cannot show them as dates."
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


# --- files --------------------------------------------------------------------


def _target(path: str | os.PathLike[str], suffix: str | None) -> Path:
    target = Path(os.fspath(path))
    if suffix is not None and target.suffix.lower() != suffix:
        raise SheetWriteError("unsupported_extension", f"{target.name!r} does not end in {suffix}")
    if target.is_dir():
        raise SheetWriteError("path_is_directory", f"{target.name!r} is a folder, not a file")
    if not target.parent.is_dir():
        raise SheetWriteError("folder_missing", f"the folder for {target.name!r} does not exist")
    return target


def _io_error(target: Path, exc: OSError) -> SheetWriteError:
    return SheetWriteError("io_error", f"could not write {target.name!r}: {exc.strerror or type(exc).__name__}")


@contextmanager
def _atomic_replace(target: Path) -> Iterator[Path]:
    """A temporary path next to ``target``; moved over it only if the block succeeds.

    The temporary file lives in the same folder so ``os.replace`` is atomic.
    An existing target keeps its permissions; a new one is private to the
    service user (mkstemp's 0600). A symbolic link at ``target`` is replaced,
    never followed.
    """
    try:
        handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise _io_error(target, exc) from exc
    os.close(handle)
    temporary = Path(name)
    try:
        yield temporary
        if target.exists():
            os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))
        with open(temporary, "rb") as written:
            os.fsync(written.fileno())
        os.replace(temporary, target)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise _io_error(target, exc) from exc
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    try:
        folder = os.open(target.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(folder)
    except OSError:
        pass  # some filesystems cannot sync a folder; the file itself is synced
    finally:
        os.close(folder)


# --- XLSX ---------------------------------------------------------------------


class _Text(NamedTuple):
    """Text openpyxl must store as a string cell, whatever it looks like."""

    text: str
    quote_prefix: bool


TextCellFactory = Callable[[str, bool], object]


def _xlsx_cell(value: object, tally: CellTally, row_number: int, heading: str, text_cell: TextCellFactory) -> object:
    """One value as openpyxl should receive it (the complete rule; see _xlsx_rows for the fast path)."""
    value = normalize_value(value, row_number, heading)
    if isinstance(value, str):
        if _XLSX_UNSAFE.search(value) is not None:
            value = clean_cell_text(value, "xlsx")
            tally.cleaned += 1
        check_text_length(value, CELL_TEXT_LIMIT, row_number, heading)
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
        notices.append(f"Added {_count(len(added), 'column')} to the header of sheet {title!r}: {_quoted(added)}.")
    if idle and rows:
        notices.append(f"Existing columns of sheet {title!r} left empty in the new rows: {_quoted(idle)}.")
    location = f"sheet {title!r}, rows {first}-{first + len(prepared) - 1}" if prepared else f"sheet {title!r}"
    with _atomic_replace(target) as temporary:
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
    with _atomic_replace(target) as temporary:
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
    target = _target(path, XLSX_SUFFIX)
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


# --- CSV ----------------------------------------------------------------------


def _plain_number(value: Decimal) -> str:
    # "f" never uses an exponent: 1E+3 → "1000", 1E-7 → "0.0000001".
    return format(value, "f")


def _csv_cell(value: object, tally: CellTally, row_number: int, heading: str) -> str:
    value = normalize_value(value, row_number, heading)
    if value is None:
        return ""
    if isinstance(value, str):
        if _CSV_UNSAFE.search(value) is not None:
            value = clean_cell_text(value, "csv")
            tally.cleaned += 1
        check_text_length(value, CELL_TEXT_LIMIT, row_number, heading)
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
    target = _target(path, None)
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
    with _atomic_replace(target) as temporary, open(temporary, "w", encoding=CSV_ENCODING, newline="") as handle:
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
