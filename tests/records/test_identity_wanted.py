"""Which observation a merged row keeps when the request names its fields; dates written with a month's name."""

from __future__ import annotations

import datetime as dt

from apps.records.identity.codes import comparable
from apps.records.identity.rows import merge_rows
from apps.records.rows import Source

# The full list: more fields, but no amount. The archive: fewer fields, with the amount.
FULL_LIST = Source(
    "all bills",
    [{"identifier_number": "BW-2026-003", "period": "February 2026", "issue_date": "15/03/2026", "status": "Paid"}],
)
ARCHIVE = Source("archive", [{"identifier_number": "BW-2026-003", "issue_date": "15 March 2026", "amount": "€ 102.60"}])
WANTED = (("identifier_number",), ("issue_date",), ("amount", "total"))


def test_the_same_day_written_with_a_month_name_agrees_with_its_digits() -> None:
    assert comparable("15 March 2026") == comparable("15/03/2026") == dt.date(2026, 3, 15)
    assert comparable("15 marzo 2026") == comparable("15 mar 2026") == dt.date(2026, 3, 15)
    assert comparable("March 2026") == "march 2026"  # a month is no day: compared as text
    assert comparable("INV march 2026") == "inv march 2026"


def test_rows_with_the_same_day_in_two_formats_merge() -> None:
    merged = merge_rows([FULL_LIST, ARCHIVE])
    assert len(merged.rows) == 1 and not merged.possible_duplicates


def test_the_row_showing_more_of_the_fields_asked_for_is_kept() -> None:
    kept = merge_rows([FULL_LIST, ARCHIVE], wanted_fields=WANTED).rows[0]
    assert kept.values["amount"] == "€ 102.60" and "period" not in kept.values  # kept whole, never blended
    assert kept.note is not None and kept.note.endswith("values kept as read in archive")


def test_without_fields_asked_for_the_longer_row_is_kept() -> None:
    kept = merge_rows([FULL_LIST, ARCHIVE]).rows[0]
    assert "amount" not in kept.values and kept.values["status"] == "Paid"


def test_among_rows_with_the_fields_asked_for_the_longer_is_kept_and_order_does_not_matter() -> None:
    longer = Source("detail", [{**ARCHIVE.rows[0], "status": "Paid", "due_date": "05/04/2026"}])
    for sources in ([FULL_LIST, ARCHIVE, longer], [longer, ARCHIVE, FULL_LIST]):
        kept = merge_rows(sources, wanted_fields=WANTED).rows[0]
        assert kept.values.get("due_date") == "05/04/2026"
