"""Reading a document's lines: the label/value pairs it states.

:func:`stated_pairs` returns every label with the value the document gives it;
which of them a field takes is decided in :mod:`apps.runtime.extraction.choice`.
Nothing here reads an amount's value or chooses among labels. The letterhead
and a letter's date line are read in :mod:`apps.runtime.extraction.letterhead`.

Where values come from
----------------------
* **Label/value lines** (method ``label_value``): "Fornitore: ACME S.r.l.",
  "Supplier - Beta Ltd", "Totale: € 1.234,56", "Prezzo totale  1.234,56 EUR"
  (cells separated by two or more spaces, tabs or ``|``), several pairs on one
  line ("Fornitore: ACME    Data: 12/03/2026"). A subject line's value is read
  again for a label and its value ("Objet : Note d'honoraires n° 2026-117 - …").
* **A label alone, the value on the next line** (``next_line``): "Supplier" /
  "Beta Office Supplies Ltd", "Rechnungsnummer" / "RE-2026-04711".
* **A label followed by a typed value with single spaces** (``label_prefix``),
  as text extracted from laid-out PDFs often reads, alone on its line or as one
  of its cells ("Invoice No. INV-558214     Customer No. 104732"): "Totale
  offerta EUR 1.464,00" (the rest must read entirely as one amount with
  decimals or a currency), "Supplier Beta Ltd" (the rest must look like a
  company name), "Facture n° 26-00871" and "Factuur 26-3310" (the rest starts
  with a code), "Date de facture 15/06/2026" (the rest starts with a date).
  The label must be a label on its own: at most
  :data:`~apps.runtime.extraction.fields.MAX_UNCOVERED_WORDS` of its words
  outside the lexicon's phrases, so "Storno parziale della fattura n. 398/2026"
  is prose, not a label.
* **A due date in prose** (``in_text``): a sentence that speaks of paying
  (the lexicon's ``due_in_text`` words) and states one date right after a
  deadline word: "Payment is due within 30 days, i.e. by 2nd April 2026",
  "Zahlbar ohne Abzug bis zum 17.02.2026".
* **Simple text tables** (``table``): a header line whose cells are labels
  without digits, rows below with the same number of cells or more (extra
  cells at the left belong to the first column: numbers are right-aligned;
  separator lines such as ``|---|---|`` are skipped). A table with one row
  states document values, and so does a row whose first cell is a total
  ("Summe", "Totale"); the other cells of a table with several rows are line
  items.

Which labels answer which field
-------------------------------
A label answers a field (:func:`label_match`) when its normalised text equals the field's name
("Prezzo" for ``prezzo``: a *name* match), or when the shared vocabulary
gives both the same kind ("Totale" and ``price`` are both ``amount``;
"Fornitore" and ``supplier`` are both ``supplier``: a *kind* match). An
amount field takes every amount label (a net or a tax amount too, ranked
last), a net or tax field only its own. A label that marks another field
(an order or customer number, a VAT ID, a delivery date, an amount paid,
change) answers none, and a reference to another document ("Rif. fattura",
"Réf. facture", "Original invoice") is not the document's own number. A
*generic* match ranks after a kind match: a bare "Date"/"Datum" for an issue
date, a document's title before a code ("Factuur 26-3310") for its number.
Fields the vocabulary does not know match by name only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from apps.records.amounts import DecimalSeparator, UnreadableAmount, parse_amount
from apps.records.dates.reading import UnreadableDate
from apps.records.vocabulary import FieldKind, classify_label, field_lexicon, label_sense, normalise_label
from apps.runtime.extraction.fields import (
    AMOUNT_KINDS,
    MAX_BARE_LABEL_WORDS,
    MAX_LABEL_CHARS,
    MAX_LABEL_WORDS,
    MAX_UNCOVERED_WORDS,
    FieldSpec,
    MatchKind,
    Method,
    Scope,
)
from apps.runtime.extraction.letterhead import company_name
from apps.runtime.extraction.values import DocumentContext, days_in, document_code, leading_day, title_kind

_CELL_SPLIT: Final = re.compile(r"\s*\|\s*|\t+|\s{2,}")
_SEPARATOR_LINE: Final = re.compile(r"^[\s|:+]*[-=_]{3,}[-=_\s|:+]*$")
_COLON_PAIR: Final = re.compile(r"^(?P<label>[^:\uff1a]{1,60}?)\s*[:\uff1a]\s*(?P<value>.*)$")
_DASH_PAIR: Final = re.compile(r"^(?P<label>.{1,60}?)\s+[-\u2013\u2014]\s+(?P<value>.+)$")
_COUNTED_LABEL: Final = re.compile(r"^[0-9]+\s+[^\W\d_]")  # "7 ITEMS TOTAL"
_NUMERIC_WORD: Final = re.compile(r"^[(\[]?[-+]?[0-9.,'%]+[)\]]?%?$|^[%@x€$£₹]$|^[^\w]+$")
_MONEY_LIKE: Final = re.compile(r"[0-9][.,'\u00a0\u202f ][0-9]{1,2}(?![0-9])|[€$£¥₹]|\b(?:EUR|USD|GBP|CHF|JPY|INR)\b")
_NEUTRAL_TAIL: Final = re.compile(r"^(?:[0-9]+|eur|euro|usd|gbp|chf|inr|rs)$")
_SENTENCE_END: Final = re.compile(r"(?<=[\w)\]])[.;!?]\s+(?=[A-ZÀ-Ý])")
_DATE_KINDS: Final = frozenset({"issue_date", "due_date", "date"})
# Senses that never answer a field of another kind, whatever the words they share with it.
_TOTAL_ROW_GROUPS: Final = frozenset({"total", "grand_total"})


@lru_cache(maxsize=4096)
def normalised_label(text: str) -> str:
    """:func:`~apps.records.vocabulary.normalise_label`, cached: a document repeats its labels."""
    return normalise_label(text)


def _cells(line: str) -> list[str]:
    stripped = line.strip()
    if stripped.startswith("|") or stripped.endswith("|"):
        stripped = stripped.strip("|")
    return [cell.strip() for cell in _CELL_SPLIT.split(stripped) if cell and cell.strip()]


def _word_count(text: str) -> int:
    """Words of a label, its numbers, rates and slashes aside ("MwSt. 7 % auf EUR 554,48" has three)."""
    return sum(1 for word in text.split() if not _NUMERIC_WORD.match(word))


def _label_like(text: str, max_words: int = MAX_LABEL_WORDS) -> bool:
    return (
        0 < len(text) <= MAX_LABEL_CHARS
        and (text[0].isalpha() or text[0] in "#№" or _COUNTED_LABEL.match(text) is not None)
        and 0 < _word_count(text) <= max_words
        and bool(normalised_label(text))
    )


def _whole_label(text: str) -> bool:
    """A label on its own, not prose around a label's words (see the module docstring)."""
    sense = label_sense(text)
    return sense is None or sense.uncovered <= MAX_UNCOVERED_WORDS


def _kind_match(label: str, kind: FieldKind) -> MatchKind | None:
    sense = label_sense(label)
    if kind in AMOUNT_KINDS:
        found = sense.kind if sense is not None else classify_label(label)
        if found is None:
            return None
        if kind == "amount":
            return "kind" if found in AMOUNT_KINDS else None
        return "kind" if found == kind else None
    if kind == "identifier_number":
        if sense is not None:
            return "kind" if sense.sense == "document_number" else None
        if classify_label(label) == "identifier_number":
            return "kind"
        return "generic" if title_kind(label) is not None else None
    if kind == "issue_date" and sense is not None and sense.sense == "date":
        return "generic"
    if kind == "due_date" and sense is not None and sense.sense == "payment_terms":
        return "generic"  # "Zahlungsziel: 17.02.2026": payment terms stated as a day are the due date
    return "kind" if classify_label(label) == kind else None


def label_match(label: str, spec: FieldSpec) -> MatchKind | None:
    """Whether ``label`` answers ``spec``, and how: by ``"name"``, ``"kind"``, ``"generic"``, or not at all."""
    normalised = normalised_label(label)
    if not normalised:
        return None
    if normalised == spec.normalised:
        return "name"
    if spec.kind is None:
        return None
    return _kind_match(label, spec.kind)


def _is_amount_text(text: str) -> bool:
    try:
        parse_amount(text)
    except UnreadableAmount as exc:
        return exc.reason == "ambiguous"
    return True


def _known_label(text: str, specs: Sequence[FieldSpec]) -> bool:
    """A cell that is a label the vocabulary or the request knows (and not a value)."""
    if not _label_like(text) or company_name(text) is not None or _is_amount_text(text):
        return False
    if " " not in text.strip() and document_code(text) == text.strip():
        return False  # "RE-2026-04711" is a code, whatever its letters say
    if any(normalised_label(text) == spec.normalised for spec in specs):
        return True
    sense = label_sense(text)
    if sense is not None:
        return sense.uncovered <= MAX_UNCOVERED_WORDS
    return classify_label(text) is not None or title_kind(text) is not None


@dataclass(frozen=True)
class LabelPair:
    """A label and the value the document gives it, with where and how it was read.

    ``kind`` is set for a pair read from prose, whose "label" is only the words that
    gave it away: such a pair answers fields of that kind.
    """

    label: str
    value: str
    method: Method
    line: int
    scope: Scope = "document"
    kind: FieldKind | None = None


class DocumentLines:
    """The document's lines with their cells, and which lines a table has consumed."""

    def __init__(self, text: str) -> None:
        self.lines = text.replace("\f", "\n").splitlines()
        self.cells = [_cells(line) for line in self.lines]
        self.consumed = [False] * len(self.lines)

    def next_value_line(self, index: int, specs: Sequence[FieldSpec]) -> int | None:
        """The line after ``index`` that can be a value alone, or None."""
        for following in range(index + 1, len(self.lines)):
            cells = self.cells[following]
            if not cells:
                continue
            if self.consumed[following] or len(cells) != 1:
                return None
            cell = cells[0]
            colon = _COLON_PAIR.match(cell)
            if colon is not None and _label_like(colon.group("label").strip()):
                return None
            if _known_label(cell, specs):
                return None
            return following
        return None


def _row_cells(cells: list[str], width: int) -> list[str] | None:
    """A row's cells aligned to a header of ``width`` cells: extra cells at the left join the first."""
    if len(cells) < width:
        return None
    if len(cells) == width:
        return cells
    extra = len(cells) - width
    return [" ".join(cells[: extra + 1]), *cells[extra + 1 :]]


def _is_total_row(cells: list[str]) -> bool:
    sense = label_sense(cells[0])
    return sense is not None and sense.group in _TOTAL_ROW_GROUPS and not any(char.isdigit() for char in cells[0])


def _tables(lines: DocumentLines, specs: Sequence[FieldSpec]) -> list[LabelPair]:
    pairs: list[LabelPair] = []
    index = 0
    while index < len(lines.lines):
        header = lines.cells[index]
        if not _is_header(header, specs):
            index += 1
            continue
        rows: list[tuple[int, list[str]]] = []
        last = index
        for following in range(index + 1, len(lines.lines)):
            if _SEPARATOR_LINE.match(lines.lines[following]):
                last = following
                continue
            aligned = _row_cells(lines.cells[following], len(header))
            if aligned is None:
                break
            rows.append((following, aligned))
            last = following
        if not rows:
            index += 1
            continue
        for column, heading in enumerate(header):
            if any(label_match(heading, spec) for spec in specs):
                for number, cells in rows:
                    scope: Scope = "document" if len(rows) == 1 or _is_total_row(cells) else "line_item"
                    pairs.append(LabelPair(heading, cells[column], "table", number + 1, scope))
        for consumed in range(index, last + 1):
            lines.consumed[consumed] = True
        index = last + 1
    return pairs


def _is_header(cells: list[str], specs: Sequence[FieldSpec]) -> bool:
    if len(cells) < 2:
        return False
    if not all(_label_like(cell, MAX_BARE_LABEL_WORDS) and ":" not in cell for cell in cells):
        return False
    if any(any(char.isdigit() for char in cell) for cell in cells):
        return False  # "Invoice Date 03/17/2026": a label with its value, not a heading
    if any(company_name(cell) is not None or _is_amount_text(cell) for cell in cells):
        return False
    if not any(label_match(cell, spec) for cell in cells for spec in specs):
        return False
    # Two cells are a header only if both are labels; otherwise they are a label and its value.
    return len(cells) > 2 or all(_known_label(cell, specs) for cell in cells)


def _typed_value(rest: str, spec: FieldSpec, hint: DecimalSeparator | None, context: DocumentContext) -> bool:
    """Whether ``rest`` starts with (or, for amounts and companies, is) a value of ``spec``'s type."""
    if spec.is_amount:
        return _whole_amount(rest, hint) and _MONEY_LIKE.search(rest) is not None
    if spec.kind == "supplier":
        return company_name(rest) == rest
    if spec.kind == "identifier_number":
        return document_code(rest) is not None
    if spec.kind in _DATE_KINDS:
        try:
            return leading_day(rest, context) is not None
        except UnreadableDate:
            return True  # a date whose day cannot be known still belongs to its label
    return False


def _ends_with_base_word(label: str) -> bool:
    words = [word for word in normalised_label(label).split() if not _NEUTRAL_TAIL.match(word)]
    return bool(words) and words[-1] in field_lexicon().phrases_of("base_words")


def _prefix_pair(
    cell: str, number: int, specs: Sequence[FieldSpec], hint: DecimalSeparator | None, context: DocumentContext
) -> LabelPair | None:
    """ "Totale offerta EUR 1.464,00", "Invoice No. INV-558214": a label whose rest is a typed value.

    Among the labels that work, a name or kind match beats a generic one, then the shortest wins.
    """
    words = cell.split()
    best: tuple[int, int, LabelPair] | None = None
    for width in range(1, min(MAX_LABEL_WORDS, len(words) - 1) + 1):
        label = " ".join(words[:width])
        rest = " ".join(words[width:])
        if not _label_like(label):
            break
        if not _whole_label(label) or _ends_with_base_word(label):
            continue  # "MwSt. 7 % auf EUR 554,48": the amount after "auf" is the base, not the tax
        for spec in specs:
            match = label_match(label, spec)
            if match is None or not _typed_value(rest, spec, hint, context):
                continue
            rank = 1 if match == "generic" else 0
            if best is None or (rank, width) < best[:2]:
                best = (rank, width, LabelPair(label, rest, "label_prefix", number))
    return best[2] if best is not None else None


def _whole_amount(text: str, hint: DecimalSeparator | None) -> bool:
    try:
        parse_amount(text, decimal_separator=hint)
    except UnreadableAmount as exc:
        return exc.reason == "ambiguous"
    return True


def _colon_pairs(
    lines: DocumentLines,
    index: int,
    specs: Sequence[FieldSpec],
    hint: DecimalSeparator | None,
    context: DocumentContext,
) -> list[LabelPair]:
    cells = lines.cells[index]
    number = index + 1
    pairs: list[LabelPair] = []
    position = 0
    while position < len(cells):
        cell = cells[position]
        colon = _COLON_PAIR.match(cell)
        label = colon.group("label").strip() if colon else ""
        if colon is None or not _label_like(label):
            prefix = _prefix_pair(cell, number, specs, hint, context)
            if prefix is not None:
                pairs.append(prefix)
            position += 1
            continue
        value = colon.group("value").strip()
        if value:
            pairs.append(LabelPair(label, value, "label_value", number))
            sense = label_sense(label)
            if sense is not None and sense.sense == "subject":
                inner = _prefix_pair(value, number, specs, hint, context)
                if inner is not None:
                    pairs.append(inner)
        elif position + 1 < len(cells):
            position += 1
            pairs.append(LabelPair(label, cells[position], "label_value", number))
        elif len(cells) == 1:
            following = lines.next_value_line(index, specs)
            if following is not None:
                pairs.append(LabelPair(label, lines.cells[following][0], "next_line", following + 1))
        position += 1
    return pairs


def _line_pairs(
    lines: DocumentLines,
    index: int,
    specs: Sequence[FieldSpec],
    hint: DecimalSeparator | None,
    context: DocumentContext,
) -> list[LabelPair]:
    cells = lines.cells[index]
    number = index + 1
    if not cells or _SEPARATOR_LINE.match(lines.lines[index]):
        return []
    if any(":" in cell or "\uff1a" in cell for cell in cells):
        return _colon_pairs(lines, index, specs, hint, context)

    if len(cells) == 1:
        cell = cells[0]
        dash = _DASH_PAIR.match(cell)
        if dash is not None and _label_like(dash.group("label")):
            # "Invoice No. ERC-2026-0311 - wholesale coffee supply": the label and its code before the dash.
            inner = _prefix_pair(dash.group("label").strip(), number, specs, hint, context)
            if inner is not None:
                return [inner]
            return [LabelPair(dash.group("label").strip(), dash.group("value").strip(), "label_value", number)]
        if (
            _label_like(cell, MAX_BARE_LABEL_WORDS)
            and _whole_label(cell)
            and any(label_match(cell, spec) for spec in specs)
        ):
            following = lines.next_value_line(index, specs)
            if following is not None:
                return [LabelPair(cell, lines.cells[following][0], "next_line", following + 1)]
        prefix = _prefix_pair(cell, number, specs, hint, context)
        return [prefix] if prefix is not None else []

    prefixed = [pair for cell in cells if (pair := _prefix_pair(cell, number, specs, hint, context)) is not None]
    if prefixed:
        # "Invoice No. INV-558214     Customer No. 104732     Page 1 of 2": each cell a label and its value.
        return prefixed
    labels = [_known_label(cell, specs) for cell in cells]
    last = cells[-1]
    if labels[-1] and _whole_label(last) and any(label_match(last, spec) for spec in specs):
        # "7 ITEMS   TOTAL" above "£23.47": the line's last cell labels the value below.
        following = lines.next_value_line(index, specs)
        if following is not None and not any(labels[:-1]):
            return [LabelPair(last, lines.cells[following][0], "next_line", following + 1)]
    if len(cells) % 2 == 0 and all(labels[0::2]) and not any(labels[1::2]):
        # "Fornitore    ACME S.r.l.    Totale    1.234,56": label, value, label, value.
        return [LabelPair(cells[at], cells[at + 1], "label_value", number) for at in range(0, len(cells), 2)]
    if _label_like(cells[0]) and not any(labels[1:]):
        # "Prezzo totale    1.234,56    EUR": one label, its value in the other cells.
        return [LabelPair(cells[0], " ".join(cells[1:]), "label_value", number)]
    return []


def _sentences(line: str) -> list[str]:
    return [part for part in _SENTENCE_END.split(line) if part.strip()]


def _contains_phrase(text: str, phrases: Sequence[str]) -> bool:
    folded = f" {normalised_label(text)} "
    return any(f" {phrase} " in folded for phrase in phrases)


def _after_deadline_word(preceding: str, before: Sequence[str], fillers: Sequence[str]) -> bool:
    """Whether ``preceding`` ends with a deadline word ("by", "bis zum", "uiterlijk op"), maybe and a filler."""
    words = normalised_label(preceding).split()
    if any(" ".join(words).endswith(phrase) for phrase in before):
        return _ends_with(words, before)
    for filler in fillers:
        size = len(filler.split())
        if len(words) > size and words[-size:] == filler.split():
            words = words[:-size]
            break
    return _ends_with(words, before)


def _ends_with(words: list[str], phrases: Sequence[str]) -> bool:
    text = " ".join(words)
    return any(text == phrase or text.endswith(" " + phrase) for phrase in phrases)


def prose_due_dates(lines: DocumentLines, context: DocumentContext) -> list[LabelPair]:
    """Due dates stated in prose (method ``in_text``; see the module docstring)."""
    lexicon = field_lexicon()
    due_words = lexicon.phrases_of("due_words")
    # "by 2nd April 2026", "bis zum 17.02.2026", and a due date's own label: "Fällig am 28.09.2026".
    before = (*lexicon.phrases_of("before_date"), *lexicon.sense_phrases("due_date"))
    fillers = lexicon.phrases_of("date_fillers")
    pairs: list[LabelPair] = []
    for index, line in enumerate(lines.lines):
        for sentence in _sentences(line):
            if not _contains_phrase(sentence, due_words):
                continue
            stated = [
                day
                for day in days_in(sentence, context)
                if _after_deadline_word(sentence[: day.start], before, fillers)
            ]
            if len({day.day for day in stated}) == 1:
                label = sentence.strip()[:MAX_LABEL_CHARS]
                pairs.append(LabelPair(label, stated[0].text, "in_text", index + 1, kind="due_date"))
    return pairs


def stated_pairs(
    lines: DocumentLines, specs: Sequence[FieldSpec], hint: DecimalSeparator | None, context: DocumentContext
) -> list[LabelPair]:
    """Every label/value pair ``lines`` state for ``specs``: tables first, then the lines no table consumed."""
    pairs = _tables(lines, specs)
    for index in range(len(lines.lines)):
        if not lines.consumed[index]:
            pairs.extend(_line_pairs(lines, index, specs, hint, context))
    if any(spec.kind == "due_date" for spec in specs):
        pairs.extend(prose_due_dates(lines, context))
    return pairs
