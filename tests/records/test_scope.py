"""Collection scope from a request: object, completeness, period, categories, fields."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.records.scope import collection_scope, scope_for_step


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
    assert scope.object == "invoice"  # bills and invoices are one kind (apps/records/lexicon/objects.json)
    assert scope.complete
    assert _period("the complete list of bills for July–August 2026") == (dt.date(2026, 7, 1), dt.date(2026, 8, 31))


def test_italian_complete_list() -> None:
    scope = collection_scope("l'elenco completo delle bollette di luglio-agosto 2026")
    assert scope.object == "invoice"
    assert scope.complete


@pytest.mark.parametrize(
    "request_text",
    [
        "don't download all the invoices from 2026",
        "do not collect all invoices",
        "non scaricare tutte le fatture del 2026",
        "never fetch all bills",
        "senza scaricare tutte le bollette",
        # Prohibitions before the verb, in a lexicon rather than sentence by sentence.
        "it is forbidden to download all invoices",
        "è vietato scaricare tutte le fatture",
        "è proibito scaricare tutte le fatture",
        "refrain from downloading all invoices",
        "stop downloading all invoices",
        "non scaricare tutte le fatture",
        "you must not collect all the bills from 2026",
        "smetti di scaricare tutte le bollette",
        "instead of all invoices, download the latest one",
        # ... and prohibition predicates after it.
        "downloading all invoices is prohibited",
        "downloading all invoices is not allowed",
        "scaricare tutte le fatture è vietato",
        "scaricare tutte le fatture non è consentito",
    ],
)
def test_negation_and_prohibition_never_activate_completeness(request_text: str) -> None:
    scope = collection_scope(request_text)
    assert not scope.complete
    assert scope.completeness_reason == "the request negates or forbids the complete collection"


@pytest.mark.parametrize(
    "request_text",
    ["collect all invoices not yet paid", "tutte le fatture non pagate del 2026", "Instead, get all bills"],
)
def test_a_negation_that_filters_the_items_does_not_negate_completeness(request_text: str) -> None:
    assert collection_scope(request_text).complete


@pytest.mark.parametrize(
    ("request_text", "object_name"),
    [
        ("all 2026 invoices", "invoice"),
        ("collect all my 2026 invoices", "invoice"),
        ("every single invoice", "invoice"),
        ("all July 2026 electricity bills", "invoice"),
        ("tutte le mie fatture 2026", "invoice"),
        ("tutte le vecchie bollette", "invoice"),
        ("the complete invoice list for 2026", "invoice"),
        ("the complete list of my 2026 electricity bills", "invoice"),
        ("il completo elenco delle fatture", "invoice"),
        ("l'elenco completo delle bollette del 2026", "invoice"),
        ("tutto l'archivio delle fatture", "invoice"),
    ],
)
def test_all_with_years_possessives_and_adjectives_before_the_object_is_complete(
    request_text: str, object_name: str
) -> None:
    scope = collection_scope(request_text)
    assert scope.object == object_name
    assert scope.complete, scope.completeness_reason


@pytest.mark.parametrize(
    "request_text",
    [
        "download the complete invoices from 2026",
        "scarica le fatture complete del 2026",
        "complete the invoice list",
        "the list of complete invoices",
    ],
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
    assert scope.object == "invoice"
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


# --- the step's scope checked against the user's request ---------------------


def test_a_shorter_step_keeps_the_completeness_and_period_of_the_request() -> None:
    scope = scope_for_step("collect all my 2026 invoices from https://portal.example/ into a spreadsheet", "invoices")
    assert scope.object == "invoice"
    assert scope.complete
    assert [(c.period.start, c.period.end) for c in scope.period_filters] == [
        (dt.date(2026, 1, 1), dt.date(2026, 12, 31))
    ]
    assert any("all the invoices" in notice for notice in scope.notices)
    assert any("states no period" in notice for notice in scope.notices)


def test_a_step_period_conflicting_with_the_request_gives_way_to_the_stricter_reading() -> None:
    scope = scope_for_step("raccogli tutte le bollette del 2026", "invoices from 2025")
    assert scope.complete
    (constraint,) = scope.period_filters
    assert constraint.period.start == dt.date(2026, 1, 1)
    assert any("'2025' differs from the request's '2026'" in notice for notice in scope.notices)


def test_a_step_agreeing_with_the_request_has_no_notice() -> None:
    scope = scope_for_step("tutte le fatture del 2026 in un foglio", "all invoices from 2026")
    assert scope.complete
    assert scope.notices == ()


def test_the_request_about_another_object_leaves_the_step_as_stated() -> None:
    assert scope_for_step("collect all contracts from 2026", "invoices") == collection_scope("invoices")
    assert scope_for_step("", "invoices") == collection_scope("invoices")
    assert scope_for_step("(plan)", "all invoices") == collection_scope("all invoices")


def test_a_prohibition_in_the_request_is_not_overridden_by_the_step() -> None:
    scope = scope_for_step("it is forbidden to download all invoices; get the latest one", "all invoices")
    assert not scope.complete
    assert any("negates or forbids" in notice for notice in scope.notices)


def test_an_address_in_the_request_is_no_period() -> None:
    scope = scope_for_step("collect all invoices from https://portal.example:2025/archive/2024", "invoices")
    assert scope.complete
    assert scope.period_filters == ()


@pytest.mark.parametrize(
    ("request_text", "kind"),
    [
        ("list every e-document dated 2026 in a spreadsheet", "document"),
        ("all my e-bills from 2026", "invoice"),
        ("tutte le e-fatture del 2026", "invoice"),
    ],
)
def test_an_object_inside_a_hyphenated_word_is_read_with_its_quantifier(request_text: str, kind: str) -> None:
    scope = collection_scope(request_text)
    assert (scope.object, scope.complete) == (kind, True)


@pytest.mark.parametrize(
    "request_text",
    [
        "put all the invoices from 2026 in a spreadsheet (number, date, amount). Credit notes don't count.",
        "tutte le bollette del 2026. Le note di credito non mi servono.",
        "all invoices from 2026 except credit notes",
        "tutte le fatture del 2026 escluse le note di credito",
        "all invoices from 2026, leaving out the credit notes",
        "Collect the 2026 invoices into a spreadsheet: number, date and amount. Skip refunds.",
    ],
)
def test_a_kind_the_request_leaves_out_does_not_make_it_ask_for_several(request_text: str) -> None:
    scope = collection_scope(request_text)
    assert scope.object == "invoice" and scope.notices == ()
    assert [constraint.text for constraint in scope.period_filters] == ["2026"]


@pytest.mark.parametrize(
    ("request_text", "kind", "also"),
    [
        ("all invoices and credit notes from 2026", "invoice", ("credit_note",)),
        ("every council tax bill and letter dated 2026", "invoice", ("notice",)),
        ("tutte le fatture e le note di credito del 2026", "invoice", ("credit_note",)),
        ("receipts, invoices & credit notes from 2026", "receipt", ("invoice", "credit_note")),
    ],
)
def test_kinds_joined_in_one_phrase_are_one_object_and_share_its_period(
    request_text: str, kind: str, also: tuple[str, ...]
) -> None:
    scope = collection_scope(request_text)
    assert (scope.object, scope.also, scope.several) == (kind, also, False)
    assert scope.kinds == (kind, *also)
    assert [constraint.text for constraint in scope.period_filters] == ["2026"]
    assert not any("several kinds" in notice for notice in scope.notices)


@pytest.mark.parametrize(
    "request_text",
    [
        "all invoices from 2025 and receipts",
        "the invoices from 2026. Also the contracts",
        "invoices from the portal and contracts from 2026",
    ],
)
def test_kinds_named_apart_apply_no_constraint(request_text: str) -> None:
    scope = collection_scope(request_text)
    assert scope.several and scope.also == ()
    assert scope.period_filters == () and any("several kinds of items" in notice for notice in scope.notices)


def test_periods_that_follow_one_another_are_one_period() -> None:
    scope = collection_scope("tutte le quietanze del 2025 e del 2026: numero, data e importo")
    ((constraint,),) = (scope.period_filters,)
    assert (constraint.period.start, constraint.period.end) == (dt.date(2025, 1, 1), dt.date(2026, 12, 31))
    assert constraint.text == "2025\u20132026" and scope.notices == ()


def test_periods_with_a_gap_between_them_apply_no_filter_and_say_so() -> None:
    scope = collection_scope("all invoices from 2023 and 2025")
    assert scope.period_filters == () and "several periods" in scope.notices[0]


@pytest.mark.parametrize(
    ("request_text", "period"),
    [
        ("I need every invoice from my GadgetBay orders of 2025; invoice number, date and order total", "2025"),
        ("tutte le fatture dei miei ordini del 2025", "2025"),
        ("all bills of 2026 in the documents section", "2026"),
    ],
)
def test_a_kind_named_as_where_the_items_are_or_as_a_field_is_not_another_object(
    request_text: str, period: str
) -> None:
    scope = collection_scope(request_text)
    assert scope.object == "invoice" and scope.notices == ()
    assert [constraint.text for constraint in scope.period_filters] == [period]


@pytest.mark.parametrize(
    "request_text",
    [
        "fammi un foglio con tutte le fatture (numero, data, totale). Le proforma non sono fatture, lasciale fuori.",
        "Proformas don't count: I want all the invoices (number, date, total).",
    ],
)
def test_the_kind_asked_for_is_the_first_one_not_left_out_and_its_fields_may_be_in_brackets(
    request_text: str,
) -> None:
    scope = collection_scope(request_text)
    assert scope.object == "invoice" and scope.complete and scope.notices == ()
    assert scope.fields[0] == "identifier_number" and scope.fields[-1] == "amount"


def test_brackets_that_do_not_list_fields_name_none() -> None:
    assert collection_scope("all bills (my account number is 123)").fields == ()
    scope = collection_scope("every e-document dated 2026 in a sheet (reference, date, amount where there is one)")
    assert scope.fields == ("identifier_number", "date", "amount")


def test_no_word_of_the_object_vocabulary_names_two_kinds() -> None:
    from collections import defaultdict

    from apps.records.objects import object_kinds

    kinds_of: defaultdict[str, set[str]] = defaultdict(set)
    for kind in object_kinds().values():
        for word in kind.all_words():
            kinds_of[word].add(kind.name)
    # A word of two kinds would be read as either, by chance: "letter" is a notice, never sometimes a document.
    assert {word: kinds for word, kinds in kinds_of.items() if len(kinds) > 1} == {}
