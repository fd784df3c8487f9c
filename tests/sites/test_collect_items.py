"""Records in cards, accordions and sentences that carry no "Label: value" (apps/sites/collection/items.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from apps.sites.collection.delivery import outside_request
from apps.sites.collection.items import document_rows, item_row, items_rows, read_piece
from apps.sites.collection.reading import READ_SCRIPT, parse_records
from apps.sites.collection.scope import collection_plan
from apps.sites.observation.page_calls import evaluate_within
from tests.sites.collect_support import collect, pages_requested
from tests.sites.fixture_web import FixtureWeb
from tests.sites.test_observation_support import presses_become

_READ_LIMITS = {"maxRows": 50, "maxCell": 200, "maxPairs": 50, "maxLines": 20, "maxPageLines": 100}


def test_values_written_one_under_their_label_are_read_as_that_labels_field() -> None:
    row = item_row(["ORDER PLACED", "December 10, 2025", "TOTAL", "$401.37", "Invoice GB-2025-010440", "Delivered"])
    assert row is not None
    assert row.values["identifier_number"] == "GB-2025-010440"  # "Invoice" names the kind: its number
    assert row.values["amount"] == "$401.37"
    assert row.values["date"] == "December 10, 2025"  # the item's one date, its label unknown


def test_an_order_number_is_not_the_items_own_number() -> None:
    row = item_row(["ORDER # 850-0158380-2094580", "Placed 3 May 2026", "$12.00"])
    assert row is not None
    assert "identifier_number" not in row.values
    assert row.values["ORDER #"] == "850-0158380-2094580"


def test_values_without_labels_take_their_type_only_when_there_is_one_of_it() -> None:
    row = item_row(["1 Nov 2026", "Statement", "Current account statement"])
    assert row is not None and row.values["date"] == "1 Nov 2026"
    assert row.values["type"] == "Statement" and row.values["description"] == "Current account statement"
    two_dates = item_row(["1 Nov 2026", "3 Nov 2026", "Statement", "£10.00"])
    assert two_dates is not None
    assert "date" not in two_dates.values  # two dates without labels decide nothing
    assert two_dates.values["amount"] == "£10.00"


def test_a_period_the_item_covers_does_not_take_the_place_of_its_own_date() -> None:
    row = item_row(["Estratto conto", "Periodo contabile: ottobre 2026", "3 novembre 2026"],
                   [["Periodo contabile", "ottobre 2026"]])  # fmt: skip
    assert row is not None
    assert row.values["period"] == "ottobre 2026"
    assert row.values["date"] == "3 novembre 2026"  # the one unlabelled date is the item's own


def test_a_generic_kind_labelling_the_number_gives_way_to_the_kind_the_title_opens_with() -> None:
    letter = item_row(["Comunicazioni Rendiconto annuale PSD2", "Documento n. 2026/0077", "03/10/2026", "48,00 €"])
    assert letter is not None and letter.values["type"] == "Comunicazioni"
    assert letter.values["identifier_number"] == "2026/0077"
    untitled = item_row(["Ritenute su interessi creditori", "Documento n. 2026/0068", "18/03/2026", "4,21 €"])
    assert untitled is not None and untitled.values["type"] == "Documento"  # nothing more specific is said


def _table(documents: list[str]) -> dict[str, Any]:
    def cell(text: str, control: bool = False) -> dict[str, Any]:
        return {"text": text, "controlOnly": control}

    rows = [
        {"cells": [cell(f"1 Jul 202{index}"), cell(text), cell("Current Account"), cell("Download", True)]}
        for index, text in enumerate(documents)
    ]
    return {"tables": [{"headers": ["Date", "Document", "Account", ""], "rows": rows}]}


def test_a_number_column_holding_titles_keeps_its_heading() -> None:
    titles = parse_records(_table(["Current Account statement - June 2025", "Fee notification - May 2025"])).rows
    assert [row.values.get("Document") for row in titles] == [
        "Current Account statement - June 2025",
        "Fee notification - May 2025",
    ]
    assert not any("identifier_number" in row.values for row in titles)  # a title is not the item's number
    protocol = {"text": "", "controlOnly": False}
    listed = _table(["Informativa welfare 2026", "Calendario chiusure"])
    listed["tables"][0]["headers"][2] = "Protocollo"
    for index, row in enumerate(listed["tables"][0]["rows"]):
        row["cells"][2] = {**protocol, "text": f"COM-2026-06{index}"}
    # The number is the protocol's, beside the titles.
    assert [row.values["identifier_number"] for row in parse_records(listed).rows] == ["COM-2026-060", "COM-2026-061"]
    numbers = parse_records(_table(["Statement KB-2025-06", "Statement KB-2025-05"])).rows
    assert [row.values["identifier_number"] for row in numbers] == ["Statement KB-2025-06", "Statement KB-2025-05"]


def test_a_label_before_its_value_on_one_line_names_the_field() -> None:
    assert read_piece("Emessa il 12 novembre 2026").label == "Emessa il"
    row = item_row(["Fattura", "TM26-0466511", "Emessa il 12 novembre 2026", "34,90 €"])
    assert row is not None
    assert row.values["identifier_number"] == "TM26-0466511"
    assert row.values["issue_date"] == "il 12 novembre 2026"
    assert row.values["amount"] == "34,90 €"
    assert row.values["type"] == "Fattura"


def test_a_news_item_and_a_product_line_are_not_records() -> None:
    assert item_row(["12 March 2026", "New tariffs from April"]) is None
    assert item_row(["Smart plug", "£19.99"]) is None
    assert item_row(["Call us on 0800 123 456"]) is None
    # A supply point's card: its number is under its own label, and a number with an address is no record.
    assert read_piece("PDR 15020000334412").label == "PDR"
    assert item_row(["Fornitura gas", "PDR 15020000334412", "Via Giardini 77, Modena"]) is None


def test_a_document_line_is_a_record_of_its_own() -> None:
    rows = document_rows(
        [
            "Fattura n. 2026/MR/040203 del 12/11/2026 · importo 109,95 €",
            "Nota di credito n. 2026/NC/000123 del 03/12/2026 · importo 59,90 €",
            "Nessuna fattura: ordine annullato, nessun addebito.",
            "Invoice 2026-17",  # a number alone is not a document line
        ]
    )
    assert [row.values["identifier_number"] for row in rows] == ["2026/MR/040203", "2026/NC/000123"]
    assert rows[0].values["date"] == "12/11/2026" and rows[0].values["amount"] == "109,95 €"
    assert rows[1].values["type"] == "Nota di credito"


def test_an_item_holding_document_lines_is_their_place_not_a_record() -> None:
    order = {
        "lines": ["Ordine", "MT-1", "Effettuato il", "2 ottobre 2026", "Totale", "45,00 €",
                  "Fattura n. F-2026-1 del 03/10/2026 · importo 45,00 €"],
        "pairs": [],
        "parent": -1,
    }  # fmt: skip
    rows = items_rows([order])
    assert [row.values["identifier_number"] for row in rows] == ["F-2026-1"]


def test_several_records_inside_one_item_are_read_apart() -> None:
    wrapper = {"lines": ["INV-1", "1 Mar 2026", "£5.00", "INV-2", "1 Apr 2026", "£6.00"], "pairs": [], "parent": -1}
    first = {"lines": ["INV-1", "1 Mar 2026", "£5.00"], "pairs": [], "parent": 0}
    second = {"lines": ["INV-2", "1 Apr 2026", "£6.00"], "pairs": [], "parent": 0}
    rows = items_rows([wrapper, first, second])
    assert [row.values["identifier_number"] for row in rows] == ["INV-1", "INV-2"]


def test_a_card_of_pairs_keeps_the_values_it_shows_without_labels() -> None:
    answer = {
        "cards": [
            {
                "pairs": [["Reference", "HPB/AD/2026/02264"], ["Amount", "£5,000.00"]],
                "lines": ["18 Nov 2026", "Payment advice", "Reference: HPB/AD/2026/02264", "Amount: £5,000.00"],
            }
        ]
    }
    (row,) = parse_records(answer).rows
    assert row.values["identifier_number"] == "HPB/AD/2026/02264"
    assert row.values["date"] == "18 Nov 2026"
    assert row.cells[0] == "18 Nov 2026"  # the cells follow the card, so its collapsed row still matches


@pytest.mark.browser
def test_invoices_written_as_sentences_inside_order_cards_are_collected(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-cards")
    collected = collect(browser_page, site, "/ordini.html", "tutte le fatture con numero, data e importo")
    assert collected.identifiers() == ["2026/MT/0203", "2026/MT/0198"]  # not the orders, nor the credit note
    assert collected.item("2026/MT/0198")["amount"] == "159,90 €"
    assert collected.item("2026/MT/0203")["date"] == "13/11/2026"
    # The cancelled order (its date and total, "no invoice") is read as the order it is, and left out too.
    assert "2 item(s) that are a credit note or order, not a invoice, were left out." in collected.notices()


@pytest.mark.browser
def test_cards_of_values_under_their_labels_are_collected(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-cards")
    collected = collect(browser_page, site, "/payslips.html", "all payslips with number, date and net pay")
    assert collected.identifiers() == ["PS-000812", "PS-000811", "PS-000810"]
    assert collected.item("PS-000812")["period"] == "30 Nov 2026"
    assert collected.item("PS-000810")["net_amount"] == "£120.00"
    assert pages_requested(site) == ["/payslips.html"]


@pytest.mark.browser
def test_an_accordion_items_header_opens_its_detail_in_place(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-cards")
    collected = collect(browser_page, site, "/documenti.html", "tutte le fatture con numero, data e totale")
    assert collected.identifiers() == ["F 26/000120", "F 26/000098"]  # the proforma is not an invoice
    assert collected.item("F 26/000120")["amount"] == "9,64 €"
    assert collected.item("F 26/000098")["amount"] == "18,29 €"
    # Only the invoices' headers were pressed: the proforma's own kind leaves it out, so its detail is not asked.
    assert presses_become(browser_page, site, ["F-120", "F-098"])
    assert collected.findings.diagnostics["detail_in_place"] == 2
    assert "1 item(s) that are a proforma, not a invoice, were left out." in collected.notices()
    assert collected.result.outcome == "success", collected.notices()


@pytest.mark.browser
def test_news_and_products_with_dates_and_prices_are_not_collected(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-cards")
    collected = collect(browser_page, site, "/notizie.html", "all bills")
    assert collected.identifiers() == []
    assert collected.findings.row_count() == 0


def test_a_period_for_the_items_date_is_read_on_the_date_a_row_shows_as_its_own() -> None:
    import datetime as dt

    from apps.sites.collection.delivery import outside_request, period_field
    from apps.sites.collection.scope import collection_plan

    plan = collection_plan("every e-document dated 2026", today=dt.date(2026, 12, 1))
    (constraint,) = plan.scope.period_filters
    assert constraint.field == "issue_date"
    assert period_field({"date": "1 Nov 2025"}, constraint) == "date"  # the row labels no date as issued
    assert outside_request({"date": "1 Nov 2025", "type": "Statement"}, plan) == "period"
    assert outside_request({"date": "1 Nov 2026", "type": "Statement"}, plan) == ""
    due = collection_plan("all bills with due date in 2026", today=dt.date(2026, 12, 1))
    (on_due,) = due.scope.period_filters
    assert period_field({"date": "1 Nov 2025"}, on_due) == "due_date"  # a due date's period stays on it


@pytest.mark.browser
def test_a_page_asking_which_profile_to_enter_is_gone_through_when_it_offers_one(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-cards")
    collected = collect(browser_page, site, "/azienda.html", "all payslips with number, date and net pay")
    assert collected.identifiers() == ["PS-000812", "PS-000811", "PS-000810"]
    several = fixture_web.fresh("collect-cards")
    chosen_by_nobody = collect(browser_page, several, "/aziende.html", "all payslips with number, date and net pay")
    assert chosen_by_nobody.identifiers() == []  # with two companies the choice is the person's
    assert pages_requested(several) == ["/aziende.html"]


@pytest.mark.browser
def test_a_badge_drawn_apart_from_the_title_is_a_word_of_its_own(browser_page: Any) -> None:
    browser_page.set_content(
        '<ul><li><span style="padding:2px 6px">Carte</span>Estratto conto ottobre 2026<br>03/11/2026</li>'
        "<li><b>Fat</b>tura n. 12<br>02/11/2026</li></ul>"
    )
    raw = evaluate_within(browser_page.main_frame, READ_SCRIPT, _READ_LIMITS, timeout_ms=5000)
    lines = [item["lines"] for item in json.loads(raw)["items"]]
    assert lines == [["Carte Estratto conto ottobre 2026", "03/11/2026"], ["Fattura n. 12", "02/11/2026"]]


def test_a_heading_naming_one_kind_says_what_rows_naming_none_are_where_the_page_has_several() -> None:
    def answer(heading: str, description: str, *, beside: bool = True) -> dict[str, Any]:
        def table(title: str, text: str) -> dict[str, Any]:
            cells = [{"text": value, "controlOnly": False} for value in ("28/11/2026", text, "2.145,00 €")]
            return {"headers": ["Data", "Descrizione", "Importo"], "rows": [{"cells": cells}], "heading": title}

        other = [table("Documenti recenti", "Estratto conto ottobre 2026")] if beside else []
        return {"tables": [table(heading, description), *other]}

    movement = parse_records(answer("Ultimi movimenti", "Bonifico da ACME SRL")).rows[0]
    assert movement.values["section"] == "Ultimi movimenti"
    plan = collection_plan("tutti gli estratti conto del 2026")
    assert outside_request(movement.values, plan) == "constraint"  # a movement is not a statement
    generic = parse_records(answer("I miei documenti", "Bonifico da ACME SRL")).rows[0]
    assert "section" not in generic.values  # documents: any item is one
    own = parse_records(answer("Ultimi movimenti", "Estratto conto novembre")).rows[0]
    assert "section" not in own.values  # the row says what it is
    (alone,) = parse_records(answer("Statements", "Gas and electricity", beside=False)).rows
    assert "section" not in alone.values  # a page's one heading is its name for its list (bills, here)


@pytest.mark.browser
def test_a_box_holding_a_list_table_is_its_place_not_an_item(browser_page: Any) -> None:
    browser_page.set_content(
        '<div class="card"><h3>Plan</h3><p>Team · 12 seats · renews Dec 14, 2026</p></div>'
        '<div class="card"><h3>Billing history</h3><p>Invoices and credit notes, Nov 14, 2026 onwards.</p>'
        "<table><thead><tr><th>Date</th><th>Number</th><th>Amount</th></tr></thead><tbody>"
        "<tr><td>Nov 14, 2026</td><td>INV-8220</td><td>$130.65</td></tr>"
        "<tr><td>Oct 14, 2026</td><td>INV-8175</td><td>$130.65</td></tr></tbody></table></div>"
    )
    raw = evaluate_within(browser_page.main_frame, READ_SCRIPT, _READ_LIMITS, timeout_ms=5000)
    answer = json.loads(raw)
    assert not any("INV-8220" in " ".join(item["lines"]) for item in answer["items"])
    assert [row.values["identifier_number"] for row in parse_records(answer).rows] == ["INV-8220", "INV-8175"]


def test_a_products_table_is_no_record_and_the_block_under_a_heading_is_the_pages_detail() -> None:
    cells = [[{"text": text, "controlOnly": False} for text in pair] for pair in (("Cavo HDMI", "9,90 €"),
             ("Totale ordine", "14,80 €"))]  # fmt: skip
    answer = {
        "tables": [{"headers": ["Prodotto", "Prezzo"], "rows": [{"cells": row} for row in cells], "heading": ""}],
        "sections": [{"heading": "Documenti", "lines": ["Fattura", "FE-2026-000412", "Data", "25/10/2026",
                                                        "Importo", "14,80 €"]}],
    }  # fmt: skip
    records = parse_records(answer)
    assert records.rows == ()  # a product and its price, an order's total: nothing tells an item apart
    assert records.detail is not None
    assert records.detail.values["identifier_number"] == "FE-2026-000412"
    assert (records.detail.values["amount"], records.detail.values["type"]) == ("14,80 €", "Fattura")


def test_a_column_whose_cells_name_their_field_before_the_value_is_that_field() -> None:
    def cell(text: str) -> dict[str, Any]:
        return {"text": text, "controlOnly": False}

    rows = [
        {"cells": [cell("10/11/2026"), cell("IMU 2026 saldo"), cell(f"Codice avviso 3260000400442{n}")]}
        for n in ("04117", "27743")
    ]
    answer = {"tables": [{"headers": ["Data emissione", "Descrizione", "Avviso"], "rows": rows, "heading": ""}]}
    numbers = [row.values["identifier_number"] for row in parse_records(answer).rows]
    assert numbers == ["Codice avviso 326000040044204117", "Codice avviso 326000040044227743"]
