"""The shape of a record read from a page, and the words that make a value one of its fields.

Shared by the table and card reader (:mod:`apps.sites.collection.reading`)
and the reader of repeated items (:mod:`apps.sites.collection.items`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from apps.records.objects import object_kinds, object_mentions
from apps.records.vocabulary import FieldKind, classify_label

_SPACES = re.compile(r"\s+")

# Kinds a record shows; a table without any of them is layout, not records.
RECORD_KINDS: frozenset[FieldKind] = frozenset(
    {"identifier_number", "issue_date", "due_date", "date", "amount", "period"}
)
DATE_KINDS: frozenset[str] = frozenset({"issue_date", "due_date", "date", "period"})
# Labels that name the item itself ("Invoice", "Bolletta") hold its number.
_ITEM_NOUNS = frozenset(
    {"invoice", "bill", "fattura", "bolletta", "receipt", "ricevuta", "document", "documento", "numero", "number",
     "n", "nr", "no"}
)  # fmt: skip


@dataclass(frozen=True)
class ReadRow:
    """One record as read: field keys to observed text, and the texts that identify its row on the page."""

    values: dict[str, str | None]
    cells: tuple[str, ...]


def field_key(label: str) -> str:
    """The key a heading or label becomes: its vocabulary kind, else its own text."""
    text = _SPACES.sub(" ", label).strip().rstrip(":").strip()
    kind = classify_label(text)
    if kind is None and text.casefold().strip(".") in _ITEM_NOUNS:
        kind = "identifier_number"
    if kind is None or kind in ("count",):
        return text
    return kind


def is_record(values: dict[str, str | None]) -> bool:
    """Two filled values, one of them something records are made of (an identifier, a date, an amount)."""
    filled = [key for key, value in values.items() if value]
    return len(filled) >= 2 and any(key in RECORD_KINDS for key in filled)


# The key of the section title a row is listed under, when that title says what the rows are.
SECTION = "section"
# The kind a list's number column names ("Ordine"), when no column holds the item's own number: what the
# row is as listed. It decides only what is delivered, never whether the row's page is opened (an
# order's page may show its invoice).
LISTED_AS = "listed as"


def names_one_kind(title: str) -> bool:
    """Whether ``title`` names exactly one kind of item, not a generic one ("Ultimi movimenti",
    "Comunicazioni"; not "I miei documenti", nor "Bollette e pagamenti")."""
    kinds = {mention.kind for mention in object_mentions(title)}
    return len(kinds) == 1 and not object_kinds()[next(iter(kinds))].generic


def in_section(row: ReadRow, heading: str) -> ReadRow:
    """``row`` with the title it is listed under, when the title names one kind of item and none of the
    row's own values names any: what the rows of "Ultimi movimenti" are is said by their heading."""
    title = _SPACES.sub(" ", heading).strip()
    if not title or SECTION in row.values or not names_one_kind(title):
        return row
    if any(value and object_mentions(value) for key, value in row.values.items() if key != "identifier_number"):
        return row
    return ReadRow({**row.values, SECTION: title}, row.cells)
