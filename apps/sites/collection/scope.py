"""What a collection looks for, read from the request with the records layer.

:func:`collection_plan` turns the request ("all invoices from 2026 with
number, due date and amount") into a :class:`CollectionPlan`: the scope
from :func:`apps.records.scope.collection_scope` (object, completeness,
period filters, requested fields), the words that name the object on a
website, and the fields each item needs before its detail view can be
skipped. Recognising the request establishes only what was asked, never
that every item was found.

The records layer reads period and category constraints; the payment
status a request asks for ("unpaid invoices", "le bollette da pagare") is
read here, as :attr:`CollectionPlan.statuses`, with the same reserve: a
request naming several kinds of items, both statuses, or a negated status
("except paid ones") gets no status constraint, and a notice says why.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from apps.records.objects import normalised, sections_of_others, words_on_websites
from apps.records.scope import CollectionScope, collection_scope
from apps.records.vocabulary import classify_label
from apps.sites.observation.lexicon import lexicon

# Fields an item needs when the request names none: without one of them a
# list row is completed from its detail view, if it has one.
DEFAULT_ITEM_FIELDS: tuple[tuple[str, ...], ...] = (
    ("identifier_number",),
    ("issue_date", "date", "period"),
    ("amount",),
)


def _alternatives(name: str) -> tuple[str, ...]:
    """The row fields that answer a requested field: a bare "date" / "data" is the item's own date,
    whichever of its dates the page shows (issued, or the period it covers)."""
    if name == "date" or classify_label(name) == "date":
        return DEFAULT_ITEM_FIELDS[1]
    return (name,)


# Payment statuses a request can ask for. "Not paid" is read before "paid", which it contains.
_UNPAID_WORDS = re.compile(
    r"\b(?:unpaid|not\s+(?:yet\s+)?paid|outstanding|to\s+be\s+paid|non\s+(?:ancora\s+)?(?:pagat|saldat)[aeio]"
    r"|da\s+pagare|insolut[aeio])\b"
)
_PAID_WORDS = re.compile(r"\b(?:paid|settled|pagat[aeio]|saldat[aeio])\b")
_STATUS_NEGATIONS = re.compile(
    r"\b(?:except|excluding|without|but\s+not|no|tranne|eccetto|escluse|esclusi|senza|non)\s+(?:the\s+|le\s+|i\s+)?$"
)


def requested_statuses(request: str, *, several_objects: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The payment status the request asks every item to have (``("unpaid",)``), and notices about it."""
    lowered = " ".join(request.casefold().split())
    found = {"unpaid"} if _UNPAID_WORDS.search(lowered) else set()
    rest = _UNPAID_WORDS.sub(" ", lowered)
    for match in _PAID_WORDS.finditer(rest):
        if _STATUS_NEGATIONS.search(rest[: match.start()]):
            return (), (f"The status {match.group(0)!r} is negated in the request; no status filter is applied.",)
        found.add("paid")
    if not found:
        return (), ()
    if several_objects:
        return (), ()  # the records layer already says that constraints are not applied
    if len(found) > 1:
        return (), ("The request names both paid and unpaid items; no status filter is applied.",)
    return tuple(found), ()


@dataclass(frozen=True)
class CollectionPlan:
    """The scope of one collection and what the explorer needs from it."""

    request: str
    scope: CollectionScope
    object_words: tuple[str, ...]
    item_fields: tuple[tuple[str, ...], ...]
    save_documents: bool
    # The payment status every item must have ("paid" or "unpaid"); empty when the request names none.
    statuses: tuple[str, ...] = ()
    status_notices: tuple[str, ...] = ()
    # Section titles of other kinds of items: where these may be listed too ("Statements & notices").
    container_words: tuple[str, ...] = ()
    # The words that qualify the object in the request ("council tax" bills, estratti conto "carta di credito").
    qualifier: str = ""

    @property
    def complete(self) -> bool:
        return self.scope.complete

    def missing_fields(self, values: dict[str, object]) -> tuple[str, ...]:
        """The needed fields a row does not show (each as its first alternative)."""
        return tuple(options[0] for options in self.item_fields if not any(values.get(option) for option in options))


def collection_plan(
    request: str, *, today: dt.date | None = None, fields: tuple[str, ...] = (), save_documents: bool = False
) -> CollectionPlan:
    """The plan for ``request``; ``fields`` adds fields named outside the sentence (a manifest argument)."""
    scope = collection_scope(request, today=today)
    # How websites name the object, from the one vocabulary of objects (apps/records/lexicon/objects.json).
    # Every kind asked for together ("every bill and letter") names its places.
    words = tuple(dict.fromkeys(word for kind in scope.kinds for word in words_on_websites(kind)))
    if scope.object and scope.object_text.casefold() not in words:
        words = (*words, scope.object_text.casefold())
    named = tuple(dict.fromkeys((*scope.fields, *fields)))
    item_fields = tuple(_alternatives(name) for name in named) if named else DEFAULT_ITEM_FIELDS
    # The records layer applies no constraint to a request naming several kinds of items apart and says so.
    statuses, status_notices = requested_statuses(request, several_objects=scope.several)
    own = set(words)
    containers = tuple(
        title for title in (sections_of_others(scope.object) if scope.object else ()) if title not in own
    )
    qualifier = qualifier_of(request, scope.object_text, words) if scope.object else ""
    return CollectionPlan(
        request, scope, words, item_fields, save_documents, statuses, status_notices, containers, qualifier
    )


def qualifier_of(request: str, object_text: str, object_words: tuple[str, ...] = ()) -> str:
    """The words that qualify the object in ``request``: before it ("every council tax bill") or, in
    Italian, after a linking word ("gli estratti conto della carta di credito"); "" when none.

    The words come from the collection lexicon (``qualifier_stops``, ``qualifier_links``).
    """
    words, noun = normalised(request).split(), normalised(object_text).split()
    starts = [i for i in range(len(words) - len(noun) + 1) if noun and words[i : i + len(noun)] == noun]
    if not starts:
        return ""
    stops = {normalised(word) for word in lexicon("collection").get("qualifier_stops", ())}
    stops |= {normalised(word) for word in object_words}

    def qualifying(word: str) -> bool:
        return word not in stops and not any(char.isdigit() for char in word) and len(word) > 1

    start = starts[0]
    before: list[str] = []
    for word in reversed(words[max(0, start - 3) : start]):
        if not qualifying(word):
            break
        before.insert(0, word)
    if before:
        return " ".join(before) if len(" ".join(before)) >= 3 else ""
    after = start + len(noun)
    links = sorted((normalised(link).split() for link in lexicon("collection").get("qualifier_links", ())), key=len)
    for link in reversed(links):
        if words[after : after + len(link)] == link:
            found: list[str] = []
            joining = {word for phrase in links for word in phrase}
            for word in words[after + len(link) : after + len(link) + 4]:
                if not qualifying(word) and not (found and word in joining):
                    break
                found.append(word)  # "carta di credito": a linking word inside the qualifier
            while found and found[-1] in joining:
                found.pop()
            return " ".join(found) if len(" ".join(found)) >= 3 else ""
    return ""
