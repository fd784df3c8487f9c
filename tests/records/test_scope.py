"""Collection scope from a request: object, completeness, period, categories, fields."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.records.scope import collection_scope


def _period(request: str) -> tuple[dt.date, dt.date] | None:
    scope = collection_scope(request)
    if not scope.period_filters:
        return None
    (constraint,) = scope.period_filters
    return constraint.period.start, constraint.period.end


@pytest.mark.parametrize(
    "request_text",
    [
        "collect all invoices from 2026",
        "Collect all the invoices from 2026 from my energy provider into a spreadsheet",
        "tutte le fatture del 2026",
        "scarica tutte le mie fatture del 2026",
        "every invoice issued in 2026",
    ],
)
def test_all_asserted_for_the_object_is_a_complete_collection(request_text: str) -> None:
    scope = collection_scope(request_text)
    assert scope.object == "invoice"
    assert scope.complete, scope.completeness_reason
    assert _period(request_text) == (dt.date(2026, 1, 1), dt.date(2026, 12, 31))


def test_complete_list_of_the_object_is_a_complete_collection() -> None:
    scope = collection_scope("the complete list of bills for July–August 2026")
    assert scope.object == "bill"
    assert scope.complete
    assert _period("the complete list of bills for July–August 2026") == (dt.date(2026, 7, 1), dt.date(2026, 8, 31))


def test_italian_complete_list() -> None:
    scope = collection_scope("l'elenco completo delle bollette di luglio-agosto 2026")
    assert scope.object == "bill"
    assert scope.complete


@pytest.mark.parametrize(
    "request_text",
    [
        "don't download all the invoices from 2026",
        "do not collect all invoices",
        "non scaricare tutte le fatture del 2026",
        "never fetch all bills",
        "senza scaricare tutte le bollette",
    ],
)
def test_negation_and_prohibition_never_activate_completeness(request_text: str) -> None:
    assert not collection_scope(request_text).complete


@pytest.mark.parametrize(
    "request_text",
    ["download the complete invoices from 2026", "scarica le fatture complete del 2026"],
)
def test_complete_alone_does_not_define_the_scope(request_text: str) -> None:
    scope = collection_scope(request_text)
    assert not scope.complete
    assert "complete" in scope.completeness_reason


def test_all_asserted_for_something_else_is_not_a_complete_collection() -> None:
    scope = collection_scope("collect the invoices from all my accounts")
    assert scope.object == "invoice"
    assert not scope.complete


def test_the_latest_invoice_is_not_complete() -> None:
    assert not collection_scope("download the latest invoice").complete


def test_a_period_stated_for_a_field_gets_no_second_automatic_filter() -> None:
    scope = collection_scope("all invoices with due date in 2026")
    assert len(scope.period_filters) == 1
    assert scope.period_filters[0].field == "due_date"


def test_issue_verb_binds_the_period_to_the_issue_date() -> None:
    (constraint,) = collection_scope("tutte le fatture emesse nel 2026").period_filters
    assert constraint.field == "issue_date"


def test_a_plain_period_applies_to_the_item_itself() -> None:
    (constraint,) = collection_scope("all bills from March 2026").period_filters
    assert constraint.field is None
    assert (constraint.period.start, constraint.period.end) == (dt.date(2026, 3, 1), dt.date(2026, 3, 31))


def test_italian_interval_with_from_to() -> None:
    assert _period("tutte le bollette dal 1 luglio al 31 agosto 2026") == (dt.date(2026, 7, 1), dt.date(2026, 8, 31))


def test_competing_periods_for_the_same_items_are_not_applied() -> None:
    scope = collection_scope("all invoices from 2025 or from 2026")
    assert scope.period_filters == ()
    assert scope.notices


def test_constraints_spread_over_several_objects_are_not_applied() -> None:
    scope = collection_scope("all invoices from 2025 and the contracts from 2026")
    assert scope.period_filters == ()
    assert any("several kinds" in notice for notice in scope.notices)


def test_category_applies_to_the_object() -> None:
    scope = collection_scope("all electricity bills from 2026")
    assert scope.categories == ("electricity",)
    assert scope.object == "bill"
    assert collection_scope("tutte le bollette della luce del 2026").categories == ("electricity",)


def test_credit_notes_are_their_own_object() -> None:
    assert collection_scope("all credit notes from 2026").object == "credit_note"
    assert collection_scope("tutte le note di credito del 2026").object == "credit_note"


def test_requested_fields_use_the_vocabulary() -> None:
    scope = collection_scope("all invoices from 2026 with number, issue date, amount and status into a spreadsheet")
    assert scope.fields == ("identifier_number", "issue_date", "amount", "status")
    italian = collection_scope("tutte le fatture del 2026 con numero fattura, scadenza e importo")
    assert italian.fields == ("identifier_number", "due_date", "amount")


def test_no_object_is_said_plainly() -> None:
    scope = collection_scope("what's the weather like")
    assert scope.object is None
    assert not scope.complete


def test_all_of_them_refers_back_to_the_object() -> None:
    assert collection_scope("Collect invoices from 2026 — all of them").complete
    assert collection_scope("scarica le fatture del 2026, tutte quante").complete


def test_relative_years_need_a_reference_date() -> None:
    anchored = collection_scope("tutte le bollette del gas di quest'anno", today=dt.date(2026, 11, 30))
    assert [(c.period.start, c.period.end) for c in anchored.period_filters] == [
        (dt.date(2026, 1, 1), dt.date(2026, 12, 31))
    ]
    last = collection_scope("all invoices from last year", today=dt.date(2026, 11, 30))
    assert last.period_filters[0].period.start == dt.date(2025, 1, 1)
    unanchored = collection_scope("all invoices from this year")
    assert unanchored.period_filters == ()
    assert unanchored.notices
