"""What a control's own words say it does for a collection (apps/sites/collection/signals.py), no browser.

The words come from the collection lexicon (``apps/sites/lexicon/collection.json``),
which an operator may override; these cases hold for the native one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from apps.sites.collection.signals import Signal, avoided, classify_control
from apps.sites.observation import lexicon
from apps.sites.observation.snapshot import Control

BILLS = ("bill", "bills", "bolletta", "bollette", "invoice", "invoices", "fattura", "fatture")


def control(
    label: str, *, href: str = "/x", role: str = "link", row: str = "", expanded: bool | None = None
) -> Control:
    return Control(
        frame_path=(), role=role, name=label, text=label, section="", row=row, fingerprint="f", document="d",
        href=href, enabled=True, expanded=expanded, in_viewport=True, ambiguous=False, panel=None, form=None,
    )  # fmt: skip


def kind(label: str, **features: Any) -> str | None:
    signal: Signal | None = classify_control(control(label, **features), object_words=BILLS)
    if signal is None:
        return None
    return f"{signal.kind}:{signal.expansion}" if signal.expansion else signal.kind


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("All bills", "full_list"),
        ("Tutte le bollette ›", "full_list"),
        ("Vedi tutte", "full_list"),
        ("My bills", "section"),
        ("Le mie fatture", "section"),
        ("Archivio bollette", "archive"),
        ("Bill history", "archive"),
        ("Next", "expansion:next_page"),
        ("Pagina successiva", "expansion:next_page"),
        ("»", "expansion:next_page"),
        ("Older bills", "expansion:next_page"),
        ("Pagina 3", "expansion:page_number"),
        ("2025", "expansion:period"),
        ("Anno 2024", "expansion:period"),
        ("Mostra altre bollette", "expansion:load_more"),
        ("Carica di più", "expansion:load_more"),
        ("Area clienti", "account"),
        ("MySolaria", "account"),
        ("Pagati", "expansion:status"),
        ("Da pagare (3)", "expansion:status"),
        ("Unpaid", "expansion:status"),
    ],
)
def test_what_a_control_leads_to_by_its_words(label: str, expected: str) -> None:
    assert kind(label, role="button" if "altre" in label or "più" in label else "link", href=(
        "" if "altre" in label or "più" in label else "/x"
    )) == expected  # fmt: skip


@pytest.mark.parametrize(
    ("label", "href"),
    [
        ("Come leggere la bolletta", "/info/come-leggere-la-bolletta"),
        ("How to read your bill", "/x"),
        ("Cos'è la fattura elettronica?", "/x"),
        ("Cos’è la bolletta 2.0", "/x"),  # a typographic apostrophe
        ("Domande frequenti sulle bollette", "/x"),
        ("Your bill explained", "/x"),
        ("Tutte le domande sulle bollette: guida", "/x"),
        ("Bollette", "/help/bollette"),
        ("Understanding your invoice", "/x"),
    ],
)
def test_a_guide_or_question_about_the_items_is_not_where_they_are(label: str, href: str) -> None:
    assert kind(label, href=href) is None


def test_a_row_s_controls_and_what_is_never_a_route() -> None:
    assert kind("Dettagli", row="FT-1 12/01/2026 € 80") == "detail"
    assert kind("Vedi la bolletta", row="FT-1 12/01/2026 € 80") == "detail"
    assert kind("FT-2026-0042", row="FT-2026-0042 12/01/2026 € 80") == "detail"
    assert kind("Scarica PDF", row="FT-1 12/01/2026 € 80") == "download"
    assert kind("Scarica PDF") is None  # a document outside a row is nobody's
    for label in ("Esci", "Log out", "Paga ora", "Elimina bolletta", "Modifica recapiti", "Cancellazione"):
        assert kind(label) is None and avoided(control(label)), label
    assert kind("Menu", role="button", href="") == "menu"
    assert kind("Prodotti", role="button", href="", expanded=False) == "menu"


def test_an_operators_lexicon_replaces_the_native_words(tmp_path: Path, settings: Any) -> None:
    native = json.loads((lexicon.NATIVE_DIR / "collection.json").read_text(encoding="utf-8"))
    native["help_openings"] = [phrase for phrase in native["help_openings"] if phrase != "come"]
    native["all"] = [*native["all"], "sämtliche"]
    (tmp_path / "collection.json").write_text(json.dumps(native), encoding="utf-8")
    settings.METNOS_SITES_LEXICON_DIR = str(tmp_path)
    assert kind("Come leggere la bolletta") == "section"  # the opening is no longer a guide's
    assert kind("Sämtliche bills") == "full_list"
    settings.METNOS_SITES_LEXICON_DIR = ""
    assert kind("Come leggere la bolletta") is None


def test_places_where_items_of_several_kinds_are_kept_are_containers() -> None:
    from apps.sites.collection.scope import collection_plan

    plan = collection_plan("collect all my water bills from last year into bills.xlsx")
    assert "statements notices" in plan.container_words and "bills" not in plan.container_words
    assert "credit notes" not in plan.container_words  # they are kept among the bills: no bill is there

    def looked_at(label: str) -> str | None:
        signal = classify_control(control(label), object_words=plan.object_words, container_words=plan.container_words)
        return signal.kind if signal else None

    assert looked_at("Statements & notices") == "container"  # a utility's bills sit with its notices
    assert looked_at("Settings") == "container"  # a subscription's billing lives in its settings
    assert looked_at("I miei documenti") == "container"
    assert looked_at("Billing") == "section"  # a section named after the items is one
    assert looked_at("Water usage") is None
    assert looked_at("I miei pagamenti") == "container"  # a possessive opening the title
    assert looked_at("Ordini e resi") == "container"  # one of the places a title names
    assert looked_at("Il mio profilo, le mie preferenze e tutto il resto del mondo") is None  # not a title
    assert looked_at("Organization settings") == "container"  # a SaaS organisation's billing lives there


def test_a_link_in_a_tile_that_is_no_record_leads_where_it_says() -> None:
    tile = "Pagamenti Hai 3 avvisi da pagare Vai ai pagamenti"
    payments = ("pagamenti", "avvisi")
    in_a_tile = control("Vai ai pagamenti", row=tile)
    assert classify_control(in_a_tile, object_words=payments) is None  # in a record's row: that row's link
    assert classify_control(in_a_tile, object_words=payments, tile=True) == Signal("section")


def _select(options: tuple[str, ...], chosen: str) -> Any:
    from apps.sites.observation.snapshot import Field

    return Field(
        type="select", label="Period", name="period", autocomplete="", input_mode="", placeholder="",
        required=False, visible=True, editable=True, max_length=None, options=options, chosen=chosen,
    )  # fmt: skip


def test_a_chooser_of_periods_offers_the_periods_not_shown() -> None:
    from apps.sites.collection.signals import period_choices

    assert period_choices(_select(("2026", "2025", "2024"), "2026")) == ("2025", "2024")
    assert period_choices(_select(("Last 12 months", "2025", "2024", "All years"), "Last 12 months")) == (
        "2025", "2024", "All years"
    )  # fmt: skip
    assert period_choices(_select(("Ultimi 12 mesi", "Anno 2025", "Tutti gli anni"), "Ultimi 12 mesi")) == (
        "Anno 2025", "Tutti gli anni"
    )  # fmt: skip
    assert period_choices(_select(("2026/27", "2025/26", "2024/25"), "2026/27")) == ("2025/26", "2024/25")
    # Not a chooser of periods: kinds of documents, or a single year among other things.
    assert period_choices(_select(("All types", "Statements", "Notices"), "All types")) == ()
    assert period_choices(_select(("Basic", "Premium 2026", "Family", "Business"), "Basic")) == ()


def test_a_line_saying_the_list_is_still_on_its_way_is_loading() -> None:
    from apps.sites.collection.signals import still_loading

    assert still_loading("Bills\nLoading…\nFooter")
    assert still_loading("Documents\nCaricamento in corso...")
    assert still_loading("Loading billing history…")
    assert not still_loading("Bills\n3 documents\nLoading dock opening hours are on our help pages, weekdays 8-18.")
    assert not still_loading("Your bills are ready")


def test_a_requested_bare_date_is_the_items_own_date_whichever_the_page_shows() -> None:
    from apps.sites.collection.scope import collection_plan

    for request in (
        "le fatture del 2026 con numero, data e importo",
        "all invoices from 2026 with number, date and amount",
    ):
        assert collection_plan(request).item_fields[1] == ("issue_date", "date", "period"), request
    assert collection_plan("bills with due date and amount").item_fields[0] == ("due_date",)


def test_the_words_that_qualify_the_object_lead_to_its_place_while_nothing_was_found() -> None:
    from apps.sites.collection.scope import collection_plan, qualifier_of

    assert qualifier_of("collect every council tax bill dated 2026", "bill") == "council tax"
    assert qualifier_of("tutti gli estratti conto della carta di credito da marzo 2026", "estratti conto") == (
        "carta di credito"
    )
    assert qualifier_of("collect all invoices from 2026 from my energy provider", "invoices") == ""
    assert qualifier_of("tutte le bollette del 2026", "bollette") == ""
    plan = collection_plan("collect every council tax bill dated 2026 into bills.xlsx")
    signal = classify_control(
        control("View your Council Tax account"), object_words=plan.object_words, qualifier=plan.qualifier
    )
    assert signal is not None and signal.kind == "container"


def test_a_status_tab_is_a_view_of_the_list_only_as_a_link() -> None:
    assert kind("Da pagare", role="button", href="") is None  # a button with the words of paying pays
    assert kind("Pagati", row="Pagati") == "expansion:status"  # a tab alone in its list item


def test_an_interstitials_way_on_leads_into_the_account() -> None:
    assert kind("Vai alla tua area", href="/hb") == "account"
    assert kind("Non ora, vai alla tua area", href="/area") == "account"
    assert kind("Scopri il conto deposito", href="/info/deposito") is None
