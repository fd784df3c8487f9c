"""Choosing a field's value among the pairs a document states, and reading the value.

:func:`choose_value` takes the pairs :mod:`apps.runtime.extraction.lines`
read and returns one field's value — or why it has none — with the notices
about the choice. When no label answers a supplier-kind field, its
letterhead may (:mod:`apps.runtime.extraction.letterhead`): the one company
name there is taken, with a notice; two different ones leave the field
empty. When no label answers an issue date, a letter's date line may ("Zürich,
3. Februar 2026"), else the one calendar day the whole document states (a
till receipt's "14/02/2026 17:26"). :func:`verified_model_value` applies the
same reading to a value an extraction model proposed and keeps it only if the
document states it.

Choosing among competing labels — never the first one
------------------------------------------------------
Candidates are ranked by (1) values the document states once before line
items; (2) name matches before kind matches before generic ones (a bare
"Date" for an issue date); (3) for amount fields, the label's rank: a grand
total ("Totale documento", "Total TTC", "Gesamtbetrag", "Grand total") before
a plain total ("Totale", "Total", "Summe") before a payable amount ("Amount
due", "Te betalen", "Netto a pagare") before a balance left after payments
("Balance due", "Saldo da pagare", "Reste dû": the total is the document's
grand total, before deposits) before another amount ("Importo", "Prezzo")
before a unit, net, partial or tax amount ("Prezzo unitario", "Totale
imponibile", "Subtotal", "Totale IVA"); for a tax field, a total of the taxes
("Total TVA", "MwSt. gesamt", "Total GST") before one rate's tax; (4) values
read from labels before values read from prose. Amounts paid, change, rates
and the numbers of other documents never compete. The best-ranked
candidates must agree on one value: then it is taken (with a notice naming
the other amounts the document states, and a notice when it is only a unit,
net or tax amount); if they disagree the field is left empty and a notice
names the candidates. A best-ranked label whose value cannot be read leaves
the field empty rather than falling back to a weaker label.

In a credit note (its title says so), a label naming an invoice ("Invoice
date", "Réf. facture") speaks of the invoice credited, and answers neither
the document's number nor its date.

:func:`tax_from_rates` adds up a tax stated per rate ("VAT @ 0%" and "VAT @
23%") when no total of the taxes is stated, and only when the net amount plus
that sum is the total the document states.

Values
------
Amount fields (the requested name is an amount kind: ``amount``,
``net_amount``, ``tax_amount``) are read with
:func:`apps.records.amounts.parse_amount` — the whole value, or the one
amount inside it ("€ 1.464,00 (IVA inclusa)"; with several numbers, the one
with a currency, else none); a rate ("22%") is not an amount. A
"1.200"-style value is read with the decimal separator the document's other
numbers use, and is unreadable when they do not settle it. Amounts become
plain decimal text ("1640.90"), signed as printed; the currency travels
separately (the value's, else its label's — "SUMME EUR" —, else the one
currency the document names). Identifier fields take the code a value starts
with ("NC 12/2026"); date fields the calendar day it starts with, as an ISO
day (``YYYY-MM-DD``), numeric dates in the order the document's own evidence
gives (:mod:`apps.runtime.extraction.days`) — a day that cannot be known
leaves the field empty with the reason. Text values are the document's text
with whitespace collapsed, at most
:data:`~apps.runtime.extraction.fields.MAX_VALUE_CHARS` characters.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Final

from apps.records.amounts import Amount, DecimalSeparator, UnreadableAmount, find_amounts, parse_amount
from apps.records.dates.reading import UnreadableDate
from apps.records.vocabulary import label_sense
from apps.runtime.extraction.days import document_date_order, read_leading_date
from apps.runtime.extraction.fields import (
    MAX_CANDIDATES_SHOWN,
    MAX_UNCOVERED_WORDS,
    MAX_VALUE_CHARS,
    FieldSpec,
    FieldValue,
    MatchKind,
)
from apps.runtime.extraction.letterhead import dateline_days, letterhead_companies, letterhead_name
from apps.runtime.extraction.lines import DocumentLines, LabelPair, label_match
from apps.runtime.extraction.values import (
    DocumentContext,
    days_in,
    document_code,
    is_rate,
    label_currency,
    leading_day,
    names_an_invoice,
)

# Amount tiers, best first (see the module docstring; :func:`amount_tier`).
TIER_PAYABLE_TOTAL: Final = 0
TIER_TOTAL: Final = 1
TIER_OTHER_AMOUNT: Final = 2
TIER_PARTIAL_AMOUNT: Final = 3

# The finer rank of an amount label for a total, best first, by the lexicon's group.
_TOTAL_RANKS: Final[dict[str | None, int]] = {
    "grand_total": 0, "total": 1, "payable": 2, "balance": 3, "other": 4, "partial": 5, None: 4,
}  # fmt: skip
_TIERS: Final[dict[str | None, int]] = {
    "grand_total": TIER_PAYABLE_TOTAL, "payable": TIER_PAYABLE_TOTAL, "total": TIER_TOTAL,
    "balance": TIER_OTHER_AMOUNT, "other": TIER_OTHER_AMOUNT, "partial": TIER_PARTIAL_AMOUNT, None: TIER_OTHER_AMOUNT,
}  # fmt: skip
# A code after a bare title ("Factuur 26-3310") has at least this many characters ("Invoice 1 of 2" has none).
MIN_TITLED_CODE_CHARS: Final = 3
_MATCH_RANKS: Final[dict[MatchKind, int]] = {"name": 0, "kind": 1, "generic": 2}
# Labels of dates that are not the document's own: another date near them is not its only date.
_OTHER_DATE_SENSES: Final = frozenset({"delivery_date", "due_date", "period"})

_SPACES: Final = re.compile(r"\s+")
_DECIMALS: Final = re.compile(r"[0-9][.,][0-9]{1,2}(?![0-9])|[0-9][.,][0-9]{3}[.,][0-9]")


def amount_tier(label: str) -> int:
    """How strongly an amount label names the document's total: 0 (payable total) … 3 (unit/net/tax)."""
    sense = label_sense(label)
    return _TIERS.get(sense.group if sense is not None else None, TIER_OTHER_AMOUNT)


def _amount_rank(label: str, spec: FieldSpec) -> int:
    sense = label_sense(label)
    if spec.kind == "tax_amount":
        return 0 if sense is not None and sense.sense == "tax_total" else 1
    if spec.kind == "net_amount":
        return 0
    return _TOTAL_RANKS.get(sense.group if sense is not None else None, 4)


@dataclass(frozen=True)
class _Candidate:
    pair: LabelPair
    match: MatchKind
    tier: int
    value: FieldValue | None
    problem: str | None

    @property
    def rank(self) -> tuple[int, int, int, int]:
        return (
            0 if self.pair.scope == "document" else 1,
            _MATCH_RANKS[self.match],
            self.tier,
            1 if self.pair.method == "in_text" else 0,
        )


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


def _amount_candidate(
    pair: LabelPair, spec: FieldSpec, match: MatchKind, context: DocumentContext
) -> _Candidate | None:
    tier = _amount_rank(pair.label, spec)
    if is_rate(pair.value):
        return None  # "22%" under a "TVA" heading is the rate, not the tax
    amount = read_amount(pair.value, context.hint)
    # "Montant HT" above "Transport complet Nantes → Lyon, 33 palettes", "Gesamt" above a position "1":
    # a heading above something that is not money, not a pair.
    readable = not isinstance(amount, UnreadableAmount)
    if pair.method in ("next_line", "table") and readable and not _money(pair.value, context):
        return None
    if isinstance(amount, UnreadableAmount):
        if pair.method in ("next_line", "table"):
            return None  # a label alone above a line that is no amount (a code column) was not a pair after all
        return _Candidate(pair, match, tier, None, f"'{pair.label}' has no readable amount ({amount})")
    own_currency = amount.currency or label_currency(pair.label)
    if tier == _TOTAL_RANKS["balance"] and spec.kind == "amount" and own_currency is None:
        return None  # "Balance: 1,204" without a currency is a points balance as often as money
    currency = own_currency or context.currency
    value = FieldValue(spec.name, amount.as_text(), "amount", currency, pair.label, pair.method, pair.line, pair.value)
    return _Candidate(pair, match, tier, value, None)


def _money(text: str, context: DocumentContext) -> bool:
    """The whole text is one amount with decimals or a currency ("1.200,00", "€ 12", not "1" or "33 palettes")."""
    try:
        amount = parse_amount(text, decimal_separator=context.hint)
    except UnreadableAmount as exc:
        return exc.reason not in ("unrecognised", "empty")
    return amount.currency is not None or bool(_DECIMALS.search(text))


def _date_candidate(pair: LabelPair, spec: FieldSpec, match: MatchKind, context: DocumentContext) -> _Candidate | None:
    try:
        day = leading_day(pair.value, context)
    except UnreadableDate as exc:
        reason = exc.detail
        if exc.reason == "ambiguous" and context.order.order is None:
            reason = f"{exc.detail} ({context.order.reason})"
        return _Candidate(pair, match, 0, None, f"'{pair.label}' has no certain day: {pair.value!r} — {reason}")
    if day is None:
        return None  # "Zahlungsziel: 14 Tage": the label's value is not a date
    iso = day.day.isoformat()
    return _Candidate(pair, match, 0, FieldValue(spec.name, iso, "date", None, pair.label, pair.method, pair.line,
                                                 day.text), None)  # fmt: skip


def _candidate(pair: LabelPair, spec: FieldSpec, match: MatchKind, context: DocumentContext) -> _Candidate | None:
    if spec.is_amount:
        return _amount_candidate(pair, spec, match, context)
    if spec.is_date:
        return _date_candidate(pair, spec, match, context)
    code = document_code(pair.value) if spec.kind == "identifier_number" else None
    if spec.kind == "identifier_number" and (code is not None or match != "name"):
        if code is None or (match == "generic" and len(code) < MIN_TITLED_CODE_CHARS):
            return None  # "Fattura" above "Spett.le", "Invoice 1 of 2": a title, not a number
        return _Candidate(pair, match, 0, FieldValue(spec.name, code, "text", None, pair.label, pair.method,
                                                     pair.line, pair.value), None)  # fmt: skip
    cleaned = _clean_text(pair.value)
    if cleaned is None:
        return None
    value = FieldValue(spec.name, cleaned, "text", None, pair.label, pair.method, pair.line, pair.value)
    return _Candidate(pair, match, 0, value, None)


def _same_key(value: FieldValue) -> str:
    return value.value if value.type in ("amount", "date") else unicodedata.normalize("NFKC", value.value).casefold()


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
    if spec.kind == "amount" and best_rank[2] == _TOTAL_RANKS["partial"]:
        notices.append(
            f"{name}: '{spec.name}' comes from '{chosen.label}', a unit, net, partial or tax amount: "
            "the document states no total."
        )
    return chosen, None, notices


def _letterhead(lines: DocumentLines, spec: FieldSpec, name: str) -> tuple[FieldValue | None, str | None, list[str]]:
    companies = letterhead_companies(lines.lines)
    distinct = {company.casefold() for company, _ in companies}
    if not companies:
        sender = letterhead_name(lines.lines)
        if sender is None:
            return None, None, []
        companies = [sender]
    if len(distinct) > 1:
        shown = "; ".join(f"'{company}' (line {number})" for company, number in companies[:MAX_CANDIDATES_SHOWN])
        return None, f"{name}: '{spec.name}' left empty: the letterhead names several companies — {shown}.", []
    company, number = companies[0]
    value = FieldValue(spec.name, company, "text", None, None, "letterhead", number, company)
    notice = f"{name}: '{spec.name}' taken from the letterhead '{company}': the document has no label for it."
    return value, None, [notice]


def _issue_day(
    lines: DocumentLines, pairs: Sequence[LabelPair], spec: FieldSpec, context: DocumentContext, name: str
) -> tuple[FieldValue | None, str | None, list[str]]:
    """A letter's date line, else the one day the whole document states (see the module docstring)."""
    datelines = dateline_days(lines.lines, context)
    if len({day.day for day, _ in datelines}) == 1:
        day, number = datelines[0]
        value = FieldValue(spec.name, day.day.isoformat(), "date", None, None, "dateline", number, day.text)
        return value, None, [f"{name}: '{spec.name}' taken from the letter's date line ({day.text})."]
    if datelines:
        return None, None, []
    if _dates_other_things(lines, pairs):
        return None, None, []  # "Lieferdatum", "Due date": the document's only day may be one of those
    text = "\n".join(lines.lines)
    days = days_in(text, context)
    if len({day.day for day in days}) != 1:
        return None, None, []
    first = days[0]
    number = text.count("\n", 0, first.start) + 1
    value = FieldValue(spec.name, first.day.isoformat(), "date", None, None, "document_date", number, first.text)
    return value, None, [f"{name}: '{spec.name}' is the only date the document states ({first.text}), unlabelled."]


def _dates_other_things(lines: DocumentLines, pairs: Sequence[LabelPair]) -> bool:
    """Whether the document labels a date that is not its own (a delivery date, a due date, a period)."""
    labels = [pair.label for pair in pairs]
    for cells in lines.cells:
        labels.extend(cell.split(":", 1)[0] for cell in cells)
    for label in labels:
        sense = label_sense(label)
        if sense is not None and sense.sense in _OTHER_DATE_SENSES and sense.uncovered <= MAX_UNCOVERED_WORDS:
            return True
    return False


def _answers(pair: LabelPair, spec: FieldSpec, context: DocumentContext) -> MatchKind | None:
    if pair.kind is not None:
        return "kind" if pair.kind == spec.kind else None
    match = label_match(pair.label, spec)
    if match is None or match == "name":
        return match
    if context.credit_note and spec.kind in ("identifier_number", "issue_date") and names_an_invoice(pair.label):
        return None  # a credit note's "Invoice date" is the credited invoice's
    return match


def candidates_for(spec: FieldSpec, pairs: Sequence[LabelPair], context: DocumentContext) -> list[_Candidate]:
    """Every pair that answers ``spec``, read as its type."""
    candidates: list[_Candidate] = []
    for pair in pairs:
        match = _answers(pair, spec, context)
        if match is not None:
            candidate = _candidate(pair, spec, match, context)
            if candidate is not None:
                candidates.append(candidate)
    return candidates


def choose_value(
    spec: FieldSpec, pairs: Sequence[LabelPair], lines: DocumentLines, context: DocumentContext, *, name: str
) -> tuple[FieldValue | None, str | None, list[str]]:
    """``spec``'s value among ``pairs`` (see the module docstring), or why there is none, and the notices.

    ``name`` is how the problem and the notices refer to the document.
    """
    candidates = candidates_for(spec, pairs, context)
    if candidates:
        return _choose(spec, candidates, name)
    if spec.kind == "supplier":
        return _letterhead(lines, spec, name)
    if spec.kind == "issue_date":
        return _issue_day(lines, pairs, spec, context, name)
    return None, None, []


def tax_from_rates(
    spec: FieldSpec,
    pairs: Sequence[LabelPair],
    context: DocumentContext,
    *,
    net: FieldValue | None,
    total: FieldValue | None,
    name: str,
) -> tuple[FieldValue, str] | None:
    """The sum of a tax stated once per rate, when net + that sum is the total (see the module docstring)."""
    if net is None or total is None or net.type != "amount" or total.type != "amount":
        return None
    rates = [
        candidate
        for candidate in candidates_for(spec, pairs, context)
        if candidate.pair.scope == "document" and candidate.value is not None and candidate.tier == 1
    ]
    by_line = {candidate.pair.line: candidate for candidate in rates}
    if len(by_line) < 2 or len({candidate.pair.label for candidate in by_line.values()}) < len(by_line):
        return None
    values = [candidate.value for candidate in by_line.values() if candidate.value is not None]
    currencies = {value.currency for value in values if value.currency is not None}
    if len(currencies) > 1:
        return None
    summed = sum((Decimal(value.value) for value in values), Decimal(0))
    if Decimal(net.value) + summed != Decimal(total.value):
        return None
    labels = ", ".join(f"'{value.label}'" for value in values)
    currency = next(iter(currencies), None) or total.currency
    text = " + ".join(value.text for value in values)
    value = FieldValue(
        spec.name, format(summed, "f"), "amount", currency, labels, values[0].method, values[0].line, text
    )
    notice = f"{name}: '{spec.name}' is the sum of the tax stated per rate ({labels}); net plus tax is the total."
    return value, notice


def _loose_text(text: str) -> str:
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip().casefold()


def verified_model_value(text: str, spec: FieldSpec, proposed: str, hint: DecimalSeparator | None) -> FieldValue | None:
    """The model's value if the document states it: an amount among the document's amounts, a day the
    document writes (as an ISO day), text in the text."""
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
    if spec.is_date:
        try:
            day = read_leading_date(proposed, document_date_order(text).order)
        except UnreadableDate:
            return None
        if day is None or _loose_text(day.text) not in _loose_text(text):
            return None
        return FieldValue(spec.name, day.day.isoformat(), "date", None, None, "model", None, day.text)
    cleaned = _clean_text(proposed)
    if cleaned is None or _loose_text(cleaned) not in _loose_text(text):
        return None
    return FieldValue(spec.name, cleaned, "text", None, None, "model", None, cleaned)
