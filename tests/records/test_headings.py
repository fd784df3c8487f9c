"""Spreadsheet headings reuse extracted fields, never by guessing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from apps.records.headings import AmbiguousHeading, Column, InvalidHeadings, resolve_columns
from apps.records.rows import Row

ROWS: list[Row] = [
    {"supplier": "ACME", "price": 10, "issue_date": "01/02/2026", "due_date": "01/03/2026"},
    {"supplier": "Beta", "price": 12, "issue_date": "05/02/2026", "due_date": "05/03/2026"},
]


def _keys(rows: Sequence[Row], headings: list[str], **kwargs: Any) -> list[str | None]:
    return [column.key for column in resolve_columns(rows, headings, **kwargs).columns]


def test_exact_name_comes_first() -> None:
    rows = [{"Price": 1, "price": 2}]
    assert _keys(rows, ["price"]) == ["price"]


def test_heading_differing_only_in_case_or_spaces_reuses_the_field() -> None:
    assert _keys(ROWS, ["  Supplier ", "PRICE"]) == ["supplier", "price"]


def test_heading_ignoring_punctuation_and_accents_reuses_the_field() -> None:
    rows = [{"Città": "Roma", "n_fattura": "A1"}]
    assert _keys(rows, ["citta", "N. Fattura"]) == ["Città", "n_fattura"]


def test_ambiguity_is_an_error_naming_the_candidates_not_the_first_field() -> None:
    rows = [{"Total": 1, "total ": 2}]
    with pytest.raises(AmbiguousHeading) as raised:
        resolve_columns(rows, ["TOTAL"])
    assert set(raised.value.candidates) == {"Total", "total "}


def test_collision_first_seen_in_the_last_rows_is_still_ambiguous() -> None:
    rows: list[Row] = [{"Amount": index} for index in range(50)]
    rows.append({"amount": 99})
    with pytest.raises(AmbiguousHeading):
        resolve_columns(rows, ["AMOUNT"])


def test_vocabulary_matches_an_italian_heading_to_an_english_key() -> None:
    rows: list[Row] = [{"invoice_number": "A1", "amount_due": 5, "status": "paid"}]
    assert _keys(rows, ["Numero fattura", "Importo", "Stato"]) == ["invoice_number", "amount_due", "status"]


def test_issue_and_due_dates_stay_distinct() -> None:
    assert _keys(ROWS, ["Data emissione", "Scadenza"]) == ["issue_date", "due_date"]


def test_a_bare_date_heading_does_not_pick_issue_or_due_date() -> None:
    plan = resolve_columns(ROWS, ["Data"], schema=list(ROWS[0]))
    assert plan.columns == (Column("Data", None),)
    assert plan.notices


def test_competing_fields_of_one_kind_are_ambiguous_without_binding() -> None:
    rows = [{"Importo": 1, "Totale da pagare": 2}]
    with pytest.raises(AmbiguousHeading):
        resolve_columns(rows, ["Amount"])
    plan = resolve_columns(rows, ["Amount"], bindings={"Amount": "Totale da pagare"})
    assert plan.columns == (Column("Amount", "Totale da pagare"),)


def test_headings_do_not_add_fields_to_a_declared_schema() -> None:
    plan = resolve_columns(ROWS, ["Supplier", "Notes"], schema=["supplier", "price"])
    assert plan.columns == (Column("Supplier", "supplier"), Column("Notes", None))
    assert plan.requested_fields == ()
    assert "Notes" in plan.notices[0]


def test_explicit_binding_can_request_another_field() -> None:
    plan = resolve_columns(ROWS, ["Supplier", "VAT"], schema=["supplier"], bindings={"VAT": "vat_number"})
    assert plan.columns[1] == Column("VAT", "vat_number")
    assert plan.requested_fields == ("vat_number",)


def test_without_a_schema_headings_define_it() -> None:
    plan = resolve_columns([], ["Supplier", "Price"])
    assert [column.key for column in plan.columns] == ["Supplier", "Price"]
    assert plan.requested_fields == ("Supplier", "Price")


def test_field_discovery_covers_every_row() -> None:
    rows: list[Row] = [{"a": 1}, {"a": 2, "late": None}]
    plan = resolve_columns(rows)
    assert [column.key for column in plan.columns] == ["a", "late"]


def test_a_field_present_but_empty_gives_an_empty_column() -> None:
    rows: list[Row] = [{"supplier": "ACME", "notes": ""}, {"supplier": "Beta", "notes": None}]
    assert _keys(rows, ["Notes"]) == ["notes"]


@pytest.mark.parametrize("headings", [["A", "A"], ["A", " "]])
def test_repeated_or_empty_headings_are_refused(headings: list[str]) -> None:
    with pytest.raises(InvalidHeadings):
        resolve_columns(ROWS, headings)


def test_binding_for_a_heading_not_in_the_sheet_is_refused() -> None:
    with pytest.raises(InvalidHeadings):
        resolve_columns(ROWS, ["Supplier"], bindings={"Price": "price"})
