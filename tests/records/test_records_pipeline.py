"""The records API together: filter by period, merge, write the sheet, report it all."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from apps.records.dates.periods import Period, filter_rows_by_period
from apps.records.identity.rows import merge_rows
from apps.records.rows import Source
from apps.records.sheets.xlsx import write_xlsx


def test_unreadable_dates_merges_and_protection_all_reach_the_sheet_result(tmp_path: Path) -> None:
    summary = Source(
        id="summary-read-1",
        page="https://energy.example/bills",
        rows=(
            {"number": "INV-2026-001", "issue_date": "15/03/2026", "amount": "120,50", "status": "paid"},
            {"number": "INV-2026-002", "issue_date": "the 2nd quarter", "amount": "98,00", "status": "paid"},
        ),
    )
    archive = Source(
        id="archive-read-1",
        page="https://energy.example/archive",
        rows=(
            {"number": "INV-2026-001", "issue_date": "2026-03-15", "amount": "120,50", "status": "paid",
             "description": "=HYPERLINK(\"http://evil.example\")"},
            {"number": "INV-2026-003", "issue_date": "14/04/2026", "amount": "77,10", "status": "due"},
        ),
    )  # fmt: skip
    merged = merge_rows([summary, archive])
    rows = [{**row.values, "Note": row.note} for row in merged.rows]
    assert merged.merged_count == 1

    period = filter_rows_by_period(rows, field="issue_date", period=Period.year(2026))
    assert period.unreadable_rows == 1
    receipt = write_xlsx(
        period.kept,
        tmp_path / "bills.xlsx",
        notices=(*period.notices(), merged.message()),
    )

    message = receipt.message()
    assert "issue_date" in message and "could not be read" in message
    assert "merged" in message.casefold()
    assert receipt.protected_cells == 1
    sheet = openpyxl.load_workbook(tmp_path / "bills.xlsx").active
    assert sheet is not None
    values = [cell.value for row in sheet.iter_rows() for cell in row]
    assert '=HYPERLINK("http://evil.example")' in values
    assert all(cell.data_type != "f" for row in sheet.iter_rows() for cell in row)
    assert receipt.rows_written == 2
    assert any(isinstance(value, str) and value.startswith("Merged") for value in values)
