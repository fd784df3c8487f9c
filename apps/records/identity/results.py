"""The result types of row identity, and its one bound.

``merge_rows`` (:mod:`apps.records.identity.rows`) and ``merge_list_and_detail``
(:mod:`apps.records.identity.links`) return them; their rules are stated there.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Literal

from apps.records.rows import CellValue, Row, Source

# Rows compared through one shared field value, at most. A value shared by
# more rows (a status, a busy issue date) distinguishes little, and comparing
# all its rows pairwise would make the possible-duplicate search quadratic.
MAX_ROWS_PER_SHARED_VALUE = 32

Origin = tuple[str, int]
"""An observation: ``(source id, row index within that source)``."""


@dataclass(frozen=True, slots=True)
class ObservedLink:
    """Navigation actually observed from list row ``row_index`` to the detail view read as ``detail_source_id``."""

    row_index: int
    detail_source_id: str


@dataclass(frozen=True, slots=True)
class MergedRow:
    """One output row; ``origins[0]`` is the observation whose values take precedence.

    ``note`` states the merge in words (empty for a row read once); a
    spreadsheet writes it in its Note column.
    """

    values: dict[str, CellValue]
    origins: tuple[Origin, ...]
    note: str = ""

    @property
    def merged(self) -> bool:
        """True when the row stands for more than one observation."""
        return len(self.origins) > 1


# The slot descriptors of MergedRow, which its generated __init__ writes through too.
_SET_VALUES, _SET_ORIGINS, _SET_NOTE = (getattr(MergedRow, name).__set__ for name in ("values", "origins", "note"))
_consume: Callable[[Iterable[object]], None] = deque[object](maxlen=0).extend  # runs an iterator to its end


def rows_read_once(values: Sequence[dict[str, CellValue]], origins: Iterable[tuple[Origin, ...]]) -> list[MergedRow]:
    """``MergedRow(v, o)`` for each pair: rows that stand for one observation, without a note.

    Built as the dataclass's own ``__init__`` builds them, slot by slot, but
    without a Python-level call per row: a merge outputs tens of thousands.
    """
    rows: list[MergedRow] = list(map(object.__new__, repeat(MergedRow, len(values))))
    _consume(map(_SET_VALUES, rows, values))
    _consume(map(_SET_ORIGINS, rows, origins))
    _consume(map(_SET_NOTE, rows, repeat("")))
    return rows


@dataclass(frozen=True, slots=True)
class PossibleDuplicate:
    """Two observations kept separate that may be the same item, and why they were not merged."""

    a: Origin
    b: Origin
    reason: str


@dataclass(frozen=True, slots=True)
class UnmergedLink:
    """An observed list-to-detail link that did not merge its two views, and why."""

    row_index: int
    detail_source_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class CommonValue:
    """A field value shared by more than :data:`MAX_ROWS_PER_SHARED_VALUE` rows, not used to seek duplicates."""

    field: str
    value: str
    rows: int


@dataclass(frozen=True, slots=True)
class MergeResult:
    """The rows after merging, what was kept apart, and a sentence for the chat.

    ``rows`` follow the reading order (sources as given, rows as read);
    ``merged_count`` counts the output rows that stand for more than one
    observation; ``observation(origin)`` gives back any original row unchanged.
    """

    rows: tuple[MergedRow, ...]
    possible_duplicates: tuple[PossibleDuplicate, ...]
    merged_count: int
    input_count: int
    source_count: int
    common_values: tuple[CommonValue, ...] = ()
    unmerged_links: tuple[UnmergedLink, ...] = ()
    basis: Literal["identifier", "link"] = "identifier"
    observations: Mapping[str, Source] = field(default_factory=dict, repr=False, compare=False)

    def observation(self, origin: Origin) -> Row:
        """The original row read at ``origin``, unchanged."""
        source_id, index = origin
        return self.observations[source_id].rows[index]

    def message(self) -> str:
        """A chat-ready summary: merges, possible duplicates, unmerged links, and any bound that applied."""
        parts: list[str] = []
        if self.merged_count and self.basis == "link":
            parts.append(f"{_count(self.merged_count, 'list row')} completed with the detail view (observed link)")
        elif self.merged_count:
            observations = sum(len(row.origins) for row in self.rows if row.merged)
            parts.append(f"{observations} rows merged into {self.merged_count} (same identifier on different pages)")
        else:
            parts.append(f"{_count(self.input_count, 'row')} from {_count(self.source_count, 'source')}, none merged")
        if self.possible_duplicates:
            parts.append(f"{_count(len(self.possible_duplicates), 'possible duplicate')} kept separate")
        if self.unmerged_links:
            reasons = sorted({link.reason for link in self.unmerged_links})
            parts.append(f"{_count(len(self.unmerged_links), 'link')} not merged ({'; '.join(reasons)})")
        if self.common_values:
            fields = sorted({value.field for value in self.common_values})
            shown = ", ".join(fields[:4]) + (", …" if len(fields) > 4 else "")
            parts.append(
                f"possible duplicates not sought through {_count(len(self.common_values), 'value')} "
                f"shared by more than {MAX_ROWS_PER_SHARED_VALUE} rows ({shown})"
            )
        return "; ".join(parts)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def sources_by_id(sources: Sequence[Source]) -> dict[str, Source]:
    """Sources keyed by id; two reads sharing an id are refused, since merges cite sources by id."""
    by_id: dict[str, Source] = {}
    for source in sources:
        if source.id in by_id:
            raise ValueError(f"two sources share the id {source.id!r}; every read needs its own id")
        by_id[source.id] = source
    return by_id
