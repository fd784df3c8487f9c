"""Records in repeated items whose values are not written as "Label: value".

Many lists are drawn as cards or accordion items: the values one under the
other ("ORDER PLACED" over "December 10, 2025"), side by side without labels
("1 Nov 2026", "Statement", "Current account statement"), or as one sentence
per document ("Fattura n. 2026/MR/040203 del 12/11/2026 · importo 109,95 €").
``read.js`` returns the visible lines of each repeated item (and which item it
sits in); this module reads them with the shared vocabularies, never with
words of its own:

* a line is cut into *segments* at the separators sites put between values
  (a middle dot, a bar, a dash between spaces);
* a segment is a date, an amount (with a currency or decimals), a code, the
  name of a kind of item (:mod:`apps.records.objects`), a label
  (:func:`~apps.sites.collection.reading.field_key`), a label followed by its
  value ("Emessa il 12 novembre 2026", "Invoice GB-2025-010440"), or text;
* a label alone takes the value on the next line;
* a value without a label takes the field of its type only when it is the
  item's one value of that type (two unlabelled dates decide nothing);
* a *document line* opens with the name of a kind, its number and a date or an
  amount: it is a record of its own, and the item holding it is the place of
  such records, not one itself (an order card listing its invoice and credit note).

An item is a record when it shows its number with a date, an amount or the
name of a kind of item, or a date with an amount or with that name: a news
item with a date and a title is not one, nor a product line with a price, nor
a supply point's card with its number and address. Values stay the text observed. What the item is
goes under ``type``: the kind its number is labelled with ("Invoice GB-…"),
else the first kind it names, so that the request's kind decides (a credit
note stays apart from the invoices, a cancelled order saying "no invoice" is an
order). The item's other text is kept under ``description``, which decides no kind.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from apps.records.amounts import UnreadableAmount, find_amounts, parse_amount
from apps.records.dates.reading import UnreadableDate, find_dates, parse_date
from apps.records.identity.codes import codes_in, identifier_field_codes
from apps.records.objects import normalised, object_kinds, object_mentions
from apps.records.vocabulary import FIELD_KINDS, NUMBER_MARKERS, label_sense
from apps.sites.collection.read_rows import ReadRow, field_key, in_section

PieceKind = Literal["date", "amount", "code", "kind", "label", "text"]
DESCRIPTION = "description"
KIND = "type"
_DATE_KINDS = frozenset({"issue_date", "due_date", "date", "period"})
# Dates of the item itself: a period it covers ("Periodo contabile ottobre 2026") is not one of them.
_OWN_DATE_KINDS = _DATE_KINDS - {"period"}
_AMOUNT_KINDS = frozenset({"amount", "net_amount", "tax_amount"})
# The separators sites put between values on one line.
_SEPARATORS = re.compile(r"\s+[\u00b7\u2022|\u2013\u2014]\s+|\s+-\s+")
# "F 26/120431", "PF 26/007420": a short prefix of capitals before a numbered code.
_PREFIXED_CODE = re.compile(r"^[A-Z]{1,4}\s\d[\w/.-]*\d$")
_MAX_LABEL_WORDS = 5
_MAX_LABEL_CHARS = 40
_MAX_CODE_CHARS = 40
_MAX_DESCRIPTION = 300
# A word this short before a value, that the vocabulary does not know, links it ("del", "of"): no label.
_MAX_LINKING_WORD_CHARS = 3


@dataclass(frozen=True)
class Piece:
    """One segment of an item's text as read: what it is, its label (if any) and its text."""

    kind: PieceKind
    text: str
    label: str = ""


def _is_date(text: str) -> bool:
    try:
        value = parse_date(text)
    except UnreadableDate:
        return False
    return value.precision in ("day", "month")


def _is_amount(text: str) -> bool:
    try:
        amount = parse_amount(text)
    except UnreadableAmount:
        return False
    exponent = amount.value.as_tuple().exponent
    return bool(amount.currency) or (isinstance(exponent, int) and exponent < 0)  # "12,50": written with decimals


def _is_code(text: str) -> bool:
    if len(text) > _MAX_CODE_CHARS or _is_date(text):
        return False
    codes = codes_in(text)
    if len(codes) == 1 and codes[0][1] == text:
        return True
    if _PREFIXED_CODE.match(text) is None:
        return False
    prefix = text.split()[0]  # "PDR 15020000334412" is a supply point's label and its number
    return field_key(prefix) not in FIELD_KINDS and label_sense(prefix) is None


def _a_kind(text: str, *, marked: bool = False) -> bool:
    """Whether ``text`` only names a kind of item ("Statement", "Nota di credito"); with ``marked``, a
    number's label may add a number marker ("Fattura n.")."""
    words = [word for word in normalised(text).split() if not marked or word not in NUMBER_MARKERS]
    mentions = object_mentions(" ".join(words))
    return bool(words) and len(words) <= _MAX_LABEL_WORDS and sum(m.end - m.start for m in mentions) == len(words)


def _generic(name: str) -> bool:
    """Whether a kind's name names only a generic kind ("Documento", "Documents"): any item is one."""
    kinds = object_kinds()
    mentions = object_mentions(name)
    return bool(mentions) and all(kinds[mention.kind].generic for mention in mentions)


def _kind_name(label: str) -> str:
    """The kind's name in a number's label, as written, without its number marker ("Fattura n." → "Fattura")."""
    words = label.split()
    while words and normalised(words[-1]) in NUMBER_MARKERS | {""}:
        words.pop()
    return " ".join(words) or label


def _opening_kind(text: str) -> str:
    """The name of a kind a text opens with, as written ("Fattura" in "Fattura Hosting Start"), or ""."""
    mentions = object_mentions(text)
    if not mentions or mentions[0].start != 0:
        return ""
    return " ".join(text.split()[: mentions[0].end])


def _label_like(text: str) -> bool:
    return (
        bool(text)
        and len(text) <= _MAX_LABEL_CHARS
        and len(text.split()) <= _MAX_LABEL_WORDS
        and not any(character.isdigit() for character in text)
        and any(character.isalpha() for character in text)
    )


def _a_label(text: str) -> bool:
    """A label on its own line: a field the vocabulary knows, or one ending with a colon."""
    plain = text.rstrip(":").strip()
    return _label_like(plain) and (
        text.endswith(":") or field_key(plain) in FIELD_KINDS or label_sense(plain) is not None
    )


def _labelled(segment: str) -> Piece | None:
    """ "Emessa il 12 novembre 2026", "Gross £3,500.00", "Invoice GB-2025-010440": a label, then its value."""
    candidates: list[tuple[int, PieceKind, str]] = []
    for date in find_dates(segment):
        position = segment.rfind(date.text)
        if position > 0 and segment[position + len(date.text) :].strip() == "" and date.precision in ("day", "month"):
            candidates.append((position, "date", date.text))
    for amount in find_amounts(segment).amounts:
        position = segment.rfind(amount.text)
        if position > 0 and segment[position + len(amount.text) :].strip() == "" and _is_amount(amount.text):
            candidates.append((position, "amount", amount.text))
    words = segment.split()
    if len(words) >= 2 and (_is_code(words[-1]) or identifier_field_codes(words[-1])):
        candidates.append((segment.rfind(words[-1]), "code", words[-1]))
    for position, kind, value in sorted(candidates):
        label = segment[:position].strip().rstrip(":").strip()
        if not _label_like(label) or not _may_label(label, kind):
            continue
        # "Emessa il 12 novembre 2026": a date may begin with an article the label needs ("Emessa il").
        leading = " ".join(re.findall(r"^(?:[^\W\d]+\s+)+", value)[:1]).strip()
        if leading and field_key(label) not in FIELD_KINDS and field_key(f"{label} {leading}") in FIELD_KINDS:
            label = f"{label} {leading}"
        return Piece(kind, value, label)
    return None


_MAX_UNKNOWN_LABEL_WORDS = 3


def _may_label(label: str, kind: PieceKind) -> bool:
    """Whether ``label`` may name the value after it: a label the vocabulary knows, a kind's name before a
    number, or a few words ("Paid 28 Nov 2026"); a title before a period ("Server VPS S novembre 2026") is not."""
    if field_key(label) in FIELD_KINDS or label_sense(label) is not None:
        return True
    if kind == "code" and _a_kind(label, marked=True):
        return True
    return len(label.split()) <= _MAX_UNKNOWN_LABEL_WORDS and not _opening_kind(label)


def read_piece(segment: str) -> Piece:
    """What one segment of an item's text is."""
    text = segment.strip()
    if _is_date(text):
        return Piece("date", text)
    if _is_amount(text):
        return Piece("amount", text)
    if _is_code(text):
        return Piece("code", text)
    if _a_kind(text):
        return Piece("kind", text)
    labelled = _labelled(text)
    if labelled is not None:
        return labelled
    if _a_label(text):
        return Piece("label", text.rstrip(":").strip())
    return Piece("text", text)


_SEPARATOR_CHARACTERS = "\u00b7\u2022| "  # never a dash: "-12,00 €" is a credit


def segments(line: str) -> list[str]:
    """The parts of a line between separators (a separator left at an end by a control's words left out
    is dropped)."""
    parts = (part.strip(_SEPARATOR_CHARACTERS) for part in _SEPARATORS.split(line))
    return [part for part in parts if part]


def _document_line(line: str) -> list[Piece] | None:
    """The pieces of a line that is a document of its own: a kind's name, its number, a date or an amount."""
    parts = segments(line)
    if not parts:
        return None
    first = parts[0]
    mentions = object_mentions(first)
    if not mentions or mentions[0].start != 0:
        return None
    # The kind's name as written: as many words of the segment as the mention has.
    words = first.split()
    size = mentions[0].end - mentions[0].start
    name, rest = " ".join(words[:size]), words[size:]
    marker = []
    while rest and normalised(rest[0]) in NUMBER_MARKERS | {""}:
        marker.append(rest.pop(0))
    if not rest or not (identifier_field_codes(rest[0]) or _is_code(rest[0])):
        return None
    pieces = [Piece("code", rest[0], " ".join([name, *marker]))]
    tail = " ".join(rest[1:])
    for part in ([tail] if tail else []) + parts[1:]:
        pieces.append(_in_prose(part))
    if not any(piece.kind in ("date", "amount") for piece in pieces[1:]):
        return None
    return pieces


def _in_prose(part: str) -> Piece:
    """A segment of a document line: "del 12/11/2026", "importo 109,95 €" (a short word before a value
    that the vocabulary does not know is no label)."""
    piece = read_piece(part)
    if piece.kind in ("date", "amount", "code") and piece.label and field_key(piece.label) not in FIELD_KINDS:
        return Piece(piece.kind, piece.text)
    return piece


def _values(pieces: Sequence[Piece], pairs: Sequence[Sequence[str]]) -> tuple[dict[str, str | None], list[str], bool]:
    """The fields of one item from its pieces (and any "Label: value" pairs), the texts that identify it,
    and whether it shows a date (under a label the vocabulary knows or not)."""
    values: dict[str, str | None] = {}
    cells: list[str] = []
    for label, value in pairs:
        named = field_key(str(label))
        if named and value and named not in values:
            values[named] = str(value)
    unlabelled: dict[str, list[str]] = {"date": [], "amount": [], "code": []}
    described: list[str] = []
    kinds: list[str] = []
    leading: list[str] = []
    for piece in pieces:
        if piece.kind == "label":
            continue
        cells.append(piece.text)
        key = _key_for(piece)
        if piece.kind == "kind":
            kinds.append(piece.text)
        elif piece.kind == "text":
            if key in FIELD_KINDS and key not in values:
                values[key] = piece.text  # "Consegnato" under "Stato"
            else:
                described.append(piece.text)
                opening = _opening_kind(piece.text)
                if opening:
                    leading.append(opening)  # "Proforma Dominio .it": a badge before the item's title
        elif key is None:
            unlabelled[piece.kind].append(piece.text)
        elif key not in values:
            values[key] = piece.text
            if key == "identifier_number" and _a_kind(piece.label, marked=True):
                kinds.insert(0, _kind_name(piece.label))  # "Invoice GB-2025-010440": the item says what it is
    if not any(values.get(kind) for kind in _OWN_DATE_KINDS) and len(unlabelled["date"]) == 1:
        values["date"] = unlabelled["date"][0]
    if not any(values.get(kind) for kind in _AMOUNT_KINDS) and len(unlabelled["amount"]) == 1:
        values["amount"] = unlabelled["amount"][0]
    if not values.get("identifier_number") and len(unlabelled["code"]) == 1:
        values["identifier_number"] = unlabelled["code"][0]
    kinds.extend(leading)
    if kinds:
        # The kind its number is labelled with, else the first kind named on its own, else the first a
        # text opens with, is what the item is; other kinds it names ("Nessuna fattura: ordine
        # annullato") only describe it. A generic kind ("Documento n. 2026/0077") says what it is only
        # when nothing more specific does ("Comunicazioni · Rendiconto annuale").
        kind = next((name for name in kinds if not _generic(name)), kinds[0])
        values.setdefault(KIND, kind)
        described = [name for name in kinds[: len(kinds) - len(leading)] if name != kind] + described
    if described:
        values.setdefault(DESCRIPTION, " · ".join(dict.fromkeys(described))[:_MAX_DESCRIPTION])
    return values, cells, any(piece.kind == "date" for piece in pieces)


def _key_for(piece: Piece) -> str | None:
    """The field a labelled value answers; None for a value without a label."""
    if not piece.label:
        return None
    sense = label_sense(piece.label)
    if piece.kind == "code" and _a_kind(piece.label, marked=True) and (sense is None or sense.kind is not None):
        return "identifier_number"  # "Invoice GB-2025-010440", "Payslip PS-005218" (not "Order # …")
    key = field_key(piece.label)
    if key in FIELD_KINDS:
        return key
    if sense is None and not _a_kind(piece.label) and len(piece.label) <= _MAX_LINKING_WORD_CHARS:
        return None  # "del", "of": a short word, no label
    return key


def _stacked(lines: Sequence[str]) -> list[Piece]:
    """The pieces of an item's lines, a label alone on its line taking the value on the next."""
    pieces: list[Piece] = []
    waiting: Piece | None = None
    for line in lines:
        for part in segments(line):
            piece = read_piece(part)
            # A kind's name is the label of a number only ("Fattura" over "TM26-0466511").
            takes = ("code",) if waiting is not None and waiting.kind == "kind" else ("date", "amount", "code", "text")
            if waiting is not None and not piece.label and piece.kind in takes:
                pieces.append(Piece(piece.kind, piece.text, waiting.text))
                waiting = None
                continue
            waiting = piece if piece.kind in ("label", "kind") else None
            pieces.append(piece)
    return pieces


def _is_item_record(values: Mapping[str, str | None], *, dated: bool) -> bool:
    filled = {key for key, value in values.items() if value}
    named = bool(values.get(KIND))
    if "identifier_number" in filled:
        return named or bool(filled & (_DATE_KINDS | _AMOUNT_KINDS)) or dated
    return (dated or bool(filled & _DATE_KINDS)) and (bool(filled & _AMOUNT_KINDS) or named)


def item_row(lines: Sequence[str], pairs: Sequence[Sequence[str]] = ()) -> ReadRow | None:
    """The record one item shows, if it is one (see the module docstring)."""
    values, cells, dated = _values(_stacked(lines), pairs)
    if not _is_item_record(values, dated=dated):
        return None
    return ReadRow(values, tuple(dict.fromkeys(cell for cell in cells if cell)))


def document_rows(lines: Sequence[str]) -> list[ReadRow]:
    """The document lines among ``lines``, each a record of its own."""
    rows = []
    for line in lines:
        pieces = _document_line(line)
        if pieces is None:
            continue
        values, cells, dated = _values(pieces, ())
        if _is_item_record(values, dated=dated):
            rows.append(ReadRow(values, tuple(cells)))
    return rows


def items_rows(items: Sequence[Mapping[str, Any]], *, by_heading: bool = False) -> list[ReadRow]:
    """The records of the repeated items ``read.js`` returned (each with ``lines``, ``pairs``, ``parent``);
    with ``by_heading``, each with the title it is listed under when that says what it is (``in_section``)."""
    children: dict[int, list[int]] = {}
    roots: list[int] = []
    for index, item in enumerate(items):
        parent = int(item.get("parent", -1))
        if 0 <= parent < index:
            children.setdefault(parent, []).append(index)
        else:
            roots.append(index)

    def rows_of(index: int) -> list[ReadRow]:
        below = [row for child in children.get(index, []) for row in rows_of(child)]
        if len(below) >= 2:
            return below
        lines = [str(line) for line in items[index].get("lines", [])]
        documents = document_rows(lines)
        if documents:
            return documents
        own = item_row(lines, items[index].get("pairs") or ())
        if own is not None and by_heading:
            own = in_section(own, str(items[index].get("heading") or ""))
        return [own] if own is not None else below

    return [row for root in roots for row in rows_of(root)]
