"""Choosing a field's value among the pairs a document states, and reading the value.

:func:`choose_value` takes the pairs :mod:`apps.runtime.extraction.lines`
read and returns one field's value — or why it has none — with the notices
about the choice. When no label answers a supplier-kind field, its
letterhead may: the one company name there is taken, with a notice; two
different ones leave the field empty. :func:`verified_model_value` applies the same reading to a
value an extraction model proposed and keeps it only if the document states
it.

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
with whitespace collapsed, at most
:data:`~apps.runtime.extraction.fields.MAX_VALUE_CHARS` characters.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from apps.records.amounts import Amount, DecimalSeparator, UnreadableAmount, find_amounts, parse_amount
from apps.runtime.extraction.fields import (
    MAX_CANDIDATES_SHOWN,
    MAX_VALUE_CHARS,
    FieldSpec,
    FieldValue,
    MatchKind,
)
from apps.runtime.extraction.lines import (
    DocumentLines,
    LabelPair,
    label_match,
    letterhead_companies,
    normalised_label,
)

# Amount tiers, best first (see the module docstring).
TIER_PAYABLE_TOTAL: Final = 0
TIER_TOTAL: Final = 1
TIER_OTHER_AMOUNT: Final = 2
TIER_PARTIAL_AMOUNT: Final = 3

_SPACES: Final = re.compile(r"\s+")

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


def amount_tier(label: str) -> int:
    """How strongly an amount label names the document's total: 0 (payable total) … 3 (unit/net/tax)."""
    text = normalised_label(label)
    words = frozenset(text.split())
    payable = bool(words & _PAYABLE_WORDS) or any(phrase in text for phrase in _PAYABLE_PHRASES)
    if words & _PARTIAL_WORDS or (words & _TAX_WORDS and not payable):
        return TIER_PARTIAL_AMOUNT
    if payable:
        return TIER_PAYABLE_TOTAL
    if words & _TOTAL_WORDS:
        return TIER_TOTAL
    return TIER_OTHER_AMOUNT


@dataclass(frozen=True)
class _Candidate:
    pair: LabelPair
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


def _candidate(pair: LabelPair, spec: FieldSpec, match: MatchKind, hint: DecimalSeparator | None) -> _Candidate | None:
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


def _letterhead(lines: DocumentLines, spec: FieldSpec, name: str) -> tuple[FieldValue | None, str | None, list[str]]:
    companies = letterhead_companies(lines)
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


def choose_value(
    spec: FieldSpec, pairs: Sequence[LabelPair], lines: DocumentLines, hint: DecimalSeparator | None, *, name: str
) -> tuple[FieldValue | None, str | None, list[str]]:
    """``spec``'s value among ``pairs`` (see the module docstring), or why there is none, and the notices.

    ``name`` is how the problem and the notices refer to the document.
    """
    candidates: list[_Candidate] = []
    for pair in pairs:
        match = label_match(pair.label, spec)
        if match is not None:
            candidate = _candidate(pair, spec, match, hint)
            if candidate is not None:
                candidates.append(candidate)
    if candidates:
        return _choose(spec, candidates, name)
    if spec.kind == "supplier":
        return _letterhead(lines, spec, name)
    return None, None, []


def _loose_text(text: str) -> str:
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip().casefold()


def verified_model_value(text: str, spec: FieldSpec, proposed: str, hint: DecimalSeparator | None) -> FieldValue | None:
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
