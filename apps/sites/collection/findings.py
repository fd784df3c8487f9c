"""What a collection observed, kept as read until it is delivered.

Every read of a page is its own :class:`~apps.records.rows.Source`, even
when the same page is read again; a detail view is linked to the list row
it was opened from only through an :class:`~apps.records.identity.results.ObservedLink`
(the navigation actually observed). Why the exploration stopped, if it
stopped early, is one :class:`CollectionStop` with a closed-set reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from apps.records.identity.codes import identifier_field_codes
from apps.records.identity.results import ObservedLink
from apps.records.rows import Source
from apps.sites.collection.budget import LimitName
from apps.sites.collection.documents import DocumentProblem, SavedDocument

StopReason = Literal[
    "actions",
    "active_time",
    "navigation_refused",
    "navigation_failed",
    "session_ended",
    "challenge",
    "page_blocked",
    "unreadable",
    "no_route",
    "route_choice_failed",
    "recognition_failed",
]
LIMIT_REASONS: frozenset[str] = frozenset({"actions", "active_time"})
MAX_SOURCE_TITLE_CHARS = 60


@dataclass(frozen=True)
class CollectionStop:
    """Why the exploration ended before running out of routes; ``detail`` is a closed-set word."""

    reason: StopReason
    detail: str = ""


def identifier_codes(value: object) -> frozenset[str]:
    """The codes an identifier cell shows, compared without case (the records layer's reading)."""
    return frozenset(key for key, _ in identifier_field_codes(value))


@dataclass
class Findings:
    """The observations of one collection, in reading order."""

    sources: list[Source] = field(default_factory=list)
    links: dict[str, list[ObservedLink]] = field(default_factory=dict)
    details: dict[str, Source] = field(default_factory=dict)
    documents: list[SavedDocument] = field(default_factory=list)
    document_problems: list[DocumentProblem] = field(default_factory=list)
    # Items the exploration knows it left unread, as sentences for the user.
    left_unread: list[str] = field(default_factory=list)
    limits_met: set[LimitName] = field(default_factory=set)
    stop: CollectionStop | None = None
    expected_total: int | None = None
    # The pages that stated ``expected_total``: the total is borne out by their own list only.
    total_pages: list[str] = field(default_factory=list)
    pages_read: int = 0
    diagnostics: Counter[str] = field(default_factory=Counter)
    # Reads whose rows a model recognised in the page text (unverified), and the values it gave
    # that the text did not bear out (dropped).
    recognised: set[str] = field(default_factory=set)
    recognition_dropped: int = 0
    # Requests sent to cloud tiers during this collection (route choice and recognition).
    cloud_requests: int = 0
    _reads: int = 0
    # rows_of's index: the rows read under each identifier's codes, and the sources indexed.
    _by_codes: dict[frozenset[str], list[Mapping[str, object]]] = field(default_factory=dict, repr=False)
    _coded: dict[str, Source] = field(default_factory=dict, repr=False)

    def source_id(self, title: str) -> str:
        """A new id for one read of a page: every read is distinct, even of the same page."""
        self._reads += 1
        shown = " ".join(title.split())[:MAX_SOURCE_TITLE_CHARS] or "page"
        return f"read {self._reads} ({shown})"

    def add_list(self, source: Source) -> None:
        self.sources.append(source)
        self.links.setdefault(source.id, [])

    def add_detail(self, source: Source, *, list_source: str | None, row_index: int | None) -> None:
        self.details[source.id] = source
        if list_source is not None and row_index is not None:
            self.links.setdefault(list_source, []).append(ObservedLink(row_index, source.id))
        else:
            self.sources.append(source)

    def link_detail(self, list_source: str, row_index: int, detail_source: str) -> None:
        """Link one more list row to a detail already read (its control leads to the same page)."""
        self.links.setdefault(list_source, []).append(ObservedLink(row_index, detail_source))

    def linked(self, list_source: str, row_index: int) -> bool:
        """Whether the row already has a detail linked to it."""
        return any(link.row_index == row_index for link in self.links.get(list_source, ()))

    def rows_of(self, codes: frozenset[str]) -> list[Mapping[str, object]]:
        """Every row read so far whose identifier shows exactly ``codes`` (``INV-20-005`` is not ``INV-200-05``)."""
        if not codes:
            return []
        # Each source's identifiers are read once (a collection asks for every detail it meets).
        for source in (*self.sources, *self.details.values()):
            if self._coded.get(source.id) is not source:
                self._coded[source.id] = source
                for row in source.rows:
                    self._by_codes.setdefault(identifier_codes(row.get("identifier_number")), []).append(row)
        return list(self._by_codes.get(codes, ()))

    def row_count(self) -> int:
        return sum(len(source.rows) for source in self.sources) + sum(
            len(source.rows) for source in self.details.values()
        )

    def note_expected_total(self, total: int | None, page: str = "") -> None:
        """A total the page at ``page`` states; the largest one is kept, with the pages that state it."""
        if total is None:
            return
        if self.expected_total is None or total > self.expected_total:
            self.expected_total = total
            self.total_pages = []
        if total == self.expected_total and page:
            self.total_pages.append(page)
