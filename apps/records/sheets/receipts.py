"""What a sheet write reports: a :class:`SheetReceipt`, or a :class:`SheetWriteError`.

Contract shared by every writer (XLSX, CSV, Google Sheets):

* A failed write raises :class:`SheetWriteError` with a ``code`` from the
  closed set :data:`SHEET_WRITE_ERROR_CODES`, before anything is written; its
  message names rows, headings and file names, never cell contents or
  response bodies.
* A successful write returns a :class:`SheetReceipt` whose
  :meth:`~SheetReceipt.message` is ready for the chat: it names the file (its
  name only, never its folder), counts rows, protected and cleaned cells, and
  carries the notices.

:func:`count_noun` and :func:`was_or_were` are the wording every sheet notice
uses for counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, get_args

SheetFormat = Literal["xlsx", "csv", "google_sheets"]
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
        sentences = [f"Wrote {count_noun(self.rows_written, 'row')} to {where}."]
        if self.protected_cells:
            were = was_or_were(self.protected_cells)
            cells = count_noun(self.protected_cells, "cell")
            if self.format == "xlsx":
                how = "stored as plain text, never as a formula"
            elif self.format == "csv":
                how = "protected with a leading apostrophe, which is part of the value and may be visible"
            else:
                how = "protected with a leading apostrophe, which stays visible in the sheet"
            sentences.append(f"{cells} starting with =, +, - or @ {were} {how}.")
        if self.cleaned_cells:
            sentences.append(
                f"{count_noun(self.cleaned_cells, 'cell')} held characters a spreadsheet cannot store "
                "(control characters or damaged text); they were removed or replaced with \ufffd."
            )
        return "\n".join([" ".join(sentences), *self.notices])
