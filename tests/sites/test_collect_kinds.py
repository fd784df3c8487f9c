"""Objects that must stay apart stay apart: a credit note is not the invoice it cites (no browser)."""

from __future__ import annotations

from apps.sites.collection.delivery import outside_request
from apps.sites.collection.scope import collection_plan


def test_a_row_that_says_it_is_a_credit_note_is_outside_a_request_for_bills() -> None:
    plan = collection_plan("tutte le bollette del 2026")

    assert outside_request({"identifier_number": "NC-2026-0007", "tipo": "Nota di credito"}, plan) == "constraint"
    assert outside_request({"identifier_number": "FT-2026-0019", "tipo": "Bolletta luce"}, plan) == ""
    assert outside_request({"identifier_number": "FT-2026-0020", "descrizione": "Fornitura gas"}, plan) == ""


def test_a_credit_note_that_cites_its_invoice_is_kept_when_credit_notes_are_asked_for() -> None:
    plan = collection_plan("all credit notes from 2026")

    assert outside_request({"identifier_number": "CN-7", "type": "Credit note for invoice INV-77"}, plan) == ""
    assert outside_request({"identifier_number": "INV-78", "type": "Invoice"}, plan) == "constraint"


def test_payments_are_not_invoices_and_documents_decide_nothing() -> None:
    bills = collection_plan("all bills from 2026")
    documents = collection_plan("all documents from 2026")

    assert outside_request({"identifier_number": "P-1", "type": "Payment received"}, bills) == "constraint"
    assert outside_request({"identifier_number": "P-1", "type": "Payment received"}, documents) == ""


def test_letters_and_comunicazioni_are_notices_not_statements() -> None:
    plan = collection_plan("all gas statements from 2026")
    assert outside_request({"identifier_number": "LTR-1", "Type": "Letter"}, plan) == "constraint"
    assert outside_request({"identifier_number": "C-1", "Tipo": "Comunicazioni"}, plan) == "constraint"
