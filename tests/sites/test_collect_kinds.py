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


def _delivered(request: str, rows: list[dict[str, str]]) -> tuple[list[str], list[str]]:
    import datetime as dt

    from apps.records.rows import Source
    from apps.sites.collection.budget import CollectionBudget, CollectionLedger
    from apps.sites.collection.delivery import deliver
    from apps.sites.collection.findings import Findings

    plan = collection_plan(request, today=dt.date(2026, 12, 1))
    findings = Findings()
    findings.add_list(Source("read 1", rows))
    result = deliver(findings, plan, ledger=CollectionLedger(CollectionBudget()), origin="http://127.0.0.1")
    return [str(item["identifier_number"]) for item in result.items], list(result.notices)


def test_the_words_qualifying_the_object_leave_out_the_same_kind_of_another_thing() -> None:
    rows = [
        {"identifier_number": "KB1", "date": "30/11/2026", "Document": "Current Account statement - Nov 2026"},
        {"identifier_number": "KS1", "date": "30/09/2026", "Document": "Online Saver statement - quarter ending Sep"},
        {"identifier_number": "KB2", "date": "31/10/2026", "Document": "Current Account statement - Oct 2026"},
        {"identifier_number": "X1", "date": "20/11/2026", "Document": "Annual summary"},  # names no statement
    ]
    kept, notices = _delivered("my current account statements from 2026", rows)
    assert kept == ["KB1", "KB2", "X1"]
    assert "1 item(s) that are a statement but not of 'current' were left out." in notices


def test_a_qualifier_no_row_says_filters_nothing() -> None:
    rows = [
        {"identifier_number": "CT1", "date": "01/04/2026", "Type": "Bill"},
        {"identifier_number": "CT2", "date": "01/05/2026", "Type": "Bill"},
    ]
    kept, _ = _delivered("every council tax bill from 2026", rows)
    assert kept == ["CT1", "CT2"]  # the whole list is the council tax's, it need not say so


def test_letters_and_comunicazioni_are_notices_not_statements() -> None:
    plan = collection_plan("all gas statements from 2026")
    assert outside_request({"identifier_number": "LTR-1", "Type": "Letter"}, plan) == "constraint"
    assert outside_request({"identifier_number": "C-1", "Tipo": "Comunicazioni"}, plan) == "constraint"
