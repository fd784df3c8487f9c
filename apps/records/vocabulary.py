"""The shared field vocabulary: what a label or key means, in Italian, English, French, German and Dutch.

``classify_label("Totale da pagare")`` → ``"amount"``; ``classify_label("Rechnungsdatum")``
→ ``"issue_date"``; ``classify_label("due_date")`` → ``"due_date"``. Deterministic, no
model call, independent of field order.

The words live in an updatable lexicon, ``lexicon/fields.json``: for each *sense* (an
invoice's own number, a reference to another document, a grand total, a balance after
payments, a net amount, a tax, an order number, a customer number, a VAT ID, a delivery
date, an amount paid, change…) the labels that name it, per language. A label is
compared language by language, after that language's normalisation (lower case, accents
folded, punctuation as spaces, the language's own replacements); the longest phrase
found in it decides its sense (:func:`label_sense`), ties going to the sense listed
first. Senses that mark another field nearby have no kind: "Kundennummer", "P.IVA",
"Change due" and "Amount paid" answer no requested field.

Rules that matter:

* Identifier numbers stay distinct from counts: "N. fattura" and "Rif.
  fattura" are identifiers, "N. fatture: 3", "No. of bills", "Number of
  invoices" and "Totale fatture" / "Total invoices" are counts (a total
  of documents counts them unless it names an amount: "Importo totale
  fatture" is an amount).
* Issue dates and due dates are different kinds; a bare "Date"/"Data"/"Datum" is a
  generic ``date``, never silently one of them.
* Net and tax amounts have kinds of their own (``net_amount``, ``tax_amount``):
  "Imponibile", "Total HT", "Nettobetrag", "Subtotaal"; "IVA 22%", "MwSt.", "TVA", "BTW",
  "GST".
* :func:`vocabulary_map` never picks between competing fields: two fields of
  the same kind need an explicit binding, otherwise asking for that kind
  raises :class:`CompetingFields` naming the candidates.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal, get_args

FieldKind = Literal[
    "identifier_number",
    "count",
    "amount",
    "net_amount",
    "tax_amount",
    "status",
    "issue_date",
    "due_date",
    "date",
    "period",
    "supplier",
    "supply_identifier",
]
FIELD_KINDS: tuple[FieldKind, ...] = get_args(FieldKind)

LEXICON = Path(__file__).with_name("lexicon") / "fields.json"

# Words that mark "number of" in a label: "N.", "N°", "Nr", "No.", "Num.", "#".
NUMBER_MARKERS = frozenset({"n", "no", "nr", "num", "numero", "number", "#", "nº", "n°", "nummer"})
# "No. of bills", "N. di bollette": the word between a marker and its noun.
_OF_WORDS = frozenset({"of", "di", "dei", "delle", "degli", "de", "des"})
# "Total invoices", "Totale fatture": a total of documents counts them.
_TOTAL_WORDS = frozenset({"total", "totale", "totali", "tot"})
_PERIOD_WORDS = frozenset({"period", "periodo", "periodi", "periods"})
_COUNT_PHRASES = ("numero di", "number of", "quantita", "count", "conteggio")
# "Amount due" is an amount, "Data scadenza" a date: amount words win unless a date word is present too.
_AMOUNT_WORDS = frozenset({"importo", "totale", "total", "amount", "balance", "prezzo", "price", "costo", "cost"})
_DATE_WORDS = frozenset({"data", "date", "scadenza", "scade", "entro", "giorno", "day", "emissione"})
# Words that never count against a label's coverage: numbers, rates and currencies ("IVA 22%", "SUMME EUR").
_NEUTRAL_WORD = re.compile(r"^(?:[0-9]+|eur|euro|usd|gbp|chf|inr|rs|jpy|x|@)$")

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


# --- The lexicon ----------------------------------------------------------------------


@dataclass(frozen=True)
class LabelSense:
    """What a label names according to the lexicon.

    ``sense`` is the lexicon's sense ("document_number", "reference", "grand_total",
    "balance_due", "net", "tax", "customer_number", "change"…), ``kind`` the field kind
    it answers (None for the words that mark another field), ``group`` the rank group of
    an amount sense, ``phrase`` the lexicon's words found and ``language`` theirs.
    ``uncovered`` counts the label's words that no phrase of the lexicon covers (numbers,
    rates and currency codes aside): "Invoice No." has none, "Storno parziale della
    fattura n." has three, so only the first is a label on its own.
    """

    sense: str
    kind: FieldKind | None
    group: str | None
    phrase: str
    language: str
    uncovered: int


@dataclass(frozen=True)
class _Sense:
    name: str
    kind: FieldKind | None
    group: str | None
    order: int


@dataclass(frozen=True)
class FieldLexicon:
    """The lexicon as read: phrase tables per language and the word lists around fields."""

    languages: tuple[str, ...]
    replacements: Mapping[str, Mapping[str, str]]
    senses: Mapping[str, _Sense]
    phrases: Mapping[str, Mapping[tuple[str, ...], str]]  # language -> words -> sense
    longest: int
    lists: Mapping[str, tuple[str, ...]]  # name -> normalised phrases of every language

    def normalised(self, text: str, language: str) -> str:
        """``text`` in ``language``'s normalisation (its replacements, then :func:`normalise_label`)."""
        lowered = text.casefold()
        for old, new in self.replacements.get(language, {}).items():
            lowered = lowered.replace(old, new)
        return normalise_label(lowered)

    def sense_phrases(self, sense: str) -> tuple[str, ...]:
        """The normalised phrases of one sense, in every language, longest first."""
        found = {" ".join(words) for table in self.phrases.values() for words, name in table.items() if name == sense}
        return tuple(sorted(found, key=lambda phrase: (-len(phrase), phrase)))

    def phrases_of(self, name: str) -> tuple[str, ...]:
        """The normalised phrases of a word list ("addressee", "company_of", "due_words"…), longest first."""
        return self.lists.get(name, ())


def _words_by_language(raw: Mapping[str, object]) -> dict[str, list[str]]:
    return {language: [str(word) for word in words] for language, words in raw.items() if isinstance(words, list)}


@cache
def field_lexicon() -> FieldLexicon:
    """``lexicon/fields.json``, read once (see the module docstring)."""
    raw = json.loads(LEXICON.read_text(encoding="utf-8"))
    languages = tuple(raw["languages"])
    replacements = {language: dict(raw.get("normalisation", {}).get(language, {})) for language in languages}
    lexicon = FieldLexicon(languages, replacements, {}, {}, 0, {})
    senses: dict[str, _Sense] = {}
    phrases: dict[str, dict[tuple[str, ...], str]] = {language: {} for language in languages}
    for order, (name, entry) in enumerate(raw["senses"].items()):
        kind = entry.get("kind")
        if kind is not None and kind not in FIELD_KINDS:
            raise ValueError(f"fields.json: sense {name!r} names an unknown kind {kind!r}")
        senses[name] = _Sense(name, kind, entry.get("group"), order)
        for language, words in _words_by_language(entry["words"]).items():
            for word in words:
                key = tuple(lexicon.normalised(word, language).split())
                if key:
                    phrases.setdefault(language, {}).setdefault(key, name)
    lists: dict[str, tuple[str, ...]] = {}
    named = {
        "addressee": raw.get("addressee", {}),
        "company_of": raw.get("company_of", {}),
        "due_words": raw.get("due_in_text", {}).get("words", {}),
        "before_date": raw.get("due_in_text", {}).get("before_date", {}),
        "date_fillers": raw.get("date_fillers", {}),
        "base_words": raw.get("base_words", {}),
        "credit_note_titles": raw.get("credit_note_titles", {}),
        "document_nouns": raw.get("document_nouns", {}),
        "document_nouns_plural": raw.get("document_nouns_plural", {}),
        "reference_markers": raw.get("reference_markers", {}),
    }
    for list_name, by_language in named.items():
        found = {
            lexicon.normalised(word, language)
            for language, words in _words_by_language(by_language).items()
            for word in words
        }
        lists[list_name] = tuple(sorted((word for word in found if word), key=lambda word: (-len(word), word)))
    longest = max((len(key) for table in phrases.values() for key in table), default=1)
    return FieldLexicon(languages, replacements, senses, phrases, longest, lists)


@lru_cache(maxsize=8192)
def label_sense(label: str) -> LabelSense | None:
    """The sense of ``label`` by the lexicon (the longest phrase found in it), or None."""
    lexicon = field_lexicon()
    best: tuple[int, int, int] | None = None
    chosen: LabelSense | None = None
    covered: set[int] = set()
    word_count = 0
    neutral: set[int] = set()
    for rank, language in enumerate(lexicon.languages):
        words = tuple(lexicon.normalised(label, language).split())
        word_count = max(word_count, len(words))
        neutral |= {index for index, word in enumerate(words) if _NEUTRAL_WORD.match(word)}
        table = lexicon.phrases.get(language, {})
        for start in range(len(words)):
            for width in range(min(lexicon.longest, len(words) - start), 0, -1):
                name = table.get(words[start : start + width])
                if name is None:
                    continue
                covered.update(range(start, start + width))
                sense = lexicon.senses[name]
                key = (-width, sense.order, rank)
                if best is None or key < best:
                    best = key
                    chosen = LabelSense(name, sense.kind, sense.group, " ".join(words[start : start + width]),
                                        language, 0)  # fmt: skip
    if chosen is None:
        return None
    uncovered = sum(1 for index in range(word_count) if index not in covered and index not in neutral)
    return LabelSense(chosen.sense, chosen.kind, chosen.group, chosen.phrase, chosen.language, uncovered)


# --- Classifying ------------------------------------------------------------------------


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
    return bool(rest) and rest[0] in _document_nouns(plural=True)


@cache
def _document_nouns(*, plural: bool) -> frozenset[str]:
    """The lexicon's document nouns ("fattura", "cedolino", "statement"), singular or plural."""
    return frozenset(field_lexicon().phrases_of("document_nouns_plural" if plural else "document_nouns"))


@cache
def _reference_markers() -> frozenset[str]:
    """The lexicon's words that mark a reference ("Rif. fattura", "Invoice ref.", "Codice avviso")."""
    return frozenset(field_lexicon().phrases_of("reference_markers"))


def _is_count(words: tuple[str, ...]) -> bool:
    if any(_contains_phrase(words, phrase) for phrase in _COUNT_PHRASES):
        return True
    names_an_amount = bool((_AMOUNT_WORDS - _TOTAL_WORDS).intersection(words))
    # "N. fatture", "# invoices", "No. of bills": a number marker before a plural document noun;
    # "Totale fatture", "Total invoices": a total of documents, unless an amount is named ("Importo totale fatture").
    return any(
        (word in NUMBER_MARKERS or (word in _TOTAL_WORDS and not names_an_amount))
        and _plural_noun_follows(words, index)
        for index, word in enumerate(words)
    )


def _is_identifier(words: tuple[str, ...]) -> bool:
    # "Numero fattura", "N. documento", "Invoice no.", "invoice number", "invoice #", "Rif. fattura".
    if _PERIOD_WORDS.intersection(words):
        return False
    for index, word in enumerate(words):
        if word in NUMBER_MARKERS or word in _reference_markers():
            neighbours = words[index + 1 : index + 2] + words[max(0, index - 1) : index]
            if any(neighbour in _document_nouns(plural=False) for neighbour in neighbours):
                return True
    return False


@lru_cache(maxsize=4096)
def classify_label(label: str) -> FieldKind | None:
    """The kind of field a label or key names, or None when the vocabulary has no opinion.

    Counts first (a number of documents is never an identifier), then the lexicon's
    sense (:func:`label_sense`; a sense that marks another field — a customer number, a
    VAT ID, change — is None), then the structural rules: a number marker beside a
    document noun is an identifier ("Nr. bolletta"), an amount word without a date word an
    amount.
    """
    words = _words(normalise_label(label))
    if not words:
        return None
    if _is_count(words):
        return "count"
    sense = label_sense(label)
    if sense is not None:
        return sense.kind
    if _is_identifier(words):
        return "identifier_number"
    if _AMOUNT_WORDS.intersection(words) and not _DATE_WORDS.intersection(words):
        return "amount"
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
