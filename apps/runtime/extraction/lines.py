"""Reading a document's lines: the label/value pairs it states, and its letterhead.

:func:`stated_pairs` returns every label with the value the document gives it;
which of them a field takes is decided in :mod:`apps.runtime.extraction.choice`.
Nothing here reads an amount's value or chooses among labels.

Where values come from
----------------------
* **Label/value lines** (method ``label_value``): "Fornitore: ACME S.r.l.",
  "Supplier - Beta Ltd", "Totale: € 1.234,56", "Prezzo totale  1.234,56 EUR"
  (cells separated by two or more spaces, tabs or ``|``), several pairs on one
  line ("Fornitore: ACME    Data: 12/03/2026").
* **A label alone, the value on the next line** (``next_line``): "Supplier" /
  "Beta Office Supplies Ltd".
* **A label followed by a typed value with single spaces** (``label_prefix``),
  as text extracted from laid-out PDFs often reads: "Totale offerta EUR
  1.464,00" (the rest must read entirely as one amount), "Supplier Beta Ltd"
  (the rest must look like a company name).
* **Simple text tables** (``table``): a header line whose cells are labels,
  rows below with the same number of cells (separator lines such as
  ``|---|---|`` are skipped). A table with one row states document values; the
  cells of a table with several rows are line items.
* **The letterhead** (``letterhead``; :func:`letterhead_companies`): among
  the first :data:`~apps.runtime.extraction.fields.LETTERHEAD_LINES` non-empty
  lines, before any addressee marker ("Spett.le", "Customer", "To:", "Alla
  cortese attenzione"…), the lines that look like a company name (ending in
  S.r.l., S.p.A., S.a.s., S.n.c., Ltd, Inc, LLC, GmbH, AG, PLC…).

Which labels answer which field
-------------------------------
A label answers a field (:func:`label_match`) when its normalised text equals the field's name
("Prezzo" for ``prezzo``: a *name* match), or when the shared vocabulary
(:func:`apps.records.vocabulary.classify_label`) gives both the same kind
("Totale" and ``price`` are both ``amount``; "Fornitore" and ``supplier``
are both ``supplier``: a *kind* match). Fields the vocabulary does not know
match by name only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from apps.records.amounts import DecimalSeparator, UnreadableAmount, parse_amount
from apps.records.vocabulary import classify_label, normalise_label
from apps.runtime.extraction.fields import (
    LETTERHEAD_LINES,
    MAX_BARE_LABEL_WORDS,
    MAX_LABEL_CHARS,
    MAX_LABEL_WORDS,
    FieldSpec,
    MatchKind,
    Method,
    Scope,
)

_CELL_SPLIT: Final = re.compile(r"\s*\|\s*|\t+|\s{2,}")
_SEPARATOR_LINE: Final = re.compile(r"^[\s|:+]*[-=_]{3,}[-=_\s|:+]*$")
_COLON_PAIR: Final = re.compile(r"^(?P<label>[^:\uff1a]{1,60}?)\s*[:\uff1a]\s*(?P<value>.*)$")
_DASH_PAIR: Final = re.compile(r"^(?P<label>.{1,60}?)\s+[-\u2013\u2014]\s+(?P<value>.+)$")

_COMPANY_SUFFIX: Final = (
    r"(?:(?i:s\.?\s?r\.?\s?l\.?(?:\s?s\.?)?|s\.?\s?p\.?\s?a\.?|s\.?\s?a\.?\s?s\.?|s\.?\s?n\.?\s?c\.?"
    r"|soc\.\s?coop\.?|ltd\.?|limited|l\.?l\.?c\.?|inc\.?|incorporated|corp\.?|corporation|plc|l\.?l\.?p\.?"
    r"|gmbh|sarl|s\.a\.|s\.l\.|b\.v\.|n\.v\.|co\.)|AG|SA|BV|NV)"
)
_COMPANY: Final = re.compile(
    rf"(?P<name>[^\W_][\w&'\u2019.,\- ]{{0,80}}?\s{_COMPANY_SUFFIX})(?=$|[\s,;)\-\u2013\u2014(])"
)
_ADDRESSEE: Final = re.compile(
    r"^(?:spett\w*|spettabile|egreg\w*|gentil\w*|cliente|customer|client|bill to|ship to|sold to|to|attn"
    r"|c a|alla cortese|destinatari\w*|intestat\w*|committente|messrs|dear)\b"
)


@lru_cache(maxsize=4096)
def normalised_label(text: str) -> str:
    """:func:`~apps.records.vocabulary.normalise_label`, cached: a document repeats its labels."""
    return normalise_label(text)


def company_name(text: str) -> str | None:
    """The company name ``text`` starts with ("Alfa Ufficio S.r.l." of "Alfa Ufficio S.r.l. - Milano"), or None."""
    match = _COMPANY.match(text.strip())
    if match is None:
        return None
    name = match.group("name").strip()
    if len(name.split()) > MAX_LABEL_WORDS + 1:
        return None
    return name


def _cells(line: str) -> list[str]:
    stripped = line.strip()
    if stripped.startswith("|") or stripped.endswith("|"):
        stripped = stripped.strip("|")
    return [cell.strip() for cell in _CELL_SPLIT.split(stripped) if cell and cell.strip()]


def _label_like(text: str, max_words: int = MAX_LABEL_WORDS) -> bool:
    return (
        0 < len(text) <= MAX_LABEL_CHARS
        and (text[0].isalpha() or text[0] in "#№")
        and len(text.split()) <= max_words
        and bool(normalised_label(text))
    )


def label_match(label: str, spec: FieldSpec) -> MatchKind | None:
    """Whether ``label`` answers ``spec``, and how: by its ``"name"``, by its ``"kind"``, or not at all."""
    normalised = normalised_label(label)
    if not normalised:
        return None
    if normalised == spec.normalised:
        return "name"
    if spec.kind is not None and classify_label(label) == spec.kind:
        return "kind"
    return None


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
    return classify_label(text) is not None or any(normalised_label(text) == spec.normalised for spec in specs)


@dataclass(frozen=True)
class LabelPair:
    """A label and the value the document gives it, with where and how it was read."""

    label: str
    value: str
    method: Method
    line: int
    scope: Scope = "document"


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
            if len(lines.cells[following]) != len(header):
                break
            rows.append((following, lines.cells[following]))
            last = following
        if not rows:
            index += 1
            continue
        scope: Scope = "document" if len(rows) == 1 else "line_item"
        for column, heading in enumerate(header):
            if any(label_match(heading, spec) for spec in specs):
                pairs.extend(LabelPair(heading, cells[column], "table", number + 1, scope) for number, cells in rows)
        for consumed in range(index, last + 1):
            lines.consumed[consumed] = True
        index = last + 1
    return pairs


def _is_header(cells: list[str], specs: Sequence[FieldSpec]) -> bool:
    if len(cells) < 2:
        return False
    if not all(_label_like(cell, MAX_BARE_LABEL_WORDS) and ":" not in cell for cell in cells):
        return False
    if any(company_name(cell) is not None or _is_amount_text(cell) for cell in cells):
        return False
    if not any(label_match(cell, spec) for cell in cells for spec in specs):
        return False
    # Two cells are a header only if both are labels; otherwise they are a label and its value.
    return len(cells) > 2 or all(_known_label(cell, specs) for cell in cells)


def _prefix_pair(cell: str, number: int, specs: Sequence[FieldSpec], hint: DecimalSeparator | None) -> LabelPair | None:
    """ "Totale offerta EUR 1.464,00": the shortest label whose rest is entirely one typed value."""
    words = cell.split()
    for width in range(1, min(MAX_LABEL_WORDS, len(words) - 1) + 1):
        label = " ".join(words[:width])
        rest = " ".join(words[width:])
        if not _label_like(label):
            return None
        for spec in specs:
            if not label_match(label, spec):
                continue
            if spec.is_amount and _whole_amount(rest, hint):
                return LabelPair(label, rest, "label_prefix", number)
            if spec.kind == "supplier" and company_name(rest) == rest:
                return LabelPair(label, rest, "label_prefix", number)
    return None


def _whole_amount(text: str, hint: DecimalSeparator | None) -> bool:
    try:
        parse_amount(text, decimal_separator=hint)
    except UnreadableAmount as exc:
        return exc.reason == "ambiguous"
    return True


def _line_pairs(
    lines: DocumentLines, index: int, specs: Sequence[FieldSpec], hint: DecimalSeparator | None
) -> list[LabelPair]:
    cells = lines.cells[index]
    number = index + 1
    if not cells or _SEPARATOR_LINE.match(lines.lines[index]):
        return []
    pairs: list[LabelPair] = []

    def value_below(label: str) -> None:
        following = lines.next_value_line(index, specs)
        if following is not None:
            pairs.append(LabelPair(label, lines.cells[following][0], "next_line", following + 1))

    if any(":" in cell or "\uff1a" in cell for cell in cells):
        position = 0
        while position < len(cells):
            cell = cells[position]
            colon = _COLON_PAIR.match(cell)
            label = colon.group("label").strip() if colon else ""
            if colon is None or not _label_like(label):
                position += 1
                continue
            value = colon.group("value").strip()
            if value:
                pairs.append(LabelPair(label, value, "label_value", number))
            elif position + 1 < len(cells):
                position += 1
                pairs.append(LabelPair(label, cells[position], "label_value", number))
            elif len(cells) == 1:
                value_below(label)
            position += 1
        return pairs

    if len(cells) == 1:
        cell = cells[0]
        dash = _DASH_PAIR.match(cell)
        if dash is not None and _label_like(dash.group("label")):
            return [LabelPair(dash.group("label").strip(), dash.group("value").strip(), "label_value", number)]
        if _label_like(cell, MAX_BARE_LABEL_WORDS) and any(label_match(cell, spec) for spec in specs):
            value_below(cell)
            if pairs:
                return pairs
        prefix = _prefix_pair(cell, number, specs, hint)
        return [prefix] if prefix is not None else []

    labels = [_known_label(cell, specs) for cell in cells]
    if len(cells) % 2 == 0 and all(labels[0::2]) and not any(labels[1::2]):
        # "Fornitore    ACME S.r.l.    Totale    1.234,56": label, value, label, value.
        return [LabelPair(cells[at], cells[at + 1], "label_value", number) for at in range(0, len(cells), 2)]
    if _label_like(cells[0]) and not any(labels[1:]):
        # "Prezzo totale    1.234,56    EUR": one label, its value in the other cells.
        return [LabelPair(cells[0], " ".join(cells[1:]), "label_value", number)]
    return []


def stated_pairs(lines: DocumentLines, specs: Sequence[FieldSpec], hint: DecimalSeparator | None) -> list[LabelPair]:
    """Every label/value pair ``lines`` state for ``specs``: tables first, then the lines no table consumed."""
    pairs = _tables(lines, specs)
    for index in range(len(lines.lines)):
        if not lines.consumed[index]:
            pairs.extend(_line_pairs(lines, index, specs, hint))
    return pairs


def letterhead_companies(lines: DocumentLines) -> list[tuple[str, int]]:
    """The company names in the letterhead, each with its 1-based line (see the module docstring)."""
    companies: list[tuple[str, int]] = []
    seen = 0
    for index, line in enumerate(lines.lines):
        text = line.strip()
        if not text:
            continue
        seen += 1
        if seen > LETTERHEAD_LINES or _ADDRESSEE.match(normalised_label(text)):
            break
        company = company_name(text)
        if company is not None:
            companies.append((company, index + 1))
    return companies
