"""Reading typed values out of a label's text: a document's code, a calendar day, a rate, a currency.

What a document says about itself as a whole is a :class:`DocumentContext`
(:func:`document_context`): the decimal separator its numbers use, the order
of its numeric dates (:func:`apps.runtime.extraction.days.document_date_order`),
whether it is a credit note (its title says so: then a label naming an
*invoice* names the invoice it credits, not this document), and the one
currency it names, if only one.

* :func:`document_code` — the code a value starts with, after any number
  marker: "n. 398/2026 del 12/03/2026" → "398/2026", "NC 12/2026" → "NC
  12/2026", "ERC-2026-0311 - wholesale…" → "ERC-2026-0311". A code has a
  digit and is not a date or a decimal amount.
* :func:`leading_day` — the calendar day a value starts with, after the
  lexicon's date fillers ("le", "am", "vom", "d.d."): an ISO day, or
  :class:`~apps.records.dates.reading.UnreadableDate` when the day cannot be
  known, or None when the value states no date.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Final

from apps.records.amounts import DecimalSeparator, find_amounts, infer_decimal_separator
from apps.records.objects import object_kinds, object_mentions
from apps.records.vocabulary import field_lexicon, normalise_label
from apps.runtime.extraction.days import (
    DocumentDay,
    OrderEvidence,
    document_date_order,
    find_document_days,
    read_leading_date,
)

_MARKER_TOKENS: Final = frozenset({"n", "no", "nr", "num", "numero", "number", "nummer", "#", "n°", "nº", ":"})
_CODE: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9/\-._#]*")
_PREFIX_LETTERS: Final = re.compile(r"[A-Z]{1,4}")
_DECIMAL_AMOUNT: Final = re.compile(r"[0-9]+(?:[.,'][0-9]{3})*[.,][0-9]{2}")
_RATE: Final = re.compile(r"^\s*[-+]?[0-9]+(?:[.,][0-9]+)?\s?%\s*$")
_LABEL_CURRENCIES: Final = tuple(
    (code, re.compile(pattern))
    for code, pattern in (
        ("EUR", r"€|(?<![A-Za-z])(?:EUR|[Ee]uro)(?![A-Za-z])"),
        ("USD", r"\$|(?<![A-Za-z])USD(?![A-Za-z])"),
        ("GBP", r"£|(?<![A-Za-z])GBP(?![A-Za-z])"),
        ("CHF", r"(?<![A-Za-z])CHF(?![A-Za-z])"),
        ("INR", r"₹|(?<![A-Za-z])INR(?![A-Za-z])"),
    )
)
# The kinds of document whose title may stand before its number ("Factuur 26-3310").
TITLE_KINDS: Final = frozenset({"invoice", "credit_note", "receipt"})
# Non-empty lines at the top of a document where its title is looked for.
TITLE_LINES: Final = 12


@dataclass(frozen=True)
class DocumentContext:
    """What a document says about itself as a whole (see the module docstring)."""

    hint: DecimalSeparator | None
    order: OrderEvidence
    credit_note: bool
    currency: str | None


def _title_kind(line: str) -> str | None:
    """The kind a line names when it is nothing but a document's title ("CREDIT NOTE", "Factuur")."""
    words = normalise_label(line).split()
    mentions = object_mentions(line)
    if not words or len(mentions) != 1 or mentions[0].kind not in TITLE_KINDS:
        return None
    mention = mentions[0]
    return mention.kind if mention.end - mention.start == len(words) else None


def title_kind(label: str) -> str | None:
    """:func:`_title_kind` for a label: "Factuur" → "invoice", "Avoir" → "credit_note"."""
    return _title_kind(label)


@cache
def _invoice_stems() -> tuple[str, ...]:
    """The invoice's nouns of the objects lexicon long enough to begin a compound ("rechnung", "factuur")."""
    invoice = object_kinds().get("invoice")
    words = invoice.all_words() if invoice is not None else ()
    return tuple(word for word in words if " " not in word and len(word) >= 7)


def names_an_invoice(label: str) -> bool:
    """Whether a label speaks of an invoice (and not of a credit note): "Invoice date", "Réf. facture",
    "Rechnungsdatum", "Factuurnummer"."""
    kinds = {mention.kind for mention in object_mentions(label)}
    if "credit_note" in kinds or _credit_note_title(label):
        return False
    if "invoice" in kinds:
        return True
    return any(word.startswith(_invoice_stems()) for word in normalise_label(label).split())


def _credit_note_title(line: str) -> bool:
    """Whether a line begins with a credit note's title ("Gutschrift Nr. GS-12", "Rechnungskorrektur")."""
    folded = normalise_label(line)
    return any(folded == title or folded.startswith(title + " ") for title in field_lexicon().phrases_of(
        "credit_note_titles"))  # fmt: skip


def _document_currency(text: str) -> str | None:
    """The one currency the amounts of ``text`` name (else its one currency mark: "Prezzo(€)"), or None."""
    found = {amount.currency for amount in find_amounts(text).amounts if amount.currency is not None}
    if not found:
        return label_currency(text)
    return found.pop() if len(found) == 1 else None


def _opening_kind(line: str) -> str | None:
    """The kind of document a line's title names: the whole line, or its first words ("Avoir n° AV-1")."""
    if _credit_note_title(line):
        return "credit_note"
    kind = _title_kind(line)
    if kind is not None:
        return kind
    mentions = object_mentions(line)
    if mentions and mentions[0].start == 0 and mentions[0].kind in TITLE_KINDS:
        return mentions[0].kind
    return None


def document_context(text: str, lines: list[str]) -> DocumentContext:
    """The :class:`DocumentContext` of a document's text and lines."""
    top = [line for line in lines if line.strip()][:TITLE_LINES]
    titles = [kind for line in top if (kind := _opening_kind(line)) is not None]
    credit_note = bool(titles) and titles[0] == "credit_note"
    return DocumentContext(infer_decimal_separator(text), document_date_order(text), credit_note,
                           _document_currency(text))  # fmt: skip


def label_currency(label: str) -> str | None:
    """The one currency a label names ("SUMME EUR", "Prezzo (€)", "Total (EUR)"), or None."""
    found = {code for code, pattern in _LABEL_CURRENCIES if pattern.search(label)}
    return found.pop() if len(found) == 1 else None


def is_rate(text: str) -> bool:
    """Whether a value is a rate ("22%", "5,5 %"), not an amount."""
    return _RATE.match(text) is not None


def document_code(text: str) -> str | None:
    """The code ``text`` starts with (see the module docstring), or None."""
    tokens = text.replace("\u00a0", " ").split()
    while tokens and tokens[0].casefold().strip(".:") in _MARKER_TOKENS | {""}:
        tokens = tokens[1:]
    prefix = ""
    if len(tokens) > 1 and _PREFIX_LETTERS.fullmatch(tokens[0]) and any(char.isdigit() for char in tokens[1]):
        prefix, tokens = tokens[0] + " ", tokens[1:]
    if not tokens:
        return None
    code = tokens[0].strip("(").rstrip(".,;:)")
    if not _CODE.fullmatch(code) or not any(char.isdigit() for char in code) or _DECIMAL_AMOUNT.fullmatch(code):
        return None
    try:
        if read_leading_date(code, "day_first") is not None and not prefix:
            return None  # a date, not a code
    except ValueError:
        pass
    return prefix + code


def _without_fillers(text: str) -> str:
    """``text`` without a leading date filler of the lexicon ("le 12 mai 2026" → "12 mai 2026")."""
    tokens = text.split()
    fillers = frozenset(field_lexicon().phrases_of("date_fillers"))
    for width in (3, 2, 1):
        if len(tokens) > width and normalise_label(" ".join(tokens[:width])) in fillers:
            return " ".join(tokens[width:])
    return text.strip()


def leading_day(text: str, context: DocumentContext) -> DocumentDay | None:
    """The day ``text`` starts with (see the module docstring); raises ``UnreadableDate`` when unknowable."""
    return read_leading_date(_without_fillers(text), context.order.order)


def days_in(text: str, context: DocumentContext) -> list[DocumentDay]:
    """Every calendar day ``text`` states."""
    return find_document_days(text, context.order.order)
