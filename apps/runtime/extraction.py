"""Deterministic extraction: the values of requested fields in a document's text.

:func:`extract_document` reads one document's text and, for each requested
field, finds the value the document states — or states that it found none.
It calls no model; :func:`complete_with_model` may consult one afterwards, only
for the fields still missing, and only keeps values it can verify in the text.

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
* **The letterhead** (``letterhead``), for a supplier-kind field only, when the
  document has no label for it at all: among the first
  :data:`LETTERHEAD_LINES` non-empty lines, before any addressee marker
  ("Spett.le", "Customer", "To:", "Alla cortese attenzione"…), the one line
  that looks like a company name (it ends in S.r.l., S.p.A., S.a.s., S.n.c.,
  Ltd, Inc, LLC, GmbH, AG, PLC…). Two different company lines there leave the
  field empty.

Which labels answer which field
-------------------------------
A label answers a field when its normalised text equals the field's name
("Prezzo" for ``prezzo``: a *name* match), or when the shared vocabulary
(:func:`apps.records.vocabulary.classify_label`) gives both the same kind
("Totale" and ``price`` are both ``amount``; "Fornitore" and ``supplier``
are both ``supplier``: a *kind* match). Fields the vocabulary does not know
match by name only.

Choosing among competing labels — never the first one
------------------------------------------------------
Candidates are ranked by (1) name matches before kind matches; (2) for amount
fields, the label's :func:`amount_tier`: a payable total ("Totale IVA
inclusa", "Total due", "Grand total") before a plain total ("Totale",
"Prezzo totale") before another amount ("Importo", "Prezzo") before a unit,
net, partial or tax amount ("Prezzo unitario", "Totale imponibile",
"Subtotal", "Totale IVA"); (3) values the document states once before line
items. The best-ranked candidates must agree on one value: then it is taken
(with a notice naming the other amounts the document states, and a notice
when it is only a unit, net or tax amount); if they disagree the field is left
empty and a notice names the candidates. A best-ranked label whose value
cannot be read leaves the field empty rather than falling back to a weaker
label.

Values
------
Amount fields (the requested name is an ``amount`` kind) are read with
:func:`apps.records.amounts.parse_amount` — the whole value, or the one
amount inside it ("€ 1.464,00 (IVA inclusa)"; with several numbers, the one
with a currency, else none). A "1.200"-style value is read with the decimal
separator the document's other numbers use, and is unreadable when they do
not settle it. Amounts become plain decimal text ("1640.90") so results stay
JSON; the currency travels separately. Text values are the document's text
with whitespace collapsed, at most :data:`MAX_VALUE_CHARS` characters.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Final, Literal

from apps.records.amounts import (
    Amount,
    DecimalSeparator,
    UnreadableAmount,
    find_amounts,
    infer_decimal_separator,
    parse_amount,
)
from apps.records.vocabulary import FieldKind, classify_label, normalise_label

logger = logging.getLogger(__name__)

# --- Bounds ----------------------------------------------------------------------
# Fields one extraction may ask for.
MAX_FIELDS: Final = 30
# A requested field name longer than this is not a field name.
MAX_FIELD_NAME_CHARS: Final = 60
# A text value longer than this is prose, not a field's value.
MAX_VALUE_CHARS: Final = 200
# A label is short: at most this many characters and words.
MAX_LABEL_CHARS: Final = 60
MAX_LABEL_WORDS: Final = 8
# A label alone on its line (its value on the next line) has at most this many words.
MAX_BARE_LABEL_WORDS: Final = 5
# Non-empty lines at the top of a document where a letterhead is looked for.
LETTERHEAD_LINES: Final = 6
# Candidates named in one notice.
MAX_CANDIDATES_SHOWN: Final = 4
# Item keys the executors use for themselves; a requested field may not take them.
RESERVED_KEYS: Final = frozenset({"address", "evidence"})

# Amount tiers, best first (see the module docstring).
TIER_PAYABLE_TOTAL: Final = 0
TIER_TOTAL: Final = 1
TIER_OTHER_AMOUNT: Final = 2
TIER_PARTIAL_AMOUNT: Final = 3

ModelExtractor = Callable[[str, Sequence[str]], Mapping[str, str | None]]
"""``model(text, missing_fields) -> {field: value or None}``: an optional extraction model."""

Method = Literal["label_value", "next_line", "label_prefix", "table", "letterhead", "model"]
ValueType = Literal["amount", "text"]
Scope = Literal["document", "line_item"]
MatchKind = Literal["name", "kind"]


class InvalidFields(ValueError):
    """The requested fields cannot be extracted (empty, too many, repeated, reserved names)."""


@dataclass(frozen=True)
class FieldSpec:
    """A requested field: its name as given, normalised, and its vocabulary kind."""

    name: str
    normalised: str
    kind: FieldKind | None

    @property
    def is_amount(self) -> bool:
        return self.kind == "amount"


def field_specs(fields: object) -> tuple[FieldSpec, ...]:
    """Check the requested field names and classify them; :class:`InvalidFields` when unusable."""
    if isinstance(fields, str | bytes) or not isinstance(fields, Sequence):
        raise InvalidFields("fields must be a list of field names")
    if not fields:
        raise InvalidFields("no field was requested")
    if len(fields) > MAX_FIELDS:
        raise InvalidFields(f"at most {MAX_FIELDS} fields can be extracted at once")
    specs: list[FieldSpec] = []
    seen: dict[str, str] = {}
    for raw in fields:
        if not isinstance(raw, str) or not raw.strip():
            raise InvalidFields("every field name must be non-empty text")
        name = raw.strip()
        if len(name) > MAX_FIELD_NAME_CHARS:
            raise InvalidFields(f"field name {name[:20]!r}… is longer than {MAX_FIELD_NAME_CHARS} characters")
        if name.casefold() in RESERVED_KEYS:
            raise InvalidFields(f"{name!r} is reserved for the source document; name the field differently")
        normalised = normalise_label(name)
        if not normalised:
            raise InvalidFields(f"field name {name!r} has no letters or digits")
        if normalised in seen:
            raise InvalidFields(f"fields {seen[normalised]!r} and {name!r} are the same field")
        seen[normalised] = name
        specs.append(FieldSpec(name=name, normalised=normalised, kind=classify_label(name)))
    return tuple(specs)


@dataclass(frozen=True)
class FieldValue:
    """One value found for one field, with where it came from.

    ``value`` is the text to pass on: plain decimal text for amounts
    ("1640.90"), the document's text otherwise. ``label`` is the document's
    label (``None`` for a letterhead); ``line`` the 1-based line of the value;
    ``text`` the value as the document writes it.
    """

    field: str
    value: str
    type: ValueType
    currency: str | None
    label: str | None
    method: Method
    line: int | None
    text: str

    def evidence(self) -> dict[str, Any]:
        """A JSON-ready record of where the value came from (kept in the entry's ``evidence``)."""
        data: dict[str, Any] = {"type": self.type, "method": self.method, "label": self.label, "line": self.line}
        data["text"] = self.text
        if self.type == "amount":
            data["currency"] = self.currency
        return data


@dataclass(frozen=True)
class DocumentExtraction:
    """What one document gave: ``values`` found, ``problems`` (why a field is empty, when
    there is more to say than "not found") and ``notices`` (choices made among labels)."""

    values: Mapping[str, FieldValue]
    problems: Mapping[str, str] = field(default_factory=dict)
    notices: tuple[str, ...] = ()

    def missing(self, specs: Sequence[FieldSpec]) -> tuple[str, ...]:
        return tuple(spec.name for spec in specs if spec.name not in self.values)


# --- Lines, cells and labels ---------------------------------------------------------

_CELL_SPLIT: Final = re.compile(r"\s*\|\s*|\t+|\s{2,}")
_SEPARATOR_LINE: Final = re.compile(r"^[\s|:+]*[-=_]{3,}[-=_\s|:+]*$")
_COLON_PAIR: Final = re.compile(r"^(?P<label>[^:\uff1a]{1,60}?)\s*[:\uff1a]\s*(?P<value>.*)$")
_DASH_PAIR: Final = re.compile(r"^(?P<label>.{1,60}?)\s+[-\u2013\u2014]\s+(?P<value>.+)$")
_SPACES: Final = re.compile(r"\s+")

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

_TOTAL_WORDS: Final = frozenset({"totale", "total", "complessivo", "complessiva", "grand"})
_PAYABLE_WORDS: Final = frozenset(
    {
        "incl", "inclusa", "incluso", "inclusi", "included", "including", "inclusive", "compresa", "compreso",
        "compresi", "ivato", "ivata", "lordo", "gross", "finale", "final", "complessivo", "complessiva", "grand",
        "payable", "due",
    }
)  # fmt: skip
_PAYABLE_PHRASES: Final = ("da pagare", "to pay")
_PARTIAL_WORDS: Final = frozenset(
    {
        "imponibile", "netto", "netta", "net", "subtotal", "subtotale", "sub", "parziale", "partial", "unitario",
        "unitaria", "unit", "cad", "cadauno", "each", "esclusa", "escluso", "esclusi", "excl", "excluding",
        "exclusive", "excluded", "senza", "before", "ex", "sconto", "discount", "acconto", "deposit",
    }
)  # fmt: skip
_TAX_WORDS: Final = frozenset({"iva", "vat", "tax", "taxes", "imposta", "imposte"})


@lru_cache(maxsize=4096)
def _normalised(text: str) -> str:
    return normalise_label(text)


def amount_tier(label: str) -> int:
    """How strongly an amount label names the document's total: 0 (payable total) … 3 (unit/net/tax)."""
    text = _normalised(label)
    words = frozenset(text.split())
    payable = bool(words & _PAYABLE_WORDS) or any(phrase in text for phrase in _PAYABLE_PHRASES)
    if words & _PARTIAL_WORDS or (words & _TAX_WORDS and not payable):
        return TIER_PARTIAL_AMOUNT
    if payable:
        return TIER_PAYABLE_TOTAL
    if words & _TOTAL_WORDS:
        return TIER_TOTAL
    return TIER_OTHER_AMOUNT


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
        and bool(_normalised(text))
    )


def _match(label: str, spec: FieldSpec) -> MatchKind | None:
    normalised = _normalised(label)
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
    return classify_label(text) is not None or any(_normalised(text) == spec.normalised for spec in specs)


@dataclass(frozen=True)
class _Pair:
    label: str
    value: str
    method: Method
    line: int
    scope: Scope = "document"


class _Lines:
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


def _tables(lines: _Lines, specs: Sequence[FieldSpec]) -> list[_Pair]:
    pairs: list[_Pair] = []
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
            if any(_match(heading, spec) for spec in specs):
                pairs.extend(_Pair(heading, cells[column], "table", number + 1, scope) for number, cells in rows)
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
    if not any(_match(cell, spec) for cell in cells for spec in specs):
        return False
    # Two cells are a header only if both are labels; otherwise they are a label and its value.
    return len(cells) > 2 or all(_known_label(cell, specs) for cell in cells)


def _prefix_pair(cell: str, number: int, specs: Sequence[FieldSpec], hint: DecimalSeparator | None) -> _Pair | None:
    """ "Totale offerta EUR 1.464,00": the shortest label whose rest is entirely one typed value."""
    words = cell.split()
    for width in range(1, min(MAX_LABEL_WORDS, len(words) - 1) + 1):
        label = " ".join(words[:width])
        rest = " ".join(words[width:])
        if not _label_like(label):
            return None
        for spec in specs:
            if not _match(label, spec):
                continue
            if spec.is_amount and _whole_amount(rest, hint):
                return _Pair(label, rest, "label_prefix", number)
            if spec.kind == "supplier" and company_name(rest) == rest:
                return _Pair(label, rest, "label_prefix", number)
    return None


def _whole_amount(text: str, hint: DecimalSeparator | None) -> bool:
    try:
        parse_amount(text, decimal_separator=hint)
    except UnreadableAmount as exc:
        return exc.reason == "ambiguous"
    return True


def _line_pairs(lines: _Lines, index: int, specs: Sequence[FieldSpec], hint: DecimalSeparator | None) -> list[_Pair]:
    cells = lines.cells[index]
    number = index + 1
    if not cells or _SEPARATOR_LINE.match(lines.lines[index]):
        return []
    pairs: list[_Pair] = []

    def value_below(label: str) -> None:
        following = lines.next_value_line(index, specs)
        if following is not None:
            pairs.append(_Pair(label, lines.cells[following][0], "next_line", following + 1))

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
                pairs.append(_Pair(label, value, "label_value", number))
            elif position + 1 < len(cells):
                position += 1
                pairs.append(_Pair(label, cells[position], "label_value", number))
            elif len(cells) == 1:
                value_below(label)
            position += 1
        return pairs

    if len(cells) == 1:
        cell = cells[0]
        dash = _DASH_PAIR.match(cell)
        if dash is not None and _label_like(dash.group("label")):
            return [_Pair(dash.group("label").strip(), dash.group("value").strip(), "label_value", number)]
        if _label_like(cell, MAX_BARE_LABEL_WORDS) and any(_match(cell, spec) for spec in specs):
            value_below(cell)
            if pairs:
                return pairs
        prefix = _prefix_pair(cell, number, specs, hint)
        return [prefix] if prefix is not None else []

    labels = [_known_label(cell, specs) for cell in cells]
    if len(cells) % 2 == 0 and all(labels[0::2]) and not any(labels[1::2]):
        # "Fornitore    ACME S.r.l.    Totale    1.234,56": label, value, label, value.
        return [_Pair(cells[at], cells[at + 1], "label_value", number) for at in range(0, len(cells), 2)]
    if _label_like(cells[0]) and not any(labels[1:]):
        # "Prezzo totale    1.234,56    EUR": one label, its value in the other cells.
        return [_Pair(cells[0], " ".join(cells[1:]), "label_value", number)]
    return []


# --- Candidates and the choice ----------------------------------------------------------


@dataclass(frozen=True)
class _Candidate:
    pair: _Pair
    match: MatchKind
    tier: int
    value: FieldValue | None
    problem: str | None

    @property
    def rank(self) -> tuple[int, int, int]:
        return (0 if self.match == "name" else 1, self.tier, 0 if self.pair.scope == "document" else 1)


def read_amount(text: str, hint: DecimalSeparator | None) -> Amount | UnreadableAmount:
    """The one amount a value states: the whole text, else the one amount inside it (see module docstring)."""
    try:
        return parse_amount(text, decimal_separator=hint)
    except UnreadableAmount as exc:
        if exc.reason != "unrecognised":
            return exc
    found = find_amounts(text, decimal_separator=hint)
    amounts = list(found.amounts)
    if len({amount.value for amount in amounts}) > 1:
        amounts = [amount for amount in amounts if amount.currency is not None]
    if amounts and len({(amount.value, amount.currency) for amount in amounts}) == 1:
        return amounts[0]
    if amounts:
        return UnreadableAmount("ambiguous", text, f"{text!r} states several amounts")
    if found.unreadable:
        return found.unreadable[0]
    return UnreadableAmount("unrecognised", text, f"{text!r} states no amount")


def _clean_text(text: str) -> str | None:
    cleaned = _SPACES.sub(" ", text).strip().strip(",;").strip()
    if not cleaned or len(cleaned) > MAX_VALUE_CHARS or not any(char.isalnum() for char in cleaned):
        return None
    return cleaned


def _candidate(pair: _Pair, spec: FieldSpec, match: MatchKind, hint: DecimalSeparator | None) -> _Candidate | None:
    if spec.is_amount:
        amount = read_amount(pair.value, hint)
        tier = amount_tier(pair.label)
        if isinstance(amount, UnreadableAmount):
            if pair.method == "next_line":
                return None  # a label alone above a line that is no amount was not a pair after all
            return _Candidate(pair, match, tier, None, f"'{pair.label}' has no readable amount ({amount})")
        value = FieldValue(
            spec.name, amount.as_text(), "amount", amount.currency, pair.label, pair.method, pair.line, pair.value
        )
        return _Candidate(pair, match, tier, value, None)
    cleaned = _clean_text(pair.value)
    if cleaned is None:
        return None
    value = FieldValue(spec.name, cleaned, "text", None, pair.label, pair.method, pair.line, pair.value)
    return _Candidate(pair, match, 0, value, None)


def _same_key(value: FieldValue) -> str:
    return value.value if value.type == "amount" else unicodedata.normalize("NFKC", value.value).casefold()


def _shown(candidate: _Candidate) -> str:
    where = f"line {candidate.pair.line}"
    return f"'{candidate.pair.label}' {candidate.pair.value} ({where})"


def _choose(
    spec: FieldSpec, candidates: list[_Candidate], name: str
) -> tuple[FieldValue | None, str | None, list[str]]:
    """The value, or why there is none, and the notices about the choice."""
    best_rank = min(candidate.rank for candidate in candidates)
    best = [candidate for candidate in candidates if candidate.rank == best_rank]
    unreadable = [candidate for candidate in best if candidate.value is None]
    if unreadable:
        return None, f"{name}: '{spec.name}' left empty: {unreadable[0].problem}.", []
    found = [candidate.value for candidate in best if candidate.value is not None]
    keys = {_same_key(value) for value in found}
    currencies = {value.currency for value in found if value.currency is not None}
    if len(keys) > 1 or len(currencies) > 1:
        shown = "; ".join(_shown(candidate) for candidate in best[:MAX_CANDIDATES_SHOWN])
        more = f" and {len(best) - MAX_CANDIDATES_SHOWN} more" if len(best) > MAX_CANDIDATES_SHOWN else ""
        return None, f"{name}: '{spec.name}' left empty: several values could be it — {shown}{more}.", []
    chosen = found[0]
    if currencies and chosen.currency is None:
        chosen = replace(chosen, currency=next(iter(currencies)))
    notices: list[str] = []
    others = [
        candidate
        for candidate in candidates
        if candidate.rank != best_rank
        and candidate.pair.scope == "document"
        and (candidate.value is None or _same_key(candidate.value) not in keys)
    ]
    if others:
        shown = "; ".join(_shown(candidate) for candidate in others[:MAX_CANDIDATES_SHOWN])
        notices.append(
            f"{name}: '{spec.name}' taken from '{chosen.label}' ({chosen.text}); the document also states {shown}."
        )
    if spec.is_amount and best_rank[1] == TIER_PARTIAL_AMOUNT:
        notices.append(
            f"{name}: '{spec.name}' comes from '{chosen.label}', a unit, net, partial or tax amount: "
            "the document states no total."
        )
    return chosen, None, notices


def _letterhead(lines: _Lines, spec: FieldSpec, name: str) -> tuple[FieldValue | None, str | None, list[str]]:
    companies: list[tuple[str, int]] = []
    seen = 0
    for index, line in enumerate(lines.lines):
        text = line.strip()
        if not text:
            continue
        seen += 1
        if seen > LETTERHEAD_LINES or _ADDRESSEE.match(_normalised(text)):
            break
        company = company_name(text)
        if company is not None:
            companies.append((company, index + 1))
    distinct = {company.casefold() for company, _ in companies}
    if not companies:
        return None, None, []
    if len(distinct) > 1:
        shown = "; ".join(f"'{company}' (line {number})" for company, number in companies[:MAX_CANDIDATES_SHOWN])
        return None, f"{name}: '{spec.name}' left empty: the letterhead names several companies — {shown}.", []
    company, number = companies[0]
    value = FieldValue(spec.name, company, "text", None, None, "letterhead", number, company)
    notice = f"{name}: '{spec.name}' taken from the letterhead '{company}': the document has no label for it."
    return value, None, [notice]


def extract_document(text: str, specs: Sequence[FieldSpec], *, name: str) -> DocumentExtraction:
    """Find each requested field's value in ``text`` (see the module docstring); never invents one.

    ``name`` is how notices refer to the document (its file name). A field
    without a value is absent from ``values``; ``problems`` says why when the
    document had candidates (competing values, an unreadable amount).
    """
    hint = infer_decimal_separator(text)
    lines = _Lines(text)
    pairs = _tables(lines, specs)
    for index in range(len(lines.lines)):
        if not lines.consumed[index]:
            pairs.extend(_line_pairs(lines, index, specs, hint))

    values: dict[str, FieldValue] = {}
    problems: dict[str, str] = {}
    notices: list[str] = []
    for spec in specs:
        candidates: list[_Candidate] = []
        for pair in pairs:
            match = _match(pair.label, spec)
            if match is not None:
                candidate = _candidate(pair, spec, match, hint)
                if candidate is not None:
                    candidates.append(candidate)
        if candidates:
            chosen, problem, chosen_notices = _choose(spec, candidates, name)
        elif spec.kind == "supplier":
            chosen, problem, chosen_notices = _letterhead(lines, spec, name)
        else:
            chosen, problem, chosen_notices = None, None, []
        if chosen is not None:
            values[spec.name] = chosen
        if problem is not None:
            problems[spec.name] = problem
        notices.extend(chosen_notices)
    return DocumentExtraction(values=values, problems=problems, notices=tuple(notices))


# --- The optional model -----------------------------------------------------------------


def _loose_text(text: str) -> str:
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip().casefold()


def _validated_model_value(
    text: str, spec: FieldSpec, proposed: str, hint: DecimalSeparator | None
) -> FieldValue | None:
    """The model's value if the document states it: an amount among the document's amounts, text in the text."""
    if spec.is_amount:
        amount = read_amount(proposed, hint)
        if isinstance(amount, UnreadableAmount):
            return None
        stated = [found for found in find_amounts(text, decimal_separator=hint).amounts if found.value == amount.value]
        if not stated:
            return None
        currencies = {found.currency for found in stated if found.currency is not None}
        currency = amount.currency or (next(iter(currencies)) if len(currencies) == 1 else None)
        return FieldValue(spec.name, amount.as_text(), "amount", currency, None, "model", None, proposed.strip())
    cleaned = _clean_text(proposed)
    if cleaned is None or _loose_text(cleaned) not in _loose_text(text):
        return None
    return FieldValue(spec.name, cleaned, "text", None, None, "model", None, cleaned)


def complete_with_model(
    text: str,
    specs: Sequence[FieldSpec],
    extraction: DocumentExtraction,
    model: ModelExtractor | None,
    *,
    name: str,
) -> DocumentExtraction:
    """Ask ``model`` for the fields ``extraction`` missed; keep only values the document states.

    Deterministic first: values already found are never replaced, a failing
    model (an exception, an answer that is not a mapping) keeps the
    deterministic result with a notice, and a proposed value is used only
    when it verifies — an amount must read as one amount that the document
    states, a text must occur in the document (ignoring case and spacing).
    """
    missing = [spec for spec in specs if spec.name not in extraction.values]
    if model is None or not missing:
        return extraction
    try:
        proposed = model(text, tuple(spec.name for spec in missing))
    except Exception as exc:  # noqa: BLE001 - any model failure keeps the deterministic result
        logger.warning("extraction model failed: %s", type(exc).__name__)
        proposed = None
    if not isinstance(proposed, Mapping):
        notice = f"{name}: the extraction model gave no usable answer; the values found without it are kept."
        return replace(extraction, notices=(*extraction.notices, notice))
    hint = infer_decimal_separator(text)
    values = dict(extraction.values)
    problems = dict(extraction.problems)
    notices = list(extraction.notices)
    for spec in missing:
        raw = proposed.get(spec.name)
        if raw is None:
            continue
        checked = _validated_model_value(text, spec, raw, hint) if isinstance(raw, str) else None
        if checked is None:
            notices.append(
                f"{name}: the extraction model's value for '{spec.name}' was not used: the document does not state it."
            )
            continue
        values[spec.name] = checked
        problems.pop(spec.name, None)
        notices.append(
            f"{name}: '{spec.name}' was found by the extraction model and checked against the document text."
        )
    return DocumentExtraction(values=values, problems=problems, notices=tuple(notices))


__all__ = [
    "LETTERHEAD_LINES",
    "MAX_FIELDS",
    "MAX_FIELD_NAME_CHARS",
    "MAX_VALUE_CHARS",
    "RESERVED_KEYS",
    "TIER_OTHER_AMOUNT",
    "TIER_PARTIAL_AMOUNT",
    "TIER_PAYABLE_TOTAL",
    "TIER_TOTAL",
    "DocumentExtraction",
    "FieldSpec",
    "FieldValue",
    "InvalidFields",
    "ModelExtractor",
    "amount_tier",
    "company_name",
    "complete_with_model",
    "extract_document",
    "field_specs",
    "read_amount",
]
