"""The field lexicon (apps/records/lexicon/fields.json): labels per field in five languages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import get_args

import pytest

from apps.records.vocabulary import FieldKind, classify_label, field_lexicon, label_sense

LEXICON = Path(__file__).resolve().parents[2] / "apps" / "records" / "lexicon" / "fields.json"


@pytest.mark.parametrize(
    ("label", "kind"),
    [
        # Invoice numbers
        ("Numero fattura", "identifier_number"),
        ("Invoice No.", "identifier_number"),
        ("Facture n°", "identifier_number"),
        ("Rechnungsnummer", "identifier_number"),
        ("Rechnung Nr.", "identifier_number"),
        ("Factuurnummer", "identifier_number"),
        ("Beleg-Nr.", "identifier_number"),
        ("Creditnotanummer", "identifier_number"),
        # Issue dates
        ("Data emissione", "issue_date"),
        ("Invoice Date", "issue_date"),
        ("Date de facture", "issue_date"),
        ("Rechnungsdatum", "issue_date"),
        ("Factuurdatum", "issue_date"),
        # Due dates
        ("Scadenza", "due_date"),
        ("Due date", "due_date"),
        ("Échéance", "due_date"),
        ("Fällig am", "due_date"),
        ("Vervaldatum", "due_date"),
        # Totals
        ("Totale documento", "amount"),
        ("Grand Total", "amount"),
        ("Total TTC", "amount"),
        ("Gesamtbetrag", "amount"),
        ("Totaal", "amount"),
        # Net amounts
        ("Imponibile", "net_amount"),
        ("Subtotal", "net_amount"),
        ("Total HT", "net_amount"),
        ("Nettobetrag", "net_amount"),
        ("Totaal excl. btw", "net_amount"),
        # Taxes
        ("IVA 22%", "tax_amount"),
        ("VAT 20%", "tax_amount"),
        ("TVA 20 %", "tax_amount"),
        ("MwSt.", "tax_amount"),
        ("BTW 21%", "tax_amount"),
        ("CGST @ 2.5%", "tax_amount"),
        ("Total GST", "tax_amount"),
        # Suppliers
        ("Fournisseur", "supplier"),
        ("Lieferant", "supplier"),
        ("Leverancier", "supplier"),
    ],
)
def test_labels_of_each_language_have_their_kind(label: str, kind: str) -> None:
    assert classify_label(label) == kind


@pytest.mark.parametrize(
    ("label", "sense"),
    [
        ("Kundennummer", "customer_number"),
        ("N° client / Klantnummer", "customer_number"),
        ("Customer No.", "customer_number"),
        ("Auftragsnummer", "order_number"),
        ("P.O. Number", "order_number"),
        ("P.IVA", "vat_id"),
        ("USt-IdNr.", "vat_id"),
        ("BTW-nr.", "vat_id"),
        ("VAT No.", "vat_id"),
        ("CHANGE DUE", "change"),
        ("Rückgeld", "change"),
        ("Resto", "change"),
        ("Amount Paid", "amount_paid"),
        ("Reeds betaald (aanbetaling)", "amount_paid"),
        ("MwSt-Satz", "tax_rate"),
        ("Terms Net", "payment_terms"),
    ],
)
def test_words_that_mark_another_field_answer_no_requested_field(label: str, sense: str) -> None:
    found = label_sense(label)
    assert found is not None and found.sense == sense
    assert found.kind is None
    assert classify_label(label) is None


@pytest.mark.parametrize("label", ["Lieferdatum", "Ship Date", "Date de livraison", "Leverdatum", "Data consegna"])
def test_a_delivery_date_is_a_date_but_not_the_issue_date(label: str) -> None:
    found = label_sense(label)
    assert found is not None and found.sense == "delivery_date"
    assert classify_label(label) == "date"


@pytest.mark.parametrize(
    "label", ["Rif. fattura", "Réf. facture", "Votre réf. / Uw ref.", "Original invoice", "Betreft factuur"]
)
def test_a_reference_to_another_document_is_its_own_sense(label: str) -> None:
    found = label_sense(label)
    assert found is not None and found.sense == "reference"
    assert classify_label(label) == "identifier_number"  # the kind stays what it always was


@pytest.mark.parametrize(
    ("label", "sense"),
    [
        ("Total TVA / Totaal btw", "tax_total"),  # "total" alone would be a total
        ("Netto a pagare", "payable"),  # "netto" alone would be a net amount
        ("Total netto", "net"),
        ("Saldo da pagare", "balance_due"),
        ("Balance due", "balance_due"),
        ("Reste dû", "balance_due"),
        ("Totale IVA inclusa", "grand_total"),
        ("Total TVAC / Totaal incl. btw", "grand_total"),
    ],
)
def test_the_longest_phrase_decides(label: str, sense: str) -> None:
    found = label_sense(label)
    assert found is not None and found.sense == sense


def test_words_outside_the_lexicon_are_counted() -> None:
    assert label_sense("Invoice No.").uncovered == 0  # type: ignore[union-attr]
    assert label_sense("MwSt. 7 % auf EUR 554,48").uncovered == 1  # type: ignore[union-attr]
    assert label_sense("Storno parziale della fattura n.").uncovered == 3  # type: ignore[union-attr]


def test_each_language_is_compared_after_its_own_normalisation() -> None:
    assert classify_label("FÄLLIG AM") == "due_date"
    assert classify_label("Straße") is None
    assert field_lexicon().normalised("Maß", "de") == "mass"


def test_the_lexicon_file_is_well_formed() -> None:
    raw = json.loads(LEXICON.read_text(encoding="utf-8"))
    languages = set(raw["languages"])
    assert languages == {"it", "en", "fr", "de", "nl"}
    kinds = set(get_args(FieldKind))
    for name, sense in raw["senses"].items():
        assert sense["kind"] is None or sense["kind"] in kinds, name
        assert set(sense["words"]) <= languages, name
        for words in sense["words"].values():
            assert all(isinstance(word, str) and word.strip() for word in words), name
    for name in ("document_number", "issue_date", "due_date", "grand_total", "net", "tax", "supplier"):
        assert set(raw["senses"][name]["words"]) == languages, f"{name} has labels in every language"


def test_the_word_lists_around_fields_are_read() -> None:
    lexicon = field_lexicon()
    assert "rechnungsempfanger" in lexicon.phrases_of("addressee")
    assert "a unit of" in lexicon.phrases_of("company_of")
    assert "bis zum" in lexicon.phrases_of("before_date")
    assert "fallig am" in lexicon.sense_phrases("due_date")
