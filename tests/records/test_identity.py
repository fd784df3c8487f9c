"""Row identity and merging: the spec's rules, each named for its behaviour, and properties of merge_rows."""

from __future__ import annotations

import datetime as dt
import gc
from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.records.identity.codes import analyse_text, analyse_texts, codes_in, comparable
from apps.records.identity.links import merge_list_and_detail
from apps.records.identity.results import MAX_ROWS_PER_SHARED_VALUE, MergeResult, ObservedLink
from apps.records.identity.rows import merge_rows
from apps.records.rows import CellValue, Row, Source


def bill(number: str | None, **fields: CellValue) -> dict[str, CellValue]:
    row: dict[str, CellValue] = {"Numero fattura": number} if number is not None else {}
    row.update(fields)
    return row


def merged_origins(result: MergeResult) -> list[set[tuple[str, int]]]:
    return [set(row.origins) for row in result.rows if row.merged]


def codes(text: str) -> set[str]:
    return {shown for _, shown in codes_in(text)}


# --- what counts as a code ------------------------------------------------------


@pytest.mark.parametrize("text", ["INV-20-005", "A1234", "2026F000123", "IT001E12345678", "00012/E", "FT/2026/0042A"])
def test_code_of_letters_and_digits_is_a_code(text: str) -> None:
    assert codes(text) == {text}


@pytest.mark.parametrize("text", ["Pagata", "2026", "000123", "A1", "F2"])
def test_words_plain_numbers_and_short_tokens_are_not_codes(text: str) -> None:
    assert codes(text) == set()


@pytest.mark.parametrize("text", ["15/09/2026", "1.234,56", "2026-09-15", "€ 12,50", "12.50", "-1.234,56 €"])
def test_dates_and_amounts_written_with_separators_are_not_codes(text: str) -> None:
    assert codes(text) == set()


@pytest.mark.parametrize(
    "text",
    [
        "15-set-2026",
        "Sep-2026",
        "settembre-2026",
        "Q3-2026",
        "2026-Q3",
        "2026-09-15T10:30",
        "350kWh",
        "12.50EUR",
        "1st",
    ],
)
def test_dates_periods_and_quantities_written_with_letters_are_not_codes(text: str) -> None:
    assert codes(text) == set()


def test_codes_inside_a_sentence_are_found() -> None:
    assert codes("Storno fattura INV-2026-001 del 15/09/2026, rif. A1234") == {"INV-2026-001", "A1234"}


def test_number_label_glued_to_a_code_is_dropped() -> None:
    assert codes("N.2026F000123") == {"2026F000123"}


def test_codes_compare_ignoring_case_but_keep_their_separators() -> None:
    assert codes_in("inv-20-005")[0][0] == codes_in("INV-20-005")[0][0]
    assert codes_in("INV-20-005")[0][0] != codes_in("INV-200-05")[0][0]
    assert codes_in("INV\u201320\u2013005")[0][0] == codes_in("INV-20-005")[0][0]  # an en dash reads as a hyphen


# --- how values compare -----------------------------------------------------------


def test_text_compares_ignoring_case_and_spacing() -> None:
    assert comparable("  Da   pagare ") == comparable("da pagare")


def test_amounts_compare_by_value() -> None:
    assert (
        comparable("1.234,56 €")
        == comparable("1,234.56")
        == comparable(Decimal("1234.56"))
        == comparable("EUR 1234,56")
    )
    assert comparable("12,5") == comparable(12.5) == comparable("€ 12,50")
    assert comparable("-12,50") == Decimal("-12.50")


def test_ambiguous_thousands_and_leading_zeros_are_not_numbers() -> None:
    # Not numbers: they stay text and compare as text.
    assert comparable("1.234") == "1.234"
    assert comparable("00123") == "00123"
    assert comparable("10 120,00") == "10 120,00"  # a plain space never groups: maybe a quantity and a price
    assert comparable("1.234") != comparable("1234")
    assert comparable("0,125") == Decimal("0.125")  # only a decimal mark can follow a lone zero


def test_dates_compare_as_values() -> None:
    day = dt.date(2026, 9, 15)
    assert comparable("15/09/2026") == comparable("15.09.2026") == comparable("2026-09-15") == comparable(day)
    # Spreadsheet readers type a plain date as a naive midnight datetime.
    assert comparable(dt.datetime(2026, 9, 15)) == comparable(day)  # noqa: DTZ001
    assert comparable("09/15/2026") != comparable(day)  # numeric dates are day first


def test_true_never_agrees_with_one() -> None:
    assert comparable(True) != comparable(1)


def test_empty_cells_have_no_value() -> None:
    assert comparable(None) is None
    assert comparable("   ") is None
    assert analyse_text("") == (None, ())


cell_texts = st.lists(
    st.one_of(
        st.sampled_from(["INV-20-005", "2026F000123", "A0000001/B", "Sep-2026", "350kWh", "15/09/2026", "Pagata", ""]),
        st.sampled_from(["1.234,56 €", "-12,50", "€ 0,00", "-0,00", "- 1,5", "12,5", "1.234", "-€ 7,05"]),
        st.from_regex(r"-?(€ ?)?(0|[1-9][0-9]{0,2}(\.[0-9]{3})+|[1-9][0-9]*),[0-9]{1,2}( ?€)?", fullmatch=True),
        st.from_regex(r"[0-9]*[A-Za-z]+[A-Za-z0-9]*([-/_][A-Za-z0-9]+)*", fullmatch=True),
        st.text(max_size=12),
    ),
    max_size=20,
)


@settings(max_examples=300, deadline=None)
@given(texts=cell_texts)
def test_cells_read_in_bulk_read_as_each_cell_alone(texts: list[str]) -> None:
    expected = [(comparable(text), codes_in(text)) for text in texts]

    assert repr(analyse_texts(texts)) == repr(expected)  # repr: -0.00 and 0.00 are told apart
    assert repr([analyse_text(text) for text in texts]) == repr(expected)


# --- merge_rows: identifiers -----------------------------------------------------


def test_same_identifier_on_two_pages_merges() -> None:
    summary = Source("summary", [bill("INV-2026-001", Importo="120,00 €", Stato="Pagata")])
    archive = Source(
        "archive", [bill("INV-2026-001", Importo=Decimal("120.00"), Stato="pagata", Periodo="Luglio 2026")]
    )

    result = merge_rows([summary, archive])

    assert len(result.rows) == 1
    assert set(result.rows[0].origins) == {("summary", 0), ("archive", 0)}
    assert result.merged_count == 1
    assert result.rows[0].note == (
        "Merged: same identifier INV-2026-001 read in sources archive and summary; values kept as read in archive"
    )
    assert result.message() == "2 rows merged into 1 (same identifier on different pages)"


def test_code_repeated_on_every_row_identifies_nothing() -> None:
    pod = "IT001E12345678"
    first = Source("p1", [{"POD": pod, "Data": "15/07/2026", "Importo": "50,00"}, {"POD": pod, "Data": "15/08/2026"}])
    second = Source("p2", [{"POD": pod, "Data": "15/07/2026", "Importo": "50,00"}, {"POD": pod, "Data": "15/09/2026"}])

    result = merge_rows([first, second])

    assert result.merged_count == 0
    assert len(result.rows) == 4
    # Still worth a look: two equal fields and no identifier.
    assert [(d.a, d.b) for d in result.possible_duplicates] == [(("p1", 0), ("p2", 0))]


def test_code_on_two_rows_of_a_page_identifies_nothing_there() -> None:
    archive = Source("archive", [bill("INV-1", Importo="10"), {"Causale": "Storno INV-1", "Importo": "-10"}])
    summary = Source("summary", [bill("INV-1", Importo="10")])

    result = merge_rows([archive, summary])

    assert result.merged_count == 0


def test_inv_20_005_and_inv_200_05_stay_distinct() -> None:
    first = Source("s1", [bill("INV-20-005", Importo="10,00", Stato="Pagata", Data="01/07/2026")])
    second = Source("s2", [bill("INV-200-05", Importo="10,00", Stato="Pagata", Data="01/07/2026")])

    result = merge_rows([first, second])

    assert result.merged_count == 0
    assert len(result.rows) == 2
    # Two codes in one field: two invoices, kept apart; yet amount, status and date are equal and
    # they share no identifier, so the spec reports them as possible duplicates.
    (duplicate,) = result.possible_duplicates
    assert (duplicate.a, duplicate.b) == (("s1", 0), ("s2", 0))
    assert duplicate.reason == (
        "3 equal fields (Data, Importo, Stato), but Numero fattura shows different codes (INV-20-005 / INV-200-05)"
    )


def test_invoices_with_different_codes_sharing_only_their_dates_are_not_possible_duplicates() -> None:
    # Bills of one day all share the issue date and the due date that follows from it: dates count once.
    first = Source("s1", [bill("INV-2026-101", Importo="10,00", Data="01/07/2026", Scadenza="21/07/2026")])
    second = Source("s2", [bill("INV-2026-102", Importo="12,50", Data="01/07/2026", Scadenza="21/07/2026")])

    result = merge_rows([first, second])

    assert result.merged_count == 0 and len(result.rows) == 2
    assert result.possible_duplicates == ()


def test_copies_of_one_code_merge_only_within_their_group() -> None:
    sources = [
        Source("s1", [bill("INV-20-005", Importo="10"), bill("INV-200-05", Importo="20")]),
        Source("s2", [bill("inv-20-005", Importo="10"), bill("INV-200-05", Importo="20")]),
    ]

    result = merge_rows(sources)

    assert sorted(sorted(o) for o in merged_origins(result)) == [
        [("s1", 0), ("s2", 0)],
        [("s1", 1), ("s2", 1)],
    ]


def test_credit_note_citing_an_invoice_stays_separate_as_possible_duplicate() -> None:
    invoices = Source("invoices", [bill("INV-2026-001", Data="15/09/2026", Importo="120,00 €", Stato="Pagata")])
    credits = Source(
        "credits",
        [bill("NC-2026-07", Data="15/10/2026", Importo="-120,00 €", Stato="Emessa", Causale="Storno INV-2026-001")],
    )

    result = merge_rows([invoices, credits])

    assert result.merged_count == 0
    assert len(result.rows) == 2
    (duplicate,) = result.possible_duplicates
    assert {duplicate.a, duplicate.b} == {("invoices", 0), ("credits", 0)}
    assert "same identifier INV-2026-001" in duplicate.reason
    assert result.message() == "2 rows from 2 sources, none merged; 1 possible duplicate kept separate"


def test_list_and_detail_with_different_dates_merge() -> None:
    listing = Source("list", [bill("A1234", Data="15/09/2026", Importo="80,00", Stato="Pagata")])
    detail = Source(
        "detail",
        [bill("A1234", Data=dt.date(2026, 9, 14), Importo=Decimal("80"), Stato="Pagata", POD="IT001E1")],
    )

    result = merge_rows([listing, detail])

    assert result.merged_count == 1
    assert result.rows[0].values["Data"] == dt.date(2026, 9, 14)  # the detail is more complete: kept as read


def test_more_contradictions_than_agreements_stay_separate_as_possible_duplicate() -> None:
    first = Source("s1", [bill("A1234", Data="01/07/2026", Importo="80,00", Stato="Pagata")])
    second = Source("s2", [bill("A1234", Data="01/08/2026", Importo="95,00", Stato="Da pagare")])

    result = merge_rows([first, second])

    assert result.merged_count == 0
    (duplicate,) = result.possible_duplicates
    assert duplicate.reason == "same identifier A1234, but 3 of 4 common fields differ (Data, Importo, Stato)"


def test_shared_identifier_without_a_common_field_is_said_plainly() -> None:
    first = Source("s1", [{"Rif": "A1234"}])
    second = Source("s2", [{"Codice": "A1234"}])

    result = merge_rows([first, second])

    assert result.merged_count == 0
    (duplicate,) = result.possible_duplicates
    assert duplicate.reason == "same identifier A1234, but no field in common to compare"


def test_as_many_contradictions_as_agreements_do_not_merge() -> None:
    first = Source("s1", [bill("A1234", Data="01/07/2026")])
    second = Source("s2", [bill("A1234", Data="01/08/2026")])

    assert merge_rows([first, second]).merged_count == 0


def test_rows_within_one_source_never_merge() -> None:
    page = Source("page", [bill("INV-1", Importo="10"), bill("INV-1", Importo="10")])

    result = merge_rows([page])

    assert result.merged_count == 0
    assert len(result.rows) == 2
    assert result.possible_duplicates == ()


def test_same_page_read_twice_is_two_sources() -> None:
    rows: list[Row] = [bill("INV-1", Importo="10"), bill("INV-2", Importo="20")]
    first = Source("read-1", rows, page="https://portal.example/bollette")
    again = Source("read-2", rows, page="https://portal.example/bollette")

    result = merge_rows([first, again])

    assert result.source_count == 2
    assert result.merged_count == 2
    assert len(result.rows) == 2


def test_two_sources_with_one_id_are_refused() -> None:
    with pytest.raises(ValueError, match="share the id"):
        merge_rows([Source("s", []), Source("s", [])])


def test_more_complete_row_is_kept_without_blending() -> None:
    short = Source("a", [bill("INV-1", Importo="10,00", Stato="Pagata", Note="list only")])
    full = Source("b", [bill("INV-1", Importo=Decimal("10"), Stato="PAGATA", Periodo="Luglio", POD="IT001E9")])

    (row,) = merge_rows([short, full]).rows

    assert row.values == full.rows[0]
    assert "Note" not in row.values
    assert row.origins == (("b", 0), ("a", 0))


def test_merged_row_lists_every_origin_and_originals_stay_accessible() -> None:
    sources = [Source(f"s{n}", [bill("INV-7", Importo="7", Stato=f"read {n}" if n == 2 else "ok")]) for n in range(3)]

    result = merge_rows(sources)

    merged = [row for row in result.rows if row.merged]
    assert len(merged) == 1
    assert {result.observation(origin)["Numero fattura"] for origin in merged[0].origins} == {"INV-7"}
    assert result.observation(("s2", 0)) is sources[2].rows[0]
    assert sum(len(row.origins) for row in result.rows) == 3


def test_codeless_row_never_bridges_two_invoices() -> None:
    one = Source("s1", [bill("INV-1", Importo="10", Stato="Pagata", Data="01/07/2026")])
    other = Source("s2", [bill("INV-2", Importo="10", Stato="Pagata", Data="01/07/2026")])
    codeless = Source("s3", [bill(None, Importo="10", Stato="Pagata", Data="01/07/2026")])

    result = merge_rows([one, other, codeless])

    assert result.merged_count == 0
    assert len(result.rows) == 3
    pairs = {frozenset((d.a[0], d.b[0])) for d in result.possible_duplicates}
    # Every two of them have three equal fields and no shared identifier.
    assert pairs == {frozenset(("s1", "s3")), frozenset(("s2", "s3")), frozenset(("s1", "s2"))}


@pytest.mark.parametrize("order", [("s1", "s2", "s3"), ("s3", "s1", "s2"), ("s2", "s3", "s1")])
def test_codeless_row_sharing_only_the_supply_identifier_joins_neither_invoice(order: tuple[str, ...]) -> None:
    # The supply identifier is on the single row of each page, so it is an identifier there; the
    # row without an invoice number agrees with both invoices and could be a copy of either.
    pod = "IT001E12345678"
    one = Source(order[0], [bill("INV-1", POD=pod, Importo="50")])
    other = Source(order[1], [bill("INV-2", POD=pod, Importo="60")])
    codeless = Source(order[2], [{"POD": pod, "Periodo": "Luglio 2026"}])

    result = merge_rows([one, other, codeless])

    assert result.merged_count == 0
    assert len(result.rows) == 3
    pairs = {frozenset((d.a, d.b)) for d in result.possible_duplicates}
    assert pairs == {frozenset(((order[2], 0), (order[0], 0))), frozenset(((order[2], 0), (order[1], 0)))}
    for duplicate in result.possible_duplicates:
        assert duplicate.reason == (
            f"same identifier {pod}, which different items show too; nothing else tells which of them "
            f"the row of {order[2]} is"
        )


def test_codeless_row_whose_fields_tell_its_invoice_merges_with_it() -> None:
    pod = "IT001E12345678"
    one = Source("s1", [bill("INV-1", POD=pod, Importo="50", Data="01/07/2026")])
    other = Source("s2", [bill("INV-2", POD=pod, Importo="60", Data="01/08/2026")])
    codeless = Source("s3", [{"POD": pod, "Importo": "50,00", "Data": "01/07/2026"}])

    result = merge_rows([one, other, codeless])

    assert merged_origins(result) == [{("s1", 0), ("s3", 0)}]


def test_chain_through_different_codes_never_merges_its_ends() -> None:
    # A~B share X, B~C share Y, A and C share nothing: only one of the two merges.
    a = Source("a", [{"Rif": "X-100", "Importo": "10", "Stato": "ok"}])
    b = Source("b", [{"Rif": "X-100 Y-200", "Importo": "10", "Stato": "ok"}])
    c = Source("c", [{"Rif": "Y-200", "Importo": "10", "Stato": "ok"}])

    result = merge_rows([a, b, c])

    groups = merged_origins(result)
    assert len(groups) == 1
    assert ("a", 0) not in groups[0] or ("c", 0) not in groups[0]
    assert len(result.rows) == 2
    assert len(result.possible_duplicates) == 1


def test_different_codes_stay_separate_even_with_the_same_supply_identifier() -> None:
    # Two detail pages: the supply identifier is on the single row of each, so it is
    # an identifier there, but the invoice numbers differ.
    first = Source("d1", [bill("INV-1", POD="IT001E12345678", Importo="50", Stato="Pagata")])
    second = Source("d2", [bill("INV-2", POD="IT001E12345678", Importo="50", Stato="Pagata")])

    result = merge_rows([first, second])

    assert result.merged_count == 0
    # Amount and status are equal too: maybe one invoice issued twice, so it is reported.
    (duplicate,) = result.possible_duplicates
    assert (
        duplicate.reason == "2 equal fields (Importo, Stato), but Numero fattura shows different codes (INV-1 / INV-2)"
    )


def test_different_invoices_sharing_only_codes_and_one_value_are_not_possible_duplicates() -> None:
    # The supply identifier shows a code: equal on bills of one supply, it says nothing of the invoice.
    first = Source("d1", [bill("INV-1", POD="IT001E12345678", Importo="50", Stato="Pagata")])
    second = Source("d2", [bill("INV-2", POD="IT001E12345678", Importo="70", Stato="Pagata")])

    assert merge_rows([first, second]).possible_duplicates == ()


def test_identifier_fields_make_digit_only_numbers_codes() -> None:
    first = Source("s1", [{"Numero": "000123", "Importo": "10"}, {"Numero": "000124", "Importo": "11"}])
    second = Source("s2", [{"Numero": "000123", "Importo": "10"}])

    assert merge_rows([first, second]).merged_count == 0
    assert merge_rows([first, second], identifier_fields=["numero "]).merged_count == 1


def test_truncated_source_never_merges() -> None:
    full = Source("full", [bill("INV-1", Importo="10", Stato="ok")])
    cut = Source("cut", [bill("INV-1", Importo="10", Stato="ok")], truncated=True)

    result = merge_rows([full, cut])

    assert result.merged_count == 0
    (duplicate,) = result.possible_duplicates
    assert duplicate.reason == "same identifier INV-1, but cut is a truncated view"


# --- merge_rows: possible duplicates without a shared identifier ----------------------------


def test_rows_with_two_equal_fields_and_no_identifier_are_possible_duplicates() -> None:
    first = Source("s1", [{"Data": "01/07/2026", "Importo": "10,00", "Stato": "Pagata"}, {"Data": "02/07/2026"}])
    second = Source("s2", [{"Data": dt.date(2026, 7, 1), "Importo": Decimal("10"), "Stato": "Da pagare"}])

    result = merge_rows([first, second])

    (duplicate,) = result.possible_duplicates
    assert (duplicate.a, duplicate.b) == (("s1", 0), ("s2", 0))
    assert duplicate.reason == "2 equal fields (Data, Importo) and no shared identifier"


def test_one_equal_field_is_not_a_possible_duplicate() -> None:
    first = Source("s1", [{"Data": "01/07/2026", "Importo": "10,00"}])
    second = Source("s2", [{"Data": "01/07/2026", "Importo": "11,00"}])

    assert merge_rows([first, second]).possible_duplicates == ()


def test_values_on_every_row_of_a_page_are_not_equal_fields() -> None:
    first = Source("s1", [{"Fornitore": "Enel", "Stato": "Pagata", "Importo": str(n)} for n in range(1, 4)])
    second = Source("s2", [{"Fornitore": "Enel", "Stato": "Pagata", "Importo": str(n)} for n in range(5, 8)])

    assert merge_rows([first, second]).possible_duplicates == ()


def test_values_shared_beyond_the_bound_are_reported_not_expanded() -> None:
    many = MAX_ROWS_PER_SHARED_VALUE + 1
    first = Source("s1", [{"Stato": "Pagata" if n % 2 else "Da pagare", "Importo": str(n)} for n in range(many * 2)])
    second = Source(
        "s2", [{"Stato": "Pagata" if n % 2 else "Da pagare", "Importo": str(n + 1000)} for n in range(many)]
    )

    result = merge_rows([first, second])

    assert {(v.field, v.value) for v in result.common_values} == {("Stato", "pagata"), ("Stato", "da pagare")}
    assert f"shared by more than {MAX_ROWS_PER_SHARED_VALUE} rows (Stato)" in result.message()


def test_output_follows_the_reading_order() -> None:
    b = Source("b", [bill("INV-2"), bill("INV-1", Importo="1")])
    a = Source("a", [bill("INV-1", Importo="1"), bill("INV-3")])

    result = merge_rows([b, a])

    assert [row.values.get("Numero fattura") for row in result.rows] == ["INV-2", "INV-1", "INV-3"]


def test_message_counts_merges_and_possible_duplicates() -> None:
    sources = [
        Source("s1", [bill("INV-1", Importo="1", Stato="ok"), bill("INV-2", Importo="2", Stato="ok")]),
        Source("s2", [bill("INV-1", Importo="1", Stato="ok"), bill("INV-2", Importo="2", Stato="ok")]),
        Source("s3", [bill("NC-9", Importo="-1", Stato="Emessa", Causale="Storno INV-1")]),
    ]

    message = merge_rows(sources).message()

    assert message == "4 rows merged into 2 (same identifier on different pages); 1 possible duplicate kept separate"


class _CollectorProbe(Mapping[str, CellValue]):
    """A row that notes, each time the merge reads it, whether automatic garbage collection is on."""

    def __init__(self, values: dict[str, CellValue], seen: list[bool]) -> None:
        self._values, self._seen = values, seen

    def __getitem__(self, key: str) -> CellValue:
        self._seen.append(gc.isenabled())
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        self._seen.append(gc.isenabled())
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


def test_merge_rows_never_switches_garbage_collection_off() -> None:
    # gc.disable() is process-wide: the server's other threads run other users' turns meanwhile.
    seen: list[bool] = []
    sources = [
        Source("s1", [_CollectorProbe(bill("INV-1", Importo="1"), seen), bill("INV-2")]),
        Source("s2", [_CollectorProbe(bill("INV-1", Importo="1"), seen)]),
    ]
    assert gc.isenabled()

    result = merge_rows(sources)

    assert result.merged_count == 1
    assert seen, "the merge read the probe rows"
    assert all(seen), "garbage collection was off while the merge ran"
    assert gc.isenabled()


def test_merge_rows_leaves_a_paused_collector_paused() -> None:
    sources = [Source("s1", [bill("INV-1")]), Source("s2", [bill("INV-1")])]
    gc.disable()
    try:
        merge_rows(sources)
        assert not gc.isenabled()
    finally:
        gc.enable()


# --- merge_list_and_detail ---------------------------------------------------------


def list_and_details() -> tuple[Source, list[Source]]:
    listing = Source(
        "list",
        [
            {"Numero": "INV-1", "Data": "15/09/2026", "Importo": "80,00", "Stato": "Pagata"},
            {"Numero": "INV-2", "Data": "15/10/2026", "Importo": "90,00", "Stato": "Da pagare"},
        ],
    )
    details = [
        Source("d1", [{"Numero": "INV-1", "Data": "14/09/2026", "Importo": "80,00", "POD": "IT001E1", "Stato": None}]),
        Source("d2", [{"Numero": "INV-2", "Importo": "90,00", "POD": "IT001E1"}]),
    ]
    return listing, details


def test_unambiguous_link_merges_list_and_detail() -> None:
    listing, details = list_and_details()

    result = merge_list_and_detail(listing, details, [ObservedLink(0, "d1"), ObservedLink(1, "d2")])

    assert result.merged_count == 2
    assert [row.origins for row in result.rows] == [(("d1", 0), ("list", 0)), (("d2", 0), ("list", 1))]
    assert result.unmerged_links == ()
    assert result.message() == "2 list rows completed with the detail view (observed link)"


def test_detail_fields_win_and_list_only_fields_are_kept() -> None:
    listing, details = list_and_details()

    result = merge_list_and_detail(listing, details, [ObservedLink(0, "d1")])

    first = result.rows[0]
    assert first.values == {
        "Numero": "INV-1",
        "Data": "14/09/2026",  # the detail's reading
        "Importo": "80,00",
        "POD": "IT001E1",  # found only in the detail
        "Stato": "Pagata",  # left empty by the detail: the list's reading is kept
    }
    assert first.note == (
        "Merged: row 1 of list with its detail view d1 (observed link); "
        "detail values kept, the list showed Data 15/09/2026"
    )
    assert result.observation(("list", 0))["Data"] == "15/09/2026"  # the original observation is untouched


def test_ambiguous_link_keeps_views_separate() -> None:
    listing, details = list_and_details()

    two_rows_one_detail = merge_list_and_detail(listing, details, [ObservedLink(0, "d1"), ObservedLink(1, "d1")])
    one_row_two_details = merge_list_and_detail(listing, details, [ObservedLink(0, "d1"), ObservedLink(0, "d2")])

    for result in (two_rows_one_detail, one_row_two_details):
        assert result.merged_count == 0
        assert len(result.rows) == 4
        assert all(link.reason.startswith("ambiguous link") for link in result.unmerged_links)
        assert len(result.unmerged_links) == 2


def test_truncated_view_never_merges() -> None:
    listing, details = list_and_details()
    cut_list = Source(listing.id, listing.rows, truncated=True)
    cut_detail = Source("d1", details[0].rows, truncated=True)

    cut_list_result = merge_list_and_detail(cut_list, details, [ObservedLink(0, "d1")])
    cut_detail_result = merge_list_and_detail(listing, [cut_detail, details[1]], [ObservedLink(0, "d1")])

    assert cut_list_result.merged_count == cut_detail_result.merged_count == 0
    assert cut_list_result.unmerged_links[0].reason == "the list view is truncated"
    assert cut_detail_result.unmerged_links[0].reason == "the detail view is truncated"


def test_detail_view_with_several_rows_never_merges() -> None:
    listing, _ = list_and_details()
    several = Source("d1", [{"Numero": "INV-1"}, {"Numero": "INV-9"}])

    result = merge_list_and_detail(listing, [several], [ObservedLink(0, "d1")])

    assert result.merged_count == 0
    assert result.unmerged_links[0].reason == "the detail view holds 2 rows, not one"


def test_matching_dates_or_amounts_without_a_link_merge_nothing() -> None:
    listing = Source("list", [{"Data": "15/09/2026", "Importo": "80,00", "Numero": "INV-1"}])
    lookalike = Source("d1", [{"Data": "15/09/2026", "Importo": "80,00", "Numero": "INV-1"}])

    result = merge_list_and_detail(listing, [lookalike], [])

    assert result.merged_count == 0
    assert len(result.rows) == 2


def test_link_between_views_showing_different_codes_does_not_merge() -> None:
    listing, details = list_and_details()

    result = merge_list_and_detail(listing, details, [ObservedLink(0, "d2")])

    assert result.merged_count == 0
    assert result.unmerged_links[0].reason == "the views show different codes in Numero (INV-1 / INV-2)"


def test_link_to_an_unknown_view_or_row_is_refused() -> None:
    listing, details = list_and_details()

    with pytest.raises(ValueError, match="not one of the detail sources"):
        merge_list_and_detail(listing, details, [ObservedLink(0, "elsewhere")])
    with pytest.raises(ValueError, match="has 2 rows"):
        merge_list_and_detail(listing, details, [ObservedLink(5, "d1")])


# --- properties ------------------------------------------------------------------

CODES = ["INV-1", "INV-2", "INV-10", "INV-1-0", "A123", "IT001E5"]
VALUES: dict[str, list[CellValue]] = {
    "Numero": [*CODES, None, "000123"],
    "Data": [dt.date(2026, 1, 1), "01/01/2026", "02/01/2026", None],
    "Importo": ["12,50 €", Decimal("12.5"), "13", None],
    "Stato": ["Pagata", " pagata ", "Da pagare", True],
    "Causale": ["Storno INV-1", "rif. A123 e INV-2", "Bolletta", None],
    "POD": ["IT001E5", "IT001E6"],
}

rows_strategy = st.fixed_dictionaries({}, optional={key: st.sampled_from(values) for key, values in VALUES.items()})
sources_strategy = st.lists(st.tuples(st.lists(rows_strategy, max_size=5), st.booleans()), min_size=1, max_size=5).map(
    lambda reads: [
        Source(f"s{n}", rows, page="same page" if n % 2 else "", truncated=cut and n == 0)
        for n, (rows, cut) in enumerate(reads)
    ]
)


def canonical(result: MergeResult) -> tuple[object, ...]:
    rows = frozenset((row.origins, repr(sorted(row.values.items())), row.note) for row in result.rows)
    duplicates = frozenset((d.a, d.b, d.reason) for d in result.possible_duplicates)
    return rows, duplicates, result.merged_count, result.common_values, result.message()


@settings(max_examples=300, deadline=None)
@given(sources=sources_strategy, data=st.data())
def test_merge_rows_does_not_depend_on_source_order(sources: list[Source], data: st.DataObject) -> None:
    permuted = data.draw(st.permutations(sources))

    assert canonical(merge_rows(permuted, identifier_fields=["Numero"])) == canonical(
        merge_rows(sources, identifier_fields=["Numero"])
    )


@settings(max_examples=300, deadline=None)
@given(sources=sources_strategy)
def test_merge_rows_never_loses_or_repeats_a_row(sources: Sequence[Source]) -> None:
    result = merge_rows(sources)

    seen = [origin for row in result.rows for origin in row.origins]
    expected = [(source.id, index) for source in sources for index in range(len(source.rows))]
    assert sorted(seen) == sorted(expected)
    for row in result.rows:
        assert row.values == dict(result.observation(row.origins[0]))  # kept as read, nothing blended


@settings(max_examples=300, deadline=None)
@given(sources=sources_strategy)
def test_merged_rows_are_copies_of_one_code_from_distinct_untruncated_sources(sources: Sequence[Source]) -> None:
    result = merge_rows(sources)

    for row in result.rows:
        if not row.merged:
            continue
        source_ids = [source_id for source_id, _ in row.origins]
        assert len(set(source_ids)) == len(source_ids)
        assert not any(result.observations[source_id].truncated for source_id in source_ids)
        shown = [
            {
                code
                for cell in result.observation(origin).values()
                if isinstance(cell, str)
                for code, _ in codes_in(cell)
            }
            for origin in row.origins
        ]
        assert set.intersection(*shown)  # one code shared by every member, no chain
