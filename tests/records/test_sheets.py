"""Spreadsheets that never run data: active text, XLSX and CSV writers, receipts."""

from __future__ import annotations

import csv
import datetime as dt
import re
import stat
import sys
import unicodedata
import zipfile
from collections.abc import Iterator, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import Workbook, load_workbook
from openpyxl.chart import BarChart, Reference

from apps.records.rows import CellValue, Row
from apps.records.sheets.cells import CELL_TEXT_LIMIT
from apps.records.sheets.csv import CSV_ENCODING, write_csv
from apps.records.sheets.formula_safety import (
    FORMULA_TRIGGERS,
    PROTECTIVE_PREFIX,
    is_active_text,
    protect_text,
    restore_csv_text,
)
from apps.records.sheets.receipts import SHEET_WRITE_ERROR_CODES, SheetReceipt, SheetWriteError
from apps.records.sheets.xlsx import write_xlsx

ROME = dt.timezone(dt.timedelta(hours=2))

# --- active text ---------------------------------------------------------------

ACTIVE = [
    "=1+1",
    "=cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "+1+1",
    "-2+3",
    '=HYPERLINK("http://example.org","x")',
    "=",
    "@",
    "+",
    " =1+1",
    "\t=1+1",
    "\r=1+1",
    "\n=1+1",
    "\x00=1+1",
    "\x1b=1+1",
    "\x85=1+1",  # C1 control (NEL)
    "\xa0=1+1",  # no-break space
    "\u2003=1+1",  # em space
    "\u200b=1+1",  # zero-width space
    "\ufeff=1+1",  # byte order mark
    "\u202e=1+1",  # right-to-left override
    " \t\r\n\x00 @SUM(A1)",
    "\uff1d1+1",  # fullwidth equals
    "\uff0b1+1",  # fullwidth plus
    "\uff0d1+1",  # fullwidth hyphen-minus
    "\uff20SUM(A1)",  # fullwidth commercial at
    "\ufe661+1",  # small equals
    "+39 06 1234567",  # a phone number: a spreadsheet would evaluate it and show an error
    "+39",
    "+12.50",
    "- 12",  # a space after the sign is no longer a plain amount
    "-12 €",
    "-1e5",
    "--12",
    "-12.50\n=cmd|' /C calc'!A0",
    "-A1",
    "=mario@example.org",  # a valid address per RFC 5322, and a formula
    "@mario",
]

INERT = [
    "",
    "Ordinary text",
    "mario@example.org",
    "mario.rossi+fatture@example.org",
    "12",
    "12.50",
    "1.234,56",
    "-12",
    "-12.50",
    "-12,50",
    "-1.234,56",
    "-1,234.56",
    "-1.234.567,89",
    "-.5",
    "-",  # the placeholder for "no value"
    "  -12.50",
    "'=1+1",  # already protected
    "INV-20-005",
    "Totale: =12",
    "a=b",
    "#N/A",
    "(12.50)",
    "\u2212 12",  # the minus sign is not a trigger
    " ",
    "\t",
]


@pytest.mark.parametrize("value", ACTIVE)
def test_formula_triggers_are_active_even_after_invisible_characters(value: str) -> None:
    assert is_active_text(value)


@pytest.mark.parametrize("value", INERT)
def test_numbers_negative_amounts_addresses_and_ordinary_text_are_not_active(value: str) -> None:
    assert not is_active_text(value)


@pytest.mark.parametrize("value", ACTIVE)
def test_protection_is_one_leading_apostrophe_and_makes_text_inert(value: str) -> None:
    protected = protect_text(value)
    assert protected == PROTECTIVE_PREFIX + value
    assert not is_active_text(protected)
    assert protect_text(protected) == protected


@pytest.mark.parametrize("value", INERT)
def test_inert_text_is_never_changed_by_protection(value: str) -> None:
    assert protect_text(value) is value


def test_trigger_list_holds_every_character_that_normalises_to_a_trigger() -> None:
    expected = set()
    for code_point in range(sys.maxunicode + 1):
        if 0xD800 <= code_point <= 0xDFFF:
            continue
        char = chr(code_point)
        if unicodedata.normalize("NFKC", char)[:1] in {"=", "+", "-", "@", "|", "%"}:
            expected.add(char)
    assert expected == set(FORMULA_TRIGGERS)


def test_active_text_check_never_raises_on_lone_surrogates() -> None:
    assert is_active_text("\ud800=1")  # a surrogate is invisible: the trigger still counts
    assert not is_active_text("\ud800")


# --- an oracle independent of the implementation --------------------------------


def looks_evaluated(cell: str) -> bool:
    """What a spreadsheet would evaluate, written independently of formula_safety."""
    stripped = cell
    while stripped and (stripped[0].isspace() or unicodedata.category(stripped[0])[0] in "CZ"):
        stripped = stripped[1:]
    if not stripped or unicodedata.normalize("NFKC", stripped[0])[:1] not in {"=", "+", "-", "@", "|", "%"}:
        return False
    # Plain negative numbers stay as they are (a lone "-" too).
    return re.fullmatch(r"-[0-9.,]*", stripped) is None


# --- helpers ------------------------------------------------------------------


def read_csv(path: Path) -> list[list[str]]:
    with open(path, encoding=CSV_ENCODING, newline="") as handle:
        return list(csv.reader(handle))


def sheet_cells(path: Path) -> list[list[Any]]:
    worksheet = load_workbook(path).worksheets[0]
    return [list(row) for row in worksheet.iter_rows()]


def sheet_values(path: Path) -> list[list[Any]]:
    return [[cell.value for cell in row] for row in sheet_cells(path)]


def naive(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> dt.datetime:
    """The naive datetime openpyxl reads back: spreadsheet cells have no time zone."""
    return dt.datetime(year, month, day, hour, minute)  # noqa: DTZ001


def folder_listing(folder: Path) -> list[str]:
    return sorted(entry.name for entry in folder.iterdir())


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path


INVOICES: list[dict[str, CellValue]] = [
    {
        "Numero": "INV-20-005",
        "Importo": Decimal("-12.50"),
        "Descrizione": "=cmd|' /C calc'!A0",
        "Emessa": dt.date(2026, 9, 15),
        "Letta": dt.datetime(2026, 9, 15, 10, 30, tzinfo=ROME),
        "Pagata": True,
        "Quantità": 3,
        "Sconto": 0.1,
        "Contatto": "mario@example.org",
        "Note": "Merged with the detail page read 2",
    },
    {
        "Numero": "INV-200-05",
        "Importo": Decimal("1234.56"),
        "Descrizione": "+39 06 1234567",
        "Emessa": dt.date(2026, 8, 1),
        "Letta": None,
        "Pagata": False,
        "Quantità": -2,
        "Sconto": -12.5,
        "Contatto": "@fornitore",
        "Note": None,
    },
]


# --- XLSX ----------------------------------------------------------------------


def test_xlsx_stores_formula_looking_text_as_text_never_as_a_formula(folder: Path) -> None:
    path = folder / "invoices.xlsx"
    write_xlsx(INVOICES, path)
    cells = sheet_cells(path)
    assert all(cell.data_type != "f" for row in cells for cell in row)
    descriptions = [row[2] for row in cells[1:]]
    assert [cell.value for cell in descriptions] == ["=cmd|' /C calc'!A0", "+39 06 1234567"]
    assert all(cell.data_type == "s" and cell.quotePrefix for cell in descriptions)


def test_xlsx_numbers_dates_and_booleans_are_typed_cells(folder: Path) -> None:
    path = folder / "invoices.xlsx"
    write_xlsx(INVOICES, path)
    header, first, second = sheet_cells(path)
    assert [cell.value for cell in header] == list(INVOICES[0])
    assert (first[1].data_type, first[1].value) == ("n", -12.5)
    assert (first[6].data_type, first[6].value) == ("n", 3)
    assert (first[7].data_type, first[7].value) == ("n", 0.1)
    assert first[3].is_date and first[3].value == naive(2026, 9, 15)
    assert first[3].number_format == "yyyy-mm-dd"
    # An aware datetime keeps the wall-clock time its source showed.
    assert first[4].is_date and first[4].value == naive(2026, 9, 15, 10, 30)
    assert (first[5].data_type, first[5].value) == ("b", True)
    assert second[4].value is None
    assert second[9].value is None


def test_xlsx_note_column_passes_through_like_any_field(folder: Path) -> None:
    path = folder / "invoices.xlsx"
    receipt = write_xlsx(INVOICES, path)
    assert receipt.columns[-1] == "Note"
    assert sheet_values(path)[1][-1] == "Merged with the detail page read 2"


def test_xlsx_text_that_looks_like_an_error_code_stays_text(folder: Path) -> None:
    path = folder / "codes.xlsx"
    write_xlsx([{"a": "#N/A", "b": "#DIV/0!"}], path)
    _, row = sheet_cells(path)
    assert [(cell.value, cell.data_type) for cell in row] == [("#N/A", "s"), ("#DIV/0!", "s")]


def test_xlsx_receipt_counts_protected_cells_exactly_and_says_so(folder: Path) -> None:
    receipt = write_xlsx(INVOICES, folder / "invoices.xlsx")
    # "=cmd…", "+39…" and "@fornitore"; "-12.50" is a number, the address is inert.
    assert receipt.protected_cells == 3
    assert receipt.rows_written == 2
    assert receipt.format == "xlsx"
    message = receipt.message()
    assert message.startswith("Wrote 2 rows to invoices.xlsx.")
    assert "3 cells starting with =, +, -, @, | or % were stored as plain text, never as a formula." in message
    assert str(folder) not in message


def test_xlsx_headings_are_protected_and_counted_too(folder: Path) -> None:
    path = folder / "headings.xlsx"
    receipt = write_xlsx([{"=SUM(A1:A2)": "x"}], path)
    assert receipt.protected_cells == 1
    header = sheet_cells(path)[0][0]
    assert (header.value, header.data_type) == ("=SUM(A1:A2)", "s")


def test_xlsx_headings_pick_fields_and_report_unmatched_columns(folder: Path) -> None:
    path = folder / "picked.xlsx"
    rows: list[Row] = [{"numero": "A1", "importo": Decimal(5)}]
    receipt = write_xlsx(rows, path, ["Numero", "Importo", "Stato"], schema=["numero", "importo"])
    assert sheet_values(path) == [["Numero", "Importo", "Stato"], ["A1", 5, None]]
    assert receipt.columns == ("Numero", "Importo", "Stato")
    assert any("Stato" in notice for notice in receipt.notices)


def test_xlsx_receipt_carries_caller_notices_in_the_message(folder: Path) -> None:
    notice = "2 rows excluded: unreadable date in field 'Scadenza'."
    receipt = write_xlsx(INVOICES, folder / "invoices.xlsx", notices=[notice])
    assert receipt.notices == (notice,)
    assert receipt.message().splitlines()[-1] == notice


def test_ambiguous_heading_is_a_typed_error_and_nothing_is_written(folder: Path) -> None:
    with pytest.raises(SheetWriteError) as raised:
        write_xlsx([{"Total": 1, "total ": 2}], folder / "x.xlsx", ["TOTAL"])
    assert raised.value.code == "ambiguous_heading"
    assert "'Total'" in raised.value.message
    assert folder_listing(folder) == []


def test_xlsx_control_characters_are_removed_and_counted(folder: Path) -> None:
    path = folder / "controls.xlsx"
    receipt = write_xlsx([{"a": "bell\x07 and escape\x1b", "b": "line\r\nbreak", "c": "tab\tkept\nLF kept"}], path)
    assert receipt.cleaned_cells == 2
    assert sheet_values(path)[1] == ["bell and escape", "line\nbreak", "tab\tkept\nLF kept"]
    assert "2 cells held characters a spreadsheet cannot store" in receipt.message()


def test_xlsx_control_characters_hiding_a_trigger_are_removed_and_the_text_protected(folder: Path) -> None:
    path = folder / "hidden.xlsx"
    receipt = write_xlsx([{"a": "\x00=1+1"}], path)
    assert (receipt.cleaned_cells, receipt.protected_cells) == (1, 1)
    cell = sheet_cells(path)[1][0]
    assert (cell.value, cell.data_type, cell.quotePrefix) == ("=1+1", "s", True)


def test_xlsx_lone_surrogates_become_replacement_characters(folder: Path) -> None:
    path = folder / "broken.xlsx"
    receipt = write_xlsx([{"a": "half \ud800 a pair"}], path)
    assert receipt.cleaned_cells == 1
    assert sheet_values(path)[1] == ["half \ufffd a pair"]


def test_xlsx_integers_beyond_double_precision_are_written_as_text(folder: Path) -> None:
    path = folder / "long.xlsx"
    receipt = write_xlsx([{"a": 2**53, "b": 2**53 + 1}], path)
    assert sheet_values(path)[1] == [2**53, str(2**53 + 1)]
    assert receipt.notices == (
        "1 whole number too long for a spreadsheet's number precision was written as text, so no digit is lost.",
    )


def test_xlsx_dates_before_1900_are_written_as_iso_text(folder: Path) -> None:
    path = folder / "old.xlsx"
    receipt = write_xlsx([{"a": dt.date(1899, 12, 31), "b": dt.date(1900, 1, 1)}], path)
    assert sheet_values(path)[1] == ["1899-12-31", naive(1900, 1, 1)]
    assert any("before 1900" in notice for notice in receipt.notices)


def test_xlsx_empty_text_is_an_empty_cell(folder: Path) -> None:
    path = folder / "empty.xlsx"
    write_xlsx([{"a": "", "b": "x"}], path)
    assert sheet_values(path)[1] == [None, "x"]


def test_xlsx_subclasses_are_written_as_their_base_type(folder: Path) -> None:
    class Label(str):
        def __str__(self) -> str:
            return "not the value"

    path = folder / "subclasses.xlsx"
    write_xlsx([{"a": Label("=1+1"), "b": Label("text")}], path)
    assert sheet_values(path)[1] == ["=1+1", "text"]


# --- XLSX append -----------------------------------------------------------------


def make_workbook(path: Path, rows: Sequence[Sequence[Any]]) -> None:
    workbook = Workbook()
    worksheet = workbook.active
    worksheet.title = "Fatture"
    for row in rows:
        worksheet.append(list(row))
    workbook.save(path)


def test_append_keeps_existing_formulas_as_formulas(folder: Path) -> None:
    path = folder / "book.xlsx"
    make_workbook(path, [["Numero", "Importo"], ["A1", 10], ["A2", 20], ["Totale", "=SUM(B2:B3)"]])
    receipt = write_xlsx([{"Numero": "A3", "Importo": 5}], path, append=True)
    cells = sheet_cells(path)
    assert (cells[3][1].value, cells[3][1].data_type) == ("=SUM(B2:B3)", "f")
    assert [cell.value for cell in cells[4]] == ["A3", 5]
    assert receipt.location == "sheet 'Fatture', rows 5-5"


def test_append_never_turns_new_text_into_formulas(folder: Path) -> None:
    path = folder / "book.xlsx"
    make_workbook(path, [["Numero", "Nota"], ["A1", "=1+1"]])
    receipt = write_xlsx([{"Numero": "A2", "Nota": "=2+2"}, {"Numero": "#N/A", "Nota": "-3"}], path, append=True)
    cells = sheet_cells(path)
    assert cells[1][1].data_type == "f"  # the existing formula stays what it was
    assert [(cell.value, cell.data_type) for cell in cells[2]] == [("A2", "s"), ("=2+2", "s")]
    assert cells[2][1].quotePrefix
    assert [(cell.value, cell.data_type) for cell in cells[3]] == [("#N/A", "s"), ("-3", "s")]
    assert receipt.protected_cells == 1


def test_append_follows_the_existing_header_order_and_leaves_unknown_columns_empty(folder: Path) -> None:
    path = folder / "book.xlsx"
    make_workbook(path, [["Importo", "Commento", "numero "], ["10", "ok", "A1"]])
    receipt = write_xlsx([{"Numero": "A2", "Importo": 7}], path, append=True)
    assert sheet_values(path) == [["Importo", "Commento", "numero "], ["10", "ok", "A1"], [7, None, "A2"]]
    assert receipt.columns == ("Importo", "Commento", "numero")
    assert receipt.notices == ("Existing columns of sheet 'Fatture' left empty in the new rows: 'Commento'.",)


def test_append_adds_new_columns_at_the_end_of_the_header_and_says_so(folder: Path) -> None:
    path = folder / "book.xlsx"
    make_workbook(path, [["Numero"], ["A1"]])
    receipt = write_xlsx([{"Numero": "A2", "Stato": "pagata", "Note": "merged"}], path, append=True)
    assert sheet_values(path) == [["Numero", "Stato", "Note"], ["A1", None, None], ["A2", "pagata", "merged"]]
    assert receipt.notices == ("Added 2 columns to the header of sheet 'Fatture': 'Stato', 'Note'.",)
    assert "Added 2 columns" in receipt.message()


def test_append_goes_after_the_last_used_row(folder: Path) -> None:
    path = folder / "book.xlsx"
    make_workbook(path, [["Numero"], ["A1"], [None], ["A3"]])
    write_xlsx([{"Numero": "A4"}], path, append=True)
    assert [row[0] for row in sheet_values(path)] == ["Numero", "A1", None, "A3", "A4"]


def test_append_to_an_empty_sheet_writes_the_header_first(folder: Path) -> None:
    path = folder / "book.xlsx"
    make_workbook(path, [])
    write_xlsx([{"Numero": "A1"}], path, append=True)
    assert sheet_values(path) == [["Numero"], ["A1"]]


def test_append_to_a_missing_file_creates_it(folder: Path) -> None:
    path = folder / "new.xlsx"
    receipt = write_xlsx([{"Numero": "A1"}], path, append=True)
    assert sheet_values(path) == [["Numero"], ["A1"]]
    assert receipt.location == ""


def test_append_refuses_two_headings_matching_one_existing_column(folder: Path) -> None:
    path = folder / "book.xlsx"
    make_workbook(path, [["Totale"], [1]])
    before = path.read_bytes()
    with pytest.raises(SheetWriteError) as raised:
        write_xlsx([{"totale": 1, "TOTALE ": 2}], path, append=True)
    assert raised.value.code == "ambiguous_heading"
    assert path.read_bytes() == before


def test_append_refuses_a_workbook_whose_charts_it_would_lose(folder: Path) -> None:
    path = folder / "chart.xlsx"
    workbook = Workbook()
    worksheet = workbook.active
    for row in (["n", "v"], ["a", 1], ["b", 2]):
        worksheet.append(row)
    chart = BarChart()
    chart.add_data(Reference(worksheet, min_col=2, min_row=1, max_row=3), titles_from_data=True)
    worksheet.add_chart(chart, "D2")
    workbook.save(path)
    before = path.read_bytes()
    with pytest.raises(SheetWriteError) as raised:
        write_xlsx([{"n": "c", "v": 3}], path, append=True)
    assert raised.value.code == "unsupported_workbook"
    assert path.read_bytes() == before
    assert folder_listing(folder) == ["chart.xlsx"]


def test_append_to_a_file_that_is_not_a_workbook_is_a_typed_error_and_leaves_it_alone(folder: Path) -> None:
    path = folder / "junk.xlsx"
    path.write_bytes(b"\x00\xffnot a zip\x89PNG" * 100)
    with pytest.raises(SheetWriteError) as raised:
        write_xlsx([{"a": 1}], path, append=True)
    assert raised.value.code == "unreadable_workbook"
    assert path.read_bytes() == b"\x00\xffnot a zip\x89PNG" * 100


def test_append_to_a_zip_that_is_not_a_workbook_is_a_typed_error(folder: Path) -> None:
    path = folder / "archive.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("hello.txt", "hello")
    with pytest.raises(SheetWriteError) as raised:
        write_xlsx([{"a": 1}], path, append=True)
    assert raised.value.code == "unreadable_workbook"


def test_append_keeps_the_file_permissions(folder: Path) -> None:
    path = folder / "book.xlsx"
    make_workbook(path, [["a"], [1]])
    path.chmod(0o640)
    write_xlsx([{"a": 2}], path, append=True)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_overwrite_without_append_replaces_the_file(folder: Path) -> None:
    path = folder / "book.xlsx"
    make_workbook(path, [["old"], ["row"]])
    write_xlsx([{"new": 1}], path)
    assert sheet_values(path) == [["new"], [1]]


# --- bad input: typed errors, nothing written ----------------------------------------


HUGE = "x" * (CELL_TEXT_LIMIT + 1)


@pytest.mark.parametrize("writer", [write_xlsx, write_csv], ids=["xlsx", "csv"])
def test_a_cell_over_the_limit_is_a_typed_error_and_no_file(folder: Path, writer: Any) -> None:
    name = "big.xlsx" if writer is write_xlsx else "big.csv"
    with pytest.raises(SheetWriteError) as raised:
        writer([{"a": "ok"}, {"a": HUGE}], folder / name)
    assert raised.value.code == "cell_too_long"
    assert "row 2, column 'a'" in raised.value.message
    assert HUGE not in str(raised.value)
    assert folder_listing(folder) == []


def test_the_limit_counts_utf16_units_as_spreadsheets_do(folder: Path) -> None:
    fits = "x" * CELL_TEXT_LIMIT
    write_xlsx([{"a": fits}], folder / "fits.xlsx")
    assert sheet_values(folder / "fits.xlsx")[1] == [fits]
    emoji = "\U0001f600" * (CELL_TEXT_LIMIT // 2 + 1)  # fewer code points than the limit, more UTF-16 units
    with pytest.raises(SheetWriteError) as raised:
        write_xlsx([{"a": emoji}], folder / "emoji.xlsx")
    assert raised.value.code == "cell_too_long"


@pytest.mark.parametrize("writer", [write_xlsx, write_csv], ids=["xlsx", "csv"])
def test_an_existing_file_is_untouched_when_a_write_fails(folder: Path, writer: Any) -> None:
    path = folder / ("book.xlsx" if writer is write_xlsx else "book.csv")
    path.write_bytes(b"the previous, complete file")
    with pytest.raises(SheetWriteError):
        writer([{"a": "fine"}, {"a": HUGE}], path)
    assert path.read_bytes() == b"the previous, complete file"
    assert folder_listing(folder) == [path.name]


@pytest.mark.parametrize(
    "value",
    [
        b"binary junk",
        dt.time(10, 30),
        dt.timedelta(days=1),
        object(),
        ["a"],
        float("nan"),
        float("inf"),
        Decimal("NaN"),
        Decimal("-Infinity"),
    ],
    ids=["bytes", "time", "timedelta", "object", "list", "nan", "inf", "decimal-nan", "decimal-inf"],
)
@pytest.mark.parametrize("writer", [write_xlsx, write_csv], ids=["xlsx", "csv"])
def test_a_value_a_sheet_cannot_hold_is_a_typed_error(folder: Path, writer: Any, value: object) -> None:
    name = "v.xlsx" if writer is write_xlsx else "v.csv"
    with pytest.raises(SheetWriteError) as raised:
        writer([{"a": value}], folder / name)
    assert raised.value.code == "unsupported_value"
    assert "row 1, column 'a'" in raised.value.message
    assert folder_listing(folder) == []


@pytest.mark.parametrize("writer", [write_xlsx, write_csv], ids=["xlsx", "csv"])
def test_a_missing_folder_is_a_typed_error(folder: Path, writer: Any) -> None:
    with pytest.raises(SheetWriteError) as raised:
        writer([{"a": 1}], folder / "missing" / "book.xlsx")
    assert raised.value.code == "folder_missing"


@pytest.mark.parametrize("writer", [write_xlsx, write_csv], ids=["xlsx", "csv"])
def test_a_path_that_is_a_folder_is_a_typed_error(folder: Path, writer: Any) -> None:
    target = folder / "book.xlsx"
    target.mkdir()
    with pytest.raises(SheetWriteError) as raised:
        writer([{"a": 1}], target)
    assert raised.value.code == "path_is_directory"
    assert list(target.iterdir()) == []


def test_xlsx_needs_an_xlsx_name(folder: Path) -> None:
    with pytest.raises(SheetWriteError) as raised:
        write_xlsx([{"a": 1}], folder / "book.xlsm")
    assert raised.value.code == "unsupported_extension"


def test_a_folder_that_refuses_new_files_is_a_typed_io_error(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("tempfile.mkstemp", refused)
    with pytest.raises(SheetWriteError) as raised:
        write_csv([{"a": 1}], folder / "book.csv")
    assert raised.value.code == "io_error"
    assert raised.value.message == "could not write 'book.csv': Permission denied"
    assert folder_listing(folder) == []


def test_a_failure_while_saving_leaves_no_half_file(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = folder / "book.xlsx"
    path.write_bytes(b"previous")
    save = Workbook.save

    def broken_save(self: Any, filename: str) -> None:
        save(self, filename)
        with open(filename, "r+b") as written:
            written.truncate(100)  # the disk filled up halfway
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Workbook, "save", broken_save)
    with pytest.raises(SheetWriteError) as raised:
        write_xlsx(INVOICES, path)
    assert raised.value.code == "io_error"
    assert "No space left on device" in raised.value.message
    assert path.read_bytes() == b"previous"
    assert folder_listing(folder) == ["book.xlsx"]


def test_error_codes_form_a_closed_set() -> None:
    with pytest.raises(ValueError, match="unknown sheet error code"):
        SheetWriteError("something_else", "x")  # type: ignore[arg-type]
    assert "cell_too_long" in SHEET_WRITE_ERROR_CODES


# --- CSV -------------------------------------------------------------------------


def test_csv_protects_active_text_with_a_visible_apostrophe_and_says_so(folder: Path) -> None:
    path = folder / "invoices.csv"
    receipt = write_csv(INVOICES, path)
    lines = read_csv(path)
    assert [line[2] for line in lines[1:]] == ["'=cmd|' /C calc'!A0", "'+39 06 1234567"]
    assert lines[1][8] == "mario@example.org"
    assert lines[2][8] == "'@fornitore"
    assert receipt.protected_cells == 3
    assert "3 cells held =, +, -, @, | or % where a spreadsheet could start a cell" in receipt.message()
    assert "an apostrophe was put before each, which is part of the value and may be visible" in receipt.message()


def test_csv_writes_numbers_without_exponent_and_dates_as_iso(folder: Path) -> None:
    path = folder / "values.csv"
    rows: list[Row] = [
        {
            "decimal": Decimal("-12.50"),
            "tiny": Decimal("1E-7"),
            "big": Decimal("1E+3"),
            "float": 1e-7,
            "huge": 1e20,
            "int": -3,
            "day": dt.date(2026, 9, 15),
            "moment": dt.datetime(2026, 9, 15, 10, 30, tzinfo=ROME),
            "yes": True,
            "none": None,
        }
    ]
    write_csv(rows, path)
    assert read_csv(path)[1] == [
        "-12.50",
        "0.0000001",
        "1000",
        "0.0000001",
        "100000000000000000000",
        "-3",
        "2026-09-15",
        "2026-09-15T10:30:00+02:00",
        "TRUE",
        "",
    ]


def test_csv_is_utf8_with_bom_and_every_field_quoted(folder: Path) -> None:
    path = folder / "quoting.csv"
    write_csv([{"città": "Forlì, FC", "nota": 'due "righe"\nqui', "semplice": "ok", "vuota": None}], path)
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    assert raw.decode("utf-8-sig") == (
        '"città","nota","semplice","vuota"\r\n"Forlì, FC","due ""righe""\nqui","ok",""\r\n'
    )


def test_csv_semicolon_delimiter_for_italian_spreadsheets(folder: Path) -> None:
    path = folder / "semicolon.csv"
    write_csv([{"a": "1,5", "b": "=x"}], path, delimiter=";")
    assert path.read_bytes().decode("utf-8-sig") == '"a";"b"\r\n"1,5";"\'=x"\r\n'


def test_csv_lone_surrogates_become_replacement_characters_and_are_counted(folder: Path) -> None:
    path = folder / "broken.csv"
    receipt = write_csv([{"a": "half \udc80 a pair", "b": "ok"}], path)
    assert receipt.cleaned_cells == 1
    assert read_csv(path)[1] == ["half \ufffd a pair", "ok"]


def test_csv_keeps_control_characters_a_csv_can_hold(folder: Path) -> None:
    path = folder / "controls.csv"
    receipt = write_csv([{"a": "nul\x00 bell\x07 cr\r"}], path)
    assert receipt.cleaned_cells == 0
    assert read_csv(path)[1] == ["nul\x00 bell\x07 cr\r"]


def test_csv_with_no_rows_writes_the_header_only(folder: Path) -> None:
    path = folder / "empty.csv"
    receipt = write_csv([], path, ["Numero", "Importo"])
    assert read_csv(path) == [["Numero", "Importo"]]
    assert receipt.message() == "Wrote 0 rows to empty.csv. Every field is in double quotes, separated by commas."


def test_receipt_message_for_a_single_row_and_cell_is_singular() -> None:
    receipt = SheetReceipt(
        path="/srv/owner/a.xlsx", format="xlsx", rows_written=1, protected_cells=1, columns=("a",), cleaned_cells=1
    )
    assert receipt.message() == (
        "Wrote 1 row to a.xlsx. 1 cell starting with =, +, -, @, | or % was stored as plain text, never as a "
        "formula. 1 cell held characters a spreadsheet cannot store (control characters or damaged text); they "
        "were removed or replaced with \ufffd."
    )


# --- properties --------------------------------------------------------------------

TRICKY = st.sampled_from(
    [
        "=",
        "+",
        "-",
        "@",
        "\uff1d",
        "\uff0b",
        "\uff0d",
        "\uff20",
        "\t",
        "\r",
        "\n",
        "\x00",
        " ",
        "\xa0",
        "\u200b",
        "'",
        ",",
        '"',
        "1",
        ".",
        "mario@example.org",
        "cmd|' /C calc'!A0",
        "\ud800",
    ]
)
CELL_TEXT = st.lists(st.one_of(TRICKY, st.text(max_size=6)), max_size=6).map("".join)
CELL = st.one_of(
    CELL_TEXT,
    st.none(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.decimals(allow_nan=False, allow_infinity=False, places=2, min_value=-(10**9), max_value=10**9),
    st.floats(allow_nan=False, allow_infinity=False),
    st.dates(),
    st.booleans(),
)
ROWS = st.lists(st.fixed_dictionaries({"a": CELL, "b": CELL, "c": CELL_TEXT}), max_size=8)
HEADINGS = st.lists(CELL_TEXT.filter(lambda text: text.strip() != ""), min_size=3, max_size=3, unique_by=str.strip)


def without_surrogates(text: str) -> str:
    return re.sub("[\ud800-\udfff]", "\ufffd", text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=ROWS)
def test_property_csv_read_back_has_no_evaluated_cell_and_reverses_exactly(folder: Path, rows: list[Row]) -> None:
    path = folder / "property.csv"
    receipt = write_csv(rows, path)
    lines = read_csv(path)
    if not rows:
        assert lines == []
        return
    assert sorted(lines[0]) == ["a", "b", "c"]
    assert len(lines) == len(rows) + 1
    for line in lines:
        for cell in line:
            assert not is_active_text(cell)
            assert not looks_evaluated(cell)
    protected = 0
    for row, line in zip(rows, lines[1:], strict=True):
        for key, cell in zip(lines[0], line, strict=True):
            value = row[key]
            if not isinstance(value, str):
                continue
            written = without_surrogates(value)
            assert restore_csv_text(cell) == written
            if is_active_text(written):
                assert cell != written
            protected += cell != written
    assert receipt.protected_cells == protected


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.fixed_dictionaries({"x": CELL_TEXT}), min_size=1, max_size=3), headings=HEADINGS)
def test_property_csv_headings_are_protected_like_cells(folder: Path, rows: list[Row], headings: list[str]) -> None:
    path = folder / "headings.csv"
    receipt = write_csv(rows, path, headings)
    header = read_csv(path)[0]
    assert all(not looks_evaluated(cell) for cell in header)
    written = [without_surrogates(heading.strip()) for heading in headings]
    assert receipt.protected_cells >= sum(is_active_text(heading) for heading in written)


def expected_xlsx_text(value: str) -> str | None:
    value = re.sub("\r\n?", "\n", value)
    value = re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]", "", value)
    value = without_surrogates(value)
    return value or None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=ROWS)
def test_property_xlsx_round_trip_has_no_formula_and_identical_text(folder: Path, rows: list[Row]) -> None:
    path = folder / "property.xlsx"
    receipt = write_xlsx(rows, path)
    cells = sheet_cells(path)
    assert all(cell.data_type != "f" for row in cells for cell in row)
    protected = 0
    for row_index, row in enumerate(rows, 2):
        for column_index, key in enumerate(receipt.columns, 1):
            value = row[key]
            if not isinstance(value, str):
                continue
            cell = load_cell(cells, row_index, column_index)
            expected = expected_xlsx_text(value)
            assert (None if cell is None else cell.value) == expected
            if expected is not None:
                assert cell is not None and cell.data_type == "s"
                if is_active_text(expected):
                    protected += 1
                    assert cell.quotePrefix
    assert receipt.protected_cells == protected
    assert receipt.rows_written == len(rows)


def load_cell(cells: list[list[Any]], row_index: int, column_index: int) -> Any:
    if row_index > len(cells) or column_index > len(cells[row_index - 1]):
        return None
    return cells[row_index - 1][column_index - 1]


def test_a_failure_while_moving_into_place_leaves_the_old_file(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = folder / "book.csv"
    path.write_bytes(b"previous")

    def refused(source: Any, target: Any) -> None:
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr("os.replace", refused)
    with pytest.raises(SheetWriteError) as raised:
        write_csv([{"a": "new"}], path)
    assert raised.value.code == "io_error"
    assert path.read_bytes() == b"previous"
    assert folder_listing(folder) == ["book.csv"]
