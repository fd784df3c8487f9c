"""What a collection request asks for: object, completeness, period, categories, fields.

``collection_scope("collect all invoices from 2026")`` →
object ``invoice``, complete, period 2026. Deterministic, no model.

Rules (from the specification):

* "All" / "tutte" / "every" and "complete list" / "elenco completo" mean a
  complete collection only when asserted for the requested object ("all
  invoices", "the complete list of bills"); "invoices from all accounts" is
  not a complete collection of invoices.
  Years, possessives, categories and common adjectives may stand between
  the quantifier and the noun ("all my 2026 invoices", "every single
  invoice"); the object may name the whole list ("the complete invoice
  list", "il completo elenco delle fatture").
* Negation and prohibitions never activate it ("don't download all the
  invoices", "non scaricare tutte le fatture", "it is forbidden to…",
  "refrain from…", "è vietato…", "downloading all invoices is prohibited"):
  a lexicon of negating words before the noun in its clause, and of
  prohibition predicates after it.
* The adjective "complete" alone does not define a scope.
* Recognising the request does not establish that every item was found: the
  scope only says what was asked.
* Period and category constraints must refer unambiguously to the same action
  and apply together to every item. Kinds joined in one phrase ("every bill
  and letter dated 2026", "fatture e note di credito del 2026") are one object:
  the constraints apply to each (``also``). When the request names several
  kinds apart ("invoices from 2025 and receipts") or competing periods, no
  constraint is applied and a notice says why.
* A period stated for a field ("with due date in 2026") is a filter on that
  field and does not also get an automatic filter without a field.

:func:`scope_for_step` reads a plan step's shortened request against the
user's own words, so that "all" and the period survive the plan.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from apps.records.dates.periods import Period
from apps.records.dates.reading import DateValue, UnreadableDate, parse_date
from apps.records.objects import joining_phrases, normalised, object_kinds
from apps.records.open_periods import opened, relative_periods
from apps.records.vocabulary import FieldKind, classify_label

CATEGORY_WORDS: dict[str, str] = {
    "electricity": "electricity", "electric": "electricity", "luce": "electricity", "elettricita": "electricity",
    "energia": "electricity", "power": "electricity",
    "gas": "gas", "water": "water", "acqua": "water", "idrico": "water",
    "internet": "internet", "broadband": "internet", "fibra": "internet",
    "phone": "phone", "telefono": "phone", "mobile": "phone", "cellulare": "phone", "telefonia": "phone",
}  # fmt: skip

_QUANTIFIERS_ALL = frozenset({"all", "every", "each", "tutte", "tutti", "ogni", "ciascuna", "ciascun"})
_ARTICLES = frozenset(
    {"the", "my", "our", "your", "their", "his", "her", "its", "these", "those", "of", "le", "i", "gli", "la", "il",
     "mie", "miei", "mia", "mio", "nostre", "nostri", "tue", "tuoi", "vostre", "vostri", "sue", "suoi", "loro",
     "queste", "questi", "delle", "dei", "degli", "della", "del", "di", "lo", "l"}
)  # fmt: skip
# Adjectives that may stand between a quantifier and its noun ("every single
# invoice", "all past bills", "tutte le vecchie bollette") without changing
# what the quantifier refers to.
_ADJECTIVES = frozenset(
    {"single", "individual", "past", "previous", "recent", "old", "older", "new", "electronic", "digital",
     "paper", "monthly", "bimonthly", "quarterly", "annual", "yearly", "paid", "unpaid", "outstanding", "pending",
     "open", "issued", "received", "available", "existing", "remaining", "other",
     "singole", "singoli", "singola", "singolo", "vecchie", "vecchi", "precedenti", "passate", "passati",
     "ultime", "ultimi", "recenti", "nuove", "nuovi", "altre", "altri", "rimanenti", "restanti"}
)  # fmt: skip
# "the complete list of invoices", "l'elenco completo delle bollette", "il completo elenco delle fatture",
# "tutto l'archivio delle fatture": a list said to be whole, leading to the noun that follows.
_COMPLETE_LIST = re.compile(
    r"\b(?:(?:complete|full|whole|entire)\s+(?:list|set|archive|history)\s+of"
    r"|(?:elenco|lista|archivio|storico)\s+(?:completo|completa|intero|intera|integrale)\s+"
    r"(?:di|del|della|delle|dei|degli)"
    r"|(?:completo|completa|intero|intera)\s+(?:elenco|lista|archivio|storico)\s+(?:di|del|della|delle|dei|degli)"
    r"|tutt[oa]\s+(?:l'|il\s+|la\s+|lo\s+)(?:elenco|lista|archivio|storico)\s+(?:di|del|della|delle|dei|degli)"
    r"|(?:l')?(?:elenco|lista)\s+(?:completo|completa))\b"
)
# "the complete invoice list for 2026": the noun inside the whole list's name.
_COMPLETE_NAMED_LIST = re.compile(
    r"\b(?:complete|full|whole|entire)\s+(?P<inside>(?:[\w'\u2013-]+\s+){1,4}?)(?:list|set|archive|history)\b"
)
# "invoices from 2026, all of them": the quantifier refers back to the object.
_ALL_OF_THEM = re.compile(
    r"\b(?:all of them|every one of them|tutte quante|tutti quanti|proprio tutte|proprio tutti)\b"
)
_RELATIVE_YEARS = {
    re.compile(r"\b(?:this year|current year|quest'anno|anno corrente|anno in corso)\b"): 0,
    re.compile(r"\b(?:last year|previous year|l'anno scorso|anno scorso|anno precedente)\b"): -1,
}
# The lexicon of negation and prohibition. Words that negate or forbid the
# action they precede in the same clause ("don't", "it is forbidden to",
# "refrain from", "stop downloading", "è vietato scaricare", "smetti di").
_NEGATIONS = frozenset(
    {"not", "don't", "dont", "never", "non", "mai", "without", "senza", "no", "nothing", "niente", "nessuna",
     "nessun", "nessuno", "neither", "nor", "né", "neanche", "nemmeno", "neppure",
     "avoid", "avoiding", "evita", "evitare", "evitate", "except", "tranne", "eccetto",
     "refrain", "refraining", "stop", "stopping", "cease", "quit", "halt",
     "forbid", "forbids", "forbidden", "prohibit", "prohibits", "prohibited", "banned", "disallowed",
     "divieto", "vietare", "vieta", "proibire", "proibisce", "smetti", "smettere", "smettila", "smettete",
     "astieniti", "astenersi", "astenetevi", "interrompi", "interrompere", "anziché", "anziche"}
)  # fmt: skip
_NEGATION_PHRASES = re.compile(r"\b(?:do not|does not|instead of|rather than|in place of|invece di|al posto di)\b")
# Italian participles forbid in every gender and number: vietato, vietate, proibiti, …
_PROHIBITION_STEMS = ("vietat", "proibit")
# Predicates that forbid the action they follow in the same clause
# ("downloading all invoices is prohibited", "scaricare tutte le fatture è vietato").
_FORBIDDING_AFTER = frozenset({"forbidden", "prohibited", "banned", "disallowed", "verboten"})
_PERMISSION_WORDS = frozenset(
    {"allowed", "permitted", "authorised", "authorized", "possible", "ok", "okay"}
)  # fmt: skip
_PERMISSION_STEMS = ("consentit", "permess", "ammess", "autorizzat")
# Words that leave a kind of item out of what is asked ("leaving out the credit notes", "escluse le note di credito").
_EXCLUDING = frozenset(
    {"exclude", "excluding", "excluded", "skip", "skipping", "ignore", "ignoring", "omit", "omitting",
     "escludi", "escludere", "escludendo", "escluse", "esclusi", "esclusa", "escluso", "ignora", "ignorare", "salta"}
)  # fmt: skip
_EXCLUDING_PHRASES = re.compile(r"\b(?:leave out|leaving out|left out|apart from|other than|a parte|lascia fuori)\b")
_CLAUSE_BREAK = re.compile(r"[.;:!?]|\b(?:but|however|ma|pero|però|then|poi)\b")
_TOKEN = re.compile(r"[\w'\u2019./°\u2013\u2014-]+", re.UNICODE)
_YEAR_IN_TOKEN = re.compile(r"(?:19|20)\d{2}\b")
_NUMBER_TOKEN = re.compile(r"[\d./\u2013\u2014-]*\d[\d./\u2013\u2014-]*")
_MAX_DATE_WINDOW_TOKENS = 9
_FIELD_LIST = re.compile(
    r"\b(?:with|including|columns?|fields?|con|colonne|campi|riportando|indicando)\s*:?\s+(?P<list>[^.;]+)"
)
_FIELD_SPLIT = re.compile(r",|\s+and\s+|\s+e\s+|\s+&\s+|/")
_PERIOD_FIELD_KINDS: frozenset[FieldKind] = frozenset({"issue_date", "due_date", "period"})
_ISSUE_VERBS = re.compile(r"\b(?:issued|emess[aei]|dated|datat[aei])\b")


NEGATED_COMPLETENESS = "the request negates or forbids the complete collection"
_ADDRESS = re.compile(r"(?:\b[a-z][a-z0-9+.-]*://|\bwww\.)\S*", re.IGNORECASE)
# Names the planner may use for one another: websites call an invoice a bill.
_SAME_OBJECT = {"bill": "invoice"}


@dataclass(frozen=True)
class PeriodConstraint:
    """A period every collected item must fall in; ``field`` None means the item's own date."""

    period: Period
    field: FieldKind | None
    text: str


@dataclass(frozen=True)
class CollectionScope:
    object: str | None
    object_text: str
    complete: bool
    completeness_reason: str
    period_filters: tuple[PeriodConstraint, ...]
    categories: tuple[str, ...]
    fields: tuple[str, ...]
    notices: tuple[str, ...]
    # Other kinds asked for together with ``object`` in one phrase ("every bill and letter dated 2026"):
    # the constraints apply to each.
    also: tuple[str, ...] = ()
    # Several kinds named apart ("invoices from 2025 and receipts"): no constraint is applied.
    several: bool = False

    @property
    def kinds(self) -> tuple[str, ...]:
        """Every kind asked for: ``object`` first."""
        return (self.object, *self.also) if self.object else ()


@dataclass(frozen=True)
class _Token:
    text: str
    lower: str
    start: int
    end: int


def _tokens(text: str) -> list[_Token]:
    return [
        _Token(match.group(0), match.group(0).casefold().strip(".'\u2019"), match.start(), match.end())
        for match in _TOKEN.finditer(text)
    ]


def _clause_bounds(text: str, position: int) -> tuple[int, int]:
    start, end = 0, len(text)
    for match in _CLAUSE_BREAK.finditer(text):
        if match.end() <= position:
            start = match.end()
        elif match.start() >= position:
            end = match.start()
            break
    return start, end


def _clause_words(text: str, start: int, end: int) -> tuple[str, list[str]]:
    fragment = text[start:end].casefold().replace("\u2019", "'")
    return fragment, re.findall(r"[\w']+", fragment)


def _negating(fragment: str, words: Sequence[str]) -> bool:
    return (
        any(word in _NEGATIONS or word.startswith(_PROHIBITION_STEMS) for word in words)
        or "n't" in fragment
        or bool(_NEGATION_PHRASES.search(" ".join(words)))
    )


def _forbidding(words: Sequence[str]) -> bool:
    """A prohibition predicate: "is prohibited", "è vietato", "is not allowed", "non è consentito"."""
    for index, word in enumerate(words):
        if word in _FORBIDDING_AFTER or word.startswith(_PROHIBITION_STEMS):
            return True
        if word in {"not", "non", "never", "mai"} or word.endswith("n't"):
            following = words[index + 1 : index + 4]
            if any(w in _PERMISSION_WORDS or w.startswith(_PERMISSION_STEMS) for w in following):
                return True
    return False


# Words that name where the items are, right before a kind: "from my orders", "nei miei ordini".
_SOURCE_WORDS = frozenset(
    {"from", "in", "among", "within", "inside", "of", "da", "dai", "dagli", "dalle", "dal", "nei", "negli", "nelle",
     "nel", "tra", "fra", "dentro", "dei", "degli", "delle"}
)  # fmt: skip
# A kind right before or after these words names a field, not items: "order total", "numero ordine".
_FIELD_WORDS = frozenset(
    {"total", "totals", "number", "no", "date", "amount", "id", "reference", "ref", "value", "status",
     "totale", "numero", "data", "importo", "codice", "stato", "valore", "n"}
)  # fmt: skip


def _a_source(text: str, token: _Token) -> bool:
    """Whether the kind at ``token`` is named as the place the items come from ("invoices from my orders")."""
    before = re.findall(r"[\w']+", text[: token.start].casefold())

    def skip_fillers() -> None:
        while before and before[-1] not in _SOURCE_WORDS and (before[-1] in _ARTICLES or before[-1] in _ADJECTIVES):
            before.pop()

    skip_fillers()
    if len(before) >= 2 and before[-1] not in _SOURCE_WORDS and (before[-2] in _SOURCE_WORDS | _ARTICLES):
        before.pop()  # a name between: "from my GadgetBay orders"
        skip_fillers()
    return bool(before) and before[-1] in _SOURCE_WORDS


def _a_field(text: str, token: _Token) -> bool:
    """Whether the kind at ``token`` names a field of the items ("order total", "numero ordine")."""
    # Only the word right after it ("order total"), not a list of the items' fields ("fatture (numero, data)").
    after = re.findall(r"^\s+([\w']+)", text[token.end :].casefold())[:1]
    before = re.findall(r"[\w']+", text[: token.start].casefold())[-1:]
    return bool(after and after[0] in _FIELD_WORDS and after[0] != "n") or bool(
        before and before[0] in _FIELD_WORDS - {"data", "no"}
    )


def _left_out(text: str, token: _Token) -> bool:
    """Whether the clause of an object's mention negates or excludes it ("credit notes don't count")."""
    fragment, words = _clause_words(text, *_clause_bounds(text, token.start))
    return (
        _negating(fragment, words)
        or any(word in _EXCLUDING for word in words)
        or bool(_EXCLUDING_PHRASES.search(fragment))
    )


def _is_negated(text: str, position: int, end: int | None = None) -> bool:
    """Whether the clause negates or forbids what stands at ``position``.

    Negations and prohibitions before it count ("don't download all", "it is
    forbidden to download all", "refrain from", "è vietato scaricare");
    with ``end``, so do prohibition predicates after it ("downloading all
    invoices is prohibited", "scaricare tutte le fatture non è consentito"),
    but not a bare "not" there ("all invoices not yet paid" is a filter).
    """
    clause_start, clause_end = _clause_bounds(text, position)
    if _negating(*_clause_words(text, clause_start, position)):
        return True
    return end is not None and _forbidding(_clause_words(text, end, max(end, clause_end))[1])


def _find_objects(tokens: Sequence[_Token], lowered: str) -> list[tuple[str, _Token]]:
    """The objects the request names, from the one vocabulary (``apps/records/lexicon/objects.json``).

    The longest phrase wins at each place: "note di credito" is a credit note, not notes.
    """
    found: list[tuple[str, _Token]] = []
    for match in _object_pattern().finditer(lowered):
        kind = _OBJECT_BY_PHRASE[match.group(0)]
        found.append((kind, _Token(match.group(0), match.group(0), match.start(), match.end())))
    return found


@functools.cache
def _object_pattern() -> re.Pattern[str]:
    phrases = sorted(_OBJECT_BY_PHRASE, key=len, reverse=True)
    return re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(phrase) for phrase in phrases) + r")(?![\w'])")


_OBJECT_BY_PHRASE: dict[str, str] = {
    word: kind.name for kind in object_kinds().values() for word in kind.all_words() if len(word) > 2
}


_JOINING_MARKS = frozenset({",", "&", "/"})


def _joined(text: str, first: _Token, second: _Token) -> bool:
    """Whether only joining words ("and", "e", "oppure"), commas, articles and quantifiers stand between two
    kinds: one object of the request ("every bill and letter", "fatture, note di credito e ricevute")."""
    gap = text[first.end : second.start].casefold()
    pieces = re.findall(r"[\w'\u2019]+|[^\w\s]", gap)
    if any(len(piece) == 1 and not piece.isalnum() and piece not in _JOINING_MARKS for piece in pieces):
        return False  # a stop, a bracket, a colon: another part of the request
    words = [normalised(piece) for piece in pieces if piece not in _JOINING_MARKS]
    joined = any(piece in _JOINING_MARKS for piece in pieces)
    index = 0
    while index < len(words):
        phrase = next((p for p in joining_phrases() if tuple(words[index : index + len(p)]) == p), None)
        if phrase is not None:
            joined, index = True, index + len(phrase)
        elif words[index] in _ARTICLES or words[index] in _QUANTIFIERS_ALL:
            index += 1
        else:
            return False
    return joined


def _one_object(text: str, objects: Sequence[tuple[str, _Token]]) -> bool:
    """Whether the kinds the request asks for are named together, each (its first mention) joined to the next."""
    first: dict[str, _Token] = {}
    for kind, token in sorted(objects, key=lambda found: found[1].start):
        first.setdefault(kind, token)
    ordered = list(first.values())
    return all(_joined(text, first, second) for first, second in itertools.pairwise(ordered))


def _is_filler(token: _Token, dated: Collection[int]) -> bool:
    """A word that may stand between a quantifier (or a whole list) and its noun without changing the reference.

    Articles and possessives, categories, adjectives of the lexicon, plain
    numbers and years, and words of a date ("all July 2026 invoices").
    """
    word = token.lower
    return (
        word in _ARTICLES
        or word in CATEGORY_WORDS
        or word in _ADJECTIVES
        or token.start in dated
        or _NUMBER_TOKEN.fullmatch(word) is not None
    )


def _all_asserted_for(tokens: Sequence[_Token], index: int, dated: Collection[int]) -> bool:
    """Does an "all"-like quantifier bind to the noun at ``index`` ("all the invoices", "all my 2026 invoices")?"""
    position = index - 1
    while position >= 0 and _is_filler(tokens[position], dated):
        position -= 1
    return position >= 0 and tokens[position].lower in _QUANTIFIERS_ALL


def _whole_list_of(lowered: str, tokens: Sequence[_Token], noun: _Token, dated: Collection[int]) -> bool:
    """Is the noun the content of a list said to be whole ("the complete list of invoices")?"""
    for match in _COMPLETE_LIST.finditer(lowered):
        # "the complete list of (my 2026) invoices": the list must lead to this noun.
        if match.end() <= noun.start and all(
            _is_filler(token, dated) for token in tokens if match.end() <= token.start < noun.start
        ):
            return True
    for match in _COMPLETE_NAMED_LIST.finditer(lowered):
        # "the complete (2026) invoice list": the noun names the list; "complete the invoice list" is a verb.
        start, end = match.span("inside")
        inside = [token for token in tokens if start <= token.start < end]
        if start <= noun.start < end and all(
            token.start <= noun.start < token.end or (_is_filler(token, dated) and token.lower not in _ARTICLES)
            for token in inside
        ):
            return True
    return False


def _completeness(
    text: str, lowered: str, tokens: Sequence[_Token], noun: _Token, dated: Collection[int]
) -> tuple[bool, str]:
    # The token holding the noun: "every e-document" names a document inside "e-document".
    index = next(i for i, token in enumerate(tokens) if token.start <= noun.start < token.end)
    asserted = _all_asserted_for(tokens, index, dated) or _whole_list_of(lowered, tokens, noun, dated)
    if not asserted:
        _, clause_end = _clause_bounds(text, noun.start)
        asserted = bool(_ALL_OF_THEM.search(lowered, noun.end, max(clause_end, noun.end)))
    if not asserted:
        if re.search(r"\b(complete|completo|completa)\b", lowered):
            return False, "'complete' alone does not define the scope of the collection"
        return False, "no complete collection was asked for"
    if _is_negated(text, noun.start, noun.end):
        return False, NEGATED_COMPLETENESS
    return True, f"a complete collection of {noun.text} was asked for"


def _date_windows(tokens: Sequence[_Token], text: str) -> list[tuple[int, int, DateValue]]:
    """Longest parseable date expression ending at each token that holds a year."""
    spans: list[tuple[int, int, DateValue]] = []
    for end_index, token in enumerate(tokens):
        if not _YEAR_IN_TOKEN.search(token.text):
            continue
        best: tuple[int, int, DateValue] | None = None
        for start_index in range(end_index, max(-1, end_index - _MAX_DATE_WINDOW_TOKENS), -1):
            fragment = text[tokens[start_index].start : token.end]
            try:
                value = parse_date(fragment)
            except UnreadableDate:
                continue
            best = (tokens[start_index].start, token.end, value)
        if best is not None:
            spans.append(best)
    # Drop spans contained in a longer one ("2026" inside "luglio-agosto 2026").
    return [
        span
        for span in spans
        if not any(other is not span and other[0] <= span[0] and span[1] <= other[1] for other in spans)
    ]


def _field_before(text: str, start: int) -> FieldKind | None:
    clause_start, _ = _clause_bounds(text, start)
    words = re.findall(r"[\w']+", text[clause_start:start].casefold())[-4:]
    for width in (2, 1):
        for index in range(len(words) - width, -1, -1):
            kind = classify_label(" ".join(words[index : index + width]))
            if kind in _PERIOD_FIELD_KINDS:
                return kind
    if _ISSUE_VERBS.search(" ".join(words)):
        return "issue_date"
    return None


_BARE_NUMBER_WORDS = frozenset({"number", "numero", "no", "n", "nr", "num", "code", "codice", "id"})


_BRACKETED = re.compile(r"\(([^()]+)\)")


def _bracketed_fields(lowered: str) -> str:
    """A list of fields in brackets ("le fatture (numero, data, totale)"), when every item is a field."""
    for found in _BRACKETED.finditer(lowered):
        fragments = [fragment.strip() for fragment in _FIELD_SPLIT.split(found.group(1)) if fragment.strip()]
        known = [fragment for fragment in fragments if classify_label(fragment) or fragment in _BARE_NUMBER_WORDS]
        if len(fragments) >= 2 and len(known) == len(fragments):
            return found.group(1)
    return ""


def _requested_fields(lowered: str, object_name: str) -> tuple[str, ...]:
    match = _FIELD_LIST.search(lowered)
    listed = match.group("list") if match else ""
    if not listed or "(" in listed:
        # "con tutte le fatture (numero, data, totale)": the fields are the bracket's.
        listed = _bracketed_fields(lowered) or listed
    if not listed:
        return ()
    fields: list[str] = []
    for fragment in _FIELD_SPLIT.split(listed):
        words = fragment.strip().split()
        # Stop at the destination ("... into a spreadsheet").
        for stop in ("into", "in", "nel", "nella", "in un", "to", "su"):
            if stop in words:
                words = words[: words.index(stop)]
        label = " ".join(word for word in words if word not in _ARTICLES).strip()
        if not label or _YEAR_IN_TOKEN.search(label):
            continue
        kind = classify_label(label)
        if label in _BARE_NUMBER_WORDS:
            # "with number, date and amount": the number of the collected item.
            kind = classify_label(f"{label} {object_name}")
        name = kind if kind is not None and kind != "date" else label
        if name not in fields:
            fields.append(name)
    return tuple(fields)


def _relative_periods(text: str, lowered: str, today: dt.date | None, notices: list[str]) -> list[PeriodConstraint]:
    constraints = []
    for pattern, offset in _RELATIVE_YEARS.items():
        for match in pattern.finditer(lowered.replace("\u2019", "'")):
            if today is None:
                notices.append(f"{text[match.start() : match.end()]!r} needs today's date to become a period.")
                continue
            period = Period.year(today.year + offset)
            constraints.append(PeriodConstraint(period, _field_before(text, match.start()), match.group(0)))
    return constraints


# Between two periods asked together: "2025 and 2026", "del 2025 e del 2026", "2024, 2025". Not "or".
_PERIODS_TOGETHER = re.compile(
    r"^\s*(?:,|and|e|ed|&|\+|as well as|oltre al?)\s*"
    r"(?:(?:the|of|from|in|for|del|dal|nel|per il|il)\s+)?(?:year\s+|anno\s+)?$"
)


def _together(text: str, first: PeriodConstraint, second: PeriodConstraint) -> bool:
    start = text.find(first.text)
    end = text.find(second.text, start + len(first.text)) if start >= 0 else -1
    return (
        start >= 0 and end >= 0 and _PERIODS_TOGETHER.match(text[start + len(first.text) : end].casefold()) is not None
    )


def _joined_periods(text: str, periods: list[PeriodConstraint]) -> list[PeriodConstraint]:
    """Periods of the same field asked together that follow one another ("2025 and 2026") as one.

    Periods with gaps between them, or offered as alternatives ("2025 or 2026"), stay apart (and, for
    the same items, apply no filter: the caller says so).
    """
    by_field: dict[FieldKind | None, list[PeriodConstraint]] = {}
    for constraint in periods:
        by_field.setdefault(constraint.field, []).append(constraint)
    joined: list[PeriodConstraint] = []
    for field, group in by_field.items():
        ordered = sorted({c.period: c for c in group}.values(), key=lambda c: (c.period.start, c.period.end))
        contiguous = all(
            later.period.start <= earlier.period.end + dt.timedelta(days=1) and _together(text, earlier, later)
            for earlier, later in itertools.pairwise(ordered)
        )
        if len(ordered) < 2 or not contiguous:
            joined.extend(group)
            continue
        text = f"{ordered[0].text}\u2013{ordered[-1].text}"
        period = Period(ordered[0].period.start, max(c.period.end for c in ordered), text)
        joined.append(PeriodConstraint(period, field, text))
    return joined


def collection_scope(request: str, *, today: dt.date | None = None) -> CollectionScope:
    """Read the scope of a collection request; see the module docstring for the rules.

    ``today`` anchors relative periods ("this year", "l'anno scorso"); without
    it they are reported in the notices and not applied.
    """
    text = request.strip()
    lowered = text.casefold()
    tokens = _tokens(text)
    notices: list[str] = []
    objects = _find_objects(tokens, lowered)
    # "every invoice from my orders": a kind named as where the items are is not one of them.
    objects = [found for found in objects if not _a_source(text, found[1]) and not _a_field(text, found[1])] or objects
    distinct_objects = sorted({name for name, _ in objects})
    if not objects:
        return CollectionScope(None, "", False, "no object to collect was recognised", (), (), (), ())
    # The first kind the request does not leave out is the one asked for ("le fatture; le proforma non
    # sono fatture, lasciale fuori").
    name, noun = next((found for found in objects if not _left_out(text, found[1])), objects[0])
    # A kind the request leaves out is not asked for ("Credit notes don't count", "escluse le note di credito").
    asked = [(kind, token) for kind, token in objects if kind == name or not _left_out(text, token)]
    distinct_objects = sorted({kind for kind, _ in asked})
    several = len(distinct_objects) > 1 and not _one_object(text, asked)
    also = tuple(dict.fromkeys(kind for kind, _ in asked if kind != name)) if not several else ()
    if several:
        notices.append(
            "The request names several kinds of items ("
            + ", ".join(distinct_objects)
            + "); constraints are not applied to any of them."
        )
    windows = _date_windows(tokens, text)
    dated = {token.start for token in tokens for start, end, _ in windows if start <= token.start < end}
    complete, reason = _completeness(text, lowered, tokens, noun, dated)

    periods: list[PeriodConstraint] = []
    for start, end, value in windows:
        if _is_negated(text, start) and not _is_negated(text, noun.start):
            notices.append(f"The period {text[start:end]!r} is negated; it is not used as a filter.")
            continue
        period = Period.from_date_value(value)
        bounded = opened(text, start, end, period, today)  # "since March 2026": March to today
        if bounded is not None:
            periods.append(PeriodConstraint(bounded.period, _field_before(text, bounded.start), bounded.period.label))
        else:
            periods.append(PeriodConstraint(period, _field_before(text, start), text[start:end].rstrip(".,;:")))
    periods.extend(_relative_periods(text, lowered, today, notices))
    relative, relative_notices = relative_periods(text, today)  # "since March", "the last 6 months"
    notices.extend(relative_notices)
    periods.extend(
        PeriodConstraint(found.period, _field_before(text, found.start), found.period.label) for found in relative
    )
    # A field-specific filter for a period replaces the automatic one for the same period.
    with_field = {constraint.period for constraint in periods if constraint.field is not None}
    periods = [c for c in periods if c.field is not None or c.period not in with_field]
    periods = _joined_periods(text, periods)  # "del 2025 e del 2026": one period, the two years
    unique_periods = {(c.period, c.field) for c in periods}
    if len(unique_periods) > 1 and len({c.field for c in periods}) < len(unique_periods):
        notices.append(
            "The request states several periods for the same items ("
            + ", ".join(repr(c.text) for c in periods)
            + "); no period filter is applied until it says which one."
        )
        periods = []
    if several:
        periods = []

    categories = sorted({CATEGORY_WORDS[token.lower] for token in tokens if token.lower in CATEGORY_WORDS})
    if several:
        categories = []
    return CollectionScope(
        object=name,
        object_text=noun.text,
        complete=complete,
        completeness_reason=reason,
        period_filters=tuple(periods),
        categories=tuple(categories),
        fields=_requested_fields(lowered, name),
        notices=tuple(notices),
        also=also,
        several=several,
    )


def scope_for_step(user_text: str, what: str, *, today: dt.date | None = None) -> CollectionScope:
    """The scope of a collection step (its ``what``), checked against the user's own request ``user_text``.

    A plan may shorten the request ("invoices" for "all my invoices from
    2026"). When the user's request is about the same object (an invoice and
    a bill count as one), what it asserts is not lost:

    * completeness asserted by the user holds even if ``what`` drops it;
      a user's negation or prohibition of it wins over an "all" in ``what``
      (prohibitions never activate a complete collection);
    * the user's period filters hold when ``what`` states none, and replace
      a different period in ``what``: the stricter reading, complete with the
      user's period, wins.

    Each correction adds a notice. Without a user request, or when it is
    about another object, the step's own scope stands. Other parts of the
    step's scope (object, categories, fields) are kept as the step states them.
    """
    step = collection_scope(what, today=today)
    if step.object is None or not user_text.strip():
        return step
    # Addresses are not part of the request's wording: a port or a path is no period.
    user = collection_scope(_ADDRESS.sub(" ", user_text), today=today)
    if user.object is None or _SAME_OBJECT.get(user.object, user.object) != _SAME_OBJECT.get(step.object, step.object):
        return step
    notices = list(step.notices)
    complete, reason = step.complete, step.completeness_reason
    if user.complete and not step.complete:
        complete, reason = True, f"the request asked for a complete collection of {user.object_text}"
        notices.append(
            f"The step asks for {what.strip()!r}; the request asked for all the {user.object_text}, "
            "so the collection stays complete."
        )
    elif step.complete and user.completeness_reason == NEGATED_COMPLETENESS:
        complete, reason = False, NEGATED_COMPLETENESS
        notices.append(
            f"The step asks for {what.strip()!r}, but the request negates or forbids a complete collection; "
            "it is not treated as one."
        )
    periods = step.period_filters
    wanted = {(c.period, c.field) for c in user.period_filters}
    if wanted and wanted != {(c.period, c.field) for c in step.period_filters}:
        periods = user.period_filters
        asked = ", ".join(repr(c.text) for c in user.period_filters)
        if step.period_filters:
            stated = ", ".join(repr(c.text) for c in step.period_filters)
            notices.append(f"The step's period {stated} differs from the request's {asked}; the request's applies.")
        else:
            notices.append(f"The step states no period; the request's {asked} applies.")
    return replace(step, complete=complete, completeness_reason=reason, period_filters=periods, notices=tuple(notices))
