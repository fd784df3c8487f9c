"""extract_entries and create_files_spreadsheet, and the spec's example chain end to end."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import threading
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from apps.accounts.models import User
from apps.runtime.executor import ExecutionContext, Executor, StepResult
from apps.runtime.executors.files import FindFilesExecutor, ReadFilesExecutor
from apps.runtime.executors.records import (
    CREATE_SPREADSHEET_MANIFEST,
    EXTRACT_ENTRIES_MANIFEST,
    SPREADSHEET_CONTENT_TYPES,
    CreateFilesSpreadsheetExecutor,
    ExtractEntriesExecutor,
    builtin_executors,
    spreadsheet_rows,
)
from tests.runtime.quotes import QUOTE_1, QUOTE_2, QUOTES, scanned_pdf, write_quotes

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _isolated_files(files_root: Path) -> Path:
    return files_root


def context_for(user: User, step_index: int = 0) -> ExecutionContext:
    return ExecutionContext(owner=user, turn_id=None, step_index=step_index)


def document(address: str, text: str, outcome: str = "read") -> dict[str, Any]:
    return {"address": address, "outcome": outcome, "text": text if outcome == "read" else ""}


def extract(user: User, documents: Sequence[Mapping[str, Any]], fields: Any, **kwargs: Any) -> StepResult:
    return ExtractEntriesExecutor(**kwargs).run(context_for(user), {"from_step": documents, "fields": fields})


def create(user: User, items: Sequence[Mapping[str, Any]], path: str, **args: Any) -> StepResult:
    return CreateFilesSpreadsheetExecutor().run(context_for(user), {"from_step": items, "path": path, **args})


def read_quotes(user: User, root: Path) -> tuple[Mapping[str, Any], ...]:
    write_quotes(root / "Purchasing")
    found = FindFilesExecutor().run(context_for(user), {"base_path": "~/Purchasing", "pattern": "*.pdf"})
    return ReadFilesExecutor().run(context_for(user), {"from_step": found.items}).items


# --- Manifests -------------------------------------------------------------------------


def test_manifests() -> None:
    extract_json = EXTRACT_ENTRIES_MANIFEST.as_json()
    assert extract_json["args"]["fields"]["max_items"] == 30
    assert extract_json["args"]["fields"]["required"] is True
    assert extract_json["intelligence"] == "deterministic"
    assert extract_json["capabilities"] == ["records.extract"]
    sheet_json = CREATE_SPREADSHEET_MANIFEST.as_json()
    assert sheet_json["args"]["path"]["sensitive"] == "path"
    assert sheet_json["args"]["path"]["accepts_step_values"] is False
    assert sheet_json["consent"]["mode"] == "none"
    assert sheet_json["capabilities"] == ["files.write", "sheets.write"]
    assert sheet_json["result"]["fields"] == ["path", "format", "rows_written", "protected_cells", "columns"]
    assert [executor.manifest.name for executor in builtin_executors()] == [
        "extract_entries", "create_files_spreadsheet",
    ]  # fmt: skip


# --- extract_entries -----------------------------------------------------------------------


def test_extract_entries_from_the_three_quotes(owner: User, root: Path) -> None:
    result = extract(owner, read_quotes(owner, root), ["supplier", "price"])

    assert result.outcome == "success"
    assert [(entry["supplier"], entry["price"], entry["currency"]) for entry in result.items] == [
        (quote.supplier, format(quote.total, "f"), quote.currency) for quote in QUOTES
    ]
    first = result.items[0]
    assert list(first) == ["supplier", "price", "currency", "address", "evidence"]
    assert first["address"] == "Purchasing/quote1.pdf"
    assert first["evidence"]["price"]["label"] == "Totale"
    assert first["evidence"]["price"]["text"] == "€ 1.640,90"
    assert result.items[2]["evidence"]["supplier"]["method"] == "letterhead"
    json.dumps(list(result.items))  # entries are JSON-ready
    assert result.value["missing"] == {"supplier": 0, "price": 0}


def test_missing_fields_are_none_and_counted_never_placeholders(owner: User) -> None:
    documents = [
        document("Purchasing/a.pdf", "Fornitore: Alfa S.r.l.\nTotale: 10,00"),
        document("Purchasing/b.pdf", "Fornitore: Beta S.r.l.\nSenza prezzo."),
    ]
    result = extract(owner, documents, ["supplier", "price"])
    assert result.outcome == "partial"
    assert result.items[1]["price"] is None
    assert result.items[1]["currency"] is None
    assert "price" not in result.items[1]["evidence"]
    assert "'price' has no value for 1 of 2 documents: b.pdf." in result.notices
    assert result.value["missing"] == {"supplier": 0, "price": 1}


def test_nothing_found_anywhere_is_empty(owner: User) -> None:
    result = extract(owner, [document("a.pdf", "Solo testo, nessuna etichetta.")], ["supplier", "price"])
    assert result.outcome == "empty"
    assert result.items == ()
    assert result.error is None
    assert "None of the requested fields was found in: a.pdf." in result.notices


def test_unread_documents_make_the_result_partial(owner: User) -> None:
    documents = [
        document("Purchasing/a.pdf", "Fornitore: Alfa S.r.l.\nTotale: 10,00"),
        document("Purchasing/scan.pdf", "", outcome="needs_ocr"),
    ]
    result = extract(owner, documents, ["supplier", "price"])
    assert result.outcome == "partial"
    assert len(result.items) == 1
    assert "Not read, so nothing was extracted from: scan.pdf." in result.notices


def test_competing_values_are_left_empty_with_a_notice(owner: User) -> None:
    documents = [document("a.pdf", "Fornitore: Alfa S.r.l.\nTotale: 100,00\nTotale: 120,00")]
    result = extract(owner, documents, ["supplier", "price"])
    assert result.outcome == "partial"
    assert result.items[0]["price"] is None
    assert any("several values could be it" in notice for notice in result.notices)


def test_different_currencies_across_documents_are_flagged(owner: User) -> None:
    documents = [document("a.pdf", "Totale: € 10,00"), document("b.pdf", "Total: USD 12.00")]
    result = extract(owner, documents, ["price"])
    assert [entry["currency"] for entry in result.items] == ["EUR", "USD"]
    assert any("different currencies (EUR, USD)" in notice for notice in result.notices)


@pytest.mark.parametrize("fields", [[], ["supplier"] * 2, "supplier", ["x"] * 31, ["address"], None, [None]])
def test_unusable_fields_fail_permanently(owner: User, fields: Any) -> None:
    result = extract(owner, [document("a.pdf", "Totale: 10,00")], fields)
    assert result.outcome == "failed"
    assert result.error is not None
    assert (result.error.error_class, result.error.code) == ("permanent", "invalid_arguments")


def test_files_without_text_must_be_read_first(owner: User) -> None:
    result = extract(owner, [{"path": "Purchasing/quote1.pdf", "name": "quote1.pdf"}], ["price"])
    assert result.error is not None and result.error.code == "no_text"


def test_no_documents_is_empty(owner: User) -> None:
    assert extract(owner, [], ["price"]).outcome == "empty"


def test_model_fallback_fills_only_missing_fields_with_verified_values(owner: User) -> None:
    text = "Offerta della ditta Omega Arredi per 10 sedie.\nTotale: € 1.250,00"
    calls: list[tuple[str, ...]] = []

    def model(text: str, fields: Sequence[str]) -> Mapping[str, str | None]:
        calls.append(tuple(fields))
        return {"supplier": "Omega Arredi", "price": "1,00"}

    result = extract(owner, [document("a.pdf", text)], ["supplier", "price"], model_extractor=model)
    assert calls == [("supplier",)]
    assert result.outcome == "success"
    assert (result.items[0]["supplier"], result.items[0]["price"]) == ("Omega Arredi", "1250.00")
    assert result.items[0]["evidence"]["supplier"]["method"] == "model"


def test_a_failing_model_keeps_the_deterministic_result(owner: User) -> None:
    def model(text: str, fields: Sequence[str]) -> Mapping[str, str | None]:
        raise TimeoutError("the extraction tier did not answer")

    result = extract(owner, [document("a.pdf", "Totale: € 10,00")], ["supplier", "price"], model_extractor=model)
    assert result.outcome == "partial"
    assert result.items[0]["price"] == "10.00"
    assert result.items[0]["supplier"] is None


def test_cancellation_stops_with_a_recoverable_failure(owner: User) -> None:
    cancelled = threading.Event()
    cancelled.set()
    context = ExecutionContext(owner=owner, turn_id=None, step_index=2, cancelled=cancelled)
    result = ExtractEntriesExecutor().run(
        context, {"from_step": [document("a.pdf", "Totale: 1,00")], "fields": ["price"]}
    )
    assert result.error is not None
    assert (result.error.error_class, result.error.code) == ("recoverable", "cancelled")


# --- create_files_spreadsheet ------------------------------------------------------------

ENTRIES = (
    {
        "supplier": "Alfa Ufficio S.r.l.", "price": "1640.90", "currency": "EUR", "address": "Purchasing/quote1.pdf",
        "evidence": {"supplier": {"type": "text"}, "price": {"type": "amount"}},
    },
    {
        "supplier": "=HYPERLINK(\"http://evil\")", "price": None, "currency": None, "address": "Purchasing/quote2.pdf",
        "evidence": {"supplier": {"type": "text"}},
    },
)  # fmt: skip


def sheet_rows(path: Path) -> list[tuple[Any, ...]]:
    workbook = load_workbook(path)
    return [tuple(row) for row in workbook.worksheets[0].iter_rows(values_only=True)]


def test_creates_an_xlsx_with_numeric_amounts_and_an_undo_effect(owner: User, root: Path) -> None:
    (root / "Purchasing").mkdir()
    result = create(owner, ENTRIES, "~/Purchasing/summary.xlsx")

    target = root / "Purchasing" / "summary.xlsx"
    assert result.outcome == "success"
    assert result.value == {
        "path": "Purchasing/summary.xlsx", "format": "xlsx", "rows_written": 2, "protected_cells": 1,
        "columns": ["supplier", "price", "currency", "address"],
    }  # fmt: skip
    assert result.files[0].path == "Purchasing/summary.xlsx"
    assert result.files[0].content_type == SPREADSHEET_CONTENT_TYPES[".xlsx"]
    assert result.files[0].size == target.stat().st_size
    assert result.effects == (
        {
            "kind": "file_created", "path": "Purchasing/summary.xlsx", "size": target.stat().st_size,
            "sha256": hashlib.sha256(target.read_bytes()).hexdigest(),
        },
    )  # fmt: skip
    rows = sheet_rows(target)
    assert rows[0] == ("supplier", "price", "currency", "address")
    assert rows[1][1] == pytest.approx(1640.90) and isinstance(rows[1][1], float)
    assert rows[2][0] == '=HYPERLINK("http://evil")'  # stored as text, never a formula
    assert load_workbook(target).worksheets[0]["A3"].data_type == "s"
    assert rows[2][1] is None
    assert os.listdir(root / "Purchasing") == ["summary.xlsx"]  # no temporary left


def test_creates_a_csv(owner: User, root: Path) -> None:
    result = create(owner, ENTRIES[:1], "report.csv")
    assert result.outcome == "success"
    assert result.files[0].content_type == "text/csv"
    with open(root / "report.csv", encoding="utf-8-sig", newline="") as handle:
        assert list(csv.reader(handle)) == [
            ["supplier", "price", "currency", "address"],
            ["Alfa Ufficio S.r.l.", "1640.90", "EUR", "Purchasing/quote1.pdf"],
        ]


def test_headings_name_the_fields_they_show(owner: User, root: Path) -> None:
    result = create(owner, ENTRIES[:1], "~/summary.xlsx", headings=["Fornitore", "Prezzo", "Note"])
    assert result.outcome == "success"
    assert sheet_rows(root / "summary.xlsx") == [("Fornitore", "Prezzo", "Note"), ("Alfa Ufficio S.r.l.", 1640.9, None)]
    assert any("'Note' matches no extracted field" in notice for notice in result.notices)


def test_an_existing_file_is_never_overwritten(owner: User, root: Path) -> None:
    target = root / "summary.xlsx"
    target.write_bytes(b"the user's own file")
    result = create(owner, ENTRIES, "~/summary.xlsx")
    assert result.outcome == "failed"
    assert result.error is not None
    assert (result.error.error_class, result.error.code) == ("permanent", "already_exists")
    assert "~/summary.xlsx already exists" in result.error.message
    assert target.read_bytes() == b"the user's own file"
    assert os.listdir(root) == ["summary.xlsx"]


def test_a_dangling_link_at_the_destination_counts_as_existing(owner: User, root: Path, tmp_path: Path) -> None:
    os.symlink(tmp_path / "nowhere.xlsx", root / "summary.xlsx")
    result = create(owner, ENTRIES, "~/summary.xlsx")
    assert result.error is not None and result.error.code in {"already_exists", "access_refused"}
    assert not (tmp_path / "nowhere.xlsx").exists()


def test_a_file_appearing_during_the_write_is_not_overwritten(
    owner: User, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from apps.runtime.executors import records as record_executors

    real_write = record_executors.write_xlsx  # type: ignore[attr-defined]  # the name the module calls

    def write_then_race(*args: Any, **kwargs: Any) -> Any:
        receipt = real_write(*args, **kwargs)
        (root / "summary.xlsx").write_bytes(b"written meanwhile")
        return receipt

    monkeypatch.setattr(record_executors, "write_xlsx", write_then_race)
    result = create(owner, ENTRIES, "~/summary.xlsx")
    assert result.error is not None and result.error.code == "already_exists"
    assert (root / "summary.xlsx").read_bytes() == b"written meanwhile"
    assert os.listdir(root) == ["summary.xlsx"]


@pytest.mark.parametrize("path", ["~/summary.pdf", "~/summary", "~/summary.xls", "~/summary.xlsx.txt"])
def test_unsupported_formats_are_refused(owner: User, root: Path, path: str) -> None:
    result = create(owner, ENTRIES, path)
    assert result.error is not None
    assert (result.error.error_class, result.error.code) == ("permanent", "unsupported_format")
    assert os.listdir(root) == []


@pytest.mark.parametrize(
    "path",
    ["../summary.xlsx", "/var/summary.xlsx", "~/../../summary.xlsx", "Purchasing/../../summary.xlsx", "~x/a.xlsx"],
)
def test_paths_out_of_the_root_are_refused(owner: User, root: Path, path: str) -> None:
    result = create(owner, ENTRIES, path)
    assert result.error is not None
    assert (result.error.error_class, result.error.code) == ("permanent", "access_refused")


def test_a_folder_link_leading_out_is_refused(owner: User, root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, root / "Escape")
    result = create(owner, ENTRIES, "~/Escape/summary.xlsx")
    assert result.error is not None and result.error.code == "access_refused"
    assert os.listdir(outside) == []


def test_the_folder_must_exist(owner: User, root: Path) -> None:
    result = create(owner, ENTRIES, "~/Reports/summary.xlsx")
    assert result.error is not None
    assert (result.error.code, result.error.message) == (
        "folder_not_found", "The folder ~/Reports does not exist in your files.",
    )  # fmt: skip
    assert not (root / "Reports").exists()


@pytest.mark.parametrize("path", ["~", "~/", "~/Purchasing/"])
def test_a_path_must_name_a_file(owner: User, root: Path, path: str) -> None:
    result = create(owner, ENTRIES, path)
    assert result.error is not None and result.error.code == "invalid_path"


def test_no_items_is_empty_and_writes_nothing(owner: User, root: Path) -> None:
    result = create(owner, (), "~/summary.xlsx")
    assert result.outcome == "empty"
    assert result.files == () and result.effects == ()
    assert os.listdir(root) == []


def test_rows_keep_scalars_and_turn_only_marked_amounts_into_numbers() -> None:
    rows = spreadsheet_rows(
        [{"code": "00123", "price": "12.50", "size": 3, "evidence": {"price": {"type": "amount"}}, "tags": ["a"]}]
    )
    assert rows == [{"code": "00123", "price": Decimal("12.50"), "size": 3}]


def test_another_owner_writes_only_in_their_own_files(owner: User, second_user: User, root: Path) -> None:
    result = create(second_user, ENTRIES, "~/summary.xlsx")
    assert result.outcome == "success"
    assert not (root / "summary.xlsx").exists()


# --- The spec's example ------------------------------------------------------------------


def test_the_spec_example_chain_produces_a_summary_with_numeric_prices(owner: User, root: Path) -> None:
    """ "Read the three quotes in the Purchasing folder, compare their prices, and create a summary table"."""
    write_quotes(root / "Purchasing")
    plan: list[tuple[Executor, dict[str, Any]]] = [
        (FindFilesExecutor(), {"base_path": "~/Purchasing", "pattern": "*.pdf"}),
        (ReadFilesExecutor(), {"from_step": 1}),
        (ExtractEntriesExecutor(), {"from_step": 2, "fields": ["supplier", "price"]}),
        (CreateFilesSpreadsheetExecutor(), {"from_step": 3, "path": "~/Purchasing/summary.xlsx"}),
    ]
    results: list[StepResult] = []
    for index, (executor, args) in enumerate(plan):
        resolved = {key: results[value - 1].items if key == "from_step" else value for key, value in args.items()}
        results.append(executor.run(context_for(owner, index), resolved))

    assert [result.outcome for result in results] == ["success"] * 4
    assert results[3].value["path"] == "Purchasing/summary.xlsx"
    rows = sheet_rows(root / "Purchasing" / "summary.xlsx")
    assert rows[0] == ("supplier", "price", "currency", "address")
    by_supplier = {row[0]: row[1] for row in rows[1:]}
    assert by_supplier == {quote.supplier: pytest.approx(float(quote.total)) for quote in QUOTES}
    # Numeric cells (1250.00 reads back as the number 1250), never text.
    assert all(isinstance(price, int | float) and not isinstance(price, bool) for price in by_supplier.values())
    cheapest = min(rows[1:], key=lambda row: row[1])
    assert cheapest[0] == "Gamma Forniture S.p.A."


def test_the_chain_with_a_scanned_quote_is_partial_and_says_why(owner: User, root: Path) -> None:
    write_quotes(root / "Purchasing", (QUOTE_1, QUOTE_2))
    (root / "Purchasing" / "quote3.pdf").write_bytes(scanned_pdf())
    found = FindFilesExecutor().run(context_for(owner), {"base_path": "~/Purchasing", "pattern": "*.pdf"})
    read = ReadFilesExecutor().run(context_for(owner), {"from_step": found.items})
    entries = extract(owner, read.items, ["supplier", "price"])
    sheet = create(owner, entries.items, "~/Purchasing/summary.xlsx")

    assert [found.outcome, read.outcome, entries.outcome, sheet.outcome] == ["success", "partial", "partial", "success"]
    assert "quote3.pdf needs optical character recognition (not run)." in read.notices
    assert "Not read, so nothing was extracted from: quote3.pdf." in entries.notices
    assert sheet.value["rows_written"] == 2
