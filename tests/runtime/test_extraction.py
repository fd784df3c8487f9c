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
