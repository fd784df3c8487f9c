"""The shared field vocabulary: what a label or key means, in Italian and English.

``classify_label("Totale da pagare")`` → ``"amount"``; ``classify_label("due_date")``
→ ``"due_date"``. Deterministic, no model call, independent of field order.

Rules that matter:

* Identifier numbers stay distinct from counts: "N. fattura" and "Rif.
  fattura" are identifiers, "N. fatture: 3", "No. of bills", "Number of
  invoices" and "Totale fatture" / "Total invoices" are counts (a total
  of documents counts them unless it names an amount: "Importo totale
  fatture" is an amount).
* Issue dates and due dates are different kinds; a bare "Date"/"Data" is a
  generic ``date``, never silently one of them.
* :func:`vocabulary_map` never picks between competing fields: two fields of
  the same kind need an explicit binding, otherwise asking for that kind
  raises :class:`CompetingFields` naming the candidates.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal, get_args

FieldKind = Literal[
    "identifier_number",
    "count",
    "amount",
    "status",
    "issue_date",
    "due_date",
    "date",
    "period",
    "supplier",
    "supply_identifier",
]
FIELD_KINDS: tuple[FieldKind, ...] = get_args(FieldKind)

# Words that mark "number of" in a label: "N.", "N°", "Nr", "No.", "Num.", "#".
_NUMBER_MARKERS = frozenset({"n", "no", "nr", "num", "numero", "number", "#", "nº", "n°"})
_DOCUMENT_NOUNS_SINGULAR = frozenset(
    {"fattura", "bolletta", "documento", "doc", "nota", "ricevuta", "invoice", "bill", "document", "receipt"}
)
_DOCUMENT_NOUNS_PLURAL = frozenset(
    {"fatture", "bollette", "documenti", "note", "ricevute", "invoices", "bills", "documents", "receipts", "items"}
)
# "No. of bills", "N. di bollette": the word between a marker and its noun.
_OF_WORDS = frozenset({"of", "di", "dei", "delle", "degli", "de"})
# "Total invoices", "Totale fatture": a total of documents counts them.
_TOTAL_WORDS = frozenset({"total", "totale", "totali", "tot"})
# "Rif. fattura", "Invoice ref.": a reference beside a document noun is its identifier.
_REFERENCE_MARKERS = frozenset({"rif", "ref", "riferimento", "reference"})
_PERIOD_WORDS = frozenset({"period", "periodo", "periodi", "periods"})

# Phrases per kind, already normalised (lower case, no accents, no punctuation).
# Order matters only within _classify: due dates are tested before issue dates
# because "data scadenza" also contains "data".
_PHRASES: dict[FieldKind, tuple[str, ...]] = {
    "count": (
        "numero di",
        "number of",
        "quantita",
        "count",
        "conteggio",
    ),
    "due_date": (
        "scadenza",
        "data scadenza",
        "data di scadenza",
        "scade il",
        "da pagare entro",
        "pagare entro",
        "due date",
        "date due",
        "payment due",
        "due by",
        "pay by",
        "due",
        "due on",
        "expiry date",
    ),
    "issue_date": (
        "data emissione",
        "data di emissione",
        "emessa il",
        "emissione",
        "data fattura",
        "data documento",
        "data bolletta",
        "issue date",
        "date of issue",
        "issued on",
        "issued",
        "invoice date",
        "bill date",
        "document date",
        "date issued",
    ),
    "period": (
        "periodo",
        "periodo di riferimento",
        "periodo fatturazione",
        "periodo di fatturazione",
        "competenza",
        "billing period",
        "service period",
        "period",
        "billing cycle",
    ),
    "amount": (
        "importo",
        "totale",
        "totale da pagare",
        "importo da pagare",
        "importo totale",
        "totale fattura",
        "totale bolletta",
        "da pagare",
        "amount",
        "amount due",
        "total",
        "total due",
        "total amount",
        "balance due",
        "grand total",
        "price",
        "prezzo",
        "costo",
        "cost",
    ),
    "status": (
        "stato",
        "stato pagamento",
        "stato fattura",
        "esito",
        "status",
        "payment status",
        "state",
    ),
    "supplier": (
        "fornitore",
        "emittente",
        "venditore",
        "ragione sociale fornitore",
        "supplier",
        "vendor",
        "seller",
        "issuer",
        "provider",
    ),
    "supply_identifier": (
        "pod",
        "pdr",
        "codice pod",
        "codice pdr",
        "punto di prelievo",
        "punto di riconsegna",
        "codice fornitura",
        "supply point",
        "meter point",
        "supply number",
        "mpan",
        "mprn",
        "meter number",
        "matricola contatore",
    ),
    "identifier_number": (
        "codice fattura",
        "id fattura",
        "riferimento fattura",
        "protocollo",
        "invoice id",
        "bill id",
        "document id",
        "reference",
        "ref",
        "rif",
        "invoice code",
    ),
    "date": ("data", "date", "giorno", "day"),
}

# "Amount due" is an amount, "Data scadenza" a date: amount words win unless a
# date word is present too.
_AMOUNT_WORDS = frozenset({"importo", "totale", "total", "amount", "balance", "prezzo", "price", "costo", "cost"})
_DATE_WORDS = frozenset({"data", "date", "scadenza", "scade", "entro", "giorno", "day", "emissione"})

_PUNCTUATION = re.compile(r"[^\w#°º\s]+", re.UNICODE)
_SPACES = re.compile(r"\s+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def normalise_label(label: str) -> str:
    """Lower case, no accents, underscores and punctuation as spaces, single spaces."""
    text = _CAMEL.sub(" ", label)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(char for char in text if not unicodedata.combining(char))
    text = text.casefold().replace("_", " ").replace("-", " ")
    # "N.", "n°" and "nº" keep their marker; other punctuation becomes a space.
    text = text.replace("n°", "n ").replace("nº", "n ")
    text = _PUNCTUATION.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


def _words(normalised: str) -> tuple[str, ...]:
    return tuple(normalised.split(" ")) if normalised else ()


def _contains_phrase(words: tuple[str, ...], phrase: str) -> bool:
    target = tuple(phrase.split(" "))
    width = len(target)
    return any(words[index : index + width] == target for index in range(len(words) - width + 1))


def _plural_noun_follows(words: tuple[str, ...], index: int) -> bool:
    """Whether a plural document noun follows ``words[index]``, maybe after "of"/"di"."""
    rest = words[index + 1 : index + 3]
    if rest and rest[0] in _OF_WORDS:
        rest = rest[1:]
    return bool(rest) and rest[0] in _DOCUMENT_NOUNS_PLURAL


def _is_count(words: tuple[str, ...]) -> bool:
    if any(_contains_phrase(words, phrase) for phrase in _PHRASES["count"]):
        return True
    names_an_amount = bool((_AMOUNT_WORDS - _TOTAL_WORDS).intersection(words))
    # "N. fatture", "# invoices", "No. of bills": a number marker before a plural document noun;
    # "Totale fatture", "Total invoices": a total of documents, unless an amount is named ("Importo totale fatture").
    return any(
        (word in _NUMBER_MARKERS or (word in _TOTAL_WORDS and not names_an_amount))
        and _plural_noun_follows(words, index)
        for index, word in enumerate(words)
    )


def _is_identifier(words: tuple[str, ...]) -> bool:
    # "Reference period" / "Periodo di riferimento" is a period, not a reference number.
    if any(_contains_phrase(words, phrase) for phrase in _PHRASES["identifier_number"]) and not (
        _PERIOD_WORDS.intersection(words)
    ):
        return True
    # "Numero fattura", "N. documento", "Invoice no.", "invoice number", "invoice #", "Rif. fattura".
    for index, word in enumerate(words):
        if word in _NUMBER_MARKERS or word in _REFERENCE_MARKERS:
            neighbours = words[index + 1 : index + 2] + words[max(0, index - 1) : index]
            if any(neighbour in _DOCUMENT_NOUNS_SINGULAR for neighbour in neighbours):
                return True
    return False


@lru_cache(maxsize=4096)
def classify_label(label: str) -> FieldKind | None:
    """The kind of field a label or key names, or None when the vocabulary has no opinion."""
    words = _words(normalise_label(label))
    if not words:
        return None
    if _is_count(words):
        return "count"
    if _is_identifier(words):
        return "identifier_number"
    if _AMOUNT_WORDS.intersection(words) and not _DATE_WORDS.intersection(words):
        return "amount"
    for kind in ("due_date", "issue_date", "period", "supply_identifier", "status", "supplier", "amount"):
        if any(_contains_phrase(words, phrase) for phrase in _PHRASES[kind]):
            return kind
    if any(_contains_phrase(words, phrase) for phrase in _PHRASES["date"]):
        return "date"
    return None


class CompetingFields(LookupError):
    """Several fields have the same kind and no binding says which one is meant."""

    def __init__(self, kind: FieldKind, candidates: Iterable[str]) -> None:
        self.kind = kind
        self.candidates = tuple(candidates)
        super().__init__(
            f"several fields could be the {kind.replace('_', ' ')}: "
            + ", ".join(repr(name) for name in self.candidates)
            + "; bind one explicitly"
        )


class UnknownBinding(LookupError):
    """A binding names a field that is not among the observed fields."""


@dataclass(frozen=True)
class VocabularyMap:
    """Which observed fields carry which kind, plus explicit bindings."""

    by_kind: Mapping[FieldKind, tuple[str, ...]]
    bindings: Mapping[FieldKind, str] = field(default_factory=dict)

    def field_for(self, kind: FieldKind) -> str | None:
        """The single field of ``kind``; None if there is none; CompetingFields if several."""
        if kind in self.bindings:
            return self.bindings[kind]
        candidates = self.by_kind.get(kind, ())
        if len(candidates) > 1:
            raise CompetingFields(kind, candidates)
        return candidates[0] if candidates else None


def vocabulary_map(fields: Iterable[str], *, bindings: Mapping[FieldKind, str] | None = None) -> VocabularyMap:
    """Classify every field; sorted candidates make the result independent of field order."""
    names = sorted(set(fields))
    by_kind: dict[FieldKind, list[str]] = {}
    for name in names:
        kind = classify_label(name)
        if kind is not None:
            by_kind.setdefault(kind, []).append(name)
    for kind, bound in (bindings or {}).items():
        if bound not in names:
            raise UnknownBinding(f"binding for {kind} names {bound!r}, which is not an observed field")
    return VocabularyMap(
        by_kind={kind: tuple(candidates) for kind, candidates in by_kind.items()}, bindings=dict(bindings or {})
    )
