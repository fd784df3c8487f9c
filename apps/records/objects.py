"""One vocabulary of the objects people collect, across languages (``lexicon/objects.json``).

Invoices, bills, *fatture* and *bollette* are one kind of document to the
person asking; a credit note is another, even though it cites an invoice.
The request parser, route signals and recognition all read kinds from here,
so a word added to the lexicon is understood everywhere at once.

``object_mentions("tutte le bollette e le note di credito")`` finds the
``invoice`` kind at "bollette" and ``credit_note`` at "note di credito" —
the longest phrase wins, so "note di credito" is never read as "note".
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

LEXICON = Path(__file__).with_name("lexicon") / "objects.json"
LANGUAGES = ("en", "it", "fr", "de", "nl")
_NOT_WORD = re.compile(r"[^\w']+")


def normalised(text: str) -> str:
    """Lower case, no accents, words separated by single spaces (apostrophes kept)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().replace("\u2019", "'"))
    plain = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(_NOT_WORD.sub(" ", plain).split())


@dataclass(frozen=True)
class ObjectKind:
    name: str
    words: Mapping[str, tuple[str, ...]]
    sections: Mapping[str, tuple[str, ...]]
    distinct_from: frozenset[str]
    found_under: tuple[str, ...] = ()
    # Any item is one (documents): never apart from another kind.
    generic: bool = False
    # Kinds an item of this one may also be named as (a receipt listed as a payment).
    compatible_with: frozenset[str] = frozenset()

    def all_words(self) -> tuple[str, ...]:
        return tuple(word for language in self.words for word in self.words[language])

    def all_sections(self) -> tuple[str, ...]:
        return tuple(title for language in self.sections for title in self.sections[language])


@dataclass(frozen=True)
class ObjectMention:
    """A kind named in a text: which, by which words, and where (word offsets in the normalised text)."""

    kind: str
    words: str
    start: int
    end: int


@cache
def object_kinds() -> Mapping[str, ObjectKind]:
    """Every kind of the lexicon, by name."""
    raw = json.loads(LEXICON.read_text(encoding="utf-8"))
    kinds: dict[str, ObjectKind] = {}
    for name, entry in raw["kinds"].items():
        kinds[name] = ObjectKind(
            name=name,
            words={lang: tuple(normalised(word) for word in words) for lang, words in entry["words"].items()},
            sections={lang: tuple(normalised(title) for title in titles) for lang, titles in entry["sections"].items()},
            distinct_from=frozenset(entry.get("distinct_from", ())),
            found_under=tuple(entry.get("found_under", ())),
            generic=bool(entry.get("generic", False)),
            compatible_with=frozenset(entry.get("compatible_with", ())),
        )
    return kinds


@cache
def joining_phrases() -> tuple[tuple[str, ...], ...]:
    """The lexicon's words that join kinds into one object ("bills and letters"), as normalised word
    tuples, longest first."""
    raw = json.loads(LEXICON.read_text(encoding="utf-8")).get("joining", {})
    phrases = {tuple(normalised(word).split()) for language in LANGUAGES for word in raw.get(language, ())}
    return tuple(sorted((phrase for phrase in phrases if phrase), key=lambda phrase: (-len(phrase), phrase)))


@cache
def _phrases() -> tuple[tuple[tuple[str, ...], str], ...]:
    """(words of a phrase, kind), longest phrases first."""
    found = {(tuple(word.split()), kind.name) for kind in object_kinds().values() for word in kind.all_words()}
    return tuple(sorted(found, key=lambda item: (-len(item[0]), item[0])))


def object_mentions(text: str) -> list[ObjectMention]:
    """The kinds ``text`` names, in order, longest phrase first at each place; no overlaps."""
    words = normalised(text).split()
    return mentions_in_words(words)


def mentions_in_words(words: Iterable[str]) -> list[ObjectMention]:
    """:func:`object_mentions` over words already normalised."""
    tokens = list(words)
    taken = [False] * len(tokens)
    found: list[ObjectMention] = []
    for phrase, kind in _phrases():
        size = len(phrase)
        for start in range(len(tokens) - size + 1):
            if tuple(tokens[start : start + size]) == phrase and not any(taken[start : start + size]):
                taken[start : start + size] = [True] * size
                found.append(ObjectMention(kind, " ".join(phrase), start, start + size))
    return sorted(found, key=lambda mention: mention.start)


def words_on_websites(kind: str) -> tuple[str, ...]:
    """Every word and section title a website may name ``kind`` by, in every language (route signals)."""
    kinds = object_kinds()
    found = kinds.get(kind)
    if found is None:
        return ()
    words = [*found.all_words(), *found.all_sections()]
    for other in found.found_under:
        if other in kinds:
            words.extend((*kinds[other].all_words(), *kinds[other].all_sections()))
    return tuple(dict.fromkeys(words))


def sections_of_others(kind: str) -> tuple[str, ...]:
    """The section titles of every other kind: places where ``kind``'s items may also be listed.

    A water bill sits under "Statements & notices", a SaaS invoice under
    "Documents"; a collection looks there when nothing named after the items
    led to them. Titles that name ``kind`` itself are its own sections. Titles are
    :func:`normalised`.
    """
    kinds = object_kinds()
    own = set(words_on_websites(kind))
    # Not the sections of kinds kept under this one's (credit notes among the bills): they hold only those.
    titles = [
        title
        for name, other in kinds.items()
        if name != kind and kind not in other.found_under
        for title in other.all_sections()
    ]
    return tuple(title for title in dict.fromkeys(titles) if title not in own)


def kinds_named(text: str) -> list[str]:
    """The distinct kinds ``text`` names, in the order first named."""
    seen: list[str] = []
    for mention in object_mentions(text):
        if mention.kind not in seen:
            seen.append(mention.kind)
    return seen


def kinds_apart(wanted: str, other: str) -> bool:
    """Whether a request for ``wanted`` must never take an ``other`` (a credit note for an invoice).

    Two different kinds are apart, unless either is generic (a document) or one is compatible with the
    other (a receipt listed as a payment).
    """
    kinds = object_kinds()
    first, second = kinds.get(wanted), kinds.get(other)
    if first is None or second is None or wanted == other or first.generic or second.generic:
        return False
    return other not in first.compatible_with and wanted not in second.compatible_with


def section_kind(title: str) -> str | None:
    """The kind a section title ("Billing history", "Tutte le bollette") is the home of, if one."""
    plain = normalised(title)
    for kind in object_kinds().values():
        if plain in kind.all_sections():
            return kind.name
    mentions = object_mentions(title)
    return mentions[0].kind if len(mentions) == 1 else None
