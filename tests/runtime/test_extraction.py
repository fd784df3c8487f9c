"""The deterministic extraction engine: labels, tables, the stated choice among competitors, the model fallback."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.runtime.extraction.rules import (
    LETTERHEAD_LINES,
    MAX_FIELDS,
    TIER_OTHER_AMOUNT,
    TIER_PARTIAL_AMOUNT,
    TIER_PAYABLE_TOTAL,
    TIER_TOTAL,
    DocumentExtraction,
    InvalidFields,
    amount_tier,
    company_name,
    complete_with_model,
    extract_document,
    field_specs,
)

SUPPLIER_AND_PRICE = field_specs(["supplier", "price"])


def extract(text: str, fields: Sequence[str] = ("supplier", "price")) -> DocumentExtraction:
    return extract_document(text, field_specs(list(fields)), name="doc.pdf")


def value(result: DocumentExtraction, field: str) -> str | None:
    found = result.values.get(field)
    return found.value if found is not None else None


# --- Label/value forms -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "supplier", "price"),
    [
        ("Fornitore: ACME S.r.l.\nTotale: € 1.234,56", "ACME S.r.l.", "1234.56"),
        ("Supplier - Beta Ltd\nTotal - 1,234.56", "Beta Ltd", "1234.56"),
        ("Fornitore    ACME S.r.l.\nPrezzo totale  1.234,56 EUR", "ACME S.r.l.", "1234.56"),
        ("Fornitore:\nACME S.r.l.\nTotale:\n€ 1.234,56", "ACME S.r.l.", "1234.56"),
        ("Supplier\nBeta Ltd\nTotal\n1,234.56", "Beta Ltd", "1234.56"),
        ("Fornitore: ACME S.r.l.    Totale: 1.234,56", "ACME S.r.l.", "1234.56"),
        ("Fornitore ACME S.r.l.\nTotale offerta EUR 1.234,56", "ACME S.r.l.", "1234.56"),
        ("Fornitore: ACME S.r.l.\nTotale:    € 1.234,56", "ACME S.r.l.", "1234.56"),
        ("Fornitore: ACME S.r.l.\nTotale: € 1.234,56 (IVA 22% inclusa)", "ACME S.r.l.", "1234.56"),
    ],
)
def test_label_value_forms(text: str, supplier: str, price: str) -> None:
    result = extract(text)
    assert value(result, "supplier") == supplier
    assert value(result, "price") == price
    assert result.problems == {}


def test_amounts_keep_currency_source_text_and_label() -> None:
    found = extract("Totale: € 1.640,90").values["price"]
    assert (found.value, found.currency, found.label, found.text, found.method, found.line) == (
        "1640.90", "EUR", "Totale", "€ 1.640,90", "label_value", 1,
    )  # fmt: skip
    assert found.evidence() == {
        "type": "amount", "method": "label_value", "label": "Totale", "line": 1,
        "text": "€ 1.640,90", "currency": "EUR",
    }  # fmt: skip


def test_negative_amounts_are_read() -> None:
    assert value(extract("Totale: -1.234,56 €"), "price") == "-1234.56"


# --- Tables ---------------------------------------------------------------------------


def test_a_table_with_one_row_states_document_values() -> None:
    text = "Fornitore    Prezzo\nACME S.r.l.    1.200,00\n"
    # Two label cells make a header; its one row gives both values.
    result = extract(text)
    assert value(result, "supplier") == "ACME S.r.l."
    assert value(result, "price") == "1200.00"


def test_a_pipe_table_with_a_separator_line() -> None:
    text = "| Item | Qty | Total price |\n|---|---|---|\n| Chair | 10 | 1,180.00 |"
    assert value(extract(text, ["price"]), "price") == "1180.00"


def test_tab_separated_table() -> None:
    assert value(extract("Articolo\tQuantità\tImporto\nSedia\t10\t1.200,00", ["price"]), "price") == "1200.00"


def test_line_items_alone_are_several_values_and_leave_the_field_empty() -> None:
    text = "Descrizione    Qtà    Importo\nSedia    10    1.200,00\nTavolo    2    600,00"
    result = extract(text, ["price"])
    assert "price" not in result.values
    assert "several values" in result.problems["price"]
    assert "1.200,00" in result.problems["price"] and "600,00" in result.problems["price"]


def test_a_stated_total_beats_line_items() -> None:
    text = (
        "Descrizione    Qtà    Prezzo unitario    Importo\n"
        "Sedia    10    120,00    1.200,00\n"
        "Tavolo    2    300,00    600,00\n"
        "Totale offerta: 1.800,00"
    )
    result = extract(text, ["price"])
    assert value(result, "price") == "1800.00"
    assert result.notices == ()  # line items losing to a stated total need no explanation


# --- Competing labels: a stated rule, never the first match ------------------------------


def test_payable_total_beats_net_total_with_a_notice() -> None:
    result = extract("Totale imponibile: 1.000,00\nTotale IVA inclusa: 1.220,00", ["price"])
    assert value(result, "price") == "1220.00"
    assert result.values["price"].label == "Totale IVA inclusa"
    assert any("Totale imponibile" in notice for notice in result.notices)


def test_the_order_of_competing_labels_does_not_matter() -> None:
    first = extract("Totale IVA inclusa: 1.220,00\nTotale imponibile: 1.000,00", ["price"])
    second = extract("Totale imponibile: 1.000,00\nTotale IVA inclusa: 1.220,00", ["price"])
    assert value(first, "price") == value(second, "price") == "1220.00"


def test_same_label_with_two_values_leaves_the_field_empty_naming_both() -> None:
    result = extract("Totale: 100,00\nAltro testo\nTotale: 120,00", ["price"])
    assert "price" not in result.values
    problem = result.problems["price"]
    assert "several values" in problem and "100,00" in problem and "120,00" in problem
    assert "line 1" in problem and "line 3" in problem


def test_same_value_stated_twice_is_one_value() -> None:
    assert value(extract("Totale: € 100,00\nTotale: 100,00 EUR", ["price"]), "price") == "100.00"


def test_two_currencies_for_the_same_label_are_competing_values() -> None:
    result = extract("Totale: € 100,00\nTotale: USD 100.00", ["price"])
    assert "price" not in result.values


def test_only_a_unit_price_is_used_with_a_notice_that_no_total_was_stated() -> None:
    result = extract("Prezzo unitario: 125,00 €", ["price"])
    assert value(result, "price") == "125.00"
    assert any("no total" in notice for notice in result.notices)


def test_a_name_match_beats_a_kind_match() -> None:
    result = extract("Prezzo: 12,00\nTotale: 1.234,56", ["prezzo"])
    assert value(result, "prezzo") == "12.00"


def test_an_unreadable_best_label_leaves_the_field_empty_rather_than_falling_back() -> None:
    result = extract("Totale: da concordare\nPrezzo unitario: 10,00", ["price"])
    assert "price" not in result.values
    assert "no readable amount" in result.problems["price"]


def test_a_heading_above_prose_is_not_an_unreadable_amount() -> None:
    result = extract("Totale\nVedi le condizioni allegate.\nTotale: 1.234,56", ["price"])
    assert value(result, "price") == "1234.56"


def test_ambiguous_thousands_are_read_with_the_documents_own_separator() -> None:
    assert value(extract("Totale: € 1.200\nSconto: 12,50", ["price"]), "price") == "1200"
    assert value(extract("Total: 1,200\nDiscount: 12.50", ["price"]), "price") == "1200"


def test_ambiguous_thousands_without_evidence_stay_empty_with_a_reason() -> None:
    result = extract("Totale: € 1.200", ["price"])
    assert "price" not in result.values
    assert "no readable amount" in result.problems["price"]


def test_several_numbers_in_one_value_prefer_the_one_with_a_currency() -> None:
    assert value(extract("Totale (10 pezzi): 10 sedie, € 1.200,00", ["price"]), "price") == "1200.00"
    result = extract("Totale: 1.000,00 + 220,00", ["price"])
    assert "price" not in result.values


@pytest.mark.parametrize(
    ("label", "tier"),
    [
        ("Totale IVA inclusa", TIER_PAYABLE_TOTAL),
        ("Total (VAT incl.)", TIER_PAYABLE_TOTAL),
        ("Grand total", TIER_PAYABLE_TOTAL),
        ("Totale da pagare", TIER_PAYABLE_TOTAL),
        ("Amount due", TIER_PAYABLE_TOTAL),
        ("Totale", TIER_TOTAL),
        ("Prezzo totale", TIER_TOTAL),
        ("Total price", TIER_TOTAL),
        ("Importo", TIER_OTHER_AMOUNT),
        ("Price", TIER_OTHER_AMOUNT),
        ("Prezzo unitario", TIER_PARTIAL_AMOUNT),
        ("Totale imponibile", TIER_PARTIAL_AMOUNT),
        ("Total excl. VAT", TIER_PARTIAL_AMOUNT),
        ("Totale IVA", TIER_PARTIAL_AMOUNT),
        ("Subtotal", TIER_PARTIAL_AMOUNT),
    ],
)
def test_amount_tiers(label: str, tier: int) -> None:
    assert amount_tier(label) == tier


# --- Supplier: the letterhead fallback ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Alfa Ufficio S.r.l.", "Alfa Ufficio S.r.l."),
        ("Gamma Forniture S.p.A. - Sede legale Milano", "Gamma Forniture S.p.A."),
        ("Beta Office Supplies Ltd", "Beta Office Supplies Ltd"),
        ("Delta Möbel GmbH", "Delta Möbel GmbH"),
        ("Rossi & Figli snc", "Rossi & Figli snc"),
        ("Verdi s.a.s.", "Verdi s.a.s."),
        ("Acme Inc.", "Acme Inc."),
        ("Via Roma 1, Milano", None),
        ("Preventivo n. 12", None),
        ("Srl", None),
    ],
)
def test_company_name(text: str, name: str | None) -> None:
    assert company_name(text) == name


def test_letterhead_names_the_supplier_when_no_label_exists_with_a_notice() -> None:
    result = extract("Gamma Forniture S.p.A.\nOfferta n. 77\nTotale: 1.250,00")
    assert value(result, "supplier") == "Gamma Forniture S.p.A."
    assert result.values["supplier"].method == "letterhead"
    assert result.values["supplier"].label is None
    assert any("letterhead" in notice for notice in result.notices)


def test_letterhead_stops_at_the_addressee() -> None:
    result = extract("PREVENTIVO\nSpett.le Metnos S.p.A.\nTotale: 1.250,00")
    assert "supplier" not in result.values


def test_letterhead_is_only_the_top_of_the_document() -> None:
    filler = "\n".join(f"riga {number}" for number in range(LETTERHEAD_LINES))
    assert "supplier" not in extract(f"{filler}\nGamma Forniture S.p.A.").values


def test_two_companies_in_the_letterhead_leave_the_supplier_empty() -> None:
    result = extract("Alfa S.r.l.\nBeta S.p.A.\nTotale: 10,00")
    assert "supplier" not in result.values
    assert "several companies" in result.problems["supplier"]


def test_a_supplier_label_wins_over_the_letterhead() -> None:
    result = extract("Alfa Ufficio S.r.l.\nFornitore: Alfa Ufficio Srl (sede di Roma)")
    assert value(result, "supplier") == "Alfa Ufficio Srl (sede di Roma)"
    assert result.values["supplier"].method == "label_value"


# --- Absence is stated, never filled -----------------------------------------------------


def test_missing_fields_are_absent_not_placeholders() -> None:
    result = extract("Un documento qualsiasi, senza etichette.\nSolo testo.")
    assert result.values == {}
    assert result.missing(SUPPLIER_AND_PRICE) == ("supplier", "price")


def test_fields_unknown_to_the_vocabulary_match_by_name_only() -> None:
    result = extract("Validità offerta: 30 giorni\nConsegna: 15 giorni", ["validità offerta"])
    assert value(result, "validità offerta") == "30 giorni"
    assert "consegna" not in result.values


def test_a_count_is_not_an_amount() -> None:
    assert "price" not in extract("Quantità: 10", ["price"]).values


# --- Requested fields --------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        [],
        "supplier",
        ["supplier", "Supplier"],
        ["supplier", ""],
        ["address"],
        [3],
        ["x" * 61],
        ["f"] * (MAX_FIELDS + 1),
    ],
)
def test_unusable_fields_are_refused(fields: object) -> None:
    with pytest.raises(InvalidFields):
        field_specs(fields)


def test_field_kinds_come_from_the_shared_vocabulary() -> None:
    assert [(spec.name, spec.kind) for spec in field_specs(["supplier", "prezzo", "Totale", "colour"])] == [
        ("supplier", "supplier"), ("prezzo", "amount"), ("Totale", "amount"), ("colour", None),
    ]  # fmt: skip


# --- The optional model: only for what is missing, only what the document states ----------


class RecordingModel:
    def __init__(self, answer: Mapping[str, str | None] | Exception | object) -> None:
        self.answer = answer
        self.calls: list[tuple[str, tuple[str, ...]]] = []

    def __call__(self, text: str, fields: Sequence[str]) -> Mapping[str, str | None]:
        self.calls.append((text, tuple(fields)))
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer  # type: ignore[return-value]


TEXT_WITHOUT_LABELS = "Preventivo\nOfferta per 10 sedie della ditta Omega Arredi, in tutto 1.250,00 euro."


def test_model_is_asked_only_for_missing_fields_and_its_values_are_verified() -> None:
    base = extract_document(TEXT_WITHOUT_LABELS + "\nTotale: 1.250,00", SUPPLIER_AND_PRICE, name="doc.pdf")
    model = RecordingModel({"supplier": "Omega Arredi", "price": "999,00"})
    result = complete_with_model(TEXT_WITHOUT_LABELS, SUPPLIER_AND_PRICE, base, model, name="doc.pdf")
    assert model.calls == [(TEXT_WITHOUT_LABELS, ("supplier",))]
    assert value(result, "supplier") == "Omega Arredi"
    assert result.values["supplier"].method == "model"
    assert value(result, "price") == "1250.00"  # the deterministic value is never replaced


def test_model_values_the_document_does_not_state_are_refused() -> None:
    base = extract_document(TEXT_WITHOUT_LABELS, SUPPLIER_AND_PRICE, name="doc.pdf")
    model = RecordingModel({"supplier": "Invented Corp", "price": "999,00"})
    result = complete_with_model(TEXT_WITHOUT_LABELS, SUPPLIER_AND_PRICE, base, model, name="doc.pdf")
    assert result.values == {}
    assert sum("was not used" in notice for notice in result.notices) == 2


def test_model_amounts_must_parse_and_be_stated() -> None:
    base = extract_document(TEXT_WITHOUT_LABELS, SUPPLIER_AND_PRICE, name="doc.pdf")
    good = complete_with_model(
        TEXT_WITHOUT_LABELS, SUPPLIER_AND_PRICE, base, RecordingModel({"price": "€ 1.250,00"}), name="doc.pdf"
    )
    assert value(good, "price") == "1250.00"
    assert good.values["price"].currency == "EUR"
    bad = complete_with_model(
        TEXT_WITHOUT_LABELS, SUPPLIER_AND_PRICE, base, RecordingModel({"price": "about twelve hundred"}), name="doc.pdf"
    )
    assert "price" not in bad.values


@pytest.mark.parametrize("answer", [RuntimeError("timeout"), ["not", "a", "mapping"], None])
def test_a_failing_model_keeps_the_deterministic_result(answer: object) -> None:
    base = extract_document("Fornitore: ACME S.r.l.", SUPPLIER_AND_PRICE, name="doc.pdf")
    result = complete_with_model(
        "Fornitore: ACME S.r.l.", SUPPLIER_AND_PRICE, base, RecordingModel(answer), name="doc.pdf"
    )
    assert result.values == base.values
    assert any("extraction model gave no usable answer" in notice for notice in result.notices)


def test_model_is_not_called_when_nothing_is_missing() -> None:
    text = "Fornitore: ACME S.r.l.\nTotale: 10,00"
    base = extract_document(text, SUPPLIER_AND_PRICE, name="doc.pdf")
    model = RecordingModel({})
    assert complete_with_model(text, SUPPLIER_AND_PRICE, base, model, name="doc.pdf") is base
    assert model.calls == []


# --- Arbitrary text never breaks the engine -----------------------------------------------

_DOCUMENT_ALPHABET = st.sampled_from([*"aeiouTtrlsnFPIVAS.,:;|-€$ 0123456789\n\t()%/", "Totale", "Fornitore"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_DOCUMENT_ALPHABET, max_size=200).map("".join))
def test_arbitrary_text_gives_values_the_text_states_or_nothing(text: str) -> None:
    result = extract_document(text, SUPPLIER_AND_PRICE, name="doc.pdf")
    for found in result.values.values():
        assert found.text and found.text.split()[0] in text
        if found.type == "amount":
            assert found.value.lstrip("-").replace(".", "").isdigit()
    assert set(result.values) | set(result.problems) <= {"supplier", "price"}


# --- Five languages, and the traps of real invoices and receipts -------------------------------

INVOICE_FIELDS = ("invoice_number", "issue_date", "due_date", "total", "net", "tax", "supplier")


def values_of(text: str, fields: Sequence[str] = INVOICE_FIELDS) -> dict[str, str | None]:
    result = extract_document(text, field_specs(list(fields)), name="doc.pdf")
    return {field: value(result, field) for field in fields}


@pytest.mark.parametrize(
    "text",
    [
        # German, one label per line and its value below
        "Muster Haustechnik GmbH\nHauptstraße 1 · 50667 Köln\nRechnung\nRechnungsnummer\nRE-2026-001\n"
        "Rechnungsdatum\n03.02.2026\nFällig am\n17.02.2026\nNettobetrag\n100,00 €\nzzgl. 19 % MwSt.\n19,00 €\n"
        "Gesamtbetrag\n119,00 €",
        # French
        "Atelier Martin SARL\n3 rue Neuve – 75009 Paris\nFACTURE\nFacture n°\nRE-2026-001\nDate de facture\n"
        "03/02/2026\nÉchéance\n17/02/2026\nTotal HT\n100,00 €\nTVA 19 %\n19,00 €\nTotal TTC\n119,00 €",
        # Dutch
        "Bakker Installatie B.V.\nKanaalweg 1 · 3526 KL Utrecht\nFACTUUR\nFactuurnummer\nRE-2026-001\n"
        "Factuurdatum\n03-02-2026\nVervaldatum\n17-02-2026\nSubtotaal\n€ 100,00\nBTW 19%\n€ 19,00\nTotaal\n€ 119,00",
        # Italian
        "Rossi Impianti S.r.l.\nVia Roma 1 – 20123 Milano (MI)\nFATTURA\nFattura n.\nRE-2026-001\n"
        "Data emissione\n03/02/2026\nScadenza\n17/02/2026\nImponibile\n€ 100,00\nIVA 19%\n€ 19,00\n"
        "Totale fattura\n€ 119,00",
        # English, labels and values on one line
        "Smith Plumbing Ltd\n1 High Street, Bath BA1 1LZ\nINVOICE\n"
        "Invoice No. RE-2026-001     Invoice Date 03/02/2026\n"
        "Due Date 17/02/2026\nSubtotal £100.00\nVAT 19% £19.00\nTotal £119.00",
    ],
)
def test_the_same_invoice_reads_alike_in_five_languages(text: str) -> None:
    found = values_of(text)
    assert found["invoice_number"] == "RE-2026-001"
    assert (found["issue_date"], found["due_date"]) == ("2026-02-03", "2026-02-17")
    assert (found["net"], found["tax"], found["total"]) == ("100.00", "19.00", "119.00")
    assert found["supplier"] is not None and found["supplier"].split()[-1] in {"GmbH", "SARL", "B.V.", "S.r.l.", "Ltd"}


def test_net_and_tax_are_amounts_with_their_currency() -> None:
    result = extract_document("Total HT\nEUR 1 674,50\nTVA 20 %\nEUR 334,90", field_specs(["net", "tax"]), name="d")
    assert (result.values["net"].type, result.values["net"].value, result.values["net"].currency) == (
        "amount", "1674.50", "EUR",
    )  # fmt: skip
    assert result.values["tax"].value == "334.90"


def test_dates_are_iso_days_and_keep_the_text_they_came_from() -> None:
    result = extract_document("Rechnungsdatum: 14. Jänner 2026", field_specs(["issue_date"]), name="d")
    found = result.values["issue_date"]
    assert (found.type, found.value, found.text) == ("date", "2026-01-14", "14. Jänner 2026")


@pytest.mark.parametrize(
    ("text", "issue"),
    [
        ("Portland, OR 97210\nInvoice Date 03/04/2026", "2026-03-04"),  # a US address: month first
        ("Invoice Date 03/04/2026\nTotal $12.00", "2026-03-04"),  # US dollars: month first
        ("Invoice Date 03/04/2026\nShip Date 03/13/2026", "2026-03-04"),  # a day above 12 in the middle
        ("Invoice Date 03/04/2026\nTotal £12.00", "2026-04-03"),  # otherwise day first
        ("Datum 03.02.26 18:42", "2026-02-03"),  # a two-digit year is this century's
    ],
)
def test_numeric_dates_follow_the_documents_own_order(text: str, issue: str) -> None:
    assert values_of(text, ["issue_date"])["issue_date"] == issue


def test_a_document_that_writes_dates_both_ways_leaves_an_ambiguous_date_empty_with_the_reason() -> None:
    result = extract_document(
        "Invoice Date 03/04/2026\nShip Date 03/13/2026\nOrder Date 13/03/2026", field_specs(["issue_date"]), name="d"
    )
    assert "issue_date" not in result.values
    assert "both day-first and month-first" in result.problems["issue_date"]


def test_the_grand_total_beats_the_balance_left_after_a_deposit() -> None:
    text = "Totale documento\n524,60 €\nAcconto versato il 20.05.2026\n-200,00 €\nSaldo da pagare\n324,60 €"
    assert values_of(text, ["total"])["total"] == "524.60"
    text = "Total\n$1,000.00\nDeposit paid\n$400.00\nBalance due\n$600.00"
    assert values_of(text, ["total"])["total"] == "1000.00"


def test_a_balance_without_a_currency_is_not_a_total() -> None:
    assert values_of("Points this visit: 23   Balance: 1,204", ["total"])["total"] is None


def test_the_total_of_the_taxes_is_not_the_total() -> None:
    text = "Total HTVA\n2.630,00 EUR\nTotal TVA\n282,30 EUR\nTotal TVAC\n2.912,30 EUR"
    assert values_of(text, ["total", "net", "tax"]) == {"total": "2912.30", "net": "2630.00", "tax": "282.30"}


def test_amounts_paid_and_change_never_compete() -> None:
    text = "TOTAL\n$33.76\nCASH TENDERED\n$40.00\nCHANGE\n$6.24\nCHANGE DUE\n£0.00"
    assert values_of(text, ["total", "due_date"]) == {"total": "33.76", "due_date": None}


def test_a_credit_notes_reference_is_not_its_number_nor_its_date() -> None:
    text = (
        "AVOIR\nAvoir n°\nAV-2026-014\nDate\n09/04/2026\nRéf. facture\nF-2026-0210 du 17/03/2026\nTotal TTC\n-300,00 €"
    )
    assert values_of(text, ["invoice_number", "issue_date", "total"]) == {
        "invoice_number": "AV-2026-014", "issue_date": "2026-04-09", "total": "-300.00",
    }  # fmt: skip
    english = (
        "CREDIT NOTE\nCredit note No.\nCN-7\nDate of issue\n2 June 2026\n"
        "Original invoice\nINV-1\nInvoice date\n1 May 2026"
    )
    assert values_of(english, ["invoice_number", "issue_date"]) == {
        "invoice_number": "CN-7",
        "issue_date": "2026-06-02",
    }


def test_a_label_with_its_value_is_not_a_table_header() -> None:
    text = (
        "Invoice No. INV-558214     Customer No. 104732     P.O. Number 4500123987\n"
        "Order Date 03/09/2026     Ship Date 03/13/2026     Invoice Date 03/17/2026\n"
        "Terms Net 30     Due Date 04/16/2026     Ship Via UPS Freight LTL"
    )
    assert values_of(text, ["invoice_number", "issue_date", "due_date", "net"]) == {
        "invoice_number": "INV-558214", "issue_date": "2026-03-17", "due_date": "2026-04-16", "net": None,
    }  # fmt: skip


def test_a_number_in_prose_is_not_a_label() -> None:
    text = "Nota di credito n.\nNC 12/2026\nStorno parziale della fattura n. 398/2026 del 12/03/2026 per reso merce."
    assert values_of(text, ["invoice_number"])["invoice_number"] == "NC 12/2026"


def test_a_letter_states_its_number_after_a_subject_and_its_date_on_the_date_line() -> None:
    text = (
        "Cabinet Moreau Avocats\n42 boulevard Haussmann – 75009 Paris\nSociété Horizon SAS\n"
        "Paris, le 12 mai 2026\nObjet : Note d'honoraires n° 2026-117 – Dossier Horizon\n"
        "pour les diligences accomplies entre le 1er avril 2026 et le 30 avril 2026."
    )
    assert values_of(text, ["invoice_number", "issue_date", "supplier"]) == {
        "invoice_number": "2026-117", "issue_date": "2026-05-12", "supplier": "Cabinet Moreau Avocats",
    }  # fmt: skip


def test_a_due_date_stated_in_prose() -> None:
    assert values_of("Payment is due within 30 days, i.e. by 2nd April 2026.", ["due_date"])["due_date"] == "2026-04-02"
    assert values_of("Zahlungsziel: 14 Tage netto. Fällig am 28.09.2026.", ["due_date"])["due_date"] == "2026-09-28"
    assert values_of("Bei Zahlung bis 10.02.2026 gewähren wir 2 % Skonto.", ["due_date"])["due_date"] is None


def test_a_receipt_dates_itself_once_without_a_label() -> None:
    text = "GREENLEAF GROCERS\nGreenleaf Grocers Ltd\n14 Market Street, Bath BA1 1LZ\nTOTAL\n£23.47\n14/02/2026  17:26"
    result = extract_document(text, field_specs(["issue_date", "supplier"]), name="d")
    assert value(result, "issue_date") == "2026-02-14"
    assert result.values["issue_date"].method == "document_date"
    assert value(result, "supplier") == "Greenleaf Grocers Ltd"


def test_a_receipts_tax_table_states_its_totals_on_its_total_row() -> None:
    text = (
        "MwSt-Satz    Netto    MwSt   Brutto\n"
        "A  7 %       12,15    0,85    13,00\n"
        "B 19 %        4,60    0,87     5,47\n"
        "Summe        16,75    1,72    18,47\n"
    )
    assert values_of(text, ["net", "tax", "total"]) == {"net": "16.75", "tax": "1.72", "total": "18.47"}


def test_a_rate_column_is_not_the_tax() -> None:
    text = "TVA        HT      TVA      TTC\n5,5%     11,75     0,65    12,40"
    assert values_of(text, ["net", "tax", "total"]) == {"net": "11.75", "tax": "0.65", "total": "12.40"}


def test_the_base_a_tax_is_computed_on_is_not_the_tax() -> None:
    text = "MwSt. 7 % auf EUR 554,48     EUR 38,81\nMwSt. gesamt\nEUR 38,81"
    assert values_of(text, ["tax"])["tax"] == "38.81"


def test_a_tax_stated_per_rate_is_summed_only_when_net_plus_tax_is_the_total() -> None:
    text = "Net amount\n€864.00\nVAT @ 5%\n€5.00\nVAT @ 23%\n€19.32\nTotal due\n€888.32"
    result = extract_document(text, field_specs(["net", "tax", "total"]), name="d")
    assert value(result, "tax") == "24.32"
    assert any("sum of the tax stated per rate" in notice for notice in result.notices)
    wrong_total = text.replace("€888.32", "€900.00")
    result = extract_document(wrong_total, field_specs(["net", "tax", "total"]), name="d")
    assert value(result, "tax") is None
    assert "several values" in result.problems["tax"]


def test_the_letterhead_is_the_senders_not_the_customers_nor_a_register_line() -> None:
    text = (
        "Nordlicht Bürobedarf GmbH\nWandsbeker Chaussee 44 · 22089 Hamburg\nHRB 154321 AG Hamburg\n"
        "Rechnung\nRECHNUNGSADRESSE\nKunde Beispiel GmbH"
    )
    assert values_of(text, ["supplier"])["supplier"] == "Nordlicht Bürobedarf GmbH"
    after_address = (
        "Cabinet Moreau\n42 boulevard Haussmann – 75009 Paris\nSociété Horizon Conseil SAS\nÀ l'attention de"
    )
    assert values_of(after_address, ["supplier"])["supplier"] == "Cabinet Moreau"
    unit = "TANDOOR JUNCTION\nA unit of Sethi Hospitality Pvt. Ltd.\nN-12, Connaught Place, New Delhi 110001"
    assert values_of(unit, ["supplier"])["supplier"] == "Sethi Hospitality Pvt. Ltd."


def test_a_salesperson_is_not_the_supplier() -> None:
    text = "Boulangerie Lemaire SARL\n27 rue des Martyrs, 75009 Paris\nTicket n° 000482     Caisse 1\nVendeur : Inès"
    assert values_of(text, ["invoice_number", "supplier"]) == {
        "invoice_number": "000482", "supplier": "Boulangerie Lemaire SARL",
    }  # fmt: skip


def test_a_credit_note_keeps_its_sign_as_printed() -> None:
    text = "CREDIT NOTE\nSubtotal\n-£45.00\nVAT 20%\n-£9.00\nTotal credit\n-£54.00"
    assert values_of(text, ["net", "tax", "total"]) == {"net": "-45.00", "tax": "-9.00", "total": "-54.00"}


def test_a_currency_named_only_by_a_label_or_a_heading() -> None:
    result = extract_document("SUMME EUR\n18,47", field_specs(["total"]), name="d")
    assert result.values["total"].currency == "EUR"


def test_a_models_date_is_kept_as_an_iso_day_only_when_the_document_writes_it() -> None:
    text = "Fattura del 3 febbraio 2026, consegnata il 5 febbraio 2026"
    specs = field_specs(["issue_date"])
    base = extract_document(text, specs, name="doc.pdf")
    good = complete_with_model(text, specs, base, RecordingModel({"issue_date": "3 febbraio 2026"}), name="doc.pdf")
    assert value(good, "issue_date") == "2026-02-03"
    bad = complete_with_model(text, specs, base, RecordingModel({"issue_date": "4 febbraio 2026"}), name="doc.pdf")
    assert "issue_date" not in bad.values


def test_a_title_before_a_code_names_the_number_but_not_a_page() -> None:
    assert values_of("Factuur 26-3310     Debiteurnr. 5521", ["invoice_number"])["invoice_number"] == "26-3310"
    assert values_of("INVOICE\nInvoice 1 of 2", ["invoice_number"])["invoice_number"] is None
    assert values_of("Fattura\nSpett.le\nACME S.r.l.", ["invoice_number"])["invoice_number"] is None


def test_the_only_day_of_a_document_is_not_its_date_when_a_label_says_what_it_dates() -> None:
    assert values_of("Quittung\nLieferdatum\n30.01.2026", ["issue_date"])["issue_date"] is None
    assert values_of("Quittung\nDanke! 30.01.2026 12:04", ["issue_date"])["issue_date"] == "2026-01-30"
