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


def test_kinds_asked_together_keep_each_and_leave_out_the_others() -> None:
    plan = collection_plan("every council tax bill and letter dated 2026")
    assert plan.scope.kinds == ("invoice", "notice")
    assert {"letter", "bill"} <= set(plan.object_words)  # both kinds name the places to look

    assert outside_request({"identifier_number": "B-1", "Type": "Council tax bill", "date": "1 Apr 2026"}, plan) == ""
    assert outside_request({"identifier_number": "L-1", "Type": "Reminder letter", "date": "3 May 2026"}, plan) == ""
    assert outside_request({"identifier_number": "R-1", "Type": "Payment receipt", "date": "3 May 2026"}, plan) == (
        "constraint"
    )
    assert outside_request({"identifier_number": "B-0", "Type": "Council tax bill", "date": "1 Apr 2025"}, plan) == (
        "period"
    )


def _delivered(request: str, rows: list[dict[str, str]]) -> tuple[list[str], list[str]]:
    import datetime as dt

    from apps.records.rows import Source
    from apps.sites.collection.budget import CollectionBudget, CollectionLedger
    from apps.sites.collection.delivery import deliver
    from apps.sites.collection.findings import Findings

    plan = collection_plan(request, today=dt.date(2026, 12, 1))
    findings = Findings()
    findings.add_list(Source("read 1", tuple(rows)))
    result = deliver(findings, plan, ledger=CollectionLedger(CollectionBudget()), origin="http://127.0.0.1")
    return [str(item["identifier_number"]) for item in result.items], list(result.notices)


def test_an_attribute_saying_the_qualifier_in_some_rows_leaves_out_the_others() -> None:
    rows = [
        {"identifier_number": "KB1", "date": "30/11/2026", "Document": "Current Account statement - Nov 2026",
         "Account": "Current Account IE64 KEST 9310 4488"},
        {"identifier_number": "KS1", "date": "30/09/2026", "Document": "Online Saver statement - Sep 2026",
         "Account": "Online Saver IE12 KEST 9310 4455"},
        {"identifier_number": "KB2", "date": "31/10/2026", "Document": "Current Account statement - Oct 2026",
         "Account": "Current Account IE64 KEST 9310 4488"},
    ]  # fmt: skip
    kept, notices = _delivered("my current account statements from 2026", rows)
    assert kept == ["KB1", "KB2"]
    assert "1 item(s) whose Account is not 'current' (Online Saver KEST) were left out." in notices
    everything, _ = _delivered("my statements from 2026", rows)
    assert everything == ["KB1", "KS1", "KB2"]  # no qualifier, no filter


def test_a_qualifier_said_only_where_the_kind_is_named_or_by_every_row_filters_nothing() -> None:
    titles = [
        {"identifier_number": "CT1", "date": "01/04/2026", "Type": "Council tax bill", "Ward": "North"},
        {"identifier_number": "CT2", "date": "01/05/2026", "Type": "Supplemental Tax Bill", "Ward": "North"},
    ]
    kept, _ = _delivered("every council tax bill from 2026", titles)
    assert kept == ["CT1", "CT2"]  # the type names the kind: it says what the item is, not what it is of
    same = [
        {"identifier_number": "E1", "date": "01/04/2026", "Service": "Electricity"},
        {"identifier_number": "E2", "date": "01/05/2026", "Service": "Electricity"},
    ]
    assert _delivered("my electricity bills from 2026", same)[0] == ["E1", "E2"]


def test_refunds_and_reimbursements_are_neither_invoices_nor_receipts() -> None:
    invoices = collection_plan("the 2026 invoices, skip refunds")
    assert outside_request({"identifier_number": "RFD-2026-1", "Type": "Refund"}, invoices) == "constraint"
    assert outside_request({"identifier_number": "INV-2026-1", "Type": "Invoice"}, invoices) == ""
    receipts = collection_plan("tutte le quietanze del 2026")
    assert outside_request({"identifier_number": "RIMB 2026/7", "Tipo": "Rimborso sinistro"}, receipts) == "constraint"
    assert outside_request({"identifier_number": "Q 2026/7", "Tipo": "Quietanza"}, receipts) == ""


def test_a_type_field_naming_the_kind_in_some_rows_leaves_out_rows_it_calls_only_a_document() -> None:
    rows = [
        {"identifier_number": "EC1", "date": "31/10/2026", "Tipo": "Estratto conto"},
        {"identifier_number": "CF1", "date": "02/02/2026", "Tipo": "Documento fiscale"},
        {"identifier_number": "DS1", "date": "15/01/2026", "Tipo": "Documento di sintesi"},
        {"identifier_number": "EC2", "date": "30/09/2026", "Tipo": "Estratto conto"},
    ]
    kept, notices = _delivered("tutti gli estratti conto del 2026", rows)
    assert kept == ["EC1", "EC2"]
    assert (
        "2 item(s) whose Tipo says another document (Documento di sintesi, Documento fiscale), not a statement, "
        "were left out."
    ) in notices
    assert _delivered("tutti i documenti del 2026", rows)[0] == ["EC1", "CF1", "DS1", "EC2"]  # documents: all
    only_documents = [row for row in rows if row["Tipo"].startswith("Documento")]
    assert _delivered("tutti gli estratti conto del 2026", only_documents)[0] == ["CF1", "DS1"]  # nothing decides
