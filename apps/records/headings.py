"""Spreadsheet headings and the extracted fields they show.

Headings are labels, separate from extracted keys. ``resolve_columns`` decides
which field each heading shows:

1. an explicit binding (heading → field) always wins, and may request a field
   that no schema declares;
2. otherwise the heading matches a field by exact name, then by a unique match
   ignoring case and surrounding spaces, then by a unique match ignoring
   punctuation and accents, then by a unique field of the same vocabulary kind
   ("Importo" → ``amount``). Several matches at a step are an error naming the
   candidates — never the first one;
3. with a declared schema, headings add no field: a heading that matches none
   gives an empty column and a notice; without a schema, headings define it
   (unmatched headings become fields to extract).

Field discovery covers every row, so a collision that first appears in the last
rows is still a collision, and a field present but empty still gives a column.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from apps.records.rows import Row
from apps.records.vocabulary import classify_label


class AmbiguousHeading(ValueError):
    """A heading matches several fields at the same step."""

    def __init__(self, heading: str, candidates: Iterable[str], step: str) -> None:
        self.heading = heading
        self.candidates = tuple(candidates)
        self.step = step
        super().__init__(
            f"heading {heading!r} could show several fields ({step}): "
            + ", ".join(repr(name) for name in self.candidates)
            + "; bind it to one explicitly"
        )


class InvalidHeadings(ValueError):
    """Headings that cannot form a sheet (empty or repeated labels, bad bindings)."""


@dataclass(frozen=True)
class Column:
    heading: str
    key: str | None  # None: an empty column (the heading matches no field)


@dataclass(frozen=True)
class ColumnPlan:
    columns: tuple[Column, ...]
    # Fields the extractor must also produce (bindings and schema-less headings).
    requested_fields: tuple[str, ...] = ()
    notices: tuple[str, ...] = field(default_factory=tuple)


_PUNCTUATION = re.compile(r"[\W_]+", re.UNICODE)


def _loose(text: str) -> str:
    return text.strip().casefold()


def _bare(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    without_accents = "".join(char for char in decomposed if not unicodedata.combining(char))
    return _PUNCTUATION.sub(" ", without_accents.casefold()).strip()


def discover_fields(rows: Iterable[Row]) -> list[str]:
    """Every key of every row, in first-seen order."""
    seen: dict[str, None] = {}
    for row in rows:
        for key in row:
            seen.setdefault(key, None)
    return list(seen)


def _unique(heading: str, matches: list[str], step: str) -> str | None:
    if len(matches) > 1:
        raise AmbiguousHeading(heading, matches, step)
    return matches[0] if matches else None


def match_heading(heading: str, fields: Sequence[str]) -> str | None:
    """The one field ``heading`` shows, None if none; AmbiguousHeading if several."""
    if heading in fields:
        return heading
    loose = _loose(heading)
    found = _unique(heading, [name for name in fields if _loose(name) == loose], "ignoring case and spaces")
    if found is not None:
        return found
    bare = _bare(heading)
    found = _unique(heading, [name for name in fields if _bare(name) == bare], "ignoring punctuation and accents")
    if found is not None:
        return found
    kind = classify_label(heading)
    if kind is None or kind == "date":
        # A bare "Date" is not allowed to pick an issue or a due date.
        return None
    return _unique(heading, [name for name in fields if classify_label(name) == kind], f"same kind: {kind}")


def resolve_columns(
    rows: Sequence[Row],
    headings: Sequence[str] | None = None,
    *,
    schema: Sequence[str] | None = None,
    bindings: Mapping[str, str] | None = None,
) -> ColumnPlan:
    """Decide the sheet's columns; see the module docstring for the rules."""
    bindings = dict(bindings or {})
    discovered = discover_fields(rows)
    fields = list(schema) if schema is not None else discovered
    if headings is None:
        if bindings:
            raise InvalidHeadings("bindings need headings to bind")
        return ColumnPlan(columns=tuple(Column(heading=name, key=name) for name in fields))

    labels = [heading.strip() for heading in headings]
    if any(not label for label in labels):
        raise InvalidHeadings("a heading is empty")
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise InvalidHeadings("headings repeat: " + ", ".join(repr(label) for label in repeated))
    unknown = sorted(set(bindings) - set(labels))
    if unknown:
        raise InvalidHeadings("bindings name headings that are not in the sheet: " + ", ".join(map(repr, unknown)))

    columns: list[Column] = []
    requested: list[str] = []
    notices: list[str] = []
    for label in labels:
        if label in bindings:
            bound = bindings[label]
            if bound not in fields:
                requested.append(bound)
            columns.append(Column(heading=label, key=bound))
            continue
        key = match_heading(label, fields)
        if key is None and schema is None:
            # Without a schema, headings define the fields to extract.
            requested.append(label)
            key = label
        if key is None:
            notices.append(f"Column {label!r} matches no extracted field and is left empty.")
        columns.append(Column(heading=label, key=key))
    return ColumnPlan(columns=tuple(columns), requested_fields=tuple(requested), notices=tuple(notices))
