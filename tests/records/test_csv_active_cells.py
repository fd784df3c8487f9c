"""CSV cells stay inert whatever separator a spreadsheet splits the file on (issue 15, finding 4).

A CSV file written with commas is often opened with another separator: Excel
in Italian, German and French uses the semicolon, other programs the tab or
the vertical bar. Each written file is read back here with Python's csv
module under every one of those separators, and no field may start with a
formula trigger once the whitespace, control characters and quotes that a
spreadsheet strips are gone. The oracle (:func:`evaluated`) is written
independently of ``formula_safety``.
"""

from __future__ import annotations

import csv
import re
import unicodedata
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from apps.records.rows import Row
from apps.records.sheets.csv import CSV_ENCODING, write_csv
from apps.records.sheets.formula_safety import (
    CSV_SEPARATORS,
    PROTECTIVE_PREFIX,
    is_active_text,
    protect_csv_text,
    protect_text,
    restore_csv_text,
)
from apps.records.sheets.receipts import CsvDelimiter
from apps.records.sheets.xlsx import write_xlsx

READER_SEPARATORS = (",", ";", "\t", "|")
WRITER_DELIMITERS: tuple[CsvDelimiter, ...] = (",", ";", "\t")
TRIGGERS = frozenset("=+-@|%")


def evaluated(field: str, written_with: str) -> bool:
    """Whether a spreadsheet could take ``field`` (read from a file written with ``written_with``) as a formula."""
    stripped = field
    while stripped and (stripped[0] == '"' or stripped[0].isspace() or unicodedata.category(stripped[0])[0] in "CZ"):
        stripped = stripped[1:]
    if not stripped or unicodedata.normalize("NFKC", stripped[0])[:1] not in TRIGGERS:
        return False
    # A plain negative number is a number. Read with another separator it may
    # run on into the next fields, which begin with a double quote: a number
    # followed by a string is not a formula.
    number = r"-[0-9.,]*(?:" + re.escape(written_with) + r'?".*)?'
    return re.fullmatch(number, stripped, re.DOTALL) is None


def read_with(path: Path, separator: str) -> list[list[str]]:
    with open(path, encoding=CSV_ENCODING, newline="") as handle:
        return list(csv.reader(handle, delimiter=separator))


def evaluated_fields(path: Path, written_with: str) -> dict[str, list[str]]:
    """Every field that some reading of ``path`` would evaluate, by reader separator."""
    found = {}
    for separator in READER_SEPARATORS:
        fields = [field for line in read_with(path, separator) for field in line if evaluated(field, written_with)]
        if fields:
            found[separator] = fields
    return found


def test_the_writer_guards_against_every_reader_separator() -> None:
    assert set(CSV_SEPARATORS) == set(READER_SEPARATORS)


# --- the cases of the finding ------------------------------------------------------

FINDING = [
    "Fornitore;=1+1",  # Excel in Italian, German or French splits on the semicolon
    "x\t=1+1",
    "a|=cmd",
    "|cmd",
    "%cmd",
    "Fornitore; =1+1",  # spaces before the trigger
    "Fornitore;\t\xa0 @SUM(1+1)",
    'Fornitore;"=1+1',  # a quote before the trigger
    'Fornitore";=1+1',
    "riga uno\n=1+1",  # a line break inside the value
    "riga uno\r\n+cmd|' /C calc'!A0",
    "riga uno\r-2+3",
    "a,=1+1",
    "a,b;c\t|=cmd",
    "Fornitore;-2+3",
    "Fornitore;-12",  # a number at the end of a value runs on into the next field
    "Fornitore;\uff1d1+1",  # fullwidth equals
    "Fornitore;\uff5ccmd",  # fullwidth vertical line
    "\uff05cmd",  # fullwidth percent
]


@pytest.mark.parametrize("delimiter", WRITER_DELIMITERS, ids=["comma", "semicolon", "tab"])
@pytest.mark.parametrize("value", FINDING)
def test_no_reading_of_the_file_starts_a_cell_with_a_trigger(
    tmp_path: Path, value: str, delimiter: CsvDelimiter
) -> None:
    path = tmp_path / "finding.csv"
    # First, middle and last column: a reader with another separator sees each differently.
    write_csv([{"a": value, "b": value, "c": value}, {"a": "x", "b": value, "c": "y"}], path, delimiter=delimiter)
    assert evaluated_fields(path, delimiter) == {}


@pytest.mark.parametrize("delimiter", WRITER_DELIMITERS, ids=["comma", "semicolon", "tab"])
@pytest.mark.parametrize("value", FINDING)
def test_the_intended_reading_gives_the_value_back_after_the_documented_reversal(
    tmp_path: Path, value: str, delimiter: CsvDelimiter
) -> None:
    path = tmp_path / "finding.csv"
    receipt = write_csv([{"a": value, "b": value}], path, delimiter=delimiter)
    header, line = read_with(path, delimiter)
    assert header == ["a", "b"]
    assert line[0] != value
    assert [restore_csv_text(cell) for cell in line] == [value, value]
    assert receipt.protected_cells == 2


PROTECTED = [
    ("Fornitore;=1+1", "Fornitore;'=1+1"),
    ("x\t=1+1", "x\t'=1+1"),
    ("a|=cmd", "a|'=cmd"),
    ("|cmd", "'|cmd"),
    ("%cmd", "'%cmd"),
    ("=1+1", "'=1+1"),
    (" =1+1", " '=1+1"),  # the apostrophe goes right before the trigger
    ("Fornitore; =1+1", "Fornitore; '=1+1"),
    ('Fornitore;"=1+1', "Fornitore;\"'=1+1"),
    ("riga uno\n=1+1", "riga uno\n'=1+1"),
    ("a;\t=1", "a;\t'=1"),  # one apostrophe serves the ; and the tab reading
    ("a;-12", "a;'-12"),
    ("'=1+1", "''=1+1"),  # text already carrying the apostrophe gets one more: the reversal is exact
    ("a;'=1", "a;''=1"),
]
UNCHANGED = [
    "Ordinary text",
    "Forlì, FC",
    "mario@example.org",
    "INV-20-005",
    "Totale: =12",  # a space is no separator
    "a=b",
    "50%",
    "-12.50",
    "-1.234,56",
    "-1,234.56",
    "-",
    "a;-12;b",  # a plain amount between separators is a number in every reading
    "a; -12,50\nb",
    "a;'b",
    "' =1",
    "",
]


@pytest.mark.parametrize(("value", "written"), PROTECTED)
def test_an_apostrophe_goes_before_each_trigger_that_could_start_a_cell(value: str, written: str) -> None:
    assert protect_csv_text(value) == written
    assert restore_csv_text(written) == value


@pytest.mark.parametrize("value", UNCHANGED)
def test_text_that_no_reading_could_evaluate_is_written_as_it_is(value: str) -> None:
    assert protect_csv_text(value) == value
    assert restore_csv_text(value) == value


def test_every_field_is_quoted_and_the_receipt_says_how_the_file_was_written(tmp_path: Path) -> None:
    path = tmp_path / "fatture.csv"
    receipt = write_csv(
        [{"Fornitore": "Fornitore;=1+1", "Importo": Decimal("-12.50"), "Nota": None}, {"Fornitore": "%cmd"}],
        path,
        delimiter=";",
    )
    assert path.read_bytes().decode(CSV_ENCODING) == (
        '"Fornitore";"Importo";"Nota"\r\n"Fornitore;\'=1+1";"-12.50";""\r\n"\'%cmd";"";""\r\n'
    )
    assert receipt.protected_cells == 2
    assert receipt.message() == (
        "Wrote 2 rows to fatture.csv. Every field is in double quotes, separated by semicolons. "
        "2 cells held =, +, -, @, | or % where a spreadsheet could start a cell (at the start, or after a comma, "
        "semicolon, tab, | or line break inside the text); an apostrophe was put before each, "
        "which is part of the value and may be visible."
    )


def test_the_receipt_names_the_separator_the_file_was_written_with(tmp_path: Path) -> None:
    assert "separated by commas." in write_csv([{"a": "x"}], tmp_path / "a.csv").message()
    assert "separated by tabs." in write_csv([{"a": "x"}], tmp_path / "b.csv", delimiter="\t").message()


# --- | and % in the other writers ----------------------------------------------------


@pytest.mark.parametrize("value", ["|cmd", "%cmd", "\uff5ccmd", "\ufe6a1"])
def test_pipe_and_percent_are_active_at_the_start_of_any_cell(value: str) -> None:
    assert is_active_text(value)
    assert protect_text(value) == PROTECTIVE_PREFIX + value


def test_xlsx_stores_pipe_and_percent_text_as_plain_text_cells_and_counts_them(tmp_path: Path) -> None:
    path = tmp_path / "book.xlsx"
    receipt = write_xlsx([{"a": "|cmd", "b": "%cmd", "c": "50%"}], path)
    cells = next(load_workbook(path).worksheets[0].iter_rows(min_row=2))
    assert [cell.value for cell in cells] == ["|cmd", "%cmd", "50%"]
    assert all(cell.data_type == "s" for cell in cells)
    assert [cell.quotePrefix for cell in cells] == [True, True, False]
    assert receipt.protected_cells == 2
    assert "2 cells starting with =, +, -, @, | or % were stored as plain text, never as a formula." in (
        receipt.message()
    )


# --- properties ------------------------------------------------------------------------

PIECES = st.sampled_from(
    [
        *READER_SEPARATORS,
        *TRIGGERS,
        "\uff1d",
        "\uff0b",
        "\uff5c",
        "\uff05",
        '"',
        "'",
        " ",
        "\xa0",
        "\u200b",
        "\r",
        "\n",
        "\r\n",
        "\x0b",
        "\x85",
        "\u2028",
        "1",
        "12",
        ".",
        "-12",
        "-1.234,56",
        "x",
        "cmd|' /C calc'!A0",
        "\ud800",
    ]
)
TEXT = st.lists(st.one_of(PIECES, st.text(max_size=4)), max_size=8).map("".join)
CELL = st.one_of(TEXT, st.none(), st.decimals(allow_nan=False, allow_infinity=False, places=2, max_value=10**6))
ROWS = st.lists(st.fixed_dictionaries({"a": TEXT, "b": CELL, "c": TEXT}), min_size=1, max_size=5)


def as_written(text: str) -> str:
    # Lone surrogates cannot be encoded: the writer replaces them and counts the cell as cleaned.
    return re.sub("[\ud800-\udfff]", "\ufffd", text)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=ROWS, delimiter=st.sampled_from(WRITER_DELIMITERS))
def test_property_no_reading_evaluates_a_cell_and_the_intended_one_reverses_exactly(
    tmp_path: Path, rows: list[Row], delimiter: CsvDelimiter
) -> None:
    path = tmp_path / "property.csv"
    receipt = write_csv(rows, path, delimiter=delimiter)
    assert evaluated_fields(path, delimiter) == {}
    lines = read_with(path, delimiter)
    assert sorted(lines[0]) == ["a", "b", "c"]
    assert len(lines) == len(rows) + 1
    protected = 0
    for row, line in zip(rows, lines[1:], strict=True):
        for key, cell in zip(lines[0], line, strict=True):
            value = row[key]
            if isinstance(value, str):
                assert restore_csv_text(cell) == as_written(value)
                protected += cell != as_written(value)
    assert receipt.protected_cells == protected


@settings(max_examples=500, deadline=None)
@given(value=st.one_of(TEXT, st.text()))
def test_property_the_reversal_is_exact_for_any_text(value: str) -> None:
    protected = protect_csv_text(value)
    assert restore_csv_text(protected) == value
    assert protected.replace(PROTECTIVE_PREFIX, "") == value.replace(PROTECTIVE_PREFIX, "")
    if is_active_text(value):
        assert protected != value
