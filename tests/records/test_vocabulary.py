"""The shared field vocabulary, Italian labels and English keys."""

from __future__ import annotations

import itertools

import pytest

from apps.records.vocabulary import CompetingFields, UnknownBinding, classify_label, vocabulary_map


@pytest.mark.parametrize(
    ("label", "kind"),
    [
        ("Numero fattura", "identifier_number"),
        ("N. documento", "identifier_number"),
        ("N° fattura", "identifier_number"),
        ("Nr. bolletta", "identifier_number"),
        ("N. cedolino", "identifier_number"),
        ("Codice avviso", "identifier_number"),
        ("Codice cliente", None),  # the customer's number
        ("Statement no.", "identifier_number"),
        ("Kontoauszug Nr.", "identifier_number"),
        ("N. cedolini", "count"),
        ("N. polizza", None),  # a reference to the policy, not the item's own number
        ("Invoice no.", "identifier_number"),
        ("Invoice #", "identifier_number"),
        ("invoice_number", "identifier_number"),
        ("invoiceNumber", "identifier_number"),
        ("Importo", "amount"),
        ("Totale da pagare", "amount"),
        ("Amount due", "amount"),
        ("amount_due", "amount"),
        ("Total", "amount"),
        ("Stato", "status"),
        ("Stato pagamento", "status"),
        ("payment_status", "status"),
        ("Data emissione", "issue_date"),
        ("Data di emissione", "issue_date"),
        ("Invoice date", "issue_date"),
        ("issue_date", "issue_date"),
        ("Scadenza", "due_date"),
        ("Data scadenza", "due_date"),
        ("Due date", "due_date"),
        ("due_date", "due_date"),
        ("Da pagare entro", "due_date"),
        ("Periodo di riferimento", "period"),
        ("Billing period", "period"),
        ("Fornitore", "supplier"),
        ("Supplier", "supplier"),
        ("POD", "supply_identifier"),
        ("Codice PDR", "supply_identifier"),
        ("Supply point", "supply_identifier"),
    ],
)
def test_labels_and_keys_map_to_their_kind(label: str, kind: str) -> None:
    assert classify_label(label) == kind


@pytest.mark.parametrize(
    "label",
    [
        "N. fatture",
        "Numero di fatture",
        "Number of invoices",
        "# invoices",
        "Count",
        "No. of bills",
        "N. bollette",
        "N. di bollette",
        "Total invoices",
        "Totale fatture",
        "Tot. bollette",
    ],
)
def test_identifier_numbers_stay_distinct_from_counts(label: str) -> None:
    assert classify_label(label) == "count"


@pytest.mark.parametrize("label", ["Importo totale fatture", "Total amount of invoices", "Totale fattura"])
def test_a_total_that_names_an_amount_is_an_amount_not_a_count(label: str) -> None:
    assert classify_label(label) == "amount"


@pytest.mark.parametrize("label", ["Rif. fattura", "Invoice ref.", "Fattura rif.", "Riferimento fattura", "Rif."])
def test_a_reference_to_a_document_is_its_identifier_number(label: str) -> None:
    assert classify_label(label) == "identifier_number"


@pytest.mark.parametrize("label", ["Reference period", "Periodo di riferimento"])
def test_a_reference_period_is_a_period_not_an_identifier(label: str) -> None:
    assert classify_label(label) == "period"


def test_issue_and_due_dates_stay_distinct() -> None:
    assert classify_label("Data emissione") != classify_label("Data scadenza")
    assert classify_label("issue_date") != classify_label("due_date")


def test_bare_date_is_generic_not_issue_or_due() -> None:
    assert classify_label("Data") == "date"
    assert classify_label("Date") == "date"


@pytest.mark.parametrize("label", ["Descrizione", "Notes", "", "   ", "!!!"])
def test_unknown_labels_have_no_kind(label: str) -> None:
    assert classify_label(label) is None


def test_mapping_does_not_depend_on_field_order() -> None:
    fields = ["Importo", "Numero fattura", "Stato", "Data emissione", "Scadenza"]
    maps = [vocabulary_map(order) for order in itertools.permutations(fields)]
    assert all(current == maps[0] for current in maps)
    assert maps[0].field_for("amount") == "Importo"
    assert maps[0].field_for("identifier_number") == "Numero fattura"


def test_competing_fields_need_an_explicit_binding() -> None:
    mapping = vocabulary_map(["Importo", "Totale da pagare", "Stato"])
    with pytest.raises(CompetingFields) as raised:
        mapping.field_for("amount")
    assert set(raised.value.candidates) == {"Importo", "Totale da pagare"}
    bound = vocabulary_map(["Importo", "Totale da pagare"], bindings={"amount": "Totale da pagare"})
    assert bound.field_for("amount") == "Totale da pagare"


def test_binding_to_an_unobserved_field_is_refused() -> None:
    with pytest.raises(UnknownBinding):
        vocabulary_map(["Importo"], bindings={"amount": "Totale"})


def test_a_missing_kind_is_none() -> None:
    assert vocabulary_map(["Importo"]).field_for("status") is None
