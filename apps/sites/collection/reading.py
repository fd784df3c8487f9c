"""Reading the records a page shows, deterministically, with the field vocabulary.

Tables are read by their headings, repeated cards and detail views by their
label/value pairs (``read.js``, read-only). A table row of one wide
cell holding label/value pairs, right under a record's row, is that row's
detail (often opened in place): its pairs add fields to the row above. Headings and labels
become field keys through :func:`apps.records.vocabulary.classify_label`
("Numero bolletta" and "Invoice number" are both ``identifier_number``);
labels the vocabulary does not know keep their own text. Values stay the
text observed: nothing is filled in, converted or guessed.

A table or a set of cards counts as records only when its fields include
something records are made of (an identifier, a date, an amount, a
period); a detail view needs two such pairs. Everything else (menus, plan
descriptions, contact numbers) is not a record.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from apps.records.identity.codes import identifier_field_codes
from apps.records.vocabulary import FIELD_KINDS
from apps.sites.collection.items import document_rows, item_row, items_rows, read_piece
from apps.sites.collection.read_rows import (
    DATE_KINDS,
    LISTED_AS,
    RECORD_KINDS,
    ReadRow,
    field_key,
    in_section,
    is_record,
    names_one_kind,
)
from apps.sites.observation.page_calls import evaluate_within
from apps.sites.observation.scripts import script_beside

__all__ = ["RECORD_KINDS", "PageRecords", "ReadRow", "RecordsUnreadable", "field_key", "is_record", "read_records"]

READ_SCRIPT = script_beside(__file__, "read.js")
MAX_ROWS_PER_READ = 2_000
MAX_CELL_CHARS = 500
MAX_PAIRS = 60
_SPACES = re.compile(r"\s+")
MAX_ITEM_LINES = 40  # visible lines read per repeated item
MAX_PAGE_LINES = 1_500  # visible lines of a page without tables or cards, for its document lines


class RecordsUnreadable(Exception):
    """The page could not be read for records; ``reason`` is from a closed set."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class PageRecords:
    """The list rows of a page and, for a detail view, its one row of label/value pairs."""

    rows: tuple[ReadRow, ...]
    detail: ReadRow | None
    truncated: bool


def _keys(labels: list[str], keys: list[str] | None = None) -> list[str]:
    """Keys for the labels of one row (or the ``keys`` given for them); two labels of one kind keep their
    own text (no guessing)."""
    keys = keys if keys is not None else [field_key(label) if label.strip() else "" for label in labels]
    for index, key in enumerate(keys):
        if key and keys.count(key) > 1:
            keys[index] = _SPACES.sub(" ", labels[index]).strip()
    return keys


def _row_from_pairs(pairs: list[list[str]]) -> ReadRow:
    labels = [str(label) for label, _ in pairs]
    keys = _keys(labels)
    values: dict[str, str | None] = {}
    for key, (_, value) in zip(keys, pairs, strict=True):
        if key and key not in values:
            values[key] = str(value) or None
    return ReadRow(values, tuple(str(value) for _, value in pairs if value))


_BARE_YEAR = re.compile(r"(?:19|20)\d{2}")


def _holds_numbers(texts: list[str]) -> bool:
    """Whether any of ``texts`` shows a number or code other than a year: "KB-2026-11", "10234"."""
    return any(not _BARE_YEAR.fullmatch(code) for text in texts for code, _ in identifier_field_codes(text))


def _column(body: list[dict[str, Any]], index: int) -> list[str]:
    """The texts of one column's cells, row by row (rows too short for it left out)."""
    return [str(row["cells"][index]["text"]) for row in body if index < len(row["cells"])]


def _labelled_in_cells(texts: list[str]) -> str:
    """The field every filled cell of a column names before its value ("Codice avviso 3260…"), or ""."""
    labels = set()
    for text in texts:
        if text.strip():
            piece = read_piece(text)
            labels.add(field_key(piece.label) if piece.label and piece.kind in ("code", "date", "amount") else "")
    label = next(iter(labels)) if len(labels) == 1 else ""
    return label if label in FIELD_KINDS else ""


def _table_keys(headers: list[str], body: list[dict[str, Any]]) -> list[str]:
    """Keys for a table's columns. A column named for the item's number ("Document", "Invoice") whose
    cells show no number holds the items' titles ("Current Account statement - June 2025"): it keeps its
    heading, and leaves the number to the column that shows one ("Protocollo" beside "Documento")."""
    keys = [field_key(header) if header.strip() else "" for header in headers]
    for index, key in enumerate(keys):
        if key not in FIELD_KINDS:
            labelled = _labelled_in_cells(_column(body, index))
            if labelled and labelled not in keys:
                keys[index] = labelled  # "Avviso": "Codice avviso 326000040044204117" in every cell
        elif key == "identifier_number":
            texts = _column(body, index)
            if any(texts) and not _holds_numbers(texts):
                keys[index] = _SPACES.sub(" ", headers[index]).strip()
    return _keys(headers, keys)


def _identified(values: dict[str, str | None]) -> bool:
    """A table row shows what tells its item apart, a number or a date: a product and its price, or an
    order's total, is no record."""
    return any(values.get(key) for key in ("identifier_number", *DATE_KINDS))


def _record_kinds(values: dict[str, str | None]) -> int:
    """How many of the fields records are made of (number, dates, amount) ``values`` fills."""
    return sum(1 for key, value in values.items() if value and key in RECORD_KINDS)


def _section_detail(sections: list[dict[str, Any]]) -> ReadRow | None:
    """The one block of values under a heading of a detail page that reads as a record (its number with a
    date or an amount), or None when none or several do."""
    found = [item_row([str(line) for line in section.get("lines", [])]) for section in sections]
    records = [row for row in found if row is not None and _record_kinds(row.values) >= 2]
    return records[0] if len(records) == 1 else None


def _kind_column(keys: list[str], headers: list[str], body: list[dict[str, Any]]) -> str:
    """With no column of the item's own number, a column headed by one kind's name whose cells show
    numbers ("Ordine": OR2026-0412) says what the rows are: that heading; else ""."""
    if "identifier_number" in keys:
        return ""
    for index, header in enumerate(headers):
        if header.strip() and names_one_kind(header) and _holds_numbers(_column(body, index)):
            return _SPACES.sub(" ", header).strip()
    return ""


def _table_rows(table: dict[str, Any], *, by_heading: bool = False) -> list[ReadRow]:
    headers = [str(header) for header in table.get("headers", [])]
    body = table.get("rows", [])
    keys = _table_keys(headers, body)
    kind = _kind_column(keys, headers, body)
    # A column whose every cell is only controls ("View", "Download") holds no data.
    useful = [
        bool(key)
        and not all(index < len(row["cells"]) and row["cells"][index]["controlOnly"] for row in body if row["cells"])
        for index, key in enumerate(keys)
    ]
    rows: list[ReadRow] = []
    for row in body:
        cells = row["cells"]
        values: dict[str, str | None] = {}
        for index, key in enumerate(keys):
            if useful[index] and index < len(cells):
                values[key] = str(cells[index]["text"]) or None
        # The pairs of the row's own detail row (see read.js) add fields, never overwrite them.
        extra = _row_from_pairs(row.get("extra") or [])
        for key, value in extra.values.items():
            if not values.get(key):
                values[key] = value
        if kind:
            values[LISTED_AS] = kind  # an order's row, known by its order number
        if is_record(values) and _identified(values):
            read = ReadRow(values, (*(str(cell["text"]) for cell in cells if cell["text"]), *extra.cells))
            rows.append(in_section(read, str(table.get("heading") or "")) if by_heading else read)
    return rows


def _with_item_values(row: ReadRow, card: dict[str, Any]) -> ReadRow:
    """A card's pairs, with what its other lines show (a date or the kind's name written without a label);
    its cells are then every value in the order the card shows them."""
    lines = [str(line) for line in card.get("lines", [])]
    seen = item_row(lines, card.get("pairs", [])) if lines else None
    if seen is None:
        return row
    values = dict(row.values)
    for key, value in seen.values.items():
        if value and not values.get(key) and not (key == "date" and any(values.get(k) for k in DATE_KINDS)):
            values[key] = value
    return ReadRow(values, seen.cells if row_matches(row, " ".join(seen.cells)) else row.cells)


def parse_records(answer: dict[str, Any]) -> PageRecords:
    """The records in one answer of the page script (also used by tests and benchmarks)."""
    rows: list[ReadRow] = []
    # Where the page lists under several headings ("Ultimi movimenti", "Documenti recenti"), a heading
    # that names one kind says what its rows are; a page's one heading ("Statements") is only its name.
    headings = {
        str(part.get("heading") or "").strip()
        for group in ("tables", "cards", "items")
        for part in answer.get(group, [])
    } - {""}
    by_heading = len(headings) > 1
    for table in answer.get("tables", []):
        rows.extend(_table_rows(table, by_heading=by_heading))
    for card in answer.get("cards", []):
        row = _with_item_values(_row_from_pairs(card.get("pairs", [])), card)
        if is_record(row.values):
            rows.append(in_section(row, str(card.get("heading") or "")) if by_heading else row)
    rows.extend(items_rows(answer.get("items", []), by_heading=by_heading))
    if not rows:
        rows.extend(document_rows([str(line) for line in answer.get("lines", [])]))
    detail = None
    pairs = answer.get("pairs", [])
    if pairs and not rows:
        candidate = _row_from_pairs(pairs)
        if _record_kinds(candidate.values) >= 2:
            detail = candidate
    if detail is None and not rows:
        detail = _section_detail(answer.get("sections", []))
    return PageRecords(tuple(rows), detail, bool(answer.get("truncated")))


def read_records(page: Page, *, deadline: float) -> PageRecords:
    """Read the records the page shows now; :class:`RecordsUnreadable` when the page does not answer."""
    request = {
        "maxRows": MAX_ROWS_PER_READ, "maxCell": MAX_CELL_CHARS, "maxPairs": MAX_PAIRS, "maxLines": MAX_ITEM_LINES,
        "maxPageLines": MAX_PAGE_LINES,
    }  # fmt: skip
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise RecordsUnreadable("timeout")
    try:
        raw = evaluate_within(page.main_frame, READ_SCRIPT, request, timeout_ms=remaining * 1000)
    except PlaywrightError as error:
        raise RecordsUnreadable("changed" if "context was destroyed" in str(error) else "unreadable") from None
    try:
        answer = json.loads(raw) if isinstance(raw, str) else None
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        raise RecordsUnreadable("nonsense")
    try:
        return parse_records(answer)
    except (KeyError, TypeError, ValueError):
        raise RecordsUnreadable("nonsense") from None


# A cell stands whole in a row's text when no letter or digit continues it on either side, directly or
# across one of the joiners identifiers are written with ("INV-2026-001" is not whole in "INV-2026-0011",
# nor "001" in "INV-2026-001"). A sentence's last full stop or comma still ends it.
_WHOLE_BEFORE = r"(?<!\w)(?<!\w[-_/.,:])"
_WHOLE_AFTER = r"(?!\w)(?![-_/.,:]\w)"


def row_matches(row: ReadRow, control_row: str) -> bool:
    """Whether a control's row text shows every cell of ``row`` whole and in order, so the control belongs to it."""
    text = _SPACES.sub(" ", control_row).strip()
    position = 0
    for cell in row.cells:
        found = re.compile(_WHOLE_BEFORE + re.escape(cell) + _WHOLE_AFTER).search(text, position)
        if found is None:
            return False
        position = found.end()
    return bool(row.cells)
