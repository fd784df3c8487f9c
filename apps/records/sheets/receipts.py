"""What a sheet write reports: a :class:`SheetReceipt`, or a :class:`SheetWriteError`.

Contract shared by every writer (XLSX, CSV, Google Sheets):

* A failed write raises :class:`SheetWriteError` with a ``code`` from the
  closed set :data:`SHEET_WRITE_ERROR_CODES`, before anything is written; its
  message names rows, headings and file names, never cell contents or
  response bodies.
* A successful write returns a :class:`SheetReceipt` whose
  :meth:`~SheetReceipt.message` is ready for the chat: it names the file (its
  name only, never its folder), says how a CSV file was written (every field
  in double quotes, and the separator), counts rows, protected and cleaned
  cells, and carries the notices.

:func:`count_noun` and :func:`was_or_were` are the wording every sheet notice
uses for counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, get_args

SheetFormat = Literal["xlsx", "csv", "google_sheets"]
CsvDelimiter = Literal[",", ";", "\t"]
_DELIMITER_WORDS: Final[Mapping[CsvDelimiter, str]] = {",": "commas", ";": "semicolons", "\t": "tabs"}
# The characters that make text active (formula_safety.FORMULA_TRIGGERS, by their ASCII forms).
_TRIGGER_WORDS: Final = "=, +, -, @, | or %"
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


def count_noun(number: int, noun: str) -> str:
    """``"1 row"``, ``"3 rows"``: ``number`` with ``noun`` in the right number."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def was_or_were(number: int) -> str:
    """The verb that agrees with ``number``."""
    return "was" if number == 1 else "were"


@dataclass(frozen=True)
class SheetReceipt:
    """What a sheet write did, for the chat and for the caller.

    ``protected_cells`` counts the cells (headings included) whose text was
    protected: active text stored as text with Excel's quote-prefix mark in
    XLSX, prefixed with an apostrophe in Google Sheets; in CSV, text with an
    apostrophe put before each trigger where any common separator could start
    a cell (:func:`~apps.records.sheets.formula_safety.protect_csv_text`).
    ``cleaned_cells`` counts cells whose text lost or changed characters the
    format cannot hold. ``notices`` carries the column plan's notices, the
    caller's (unreadable dates, merges) and the writer's. ``location`` says
    where inside the file the rows went, when it matters. ``delimiter`` is
    the field separator of a CSV file, whose fields are all in double quotes.
    """

    path: str
    format: SheetFormat
    rows_written: int
    protected_cells: int
    columns: tuple[str, ...]
    notices: tuple[str, ...] = ()
    cleaned_cells: int = 0
    location: str = ""
    delimiter: CsvDelimiter | None = None

    def message(self) -> str:
        """A chat-ready summary: rows written, how a CSV was written, protections, cleaning, notices."""
        # For files, the name only: the server's folders are nobody's business.
        where = f"the Google Sheet {self.path}" if self.format == "google_sheets" else Path(self.path).name
        if self.location:
            where += f" ({self.location})"
        sentences = [f"Wrote {count_noun(self.rows_written, 'row')} to {where}."]
        if self.delimiter is not None:
            sentences.append(f"Every field is in double quotes, separated by {_DELIMITER_WORDS[self.delimiter]}.")
        if self.protected_cells:
            sentences.append(self._protection_sentence())
        if self.cleaned_cells:
            sentences.append(
                f"{count_noun(self.cleaned_cells, 'cell')} held characters a spreadsheet cannot store "
                "(control characters or damaged text); they were removed or replaced with \ufffd."
            )
        return "\n".join([" ".join(sentences), *self.notices])

    def _protection_sentence(self) -> str:
        cells = count_noun(self.protected_cells, "cell")
        if self.format == "csv":
            return (
                f"{cells} held {_TRIGGER_WORDS} where a spreadsheet could start a cell (at the start, or after "
                "a comma, semicolon, tab, | or line break inside the text); an apostrophe was put before each, "
                "which is part of the value and may be visible."
            )
        if self.format == "xlsx":
            how = "stored as plain text, never as a formula"
        else:
            how = "protected with a leading apostrophe, which stays visible in the sheet"
        return f"{cells} starting with {_TRIGGER_WORDS} {was_or_were(self.protected_cells)} {how}."
