"""The shape of a record read from a page, and the words that make a value one of its fields.

Shared by the table and card reader (:mod:`apps.sites.collection.reading`)
and the reader of repeated items (:mod:`apps.sites.collection.items`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
